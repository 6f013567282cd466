// The INT8 matrix multiply's two paths give the same bits: the 8-bit dot
// products (AVX512-VNNI, src/kernels/matmul_int8_vnni.cc) and the widened
// int32 chains (its portable twin), both against a plain loop of int32 sums
// modulo 2^32 written here. Random and extreme operands (-128 and 127
// everywhere, so that -128 * -128 * K is reached), seeds near both ends of
// int32 (the sums wrap), shapes with odd K and N, M = 1, 16 and 128, K up to
// 4096 (and 0), seeds given or zero (then not read), and rows with gaps (strides past the valid columns) whose bytes must
// stay as they were. Links the internal library: the paths are kernels, not
// C functions. Where the CPU has no 8-bit dot products the comparison is
// skipped (and says so); the widened path is still checked against the loop.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "kernels/kernels.h"

namespace {

namespace k = pto::kernels;

uint64_t Next(uint64_t& state) {  // splitmix64
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Shape {
  size_t m, k, n;
};

// M = 1, 16, 128 and others; K odd, a multiple of 4, around the 512-row
// blocks, up to 4096; N odd, around the 16-lane vectors and 64-column blocks.
const Shape kShapes[] = {
    {1, 1, 1},      {1, 3, 17},     {1, 4096, 64},  {1, 4095, 33},  {16, 128, 256},
    {16, 5, 15},    {16, 65, 65},   {16, 513, 130}, {128, 64, 128}, {128, 128, 64},
    {128, 1023, 1}, {128, 4096, 48}, {3, 7, 200},   {4, 512, 64},   {5, 511, 79},
    {2, 1024, 16},  {7, 2049, 257}, {32, 32, 32},   {6, 2, 3},      {128, 4095, 31},
    {3, 0, 5},
};

// How a case's operands and seeds are drawn.
enum class Fill { kRandom, kMinMin, kMinMax, kMaxMin, kEdges };

int8_t Element(Fill fill, bool is_a, uint64_t& rng) {
  static const int8_t kEdgeValues[] = {-128, -127, -1, 0, 1, 126, 127};
  switch (fill) {
    case Fill::kMinMin: return -128;
    case Fill::kMinMax: return is_a ? -128 : 127;
    case Fill::kMaxMin: return is_a ? 127 : -128;
    case Fill::kEdges: return kEdgeValues[Next(rng) % 7];
    default: return static_cast<int8_t>(Next(rng));
  }
}

int32_t Seed(uint64_t& rng) {
  static const uint32_t kEnds[] = {0x7FFFFFFFu, 0x80000000u, 0x7FFF0000u, 0x80010000u, 0};
  const uint64_t r = Next(rng);
  const uint32_t bits = r % 4 == 0 ? kEnds[(r >> 8) % 5] : static_cast<uint32_t>(r >> 32);
  int32_t v;
  memcpy(&v, &bits, 4);
  return v;
}

constexpr int32_t kUntouched = 0x5EEDF00D;  // dst's bytes between rows

struct Case {
  Shape s;
  size_t lda, ldb, ldd;
  std::vector<int8_t> a, b;
  std::vector<int32_t> seeds;  // ldd per row; the gaps hold kUntouched

  Case(const Shape& shape, Fill fill, uint64_t& rng)
      : s(shape), lda(shape.k + 5), ldb(shape.n + 7), ldd(shape.n + 3),
        a(shape.m * lda), b(shape.k * ldb), seeds(shape.m * ldd, kUntouched) {
    for (auto& x : a) x = Element(fill, true, rng);
    for (auto& x : b) x = Element(fill, false, rng);
    for (size_t i = 0; i < s.m; ++i)
      for (size_t j = 0; j < s.n; ++j) seeds[i * ldd + j] = Seed(rng);
  }

  // The plain loop: seed (or 0) + sum of a(i,k) b(k,j), modulo 2^32.
  std::vector<int32_t> Reference(bool zero_seed) const {
    std::vector<int32_t> out = seeds;
    for (size_t i = 0; i < s.m; ++i)
      for (size_t j = 0; j < s.n; ++j) {
        uint32_t acc = zero_seed ? 0 : static_cast<uint32_t>(seeds[i * ldd + j]);
        for (size_t kk = 0; kk < s.k; ++kk)
          acc += static_cast<uint32_t>(int32_t{a[i * lda + kk]} * int32_t{b[kk * ldb + j]});
        memcpy(&out[i * ldd + j], &acc, 4);
      }
    return out;
  }

  // A path's result; with zero_seed, the seeds in dst are what it must not read.
  template <class Path>
  std::vector<int32_t> Run(Path path, bool zero_seed) const {
    std::vector<int32_t> out = seeds;
    const k::Plane d{out.data(), ldd};
    const k::ConstPlane pa{a.data(), lda}, pb{b.data(), ldb};
    path(s.m, s.k, s.n, d, pa, pb, zero_seed);
    return out;
  }
};

// The first element where got and want differ, printed; false if any.
bool Same(const char* path, bool zero_seed, const Case& c, const std::vector<int32_t>& got,
          const std::vector<int32_t>& want) {
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    print_error("%s, %s, %zu x %zu x %zu: element (%zu, %zu) is %d, not %d\n", path,
                zero_seed ? "zero seeds" : "seeds in dst", c.s.m, c.s.k, c.s.n, i / c.ldd,
                i % c.ldd, got[i], want[i]);
    return false;
  }
  return true;
}

void CheckAll(Fill fill, uint64_t seed, bool dot) {
  uint64_t rng = seed;
  for (const Shape& s : kShapes) {
    const Case c(s, fill, rng);
    for (const bool zero_seed : {false, true}) {
      const std::vector<int32_t> want = c.Reference(zero_seed);
      assert_true(Same("widened", zero_seed, c, c.Run(k::MatmulInt8Widened, zero_seed), want));
      if (dot)
        assert_true(
            Same("8-bit dot products", zero_seed, c, c.Run(k::MatmulInt8Dot, zero_seed), want));
    }
  }
}

// The comparison needs the dot products; without them, the widened path
// alone is checked and the test reports itself skipped, with the reason.
bool DotOrSkipNote() {
  if (k::Int8DotSupported()) return true;
  print_message("[skip] this CPU (or this build: not x86-64 GCC/clang, or "
                "x86_specializations=false) has no AVX512-VNNI 8-bit dot product path; only "
                "the widened INT8 path was checked\n");
  return false;
}

void RandomOperands(void**) {
  const bool dot = DotOrSkipNote();
  CheckAll(Fill::kRandom, 1, dot);
  CheckAll(Fill::kEdges, 2, dot);
  if (!dot) skip();
}

void ExtremeOperands(void**) {
  const bool dot = DotOrSkipNote();
  CheckAll(Fill::kMinMin, 3, dot);
  CheckAll(Fill::kMinMax, 4, dot);
  CheckAll(Fill::kMaxMin, 5, dot);
  if (!dot) skip();
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(RandomOperands),
      cmocka_unit_test(ExtremeOperands),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
