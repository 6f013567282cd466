// Size limits and boundary arithmetic: PTO_TILE_MAX_BYTES is enforced with
// PTO_ERR_INVALID_ARGUMENT before anything is allocated (the allocation
// counter of the internal library proves it), products of two 32-bit
// dimensions never wrap, and counts and regions at their edges are exact.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "alloc.h"
#include "pto_c.h"
#include "support.h"

namespace {

const pto_dtype kDtypes[] = {PTO_INT8,    PTO_UINT8,    PTO_INT16,   PTO_UINT16,
                             PTO_INT32,   PTO_UINT32,   PTO_FLOAT16, PTO_BFLOAT16,
                             PTO_FLOAT32, PTO_INT64,    PTO_UINT64};
pto_tile* const kSentinel = reinterpret_cast<pto_tile*>(uintptr_t{0x5A5A5A5A});

// pto_tile_create must refuse (dtype, rows, cols) as an invalid argument
// without attempting a single allocation and without touching *out. (A
// thread's first failure takes its sentence's memory, once: a refusal
// before the count takes it.)
void ExpectRefusedBeforeAllocation(int dtype, uint32_t rows, uint32_t cols) {
  assert_int_not_equal(pto_tile_create(PTO_FLOAT32, 0, 1, nullptr), PTO_OK);
  pto::testing::FailNthAllocation(0);
  pto_tile* out = kSentinel;
  const pto_status s = tile_create_any_dtype(dtype, rows, cols, &out);
  const size_t attempts = pto::testing::FailNthAllocation(0);
  if (s != PTO_ERR_INVALID_ARGUMENT || attempts != 0 || out != kSentinel)
    print_error("dtype %d, %u x %u: %s after %zu allocations\n", dtype, rows,
                cols, pto_status_string(s), attempts);
  assert_int_equal(s, PTO_ERR_INVALID_ARGUMENT);
  assert_int_equal(attempts, 0);
  assert_ptr_equal(out, kSentinel);
  assert_non_null(strstr(pto_last_error(), "pto_tile_create"));
}

void TestLimitIsDocumented(void**) {
  // The contract: at least 16 MiB, below 2^40.
  assert_true(PTO_TILE_MAX_BYTES >= (size_t{1} << 24));
  assert_true(static_cast<uint64_t>(PTO_TILE_MAX_BYTES) < (uint64_t{1} << 40));
}

void TestJustAboveTheLimit(void**) {
  for (pto_dtype dtype : kDtypes) {
    const uint64_t max_elements = PTO_TILE_MAX_BYTES / pto_dtype_size(dtype);
    // One element too many, as one row, one column and a near-square.
    assert_true(max_elements + 1 <= UINT32_MAX);
    ExpectRefusedBeforeAllocation(dtype, 1, static_cast<uint32_t>(max_elements + 1));
    ExpectRefusedBeforeAllocation(dtype, static_cast<uint32_t>(max_elements + 1), 1);
    ExpectRefusedBeforeAllocation(dtype, 1u << 10, static_cast<uint32_t>(max_elements >> 10) + 1);
    ExpectRefusedBeforeAllocation(dtype, static_cast<uint32_t>(max_elements >> 10) + 1, 1u << 10);
    ExpectRefusedBeforeAllocation(dtype, 2, static_cast<uint32_t>(max_elements / 2) + 1);
  }
}

void TestDimensionProductsDoNotWrap(void**) {
  for (pto_dtype dtype : kDtypes) {
    // 2^16 * 2^16 is 0 in 32 bits; 2^16 * (2^16 + 1) wraps to 2^16.
    ExpectRefusedBeforeAllocation(dtype, 1u << 16, 1u << 16);
    ExpectRefusedBeforeAllocation(dtype, 1u << 16, (1u << 16) + 1);
    ExpectRefusedBeforeAllocation(dtype, (1u << 16) + 1, 1u << 16);
    // Products near 2^32 * element size (wraps in 32 bits, and times 4 in 34).
    ExpectRefusedBeforeAllocation(dtype, 0x10001, 0xFFFF);
    ExpectRefusedBeforeAllocation(dtype, 1u << 31, 2);
    ExpectRefusedBeforeAllocation(dtype, 1u << 30, 4);
    // UINT32_MAX dimensions: (2^32 - 1)^2 * 4 overflows 64 bits.
    ExpectRefusedBeforeAllocation(dtype, UINT32_MAX, 1);
    ExpectRefusedBeforeAllocation(dtype, 1, UINT32_MAX);
    ExpectRefusedBeforeAllocation(dtype, UINT32_MAX, UINT32_MAX);
    ExpectRefusedBeforeAllocation(dtype, UINT32_MAX, 2);
  }
}

void TestZeroAndInvalidArguments(void**) {
  for (pto_dtype dtype : kDtypes) {
    ExpectRefusedBeforeAllocation(dtype, 0, 1);
    ExpectRefusedBeforeAllocation(dtype, 1, 0);
    ExpectRefusedBeforeAllocation(dtype, 0, 0);
    ExpectRefusedBeforeAllocation(dtype, 0, UINT32_MAX);
    ExpectRefusedBeforeAllocation(dtype, UINT32_MAX, 0);
  }
  // Out-of-range dtypes, also with sizes that would fit.
  const int bad_dtypes[] = {-1, TEST_DTYPE_COUNT, TEST_DTYPE_COUNT + 1, 255, INT32_MIN, INT32_MAX};
  for (int bad : bad_dtypes) {  // any int, as a C caller may pass
    ExpectRefusedBeforeAllocation(bad, 1, 1);
    ExpectRefusedBeforeAllocation(bad, UINT32_MAX, UINT32_MAX);
  }
  pto::testing::FailNthAllocation(0);
  assert_int_equal(pto_tile_create(PTO_INT8, 1, 1, nullptr), PTO_ERR_NULL_ARGUMENT);
  assert_int_equal(pto::testing::FailNthAllocation(0), 0);
}

// Exactly at the limit is accepted (memory permitting: PTO_ERR_OUT_OF_MEMORY
// is then the only other answer). One tile per element size keeps it cheap.
void TestExactlyAtTheLimit(void**) {
  const pto_dtype per_size[] = {PTO_UINT8, PTO_BFLOAT16, PTO_FLOAT32};
  for (pto_dtype dtype : per_size) {
    const size_t size = pto_dtype_size(dtype);
    const uint32_t cols = static_cast<uint32_t>((size_t{1} << 14) / size);
    const uint32_t rows = static_cast<uint32_t>(PTO_TILE_MAX_BYTES / size / cols);
    assert_int_equal(size_t{rows} * cols * size, PTO_TILE_MAX_BYTES);
    pto_tile* t = nullptr;
    const pto_status s = pto_tile_create(dtype, rows, cols, &t);
    if (s == PTO_ERR_OUT_OF_MEMORY) {
      print_message("%ux%u tile of dtype %d: no memory, skipped\n", rows, cols,
                    static_cast<int>(dtype));
      continue;
    }
    assert_int_equal(s, PTO_OK);
    // The last element is addressable, and an operation over the whole tile
    // stays in bounds (row offsets near 2^28 bytes).
    unsigned char* data = static_cast<unsigned char*>(pto_tile_data(t));
    assert_int_equal(data[PTO_TILE_MAX_BYTES - 1], 0);
    assert_int_equal(pto_tile_set_valid(t, rows, cols), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, 2, cols), PTO_OK);
    assert_int_equal(pto_tpartadd(t, t, t), PTO_OK);
    pto_tile_destroy(t);
  }
}

// Buffers obey the same limit, decided before any allocation.
void TestBufferLimits(void**) {
  unsigned char byte = 0;
  const size_t refused[] = {0, PTO_TILE_MAX_BYTES + 1, SIZE_MAX / 2, SIZE_MAX};
  for (size_t nbytes : refused) {
    pto_buffer* out = nullptr;
    pto::testing::FailNthAllocation(0);
    assert_int_equal(pto_buffer_create(nbytes, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_buffer_wrap(&byte, nbytes, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto::testing::FailNthAllocation(0), 0);
    assert_null(out);
  }
}

// Rows of a tile as sorted byte intervals [start, start + length).
struct Intervals {
  uintptr_t start, stride, length, count;
};

// Whether two sorted interval sequences share a byte, by a two-pointer merge
// (independent of the library's arithmetic).
bool MergeOverlap(const Intervals& a, const Intervals& b) {
  if (a.length == 0 || b.length == 0) return false;
  uintptr_t i = 0, k = 0;
  while (i < a.count && k < b.count) {
    const uintptr_t as = a.start + i * a.stride, bs = b.start + k * b.stride;
    if (as < bs + b.length && bs < as + a.length) return true;
    if (as + a.length <= bs + b.length) ++i; else ++k;
  }
  return false;
}

// Placement arithmetic at the limit, in a wrapped 256 MiB range that is never
// touched (every call below is refused or needs no kernel): fit checks at the
// last byte and with offsets near SIZE_MAX, and the exact overlap decision for
// tiles of ~16000 rows whose strides differ by one element, against a merge of
// their row intervals.
void TestPlacementArithmeticAtTheLimit(void**) {
  void* const fake = reinterpret_cast<void*>(uintptr_t{1} << 32);
  pto_buffer* b = nullptr;
  assert_int_equal(pto_buffer_wrap(fake, PTO_TILE_MAX_BYTES, &b), PTO_OK);
  pto_tile* t = nullptr;
  // 8192 x 8192 float32 = exactly 2^28 bytes at offset 0; one element less at 4.
  assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 8192, 8192, b, 0, &t), PTO_OK);
  pto_tile_destroy(t);
  assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 8192, 8192, b, 4, &t), PTO_ERR_OUT_OF_RANGE);
  assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 1, 1, b, PTO_TILE_MAX_BYTES - 4, &t), PTO_OK);
  pto_tile_destroy(t);
  const size_t offsets[] = {PTO_TILE_MAX_BYTES, SIZE_MAX - 3, SIZE_MAX & ~size_t{3},
                            SIZE_MAX - PTO_TILE_MAX_BYTES + 1};
  for (size_t offset : offsets) {
    pto_tile* out = kSentinel;
    const pto_status s = pto_tile_create_at(PTO_FLOAT32, 1, 1, b, offset, &out);
    if (s != PTO_ERR_OUT_OF_RANGE && s != PTO_ERR_INVALID_ARGUMENT)
      fail_msg("offset %zu: %s", offset, pto_status_string(s));
    assert_ptr_equal(out, kSentinel);
  }

  const uint32_t cols[][2] = {{8193, 8192}, {8192, 8192}, {4097, 8191}, {3, 5}};
  size_t overlapping = 0;
  for (const auto& c : cols) {
    for (uint32_t shift = 0; shift < 40; ++shift) {
      const uint32_t rows_a = static_cast<uint32_t>((PTO_TILE_MAX_BYTES - 8192) / 2 / c[0]);
      const uint32_t rows_b = static_cast<uint32_t>((PTO_TILE_MAX_BYTES - 8192) / 2 / c[1]);
      pto_tile *dst = nullptr, *src = nullptr;
      assert_int_equal(pto_tile_create_at(PTO_FLOAT16, rows_a, c[0], b, 0, &dst), PTO_OK);
      assert_int_equal(pto_tile_create_at(PTO_FLOAT16, rows_b, c[1], b, 2 * (3 + shift * 97), &src),
                       PTO_OK);
      const uint32_t vc_a = 1 + shift % 3, vc_b = vc_a % 3 + 1; /* never equal */
      assert_int_equal(pto_tile_set_valid(dst, rows_a, vc_a), PTO_OK);
      assert_int_equal(pto_tile_set_valid(src, rows_b - shift, vc_b), PTO_OK);
      const bool expected = MergeOverlap(
          {reinterpret_cast<uintptr_t>(pto_tile_data(dst)), 2u * c[0], 2u * vc_a, rows_a},
          {reinterpret_cast<uintptr_t>(pto_tile_data(src)), 2u * c[1], 2u * vc_b, rows_b - shift});
      // Regions differ, so a call not refused for aliasing is refused for
      // its shapes and no kernel touches the fake range. taddc keeps the
      // rule of identical placement; trsqrt's row order allows some of the
      // overlaps, and decides them at the limit without a fault.
      const pto_status s = pto_taddc(dst, src, src, src);
      assert_int_equal(s, expected ? PTO_ERR_ALIASING : PTO_ERR_SHAPE_MISMATCH);
      const pto_status ordered = pto_trsqrt(dst, src);
      assert_true(ordered == PTO_ERR_ALIASING || ordered == PTO_ERR_SHAPE_MISMATCH);
      if (!expected) assert_int_equal(ordered, PTO_ERR_SHAPE_MISMATCH);
      overlapping += expected;
      pto_tile_destroy(dst);
      pto_tile_destroy(src);
    }
  }
  print_message("%zu of 160 long placed pairs overlap\n", overlapping);
  assert_true(overlapping > 10 && overlapping < 150);
  pto_buffer_destroy(b);
}

void TestValidRegionEdges(void**) {
  pto_tile* t = nullptr;
  assert_int_equal(pto_tile_create(PTO_INT16, 3, 5, &t), PTO_OK);
  assert_int_equal(pto_tile_set_valid(t, 3, 5), PTO_OK);
  assert_int_equal(pto_tile_set_valid(t, 0, 0), PTO_OK);
  assert_int_equal(pto_tile_set_valid(t, 4, 5), PTO_ERR_OUT_OF_RANGE);
  assert_int_equal(pto_tile_set_valid(t, 3, 6), PTO_ERR_OUT_OF_RANGE);
  assert_int_equal(pto_tile_set_valid(t, UINT32_MAX, UINT32_MAX), PTO_ERR_OUT_OF_RANGE);
  assert_int_equal(pto_tile_set_valid(t, 0, UINT32_MAX), PTO_ERR_OUT_OF_RANGE);
  // A refused region leaves the previous one.
  assert_int_equal(pto_tile_valid_rows(t), 0);
  assert_int_equal(pto_tile_valid_cols(t), 0);
  pto_tile_destroy(t);
}

void TestCountEdges(void**) {
  pto_tile* t = nullptr;
  assert_int_equal(pto_tile_create(PTO_FLOAT32, 3, 5, &t), PTO_OK);
  std::vector<unsigned char> bytes(15 * 4 + 8, 0x11);
  std::vector<float> floats(15 + 2, 1.0f);
  // Wrong counts, including ones whose multiplication by the element size
  // would wrap to the right byte count.
  const size_t bad_counts[] = {0, 14, 16, SIZE_MAX, SIZE_MAX / 4 + 16, (SIZE_MAX >> 2) + 1,
                               size_t{1} << 62};
  for (size_t count : bad_counts) {
    assert_int_equal(pto_tile_write_f32(t, floats.data(), count), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_tile_read_f32(t, floats.data(), count), PTO_ERR_INVALID_ARGUMENT);
  }
  const size_t bad_bytes[] = {0, 59, 61, 15, SIZE_MAX, (SIZE_MAX >> 2) + 60};
  for (size_t nbytes : bad_bytes) {
    assert_int_equal(pto_tile_write(t, bytes.data(), nbytes), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_tile_read(t, bytes.data(), nbytes), PTO_ERR_INVALID_ARGUMENT);
  }
  assert_int_equal(pto_tile_write(t, bytes.data(), 60), PTO_OK);
  assert_int_equal(pto_tile_write_f32(t, floats.data(), 15), PTO_OK);
  pto_tile_destroy(t);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(TestLimitIsDocumented),
      cmocka_unit_test(TestJustAboveTheLimit),
      cmocka_unit_test(TestDimensionProductsDoNotWrap),
      cmocka_unit_test(TestZeroAndInvalidArguments),
      cmocka_unit_test(TestValidRegionEdges),
      cmocka_unit_test(TestCountEdges),
      cmocka_unit_test(TestExactlyAtTheLimit),
      cmocka_unit_test(TestBufferLimits),
      cmocka_unit_test(TestPlacementArithmeticAtTheLimit),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
