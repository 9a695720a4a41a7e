#include "poseidon2.h"

#include "constants.h"

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

inline Fr Pow5(const Fr& x) {
  const Fr x2 = Square(x);
  const Fr x4 = Square(x2);
  return Mul(x4, x);
}

// External matrix M_E = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]], evaluated with additions only.
inline void ExternalLayer(Fr s[4]) {
  const Fr a = Add(s[0], s[1]);              // s0 + s1
  const Fr b = Add(s[2], s[3]);              // s2 + s3
  const Fr c = Add(Add(s[1], s[1]), b);      // 2 s1 + s2 + s3
  const Fr d = Add(Add(s[3], s[3]), a);      // s0 + s1 + 2 s3
  const Fr b2 = Add(b, b);
  const Fr e = Add(Add(b2, b2), d);          // s0 + s1 + 4 s2 + 6 s3
  const Fr a2 = Add(a, a);
  const Fr f = Add(Add(a2, a2), c);          // 4 s0 + 6 s1 + s2 + s3
  s[0] = Add(d, f);                          // 5 s0 + 7 s1 + s2 + 3 s3
  s[1] = f;
  s[2] = Add(c, e);                          // s0 + 3 s1 + 5 s2 + 7 s3
  s[3] = e;
}

// Internal matrix M_I = diag(D) + all-ones: s_i <- D_i s_i + sum(s).
inline void InternalLayer(Fr s[4], const Fr diag[4]) {
  const Fr sum = Add(Add(s[0], s[1]), Add(s[2], s[3]));
  for (int i = 0; i < 4; i++) s[i] = Add(Mul(s[i], diag[i]), sum);
}

inline void FullRound(Fr s[4], const Fr rc[4]) {
  for (int i = 0; i < 4; i++) s[i] = Pow5(Add(s[i], rc[i]));
  ExternalLayer(s);
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
  const Params& p = GetParams();
  ExternalLayer(s);
  for (int r = 0; r < 4; r++) FullRound(s, p.full_rc[r]);
  for (int r = 0; r < 56; r++) {
    s[0] = Pow5(Add(s[0], p.partial_rc[r]));
    InternalLayer(s, p.diag);
  }
  for (int r = 4; r < 8; r++) FullRound(s, p.full_rc[r]);
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
