// Arithmetic in the BN254 scalar field Fr (p < 2^254) on four 64-bit limbs, little-endian limb
// order, in Montgomery form with R = 2^256.
//
// Add, Mul and Square take and return fully reduced values (< p). The *Lazy functions work on
// values in [0, 2p) instead and skip the final conditional subtraction of the Montgomery product:
// since 4p < R, a Montgomery product of two values below 2p is itself below 2p
// (a b / R + p < 4p^2 / R + p < 2p), so a chain of lazy operations stays in [0, 2p) and only its
// end needs one ReduceOnce to become canonical.
#ifndef CAIRN_FR_H
#define CAIRN_FR_H

#include <cstddef>
#include <cstdint>

// Defining CAIRN_GENERIC_ONLY compiles the code other CPUs get (no x86 intrinsics, no adx path),
// to check it on x86-64.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CAIRN_GENERIC_ONLY)
#include <x86intrin.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CAIRN_INLINE static inline __attribute__((always_inline))
#else
#define CAIRN_INLINE static inline
#endif

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

// Word add with carry and subtract with borrow: the baseline x86-64 adc/sbb intrinsics where there
// are, which GCC compiles to straight adc/sbb chains (its unsigned __int128 additions are much
// worse), else unsigned __int128.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CAIRN_GENERIC_ONLY)
CAIRN_INLINE unsigned char AddCarry(unsigned char c, uint64_t a, uint64_t b, uint64_t* out) {
  unsigned long long r;
  c = _addcarry_u64(c, a, b, &r);
  *out = r;
  return c;
}
CAIRN_INLINE unsigned char SubBorrow(unsigned char c, uint64_t a, uint64_t b, uint64_t* out) {
  unsigned long long r;
  c = _subborrow_u64(c, a, b, &r);
  *out = r;
  return c;
}
#else
CAIRN_INLINE unsigned char AddCarry(unsigned char c, uint64_t a, uint64_t b, uint64_t* out) {
  const u128 x = (u128)a + b + c;
  *out = (uint64_t)x;
  return (unsigned char)(x >> 64);
}
CAIRN_INLINE unsigned char SubBorrow(unsigned char c, uint64_t a, uint64_t b, uint64_t* out) {
  const u128 x = (u128)a - b - c;
  *out = (uint64_t)x;
  return (unsigned char)((x >> 64) & 1);
}
#endif

// 2p, the bound of lazily reduced values.
static constexpr uint64_t k2P0 = kP0 << 1;
static constexpr uint64_t k2P1 = (kP1 << 1) | (kP0 >> 63);
static constexpr uint64_t k2P2 = (kP2 << 1) | (kP1 >> 63);
static constexpr uint64_t k2P3 = (kP3 << 1) | (kP2 >> 63);
static_assert(kP3 < (1ULL << 62), "4p must fit in 256 bits for the lazy reduction");

// a + b for a, b in [0, 2p): the sum (< 4p < 2^256) minus 2p if it is >= 2p. Branch-free.
CAIRN_INLINE Fr AddLazy(const Fr& a, const Fr& b) {
  uint64_t t0, t1, t2, t3, s0, s1, s2, s3;
  unsigned char c = AddCarry(0, a.v[0], b.v[0], &t0);
  c = AddCarry(c, a.v[1], b.v[1], &t1);
  c = AddCarry(c, a.v[2], b.v[2], &t2);
  AddCarry(c, a.v[3], b.v[3], &t3);
  // t - 2p; the borrow out of the top word says t < 2p.
  c = SubBorrow(0, t0, k2P0, &s0);
  c = SubBorrow(c, t1, k2P1, &s1);
  c = SubBorrow(c, t2, k2P2, &s2);
  c = SubBorrow(c, t3, k2P3, &s3);
  Fr r;
  r.v[0] = c ? t0 : s0;
  r.v[1] = c ? t1 : s1;
  r.v[2] = c ? t2 : s2;
  r.v[3] = c ? t3 : s3;
  return r;
}

CAIRN_INLINE void Mul64(uint64_t a, uint64_t b, uint64_t* lo, uint64_t* hi) {
  const u128 x = (u128)a * b;
  *lo = (uint64_t)x;
  *hi = (uint64_t)(x >> 64);
}

// Montgomery product a * b / R mod p, in [0, 2p) for a, b in [0, 2p): Mul without the final
// subtraction. Portable code (CIOS): each row t += a * b_i and each reduction step t += m p adds
// its low product words in one carry chain and its high words in a second. p < 2^254 keeps the
// running value below a + p < 2^256, so five words suffice and no carry leaves the fifth.
CAIRN_INLINE Fr MulLazy(const Fr& a, const Fr& b) {
  uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4;
  for (int i = 0; i < 4; i++) {
    const uint64_t bi = b.v[i];
    uint64_t l0, l1, l2, l3, h0, h1, h2, h3;
    unsigned char c;
    Mul64(a.v[0], bi, &l0, &h0);
    Mul64(a.v[1], bi, &l1, &h1);
    Mul64(a.v[2], bi, &l2, &h2);
    Mul64(a.v[3], bi, &l3, &h3);
    c = AddCarry(0, t0, l0, &t0);
    c = AddCarry(c, t1, l1, &t1);
    c = AddCarry(c, t2, l2, &t2);
    c = AddCarry(c, t3, l3, &t3);
    t4 = c;
    c = AddCarry(0, t1, h0, &t1);
    c = AddCarry(c, t2, h1, &t2);
    c = AddCarry(c, t3, h2, &t3);
    AddCarry(c, t4, h3, &t4);

    const uint64_t m = t0 * kPInv;
    Mul64(m, kP0, &l0, &h0);
    Mul64(m, kP1, &l1, &h1);
    Mul64(m, kP2, &l2, &h2);
    Mul64(m, kP3, &l3, &h3);
    uint64_t z;
    c = AddCarry(0, t0, l0, &z);  // z == 0
    c = AddCarry(c, t1, l1, &t1);
    c = AddCarry(c, t2, l2, &t2);
    c = AddCarry(c, t3, l3, &t3);
    AddCarry(c, t4, 0, &t4);
    c = AddCarry(0, t1, h0, &t0);
    c = AddCarry(c, t2, h1, &t1);
    c = AddCarry(c, t3, h2, &t2);
    AddCarry(c, t4, h3, &t3);
  }
  return Fr{{t0, t1, t2, t3}};
}

// a^2 / R mod p in [0, 2p) for a in [0, 2p). The 512-bit square takes 10 word products (the 6
// cross products once, doubled, plus the 4 squares) instead of 16; its low half is then
// Montgomery-reduced on its own, (lo + m p) / R < p + 1, and the high half (< a^2 / R < 0.76 p)
// added, which stays below 2p.
CAIRN_INLINE Fr SquareLazy(const Fr& a) {
  const uint64_t a0 = a.v[0], a1 = a.v[1], a2 = a.v[2], a3 = a.v[3];
  uint64_t l01, h01, l02, h02, l03, h03, l12, h12, l13, h13, l23, h23;
  Mul64(a0, a1, &l01, &h01);
  Mul64(a0, a2, &l02, &h02);
  Mul64(a0, a3, &l03, &h03);
  Mul64(a1, a2, &l12, &h12);
  Mul64(a1, a3, &l13, &h13);
  Mul64(a2, a3, &l23, &h23);
  // Cross products sum_{i<j} a_i a_j 2^(64(i+j)) into r1..r6 (no high word overflows: each is at
  // most 2^64 - 2 before its carry is added).
  uint64_t r0, r1, r2, r3, r4, r5, r6, r7, w4;
  unsigned char c;
  r1 = l01;
  c = AddCarry(0, h01, l02, &r2);
  c = AddCarry(c, h02, l03, &r3);
  r4 = h03 + c;
  c = AddCarry(0, h12, l13, &w4);
  const uint64_t w5 = h13 + c;
  c = AddCarry(0, r3, l12, &r3);
  c = AddCarry(c, r4, w4, &r4);
  c = AddCarry(c, w5, l23, &r5);
  r6 = h23 + c;
  // Double them.
  r7 = r6 >> 63;
  r6 = (r6 << 1) | (r5 >> 63);
  r5 = (r5 << 1) | (r4 >> 63);
  r4 = (r4 << 1) | (r3 >> 63);
  r3 = (r3 << 1) | (r2 >> 63);
  r2 = (r2 << 1) | (r1 >> 63);
  r1 <<= 1;
  // Add the squares a_i^2 at word 2i.
  uint64_t ql, qh;
  Mul64(a0, a0, &r0, &qh);
  c = AddCarry(0, r1, qh, &r1);
  Mul64(a1, a1, &ql, &qh);
  c = AddCarry(c, r2, ql, &r2);
  c = AddCarry(c, r3, qh, &r3);
  Mul64(a2, a2, &ql, &qh);
  c = AddCarry(c, r4, ql, &r4);
  c = AddCarry(c, r5, qh, &r5);
  Mul64(a3, a3, &ql, &qh);
  c = AddCarry(c, r6, ql, &r6);
  AddCarry(c, r7, qh, &r7);
  // Montgomery-reduce the low half r0..r3, one word at a time (t stays below R).
  uint64_t t0 = r0, t1 = r1, t2 = r2, t3 = r3, t4;
  for (int i = 0; i < 4; i++) {
    const uint64_t m = t0 * kPInv;
    uint64_t l0, l1, l2, l3, h0, h1, h2, h3, z;
    Mul64(m, kP0, &l0, &h0);
    Mul64(m, kP1, &l1, &h1);
    Mul64(m, kP2, &l2, &h2);
    Mul64(m, kP3, &l3, &h3);
    c = AddCarry(0, t0, l0, &z);  // z == 0
    c = AddCarry(c, t1, l1, &t1);
    c = AddCarry(c, t2, l2, &t2);
    c = AddCarry(c, t3, l3, &t3);
    t4 = c;
    c = AddCarry(0, t1, h0, &t0);
    c = AddCarry(c, t2, h1, &t1);
    c = AddCarry(c, t3, h2, &t2);
    AddCarry(c, t4, h3, &t3);
  }
  // Add the high half.
  Fr r;
  c = AddCarry(0, t0, r4, &r.v[0]);
  c = AddCarry(c, t1, r5, &r.v[1]);
  c = AddCarry(c, t2, r6, &r.v[2]);
  AddCarry(c, t3, r7, &r.v[3]);
  return r;
}

// True when the canonical limbs are < p.
static inline bool IsCanonical(const uint64_t v[4]) {
  if (v[3] != kP3) return v[3] < kP3;
  if (v[2] != kP2) return v[2] < kP2;
  if (v[1] != kP1) return v[1] < kP1;
  return v[0] < kP0;
}

}  // namespace cairn

#endif  // CAIRN_FR_H
