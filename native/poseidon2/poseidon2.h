// Poseidon2 permutation and sponge hash over BN254 Fr, t = 4 (rate 3, capacity 1).
#ifndef CAIRN_POSEIDON2_H
#define CAIRN_POSEIDON2_H

#include <cstddef>
#include <cstdint>

#include "fr.h"

namespace cairn {

// Canonical little-endian limbs -> Montgomery form. Returns false (and leaves *out untouched)
// when the value is not < p.
bool FrFromWords(const uint64_t words[4], Fr* out);
// Montgomery form -> canonical little-endian limbs.
void FrToWords(const Fr& a, uint64_t words[4]);
// 32 bytes big-endian -> Montgomery form; false when the value is not < p.
bool FrFromBytesBE(const uint8_t* bytes, Fr* out);
// Montgomery form -> 32 bytes big-endian.
void FrToBytesBE(const Fr& a, uint8_t* bytes);

// In-place Poseidon2 permutation of a 4-element state (Montgomery form, fully reduced in and out).
void Poseidon2Permute(Fr state[4]);

// The field multiplication the permutation uses. Both give bit-identical results.
//   kPortable  plain C++ (unsigned __int128 products), any CPU
//   kAdx       mulx/adcx/adox assembly, x86-64 CPUs with BMI2 and ADX only
// The default is kAdx where the CPU has it, else kPortable. The choice is process-wide.
enum class Poseidon2Path { kPortable, kAdx };
// True when this build has the ADX code and the CPU reports BMI2 and ADX (CPUID leaf 7).
bool Poseidon2AdxSupported();
Poseidon2Path Poseidon2GetPath();
// Selects a path; returns false (and changes nothing) when kAdx is asked for but not supported.
bool Poseidon2SetPath(Poseidon2Path path);

// Sponge hash of n field elements (Montgomery form in and out): capacity initialised to n * 2^64,
// absorb 3 at a time (zero-padded), squeeze state[0].
Fr Poseidon2Hash(const Fr* inputs, size_t n);

}  // namespace cairn

#endif  // CAIRN_POSEIDON2_H
