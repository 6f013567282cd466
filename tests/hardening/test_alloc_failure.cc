// Allocation failure: for every scenario, count the allocations N it makes,
// then for each n in 1..N make the n-th one fail and check that the call
// reports PTO_ERR_OUT_OF_MEMORY, leaves *out and every tile unchanged, and
// that the same call succeeds right after. Leaks show up under the
// LeakSanitizer and valgrind runs of tests/run-all.sh.
//
// Links the internal static library for pto::testing::FailNthAllocation.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <functional>
#include <thread>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "alloc.h"
#include "support.h"
#include "dtype_rules.h"
#include "pto_c.h"

namespace {

using pto::OpDtypes;

const pto_dtype kDtypes[] = {PTO_INT8,   PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                             PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

// How many allocations `call` makes when none fails; *status its status.
size_t CountAllocations(const std::function<pto_status()>& call, pto_status* status) {
  pto::testing::FailNthAllocation(0);
  *status = call();
  return pto::testing::FailNthAllocation(0);
}

// The same for a call that succeeds.
size_t CountAllocations(const std::function<pto_status()>& call) {
  pto_status status = PTO_OK;
  const size_t n = CountAllocations(call, &status);
  assert_int_equal(status, PTO_OK);
  return n;
}

std::vector<unsigned char> Bytes(pto_tile* t) {
  const size_t n = size_t{pto_tile_rows(t)} * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
  const unsigned char* p = static_cast<const unsigned char*>(pto_tile_data(t));
  return std::vector<unsigned char>(p, p + n);
}

void TestCreate(void**) {
  const uint32_t shapes[][2] = {{1, 1}, {3, 37}, {64, 64}};
  for (pto_dtype dtype : kDtypes) {
    for (const auto& shape : shapes) {
      pto_tile* made = nullptr;
      const size_t n_allocs = CountAllocations([&] {
        return pto_tile_create(dtype, shape[0], shape[1], &made);
      });
      pto_tile_destroy(made);
      assert_true(n_allocs >= 1);
      for (size_t n = 1; n <= n_allocs; ++n) {
        pto::testing::FailNthAllocation(n);
        pto_tile* const sentinel = reinterpret_cast<pto_tile*>(uintptr_t{0x5A5A5A5A});
        pto_tile* out = sentinel;
        assert_int_equal(pto_tile_create(dtype, shape[0], shape[1], &out), PTO_ERR_OUT_OF_MEMORY);
        assert_true(out == sentinel || out == nullptr);
        assert_non_null(strstr(pto_last_error(), "pto_tile_create"));
        // Only the n-th allocation fails: the next call succeeds.
        pto::testing::FailNthAllocation(0);
        out = nullptr;
        assert_int_equal(pto_tile_create(dtype, shape[0], shape[1], &out), PTO_OK);
        assert_non_null(out);
        pto_tile_destroy(out);
      }
    }
  }
  pto::testing::FailNthAllocation(0);
}

// The operation of a rule row (src/dtype_rules.h, the library's own table:
// every operation and the dtypes it accepts) on tiles of one dtype, under
// HOST; false for rows that are no operation of their own.
// (An operation's row key is its op id; tmp is passed where the operation
// requires one.)
bool RunRow(OpDtypes row, pto_tile* d, pto_tile* a, pto_tile* b, pto_tile* t, pto_status* status) {
  if (static_cast<int>(row) < OP_COUNT) {
    const op_id op = static_cast<op_id>(row);
    // tcvt converts between dtypes; with every tile of one dtype, its one
    // pair is FLOAT32 -> FLOAT32 (the other dtypes' calls are skipped).
    if (op_converts(op) && pto_tile_dtype(d) != PTO_FLOAT32) {
      *status = PTO_OK;
      return false;
    }
    *status = op_call(op, PTO_POW_DEFAULT, d, a, b,
                      op_row(op)->tmp == OP_TMP_REQUIRED ? t : nullptr);
    return true;
  }
  switch (row) {
    case OpDtypes::kPowHighPrecision:
      *status = pto_tpow(d, a, b, t, PTO_POW_HIGH_PRECISION);
      return true;
    case OpDtypes::kPreluTmp:   // tprelu's tmp: not used under HOST
    case OpDtypes::kFloatCopy:  // pto_tile_write_f32 / read_f32: not an operation
    case OpDtypes::kCount: return false;
    default: return false;      // the operations, above
  }
}

// The operations allocate nothing today; should one start to, every
// allocation it makes must fail cleanly too.
void TestOperations(void**) {
  size_t total_allocs = 0, rows_run = 0, rows_modelled = 1;  // (+1: tpow's HIGH_PRECISION row)
  for (size_t r = 0; r < pto::kOpDtypeRuleCount; ++r) {
    const OpDtypes row = pto::kOpDtypeRules[r].op;
    bool is_operation = false, accepted = false;
    for (pto_dtype dtype : kDtypes) {
      if (!pto::Accepts(row, PTO_PROFILE_HOST, dtype)) continue;
      pto_tile* tiles[4] = {};
      for (pto_tile*& t : tiles) assert_int_equal(pto_tile_create(dtype, 3, 37, &t), PTO_OK);
      std::vector<unsigned char> fill(Bytes(tiles[1]).size());
      for (size_t i = 0; i < fill.size(); ++i) fill[i] = static_cast<unsigned char>(i * 7 + 3);
      assert_int_equal(pto_tile_write(tiles[1], fill.data(), fill.size()), PTO_OK);
      assert_int_equal(pto_tile_write(tiles[2], fill.data(), fill.size()), PTO_OK);
      if (static_cast<int>(row) < OP_COUNT && op_is_broadcast(static_cast<op_id>(row))) {
        // The last source gives one value per row or column.
        const op_id op = static_cast<op_id>(row);
        const int e = op_row(op)->source_count - 1;
        uint32_t vr, vc;
        op_source_region(op, e, 3, 37, &vr, &vc);
        assert_int_equal(pto_tile_set_valid(tiles[1 + e], vr, vc), PTO_OK);
      }
      pto_status status = PTO_OK;
      auto call = [&] {
        is_operation = RunRow(row, tiles[0], tiles[1], tiles[2], tiles[3], &status) || is_operation;
        return status;
      };
      pto_status first = PTO_OK;
      const size_t n_allocs = CountAllocations(call, &first);
      total_allocs += n_allocs;
      // A row whose operands these 3x37 tiles of one dtype cannot be (a
      // transpose, a concatenation, indices, masks, a matrix product) is
      // refused before it allocates anything: nothing to fail.
      assert_true(first == PTO_OK || n_allocs == 0);
      accepted = accepted || first == PTO_OK;
      for (size_t n = 1; n <= n_allocs; ++n) {
        std::vector<unsigned char> before[4];
        for (int i = 0; i < 4; ++i) before[i] = Bytes(tiles[i]);
        pto::testing::FailNthAllocation(n);
        assert_int_equal(call(), PTO_ERR_OUT_OF_MEMORY);
        for (int i = 0; i < 3; ++i) assert_true(Bytes(tiles[i]) == before[i]);
        pto::testing::FailNthAllocation(0);
        assert_int_equal(call(), PTO_OK);
      }
      for (pto_tile* t : tiles) pto_tile_destroy(t);
    }
    rows_run += is_operation && accepted ? 1 : 0;
    if (static_cast<int>(row) < OP_COUNT) {
      const op_id op = static_cast<op_id>(row);
      rows_modelled += op_tested_apart(op) ? 0 : 1;
      // Only rows the generic loops do not model may be refused here.
      if (is_operation && !accepted && !op_tested_apart(op))
        fail_msg("%s refused every 3x37 call: %s", op_name(op), pto_last_error());
    }
  }
  // Every row the generic loops model ran, and tpow's HIGH_PRECISION row.
  assert_true(rows_run >= rows_modelled);
  print_message("operations made %zu allocations in all\n", total_allocs);
}

// Buffers (handle + owned storage, or handle only for a wrap) and placed
// tiles (handle only): each allocation of each fails in turn with
// PTO_ERR_OUT_OF_MEMORY, *out unchanged, the buffer's bytes and reference
// count unchanged (destroying everything afterwards frees exactly once, which
// ASan and valgrind check), and the same call succeeds right after.
void TestBuffersAndPlacedTiles(void**) {
  unsigned char memory[256];
  for (size_t i = 0; i < sizeof(memory); ++i) memory[i] = static_cast<unsigned char>(i);
  pto_buffer* const sentinel_buffer = reinterpret_cast<pto_buffer*>(uintptr_t{0x5A5A5A50});
  pto_tile* const sentinel_tile = reinterpret_cast<pto_tile*>(uintptr_t{0x5A5A5A50});
  struct BufferScenario {
    const char* name;
    size_t allocations;  // the handle, and the storage of an owned buffer
    std::function<pto_status(pto_buffer**)> make;
  };
  const BufferScenario scenarios[] = {
      {"pto_buffer_create", 2, [](pto_buffer** out) { return pto_buffer_create(1000, out); }},
      {"pto_buffer_wrap", 1,
       [&](pto_buffer** out) { return pto_buffer_wrap(memory, sizeof(memory), out); }},
  };
  for (const BufferScenario& sc : scenarios) {
    pto_buffer* made = nullptr;
    const size_t n_allocs = CountAllocations([&] { return sc.make(&made); });
    pto_buffer_destroy(made);
    assert_int_equal(n_allocs, sc.allocations);
    for (size_t n = 1; n <= n_allocs; ++n) {
      pto::testing::FailNthAllocation(n);
      pto_buffer* out = sentinel_buffer;
      assert_int_equal(sc.make(&out), PTO_ERR_OUT_OF_MEMORY);
      assert_ptr_equal(out, sentinel_buffer);
      assert_non_null(strstr(pto_last_error(), sc.name));
      pto::testing::FailNthAllocation(0);
      out = nullptr;
      assert_int_equal(sc.make(&out), PTO_OK);
      pto_buffer_destroy(out);
    }
    // Placing a tile in this kind of buffer.
    pto_buffer* buffer = nullptr;
    assert_int_equal(sc.make(&buffer), PTO_OK);
    for (pto_dtype dtype : kDtypes) {
      pto_tile* first = nullptr;
      const auto place = [&](pto_tile** out) {
        return pto_tile_create_at(dtype, 3, 5, buffer, 4 * pto_dtype_size(dtype), out);
      };
      const size_t tile_allocs = CountAllocations([&] { return place(&first); });
      assert_int_equal(tile_allocs, 1);
      std::vector<unsigned char> before(static_cast<unsigned char*>(pto_buffer_data(buffer)),
                                        static_cast<unsigned char*>(pto_buffer_data(buffer)) + 200);
      pto::testing::FailNthAllocation(1);
      pto_tile* out = sentinel_tile;
      assert_int_equal(place(&out), PTO_ERR_OUT_OF_MEMORY);
      assert_ptr_equal(out, sentinel_tile);
      assert_non_null(strstr(pto_last_error(), "pto_tile_create_at"));
      pto::testing::FailNthAllocation(0);
      assert_memory_equal(pto_buffer_data(buffer), before.data(), before.size());
      out = nullptr;
      assert_int_equal(place(&out), PTO_OK);
      pto_tile_destroy(first);
      pto_tile_destroy(out);
    }
    // The failed placements took no reference: this is the last one.
    pto_buffer_destroy(buffer);
  }
  for (size_t i = 0; i < sizeof(memory); ++i) assert_int_equal(memory[i], static_cast<unsigned char>(i));
  pto::testing::FailNthAllocation(0);
}

// A float32 product of 16 rows or more and more than 256 k takes its packed
// blocks from a buffer the thread allocates at its first such product and
// keeps. Where that allocation fails, the product runs on the tiles in
// place: it still succeeds, with the same bits. Each run is on a thread of
// its own, so that the buffer is allocated (or refused) there.
// The product of shape `shape` (m, k, n) with row and column padding, once
// on the packed blocks and once where the buffer is refused: the same bits.
void CheckPackedAgainstInPlace(const uint32_t shape[3]) {
  const uint32_t m = shape[0], k = shape[1], n = shape[2], pad = 3;
  pto_tile *a = nullptr, *b = nullptr, *packed = nullptr, *in_place = nullptr;
  assert_int_equal(pto_tile_create(PTO_FLOAT32, m + pad, k + pad, &a), PTO_OK);
  assert_int_equal(pto_tile_create(PTO_FLOAT32, k + pad, n + pad, &b), PTO_OK);
  assert_int_equal(pto_tile_create(PTO_FLOAT32, m + pad, n + pad, &packed), PTO_OK);
  assert_int_equal(pto_tile_create(PTO_FLOAT32, m + pad, n + pad, &in_place), PTO_OK);
  for (pto_tile* t : {a, b}) {
    float* data = static_cast<float*>(pto_tile_data(t));
    const size_t count = size_t{pto_tile_rows(t)} * pto_tile_cols(t);
    for (size_t i = 0; i < count; ++i) data[i] = static_cast<float>((i * 2654435761u) % 1999) / 999.0f - 1.0f;
  }
  assert_int_equal(pto_tile_set_valid(a, m, k), PTO_OK);
  assert_int_equal(pto_tile_set_valid(b, k, n), PTO_OK);
  for (pto_tile* t : {packed, in_place}) {
    float* data = static_cast<float*>(pto_tile_data(t));
    for (size_t i = 0; i < size_t{m + pad} * (n + pad); ++i) data[i] = static_cast<float>(i % 7) - 3.0f;
    assert_int_equal(pto_tile_set_valid(t, m, n), PTO_OK);
  }
  // dst += a b on a new thread, its fail_at-th allocation refused (0: none).
  const auto run_on_new_thread = [&](pto_tile* dst, size_t fail_at) {
    size_t attempts = 0;
    pto_status status = PTO_ERR_INVALID_ARGUMENT;
    std::thread([&] {
      pto::testing::FailNthAllocation(fail_at);
      status = pto_tmatmul_acc(dst, a, b);
      attempts = pto::testing::FailNthAllocation(0);
    }).join();
    assert_int_equal(status, PTO_OK);
    assert_int_equal(attempts, 1);  // the thread's buffer, and nothing else
  };
  run_on_new_thread(packed, 0);
  run_on_new_thread(in_place, 1);
  assert_true(Bytes(packed) == Bytes(in_place));
  for (pto_tile* t : {a, b, packed, in_place}) pto_tile_destroy(t);
}

// A float32 product of 16 rows or more and more than 256 k takes its packed
// blocks from a buffer the thread allocates at its first such product and
// keeps. Where that allocation fails, the product runs on the tiles in
// place: it still succeeds, with the same bits. Each run is on a thread of
// its own, so that the buffer is allocated (or refused) there.
void TestMatmulPackBuffer(void**) {
  // Three blocks of rows (256 each), two panels of k (256), row and lane
  // tails; then two of b's packed panels of k (2048) and of columns (512),
  // the second panel's last strip padded.
  const uint32_t rows[3] = {520, 300, 270}, panels[3] = {20, 2100, 530};
  CheckPackedAgainstInPlace(rows);
  CheckPackedAgainstInPlace(panels);
}

// A thread's first failure takes the memory for its sentence. Where that
// allocation fails, the call still fails as it would (its own status), and
// pto_last_error() says the sentence was lost; the next failure records
// its own. On a thread of its own, whose first failure this is.
void TestErrorSentence(void**) {
  std::thread([] {
    assert_string_equal(pto_last_error(), "");
    pto::testing::FailNthAllocation(1);
    pto_tile* out = nullptr;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 0, 1, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_null(out);
    assert_non_null(strstr(pto_last_error(), "no memory to record"));
    pto::testing::FailNthAllocation(0);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 0, 1, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tile_create"));
  }).join();
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(TestCreate),
      cmocka_unit_test(TestOperations),
      cmocka_unit_test(TestBuffersAndPlacedTiles),
      cmocka_unit_test(TestMatmulPackBuffer),
      cmocka_unit_test(TestErrorSentence),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
