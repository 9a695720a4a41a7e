// Arithmetic in the BN254 scalar field Fr (p < 2^254) on four 64-bit limbs, little-endian limb
// order, in Montgomery form with R = 2^256. All values handled here are fully reduced (< p).
#ifndef CAIRN_FR_H
#define CAIRN_FR_H

#include <cstddef>
#include <cstdint>

namespace cairn {

typedef unsigned __int128 u128;

struct Fr {
  uint64_t v[4];
};

// p = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
static constexpr uint64_t kP0 = 0x43e1f593f0000001ULL;
static constexpr uint64_t kP1 = 0x2833e84879b97091ULL;
static constexpr uint64_t kP2 = 0xb85045b68181585dULL;
static constexpr uint64_t kP3 = 0x30644e72e131a029ULL;

// -p^{-1} mod 2^64, derived from kP0 by Newton iteration (each step doubles the correct bits).
static constexpr uint64_t NegInverseP0() {
  uint64_t x = 1;
  for (int i = 0; i < 7; i++) x *= 2 - kP0 * x;
  return ~x + 1;
}
static constexpr uint64_t kPInv = NegInverseP0();
static_assert(kP0 * kPInv == ~0ULL, "kPInv must satisfy p0 * kPInv == -1 mod 2^64");

// r = a - p if a >= p, else a.  Requires a < 2p. Branch-free.
static inline void ReduceOnce(uint64_t r[4], const uint64_t a[4]) {
  uint64_t s0, s1, s2, s3;
  bool b0, b1, b2, b3;
  b0 = __builtin_sub_overflow(a[0], kP0, &s0);
  b1 = __builtin_sub_overflow(a[1], kP1, &s1);
  b1 |= __builtin_sub_overflow(s1, (uint64_t)b0, &s1);
  b2 = __builtin_sub_overflow(a[2], kP2, &s2);
  b2 |= __builtin_sub_overflow(s2, (uint64_t)b1, &s2);
  b3 = __builtin_sub_overflow(a[3], kP3, &s3);
  b3 |= __builtin_sub_overflow(s3, (uint64_t)b2, &s3);
  // b3 set: a < p, keep a.
  const uint64_t keep = 0 - (uint64_t)b3;
  r[0] = (a[0] & keep) | (s0 & ~keep);
  r[1] = (a[1] & keep) | (s1 & ~keep);
  r[2] = (a[2] & keep) | (s2 & ~keep);
  r[3] = (a[3] & keep) | (s3 & ~keep);
}

static inline Fr Add(const Fr& a, const Fr& b) {
  // a, b < p < 2^254, so the sum fits in 256 bits without a carry out.
  uint64_t t[4];
  bool c0, c1, c2;
  c0 = __builtin_add_overflow(a.v[0], b.v[0], &t[0]);
  c1 = __builtin_add_overflow(a.v[1], b.v[1], &t[1]);
  c1 |= __builtin_add_overflow(t[1], (uint64_t)c0, &t[1]);
  c2 = __builtin_add_overflow(a.v[2], b.v[2], &t[2]);
  c2 |= __builtin_add_overflow(t[2], (uint64_t)c1, &t[2]);
  t[3] = a.v[3] + b.v[3] + (uint64_t)c2;
  Fr r;
  ReduceOnce(r.v, t);
  return r;
}

// Montgomery product a * b * 2^-256 mod p (CIOS). Because p3 < 2^62, the running value never
// needs a fifth limb; the result is < 2p before the final conditional subtraction.
static inline Fr Mul(const Fr& a, const Fr& b) {
  uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  for (int i = 0; i < 4; i++) {
    const uint64_t bi = b.v[i];
    u128 x;
    uint64_t hiA, hiC;
    x = (u128)a.v[0] * bi + t0;
    t0 = (uint64_t)x;
    hiA = (uint64_t)(x >> 64);
    const uint64_t m = t0 * kPInv;
    x = (u128)m * kP0 + t0;
    hiC = (uint64_t)(x >> 64);

    x = (u128)a.v[1] * bi + t1 + hiA;
    t1 = (uint64_t)x;
    hiA = (uint64_t)(x >> 64);
    x = (u128)m * kP1 + t1 + hiC;
    t0 = (uint64_t)x;
    hiC = (uint64_t)(x >> 64);

    x = (u128)a.v[2] * bi + t2 + hiA;
    t2 = (uint64_t)x;
    hiA = (uint64_t)(x >> 64);
    x = (u128)m * kP2 + t2 + hiC;
    t1 = (uint64_t)x;
    hiC = (uint64_t)(x >> 64);

    x = (u128)a.v[3] * bi + t3 + hiA;
    t3 = (uint64_t)x;
    hiA = (uint64_t)(x >> 64);
    x = (u128)m * kP3 + t3 + hiC;
    t2 = (uint64_t)x;
    hiC = (uint64_t)(x >> 64);

    t3 = hiA + hiC;
  }
  const uint64_t t[4] = {t0, t1, t2, t3};
  Fr r;
  ReduceOnce(r.v, t);
  return r;
}

static inline Fr Square(const Fr& a) { return Mul(a, a); }

// True when the canonical limbs are < p.
static inline bool IsCanonical(const uint64_t v[4]) {
  if (v[3] != kP3) return v[3] < kP3;
  if (v[2] != kP2) return v[2] < kP2;
  if (v[1] != kP1) return v[1] < kP1;
  return v[0] < kP0;
}

}  // namespace cairn

#endif  // CAIRN_FR_H
