{
  "targets": [
    {
      "target_name": "poseidon2",
      "sources": [
        "native/poseidon2/addon.cc",
        "native/poseidon2/poseidon2.cc"
      ],
      "include_dirs": ["native/poseidon2"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-O3"],
      "cflags_cc": ["-O3", "-std=gnu++17"],
      "cflags!": ["-O2"],
      "cflags_cc!": ["-O2"],
      "xcode_settings": {
        "GCC_OPTIMIZATION_LEVEL": "3",
        "CLANG_CXX_LANGUAGE_STANDARD": "gnu++17"
      },
      "msvs_settings": {
        "VCCLCompilerTool": { "Optimization": 2 }
      }
    }
  ]
}
