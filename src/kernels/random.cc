// TRANDOM: Philox-4x32 over a 128-bit counter, in the order A5's vector
// implementation stores it. Plain loops over exact 32-bit arithmetic (each
// output is a chain of multiplies and xors; no SIMD needed for the same
// bits on every target).
//
// A5 runs L = 64 lanes (256-byte vectors of 32-bit elements); lane i of a
// pass holds the counter + i. A pass yields four words per lane, o0..o3,
// stored as 4 * L consecutive columns, column 4 * i + w holding o_w of lane
// i. After a pass the counter advances by L, after a row's last pass by
// ((valid cols - 1) % L) + 1; the next row continues from there.
#include <stdint.h>

#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {
namespace {

constexpr uint32_t kLanes = 64;
constexpr uint32_t kMul0 = 0xD2511F53u;
constexpr uint32_t kMul1 = 0xCD9E8D57u;
constexpr uint32_t kKeyStep0 = 0x9E3779B9u;
constexpr uint32_t kKeyStep1 = 0xBB67AE85u;

// c += value over the four 32-bit words, word 0 least significant (mod 2^128).
void AddToCounter(uint32_t c[4], uint32_t value) {
  uint64_t carry = value;
  for (int w = 0; w < 4 && carry != 0; ++w) {
    carry += c[w];
    c[w] = static_cast<uint32_t>(carry);
    carry >>= 32;
  }
}

// One Philox-4x32 block: `rounds` rounds on the counter words, the key
// bumped by the Weyl steps after each.
void PhiloxBlock(uint32_t c[4], uint32_t k0, uint32_t k1, uint32_t rounds) {
  for (uint32_t r = 0; r < rounds; ++r) {
    const uint64_t p0 = static_cast<uint64_t>(c[0]) * kMul0;
    const uint64_t p1 = static_cast<uint64_t>(c[2]) * kMul1;
    const uint32_t next0 = static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0;
    const uint32_t next2 = static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1;
    c[1] = static_cast<uint32_t>(p1);
    c[3] = static_cast<uint32_t>(p0);
    c[0] = next0;
    c[2] = next2;
    k0 += kKeyStep0;
    k1 += kKeyStep1;
  }
}

}  // namespace

void RandomPhilox(uint32_t* dst, size_t stride, size_t rows, size_t cols, const uint32_t key[2],
                  const uint32_t counter[4], uint32_t rounds) {
  if (rows == 0 || cols == 0) return;
  const size_t per_pass = 4 * kLanes;
  const size_t passes = (cols + per_pass - 1) / per_pass;
  const uint32_t last_step = static_cast<uint32_t>((cols - 1) % kLanes) + 1;
  uint32_t base[4] = {counter[0], counter[1], counter[2], counter[3]};
  for (size_t i = 0; i < rows; ++i) {
    uint32_t* row = dst + i * stride;
    for (size_t j = 0; j < passes; ++j) {
      const size_t first = j * per_pass;
      for (uint32_t lane = 0; lane < kLanes && first + 4 * lane < cols; ++lane) {
        uint32_t c[4] = {base[0], base[1], base[2], base[3]};
        AddToCounter(c, lane);
        PhiloxBlock(c, key[0], key[1], rounds);
        for (uint32_t w = 0; w < 4 && first + 4 * lane + w < cols; ++w) row[first + 4 * lane + w] = c[w];
      }
      AddToCounter(base, j + 1 < passes ? kLanes : last_step);
    }
  }
}

}  // namespace kernels
}  // namespace pto
