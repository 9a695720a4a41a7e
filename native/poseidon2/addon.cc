// N-API bindings (plain C API from node_api.h) for the Poseidon2 hash.
//
//   permute(state: bigint[4]): bigint[4]
//   hash(inputs: bigint[]): bigint
//   hashBatch(input: Uint8Array, width: number, output?: Uint8Array): Uint8Array
//       input holds n groups of `width` 32-byte big-endian field elements (n * width * 32 bytes);
//       output receives the n hashes as 32-byte big-endian values (n * 32 bytes). Every input is
//       range-checked before anything is written. The output may alias the input as long as it
//       starts at or before the input (so a Merkle level can be hashed in place).
//   hashBatchFields(inputs: bigint[], width: number): bigint[]
//       the same, for groups of bigints laid out one after the other.
//   path(): 'adx' | 'portable'
//       which field multiplication is in use (see poseidon2.h); both give identical results.
//   supportedPaths(): string[]
//       ['portable'], plus 'adx' when the CPU has BMI2 and ADX.
//   setPath(path: 'adx' | 'portable' | 'auto'): 'adx' | 'portable'
//       selects the path for the whole process ('auto': adx where supported); returns the path now
//       in use. Asking for 'adx' where it is not supported throws an Error.
//
// When the addon is first loaded in a process, CAIRN_POSEIDON2_PATH (adx, portable or auto; unset
// means auto) selects the path; an unknown value, or adx where it is not supported, makes loading
// fail.
//
// Values that are not field elements (negative or >= p) raise a RangeError, non-bigints a TypeError.
#ifndef NAPI_VERSION
#define NAPI_VERSION 8
#endif
#include <node_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "poseidon2.h"

namespace {

using cairn::Fr;

const size_t kMaxWidth = 1u << 20;

void ThrowRange(napi_env env, const char* msg) { napi_throw_range_error(env, "ERR_OUT_OF_RANGE", msg); }
void ThrowType(napi_env env, const char* msg) { napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", msg); }

// Reads the bigint field element `input <index>`. Returns false after throwing a JS error.
bool ReadField(napi_env env, napi_value value, Fr* out, uint32_t index) {
  int sign = 0;
  size_t count = 4;
  uint64_t words[4] = {0, 0, 0, 0};
  if (napi_get_value_bigint_words(env, value, &sign, &count, words) != napi_ok) {
    char msg[128];
    snprintf(msg, sizeof msg, "input %u must be a bigint", index);
    ThrowType(env, msg);
    return false;
  }
  if (sign != 0 || count > 4 || !cairn::FrFromWords(words, out)) {
    char msg[128];
    snprintf(msg, sizeof msg, "input %u is not a field element (must be >= 0 and < the BN254 scalar field modulus)",
             index);
    ThrowRange(env, msg);
    return false;
  }
  return true;
}

bool MakeBigint(napi_env env, const Fr& value, napi_value* out) {
  uint64_t words[4];
  cairn::FrToWords(value, words);
  return napi_create_bigint_words(env, 0, 4, words, out) == napi_ok;
}

// Reads a JS array of bigints into `out`.
bool ReadFieldArray(napi_env env, napi_value array, std::vector<Fr>* out) {
  bool is_array = false;
  napi_is_array(env, array, &is_array);
  if (!is_array) {
    ThrowType(env, "expected an array of bigints");
    return false;
  }
  uint32_t length = 0;
  napi_get_array_length(env, array, &length);
  out->resize(length);
  for (uint32_t i = 0; i < length; i++) {
    napi_value element;
    if (napi_get_element(env, array, i, &element) != napi_ok) return false;
    if (!ReadField(env, element, &(*out)[i], i)) return false;
  }
  return true;
}

bool ReadWidth(napi_env env, napi_value value, size_t* width) {
  double w = 0;
  if (napi_get_value_double(env, value, &w) != napi_ok) {
    ThrowType(env, "width must be a number");
    return false;
  }
  if (!(w >= 1 && w <= (double)kMaxWidth) || w != (double)(size_t)w) {
    ThrowRange(env, "width must be an integer between 1 and 2^20");
    return false;
  }
  *width = (size_t)w;
  return true;
}

bool GetUint8Array(napi_env env, napi_value value, uint8_t** data, size_t* length, const char* what) {
  bool is_typed = false;
  napi_is_typedarray(env, value, &is_typed);
  napi_typedarray_type type;
  void* ptr = nullptr;
  if (is_typed) napi_get_typedarray_info(env, value, &type, length, &ptr, nullptr, nullptr);
  if (!is_typed || type != napi_uint8_array) {
    char msg[96];
    snprintf(msg, sizeof msg, "%s must be a Uint8Array", what);
    ThrowType(env, msg);
    return false;
  }
  *data = static_cast<uint8_t*>(ptr);
  return true;
}

napi_value Permute(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 1) {
    ThrowType(env, "permute(state) needs a state");
    return nullptr;
  }
  std::vector<Fr> state;
  if (!ReadFieldArray(env, argv[0], &state)) return nullptr;
  if (state.size() != 4) {
    ThrowRange(env, "the Poseidon2 state has exactly 4 elements");
    return nullptr;
  }
  cairn::Poseidon2Permute(state.data());
  napi_value result;
  napi_create_array_with_length(env, 4, &result);
  for (uint32_t i = 0; i < 4; i++) {
    napi_value v;
    if (!MakeBigint(env, state[i], &v)) return nullptr;
    napi_set_element(env, result, i, v);
  }
  return result;
}

napi_value Hash(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 1) {
    ThrowType(env, "hash(inputs) needs an array");
    return nullptr;
  }
  bool is_array = false;
  napi_is_array(env, argv[0], &is_array);
  if (!is_array) {
    ThrowType(env, "expected an array of bigints");
    return nullptr;
  }
  uint32_t length = 0;
  napi_get_array_length(env, argv[0], &length);
  // Small inputs (the common case) stay on the stack.
  Fr small[16];
  std::vector<Fr> large;
  Fr* fields = small;
  if (length > 16) {
    large.resize(length);
    fields = large.data();
  }
  for (uint32_t i = 0; i < length; i++) {
    napi_value element;
    if (napi_get_element(env, argv[0], i, &element) != napi_ok) return nullptr;
    if (!ReadField(env, element, &fields[i], i)) return nullptr;
  }
  napi_value result;
  if (!MakeBigint(env, cairn::Poseidon2Hash(fields, length), &result)) return nullptr;
  return result;
}

napi_value HashBatch(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 2) {
    ThrowType(env, "hashBatch(input, width, output?) needs input and width");
    return nullptr;
  }
  uint8_t* input = nullptr;
  size_t input_length = 0;
  if (!GetUint8Array(env, argv[0], &input, &input_length, "input")) return nullptr;
  size_t width = 0;
  if (!ReadWidth(env, argv[1], &width)) return nullptr;
  const size_t group_bytes = width * 32;
  if (input_length % group_bytes != 0) {
    ThrowRange(env, "input length must be a multiple of width * 32 bytes");
    return nullptr;
  }
  const size_t n = input_length / group_bytes;

  napi_value output_value = nullptr;
  uint8_t* output = nullptr;
  napi_valuetype out_type = napi_undefined;
  if (argc >= 3) napi_typeof(env, argv[2], &out_type);
  if (out_type != napi_undefined && out_type != napi_null) {
    size_t output_length = 0;
    if (!GetUint8Array(env, argv[2], &output, &output_length, "output")) return nullptr;
    if (output_length < n * 32) {
      ThrowRange(env, "output is too short (needs 32 bytes per hash)");
      return nullptr;
    }
    output_value = argv[2];
  }

  // Validate every input before writing anything.
  for (size_t k = 0; k < n * width; k++) {
    uint64_t words[4];
    const uint8_t* p = input + k * 32;
    for (int limb = 0; limb < 4; limb++) {
      uint64_t x = 0;
      for (int i = 0; i < 8; i++) x = (x << 8) | p[(3 - limb) * 8 + i];
      words[limb] = x;
    }
    if (!cairn::IsCanonical(words)) {
      char msg[160];
      snprintf(msg, sizeof msg, "input element %zu (group %zu) is not a field element (must be < the BN254 scalar field modulus)",
               k, k / width);
      ThrowRange(env, msg);
      return nullptr;
    }
  }

  if (output_value == nullptr) {
    napi_value buffer;
    void* data = nullptr;
    if (napi_create_arraybuffer(env, n * 32, &data, &buffer) != napi_ok) return nullptr;
    if (napi_create_typedarray(env, napi_uint8_array, n * 32, buffer, 0, &output_value) != napi_ok) return nullptr;
    output = static_cast<uint8_t*>(data);
  }

  Fr small[16];
  std::vector<Fr> large;
  Fr* fields = small;
  if (width > 16) {
    large.resize(width);
    fields = large.data();
  }
  for (size_t g = 0; g < n; g++) {
    const uint8_t* group = input + g * group_bytes;
    for (size_t k = 0; k < width; k++) cairn::FrFromBytesBE(group + k * 32, &fields[k]);
    // Inputs of group g are fully read before its output is written.
    cairn::FrToBytesBE(cairn::Poseidon2Hash(fields, width), output + g * 32);
  }
  return output_value;
}

napi_value HashBatchFields(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 2) {
    ThrowType(env, "hashBatchFields(inputs, width) needs inputs and width");
    return nullptr;
  }
  size_t width = 0;
  if (!ReadWidth(env, argv[1], &width)) return nullptr;
  std::vector<Fr> fields;
  if (!ReadFieldArray(env, argv[0], &fields)) return nullptr;
  if (fields.size() % width != 0) {
    ThrowRange(env, "the number of inputs must be a multiple of width");
    return nullptr;
  }
  const size_t n = fields.size() / width;
  napi_value result;
  napi_create_array_with_length(env, n, &result);
  for (size_t g = 0; g < n; g++) {
    napi_value v;
    if (!MakeBigint(env, cairn::Poseidon2Hash(fields.data() + g * width, width), &v)) return nullptr;
    napi_set_element(env, result, (uint32_t)g, v);
  }
  return result;
}

const char* PathName(cairn::Poseidon2Path path) {
  return path == cairn::Poseidon2Path::kAdx ? "adx" : "portable";
}

napi_value MakeString(napi_env env, const char* s) {
  napi_value v = nullptr;
  napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v);
  return v;
}

// Applies a path name (adx, portable or auto). Returns nullptr on success, else an error message.
const char* ApplyPath(const std::string& name) {
  if (name == "auto") {
    cairn::Poseidon2SetPath(cairn::Poseidon2AdxSupported() ? cairn::Poseidon2Path::kAdx
                                                           : cairn::Poseidon2Path::kPortable);
    return nullptr;
  }
  if (name == "portable") {
    cairn::Poseidon2SetPath(cairn::Poseidon2Path::kPortable);
    return nullptr;
  }
  if (name == "adx") {
    if (!cairn::Poseidon2SetPath(cairn::Poseidon2Path::kAdx)) {
      return "the adx Poseidon2 path needs an x86-64 CPU with BMI2 and ADX, which this one is not";
    }
    return nullptr;
  }
  return "the Poseidon2 path must be \"adx\", \"portable\" or \"auto\"";
}

napi_value Path(napi_env env, napi_callback_info) { return MakeString(env, PathName(cairn::Poseidon2GetPath())); }

napi_value SupportedPaths(napi_env env, napi_callback_info) {
  napi_value result;
  napi_create_array(env, &result);
  napi_set_element(env, result, 0, MakeString(env, "portable"));
  if (cairn::Poseidon2AdxSupported()) napi_set_element(env, result, 1, MakeString(env, "adx"));
  return result;
}

napi_value SetPath(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  char buf[16];
  size_t len = 0;
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], buf, sizeof buf, &len) != napi_ok) {
    ThrowType(env, "setPath(path) needs a string: \"adx\", \"portable\" or \"auto\"");
    return nullptr;
  }
  const std::string name(buf, len);
  if (const char* error = ApplyPath(name)) {
    if (name == "adx") {
      napi_throw_error(env, "ERR_POSEIDON2_PATH_UNSUPPORTED", error);
    } else {
      ThrowRange(env, error);
    }
    return nullptr;
  }
  return MakeString(env, PathName(cairn::Poseidon2GetPath()));
}

napi_value Init(napi_env env, napi_value exports) {
  // CAIRN_POSEIDON2_PATH is applied once per process (the addon is initialised again in every
  // worker thread that loads it, and must not undo a setPath made since).
  static std::once_flag env_applied;
  static const char* env_error = nullptr;
  std::call_once(env_applied, [] {
    const char* value = std::getenv("CAIRN_POSEIDON2_PATH");
    if (value != nullptr && value[0] != '\0') env_error = ApplyPath(value);
  });
  if (env_error != nullptr) {
    std::string msg = std::string("CAIRN_POSEIDON2_PATH: ") + env_error;
    napi_throw_error(env, "ERR_POSEIDON2_PATH", msg.c_str());
    return nullptr;
  }
  const napi_property_descriptor props[] = {
      {"permute", nullptr, Permute, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"hash", nullptr, Hash, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"hashBatch", nullptr, HashBatch, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"hashBatchFields", nullptr, HashBatchFields, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"path", nullptr, Path, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"supportedPaths", nullptr, SupportedPaths, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"setPath", nullptr, SetPath, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
