// Lazy Montgomery multiplication and squaring in Fr (see fr.h) with the BMI2 `mulx` and the ADX
// `adcx`/`adox` instructions: mulx multiplies without touching the flags, and adcx (carry flag)
// and adox (overflow flag) run two independent carry chains, so the low and high halves of each
// row of word products are accumulated at the same time.
//
// The instructions are written in inline assembly, which the assembler accepts whatever the
// compiler's target flags; the functions must only be called after a run-time check that the CPU
// has BMI2 and ADX (poseidon2.cc checks CPUID). Only for x86-64 with GCC or Clang: elsewhere
// CAIRN_HAVE_ADX is 0 and only the portable path exists.
#ifndef CAIRN_FR_ADX_H
#define CAIRN_FR_ADX_H

#include "fr.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CAIRN_GENERIC_ONLY)
#define CAIRN_HAVE_ADX 1
#else
#define CAIRN_HAVE_ADX 0
#endif

#if CAIRN_HAVE_ADX

namespace cairn {

// The modulus and -p^-1 mod 2^64 in memory, as mulx/imul operands.
alignas(64) static const uint64_t kAdxConst[5] = {kP0, kP1, kP2, kP3, kPInv};

// One step of Montgomery reduction on the window T0..T4 (T0 lowest): m = T0 * (-p^-1) mod 2^64,
// T += m p. T0 becomes zero (that is how m is chosen) and the value moves up to T1..T4; T0's
// register, now zero, serves as the zero source for the final adox.
#define CAIRN_ADX_REDUCE(T0, T1, T2, T3, T4) \
  "movq %[" T0 "], %%rdx\n\t"                \
  "imulq %[pinv], %%rdx\n\t"                 \
  "xorl %k[lo], %k[lo]\n\t"                  \
  "mulxq %[p0], %[lo], %[hi]\n\t"         \
  "adoxq %[lo], %[" T0 "]\n\t"               \
  "adcxq %[hi], %[" T1 "]\n\t"               \
  "mulxq %[p1], %[lo], %[hi]\n\t"         \
  "adoxq %[lo], %[" T1 "]\n\t"               \
  "adcxq %[hi], %[" T2 "]\n\t"               \
  "mulxq %[p2], %[lo], %[hi]\n\t"        \
  "adoxq %[lo], %[" T2 "]\n\t"               \
  "adcxq %[hi], %[" T3 "]\n\t"               \
  "mulxq %[p3], %[lo], %[hi]\n\t"        \
  "adoxq %[lo], %[" T3 "]\n\t"               \
  "adcxq %[hi], %[" T4 "]\n\t"               \
  "adoxq %[" T0 "], %[" T4 "]\n\t"

// T0..T4 += a * b[OFF/8], where T4 is zero on entry (the register the previous reduction cleared).
#define CAIRN_ADX_MULADD(OFF, T0, T1, T2, T3, T4) \
  "movq " OFF "(%[b]), %%rdx\n\t"                  \
  "xorl %k[lo], %k[lo]\n\t"                        \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t"                \
  "adoxq %[lo], %[" T0 "]\n\t"                     \
  "adcxq %[hi], %[" T1 "]\n\t"                     \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t"                \
  "adoxq %[lo], %[" T1 "]\n\t"                     \
  "adcxq %[hi], %[" T2 "]\n\t"                     \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t"               \
  "adoxq %[lo], %[" T2 "]\n\t"                     \
  "adcxq %[hi], %[" T3 "]\n\t"                     \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t"               \
  "adoxq %[lo], %[" T3 "]\n\t"                     \
  "adcxq %[hi], %[" T4 "]\n\t"                     \
  "movl $0, %k[lo]\n\t"                            \
  "adoxq %[lo], %[" T4 "]\n\t"

// Montgomery product a * b / R in [0, 2p) for a, b in [0, 2p) (CIOS: each row of a * b_i is
// followed by one reduction step). As in the portable MulLazy, p < 2^254 keeps the running value
// below a + p < 2^256, so five words suffice and rotate through the registers.
CAIRN_INLINE Fr MulLazyAdx(const Fr& a, const Fr& b) {
  uint64_t t0, t1, t2, t3, t4, lo, hi;
  __asm__(
      // Row 0: t = a * b0.
      "movq 0(%[b]), %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[a]), %[t0], %[t1]\n\t"
      "mulxq 8(%[a]), %[lo], %[t2]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "mulxq 16(%[a]), %[lo], %[t3]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "mulxq 24(%[a]), %[lo], %[t4]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "movl $0, %k[lo]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      CAIRN_ADX_REDUCE("t0", "t1", "t2", "t3", "t4")
      CAIRN_ADX_MULADD("8", "t1", "t2", "t3", "t4", "t0")
      CAIRN_ADX_REDUCE("t1", "t2", "t3", "t4", "t0")
      CAIRN_ADX_MULADD("16", "t2", "t3", "t4", "t0", "t1")
      CAIRN_ADX_REDUCE("t2", "t3", "t4", "t0", "t1")
      CAIRN_ADX_MULADD("24", "t3", "t4", "t0", "t1", "t2")
      CAIRN_ADX_REDUCE("t3", "t4", "t0", "t1", "t2")
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [a] "r"(a.v), [b] "r"(b.v), "m"(*(const uint64_t(*)[4])a.v),
        "m"(*(const uint64_t(*)[4])b.v), [p0] "m"(kAdxConst[0]), [p1] "m"(kAdxConst[1]), [p2] "m"(kAdxConst[2]),
        [p3] "m"(kAdxConst[3]), [pinv] "m"(kAdxConst[4])
      : "rdx", "cc");
  // The result is in t4, t0, t1, t2 (low to high).
  return Fr{{t4, t0, t1, t2}};
}

// a^2 / R in [0, 2p) for a in [0, 2p): the 512-bit square from 10 word products (cross products
// once, doubled, plus the 4 squares), then the low half reduced on its own ((lo + m p) / R < p + 1)
// and the high half (< 4p^2 / R < 0.76 p) added, as in the portable SquareLazy.
CAIRN_INLINE Fr SquareLazyAdx(const Fr& a) {
  uint64_t r0, r1, r2, r3, r4, r5, r6, r7, x, lo, hi;
  __asm__(
      // Cross products sum_{i<j} a_i a_j 2^(64(i+j)) into r1..r6; r7 = 0 is the zero source.
      "xorl %k[r7], %k[r7]\n\t"
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq 8(%[a]), %[r1], %[r2]\n\t"
      "mulxq 16(%[a]), %[lo], %[r3]\n\t"
      "adcxq %[lo], %[r2]\n\t"
      "mulxq 24(%[a]), %[lo], %[r4]\n\t"
      "adcxq %[lo], %[r3]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[r3]\n\t"
      "adcxq %[hi], %[r4]\n\t"
      "mulxq 24(%[a]), %[lo], %[r5]\n\t"
      "adoxq %[lo], %[r4]\n\t"
      "adcxq %[r7], %[r5]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq 24(%[a]), %[lo], %[r6]\n\t"
      "adoxq %[lo], %[r5]\n\t"
      "adoxq %[r7], %[r6]\n\t"
      // Double (adcx chain) and add the squares a_i^2 at word 2i (adox chain).
      "xorl %k[lo], %k[lo]\n\t"
      "movq 0(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[r0], %[hi]\n\t"
      "adcxq %[r1], %[r1]\n\t"
      "adoxq %[hi], %[r1]\n\t"
      "movq 8(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[r2], %[r2]\n\t"
      "adoxq %[lo], %[r2]\n\t"
      "adcxq %[r3], %[r3]\n\t"
      "adoxq %[hi], %[r3]\n\t"
      "movq 16(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[r4], %[r4]\n\t"
      "adoxq %[lo], %[r4]\n\t"
      "adcxq %[r5], %[r5]\n\t"
      "adoxq %[hi], %[r5]\n\t"
      "movq 24(%[a]), %%rdx\n\t"
      "mulxq %%rdx, %[lo], %[hi]\n\t"
      "adcxq %[r6], %[r6]\n\t"
      "adoxq %[lo], %[r6]\n\t"
      "adcxq %[r7], %[r7]\n\t"
      "adoxq %[hi], %[r7]\n\t"
      // Reduce the low half r0..r3 in the window r0, r1, r2, r3, x (x = 0 to start).
      "xorl %k[x], %k[x]\n\t"
      CAIRN_ADX_REDUCE("r0", "r1", "r2", "r3", "x")
      CAIRN_ADX_REDUCE("r1", "r2", "r3", "x", "r0")
      CAIRN_ADX_REDUCE("r2", "r3", "x", "r0", "r1")
      CAIRN_ADX_REDUCE("r3", "x", "r0", "r1", "r2")
      // The reduced low half is x, r0, r1, r2; add the high half r4..r7.
      "addq %[r4], %[x]\n\t"
      "adcq %[r5], %[r0]\n\t"
      "adcq %[r6], %[r1]\n\t"
      "adcq %[r7], %[r2]\n\t"
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
        [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [x] "=&r"(x), [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [a] "r"(a.v), "m"(*(const uint64_t(*)[4])a.v),
        [p0] "m"(kAdxConst[0]), [p1] "m"(kAdxConst[1]), [p2] "m"(kAdxConst[2]),
        [p3] "m"(kAdxConst[3]), [pinv] "m"(kAdxConst[4])
      : "rdx", "cc");
  (void)r3;
  return Fr{{x, r0, r1, r2}};
}

#undef CAIRN_ADX_REDUCE
#undef CAIRN_ADX_MULADD

}  // namespace cairn

#endif  // CAIRN_HAVE_ADX

#endif  // CAIRN_FR_ADX_H
