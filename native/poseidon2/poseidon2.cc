#include "poseidon2.h"

#include <atomic>

#include "constants.h"
#include "fr_adx.h"

#if CAIRN_HAVE_ADX
#include <cpuid.h>
#endif

namespace cairn {
namespace {

struct Params {
  Fr r2;  // 2^512 mod p, for conversion into Montgomery form
  Fr full_rc[8][4];
  Fr partial_rc[56];
  Fr diag[4];
};

// Parses "0x" + 64 hex digits into canonical little-endian limbs.
void ParseHex(const char* hex, uint64_t out[4]) {
  const char* digits = hex + 2;
  for (int limb = 0; limb < 4; limb++) {
    uint64_t w = 0;
    // Limb 3 is the first 16 digits.
    const char* p = digits + (3 - limb) * 16;
    for (int i = 0; i < 16; i++) {
      const char c = p[i];
      uint64_t d;
      if (c >= '0' && c <= '9') {
        d = (uint64_t)(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = (uint64_t)(c - 'a' + 10);
      } else {
        d = (uint64_t)(c - 'A' + 10);
      }
      w = (w << 4) | d;
    }
    out[limb] = w;
  }
}

Fr ToMont(const uint64_t canonical[4], const Fr& r2) {
  Fr a;
  for (int i = 0; i < 4; i++) a.v[i] = canonical[i];
  return Mul(a, r2);
}

Params BuildParams() {
  Params p;
  // r2 = 2^512 mod p by repeated doubling of 1 (Add keeps values reduced).
  Fr x = {{1, 0, 0, 0}};
  for (int i = 0; i < 512; i++) x = Add(x, x);
  p.r2 = x;
  uint64_t w[4];
  for (int r = 0; r < 8; r++) {
    for (int i = 0; i < 4; i++) {
      ParseHex(kFullRoundConstantsHex[r][i], w);
      p.full_rc[r][i] = ToMont(w, p.r2);
    }
  }
  for (int r = 0; r < 56; r++) {
    ParseHex(kPartialRoundConstantsHex[r], w);
    p.partial_rc[r] = ToMont(w, p.r2);
  }
  for (int i = 0; i < 4; i++) {
    ParseHex(kInternalDiagonalHex[i], w);
    p.diag[i] = ToMont(w, p.r2);
  }
  return p;
}

// Initialised once, thread-safely, on first use.
const Params& GetParams() {
  static const Params params = BuildParams();
  return params;
}

// The permutation, written once over a field-operations policy `F` (static MulLazy and
// SquareLazy). Every intermediate value is lazily reduced, in [0, 2p) (see fr.h); the round
// constants and the diagonal are canonical (< p).
#define CAIRN_ALWAYS_INLINE inline __attribute__((always_inline))

template <class F>
CAIRN_ALWAYS_INLINE Fr Pow5(const Fr& x) {
  const Fr x2 = F::SquareLazy(x);
  const Fr x4 = F::SquareLazy(x2);
  return F::MulLazy(x4, x);
}

// External matrix M_E = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]], evaluated with additions only.
CAIRN_ALWAYS_INLINE void ExternalLayer(Fr s[4]) {
  const Fr a = AddLazy(s[0], s[1]);                  // s0 + s1
  const Fr b = AddLazy(s[2], s[3]);                  // s2 + s3
  const Fr c = AddLazy(AddLazy(s[1], s[1]), b);      // 2 s1 + s2 + s3
  const Fr d = AddLazy(AddLazy(s[3], s[3]), a);      // s0 + s1 + 2 s3
  const Fr b2 = AddLazy(b, b);
  const Fr e = AddLazy(AddLazy(b2, b2), d);          // s0 + s1 + 4 s2 + 6 s3
  const Fr a2 = AddLazy(a, a);
  const Fr f = AddLazy(AddLazy(a2, a2), c);          // 4 s0 + 6 s1 + s2 + s3
  s[0] = AddLazy(d, f);                              // 5 s0 + 7 s1 + s2 + 3 s3
  s[1] = f;
  s[2] = AddLazy(c, e);                              // s0 + 3 s1 + 5 s2 + 7 s3
  s[3] = e;
}

template <class F>
CAIRN_ALWAYS_INLINE void FullRound(Fr s[4], const Fr rc[4]) {
  for (int i = 0; i < 4; i++) s[i] = Pow5<F>(AddLazy(s[i], rc[i]));
  ExternalLayer(s);
}

// Partial round: the S-box on s0 only, then the internal matrix M_I = diag(D) + all-ones,
// s_i <- D_i s_i + sum(s): one sum, four products by the diagonal, four additions.
template <class F>
CAIRN_ALWAYS_INLINE void PartialRound(Fr s[4], const Fr& rc, const Fr diag[4]) {
  s[0] = Pow5<F>(AddLazy(s[0], rc));
  const Fr sum = AddLazy(AddLazy(s[0], s[1]), AddLazy(s[2], s[3]));
  for (int i = 0; i < 4; i++) s[i] = AddLazy(F::MulLazy(s[i], diag[i]), sum);
}

template <class F>
CAIRN_ALWAYS_INLINE void PermuteWith(Fr s[4]) {
  const Params& p = GetParams();
  ExternalLayer(s);
  for (int r = 0; r < 4; r++) FullRound<F>(s, p.full_rc[r]);
  for (int r = 0; r < 56; r++) PartialRound<F>(s, p.partial_rc[r], p.diag);
  for (int r = 4; r < 8; r++) FullRound<F>(s, p.full_rc[r]);
  // Back to canonical values (each is below 2p).
  for (int i = 0; i < 4; i++) ReduceOnce(s[i].v, s[i].v);
}

struct PortableOps {
  static CAIRN_ALWAYS_INLINE Fr MulLazy(const Fr& a, const Fr& b) { return cairn::MulLazy(a, b); }
  static CAIRN_ALWAYS_INLINE Fr SquareLazy(const Fr& a) { return cairn::SquareLazy(a); }
};

void PermutePortable(Fr s[4]) { PermuteWith<PortableOps>(s); }

#if CAIRN_HAVE_ADX
struct AdxOps {
  static CAIRN_ALWAYS_INLINE Fr MulLazy(const Fr& a, const Fr& b) { return MulLazyAdx(a, b); }
  static CAIRN_ALWAYS_INLINE Fr SquareLazy(const Fr& a) { return SquareLazyAdx(a); }
};

// The target attribute lets the compiler use BMI2/ADX in the code around the assembly too; this
// function is only called once CPUID has reported both.
__attribute__((target("bmi2,adx"))) void PermuteAdx(Fr s[4]) { PermuteWith<AdxOps>(s); }

bool DetectAdx() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const bool bmi2 = (ebx >> 8) & 1;
  const bool adx = (ebx >> 19) & 1;
  return bmi2 && adx;
}
#else
void PermuteAdx(Fr s[4]) { PermutePortable(s); }
bool DetectAdx() { return false; }
#endif

bool AdxSupported() {
  static const bool supported = DetectAdx();
  return supported;
}

// 0: not chosen yet, 1: portable, 2: adx.
std::atomic<int> g_path{0};

int CurrentPath() {
  int path = g_path.load(std::memory_order_relaxed);
  if (path == 0) {
    path = AdxSupported() ? 2 : 1;
    g_path.store(path, std::memory_order_relaxed);
  }
  return path;
}

}  // namespace

bool FrFromWords(const uint64_t words[4], Fr* out) {
  if (!IsCanonical(words)) return false;
  *out = ToMont(words, GetParams().r2);
  return true;
}

void FrToWords(const Fr& a, uint64_t words[4]) {
  const Fr one = {{1, 0, 0, 0}};
  const Fr c = Mul(a, one);
  for (int i = 0; i < 4; i++) words[i] = c.v[i];
}

bool FrFromBytesBE(const uint8_t* bytes, Fr* out) {
  uint64_t w[4];
  for (int limb = 0; limb < 4; limb++) {
    const uint8_t* p = bytes + (3 - limb) * 8;
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) x = (x << 8) | p[i];
    w[limb] = x;
  }
  return FrFromWords(w, out);
}

void FrToBytesBE(const Fr& a, uint8_t* bytes) {
  uint64_t w[4];
  FrToWords(a, w);
  for (int limb = 0; limb < 4; limb++) {
    uint8_t* p = bytes + (3 - limb) * 8;
    uint64_t x = w[limb];
    for (int i = 7; i >= 0; i--) {
      p[i] = (uint8_t)x;
      x >>= 8;
    }
  }
}

void Poseidon2Permute(Fr s[4]) {
  if (CurrentPath() == 2) {
    PermuteAdx(s);
  } else {
    PermutePortable(s);
  }
}

bool Poseidon2AdxSupported() { return AdxSupported(); }

Poseidon2Path Poseidon2GetPath() { return CurrentPath() == 2 ? Poseidon2Path::kAdx : Poseidon2Path::kPortable; }

bool Poseidon2SetPath(Poseidon2Path path) {
  if (path == Poseidon2Path::kAdx && !AdxSupported()) return false;
  g_path.store(path == Poseidon2Path::kAdx ? 2 : 1, std::memory_order_relaxed);
  return true;
}

Fr Poseidon2Hash(const Fr* inputs, size_t n) {
  // Capacity element: n * 2^64 (the domain IV of the barretenberg/Noir sponge).
  const uint64_t iv[4] = {0, (uint64_t)n, 0, 0};
  Fr s[4] = {{{0, 0, 0, 0}}, {{0, 0, 0, 0}}, {{0, 0, 0, 0}}, {{0, 0, 0, 0}}};
  FrFromWords(iv, &s[3]);
  size_t i = 0;
  do {
    for (int k = 0; k < 3 && i < n; k++, i++) s[k] = Add(s[k], inputs[i]);
    Poseidon2Permute(s);
  } while (i < n);
  return s[0];
}

}  // namespace cairn
