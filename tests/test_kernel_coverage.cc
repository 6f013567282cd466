// Every (operation, dtype, profile, algorithm) that the dtype rule table
// accepts reaches a kernel that writes dst: dst starts as a sentinel byte
// pattern, the inputs give a result that differs from it in every element,
// and every element of dst must have changed. A dtype added to a rule row
// without kernel code fails here (the kernels abort on a dtype they have no
// code for) instead of returning PTO_OK with dst untouched.
//
// Unlike the other tests, this one reads the library's own table
// (src/dtype_rules.h): its point is that the table and the kernels agree.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <memory>
#include <vector>

extern "C" {
#include <cmocka.h>
}

#include "dtype_rules.h"
#include "pto_c.h"
#include "support.h"

namespace {

using pto::OpDtypes;

constexpr uint8_t kSentinelByte = 0xA5;
// Not a multiple of any vector length, so that every kernel runs a tail.
constexpr uint32_t kRows = 3, kCols = 37;
const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};

struct TileDeleter {
  void operator()(pto_tile* t) const { pto_tile_destroy(t); }
};
using Tile = std::unique_ptr<pto_tile, TileDeleter>;

Tile NewTile(pto_dtype dtype, uint32_t rows, uint32_t cols) {
  pto_tile* t = nullptr;
  assert_int_equal(pto_tile_create(dtype, rows, cols, &t), PTO_OK);
  return Tile(t);
}

size_t ByteSize(const pto_tile* t) {
  return size_t{pto_tile_rows(t)} * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
}

// Every element set to a small whole number, in the tile's own encoding.
void Fill(pto_tile* t, int value) {
  const size_t count = size_t{pto_tile_rows(t)} * pto_tile_cols(t);
  const pto_dtype dtype = pto_tile_dtype(t);
  if (pto::IsFloatDtype(dtype)) {
    std::vector<float> values(count, static_cast<float>(value));
    assert_int_equal(pto_tile_write_f32(t, values.data(), count), PTO_OK);
    return;
  }
  std::vector<uint8_t> bytes(count * pto_dtype_size(dtype));
  for (size_t i = 0; i < count; ++i) {
    const int64_t v = value;  // little-endian low bytes of the integer
    memcpy(&bytes[i * pto_dtype_size(dtype)], &v, pto_dtype_size(dtype));
  }
  assert_int_equal(pto_tile_write(t, bytes.data(), bytes.size()), PTO_OK);
}

void FillSentinel(pto_tile* t) {
  std::vector<uint8_t> bytes(ByteSize(t), kSentinelByte);
  assert_int_equal(pto_tile_write(t, bytes.data(), bytes.size()), PTO_OK);
}

// How many elements of the bytes still hold the sentinel.
size_t SentinelElements(const uint8_t* bytes, size_t count, size_t element_size) {
  size_t untouched = 0;
  for (size_t i = 0; i < count; ++i) {
    bool all = true;
    for (size_t k = 0; k < element_size; ++k) all = all && bytes[i * element_size + k] == kSentinelByte;
    untouched += all;
  }
  return untouched;
}

void ExpectWritten(const pto_tile* dst, const char* where) {
  std::vector<uint8_t> bytes(ByteSize(dst));
  assert_int_equal(pto_tile_read(dst, bytes.data(), bytes.size()), PTO_OK);
  const size_t untouched = SentinelElements(bytes.data(),
                                            size_t{pto_tile_rows(dst)} * pto_tile_cols(dst),
                                            pto_dtype_size(pto_tile_dtype(dst)));
  if (untouched != 0) fail_msg("%s: %zu elements of dst were not written", where, untouched);
}

// One accepted cell: runs the operation of `op` on dtype under `profile` and
// checks dst. Returns false for the table's rows that are not an operation.
bool RunCell(OpDtypes op, pto_profile profile, pto_dtype dtype) {
  char where[128];
  snprintf(where, sizeof(where), "row %d, %s, %s", static_cast<int>(op),
           pto_profile_string(profile), pto_dtype_string(dtype));
  assert_int_equal(pto_set_profile(profile), PTO_OK);
  Tile dst = NewTile(dtype, kRows, kCols);
  FillSentinel(dst.get());
  pto_status status = PTO_OK;
  const bool is_operation = static_cast<int>(op) < OP_COUNT;
  if (is_operation && op_is_reduction(static_cast<op_id>(op))) {
    // Reductions of ones: dst is [kRows,1] (rows) or [1,kCols] (columns),
    // every element of which is a result; A2A3's row reductions take a tmp.
    const bool rows = op_row(static_cast<op_id>(op))->family == OP_FAMILY_ROW_REDUCE;
    dst = rows ? NewTile(dtype, kRows, 1) : NewTile(dtype, 1, kCols);
    FillSentinel(dst.get());
    Tile src = NewTile(dtype, kRows, kCols), tmp = NewTile(dtype, kRows, 64);
    Fill(src.get(), 1);
    status = op_call(static_cast<op_id>(op), PTO_POW_DEFAULT, dst.get(), src.get(), nullptr,
                     tmp.get());
  } else if (is_operation && op_row(static_cast<op_id>(op))->family != OP_FAMILY_SPECIAL) {
    // f(1, 2), f(1): every elementwise family row's result differs from the sentinel.
    Tile src0 = NewTile(dtype, kRows, kCols), src1 = NewTile(dtype, kRows, kCols);
    Fill(src0.get(), 1);
    Fill(src1.get(), 2);
    const op_id id = static_cast<op_id>(op);
    if (op_is_broadcast(id)) {  // the last source gives one value per row or column
      const int e = op_row(id)->source_count - 1;
      uint32_t vr, vc;
      op_source_region(id, e, kRows, kCols, &vr, &vc);
      assert_int_equal(pto_tile_set_valid((e == 0 ? src0 : src1).get(), vr, vc), PTO_OK);
    }
    status = op_call(id, PTO_POW_DEFAULT, dst.get(), src0.get(), src1.get(), nullptr);
  } else switch (op) {
    case OpDtypes::kTpow:
    case OpDtypes::kPowHighPrecision: {  // 2^1 = 2
      Tile base = NewTile(dtype, kRows, kCols), exp = NewTile(dtype, kRows, kCols);
      Tile tmp = NewTile(dtype, kRows, kCols);
      Fill(base.get(), 2);
      Fill(exp.get(), 1);
      status = pto_tpow(dst.get(), base.get(), exp.get(), tmp.get(),
                        op == OpDtypes::kTpow ? PTO_POW_DEFAULT : PTO_POW_HIGH_PRECISION);
      break;
    }
    case OpDtypes::kTpows: {  // 2^1 = 2
      Tile base = NewTile(dtype, kRows, kCols);
      Fill(base.get(), 2);
      status = pto_tpows(dst.get(), base.get(), 1, PTO_POW_DEFAULT);
      break;
    }
    case OpDtypes::kTrsqrt: {  // 1/sqrt(4) = 0.5
      Tile src = NewTile(dtype, kRows, kCols);
      Fill(src.get(), 4);
      status = pto_trsqrt(dst.get(), src.get());
      break;
    }
    case OpDtypes::kTprelu:
    case OpDtypes::kPreluTmp: {  // 3 > 0: 3; the tmp row runs FLOAT32 with a tmp of `dtype`
      const pto_dtype dt = op == OpDtypes::kTprelu ? dtype : PTO_FLOAT32;
      const pto_dtype tmp_dt = op == OpDtypes::kTprelu ? PTO_UINT8 : dtype;
      if (op == OpDtypes::kPreluTmp && !pto::Accepts(OpDtypes::kTprelu, profile, dt)) return true;
      dst = NewTile(dt, kRows, kCols);
      FillSentinel(dst.get());
      Tile src0 = NewTile(dt, kRows, kCols), src1 = NewTile(dt, kRows, kCols);
      // What A2A3 asks for: rows >= dst valid rows + 1, valid rows == dst's.
      Tile tmp = NewTile(tmp_dt, kRows + 1, (kCols + 7) / 8);
      assert_int_equal(pto_tile_set_valid(tmp.get(), kRows, (kCols + 7) / 8), PTO_OK);
      Fill(src0.get(), 3);
      Fill(src1.get(), 1);
      status = pto_tprelu(dst.get(), src0.get(), src1.get(), tmp.get());
      break;
    }
    case OpDtypes::kTcolexpanddiv: {  // 6 / 3 = 2
      Tile src0 = NewTile(dtype, kRows, kCols), src1 = NewTile(dtype, 1, kCols);
      Fill(src0.get(), 6);
      Fill(src1.get(), 3);
      status = pto_tcolexpanddiv(dst.get(), src0.get(), src1.get());
      break;
    }
    case OpDtypes::kTpartadd: {  // 1 + 2 = 3 in the corner, 1 elsewhere
      Tile src0 = NewTile(dtype, kRows, kCols), src1 = NewTile(dtype, kRows, kCols);
      assert_int_equal(pto_tile_set_valid(src1.get(), kRows - 1, kCols - 5), PTO_OK);
      Fill(src0.get(), 1);
      Fill(src1.get(), 2);
      status = pto_tpartadd(dst.get(), src0.get(), src1.get());
      break;
    }
    case OpDtypes::kTcvt: {  // 1 converted from the first source dtype with a pair to dtype
      status = PTO_ERR_UNSUPPORTED_DTYPE;
      for (pto_dtype from : {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_INT32, PTO_INT16, PTO_INT8,
                             PTO_UINT8, PTO_UINT32, PTO_UINT16}) {
        Tile src = NewTile(from, kRows, kCols);
        Fill(src.get(), 1);
        status = pto_tcvt(dst.get(), src.get(), nullptr, PTO_ROUND_RINT, PTO_SAT_ON);
        if (status == PTO_OK) break;
      }
      break;
    }
    case OpDtypes::kTfillpad: {  // a 2x3 corner of ones, MAX (never the sentinel) elsewhere
      Tile src = NewTile(dtype, kRows, kCols);
      Fill(src.get(), 1);
      assert_int_equal(pto_tile_set_valid(src.get(), 2, 3), PTO_OK);
      status = pto_tfillpad(dst.get(), src.get(), PTO_PAD_MAX);
      break;
    }
    case OpDtypes::kTci: {  // 1, 2, 3, ... along one row (A2A3 and A5 take one row)
      dst = NewTile(dtype, 1, kCols);
      FillSentinel(dst.get());
      status = pto_tci(dst.get(), 1, 0);
      break;
    }
    case OpDtypes::kTreshape: {  // ones' bytes, dst's shape transposed
      Tile src = NewTile(dtype, kCols, kRows);
      Fill(src.get(), 1);
      status = pto_treshape(dst.get(), src.get());
      break;
    }
    case OpDtypes::kTtrans: {  // ones transposed into the whole of dst (rows of 32 bytes: A5)
      dst = NewTile(dtype, 32, 32);
      FillSentinel(dst.get());
      Tile src = NewTile(dtype, 32, 32), tmp = NewTile(dtype, 1, 8);
      Fill(src.get(), 1);
      status = pto_ttrans(dst.get(), src.get(), tmp.get());
      break;
    }
    case OpDtypes::kTconcat: {  // ones: 20 columns of src0, 17 of src1
      Tile src0 = NewTile(dtype, kRows, 20), src1 = NewTile(dtype, kRows, 17);
      Fill(src0.get(), 1);
      Fill(src1.get(), 1);
      status = pto_tconcat(dst.get(), src0.get(), src1.get());
      break;
    }
    case OpDtypes::kTextract: {  // a 4x32 window of ones at (2, 32): 32-byte rows and offset (A2A3)
      dst = NewTile(dtype, 4, 32);
      FillSentinel(dst.get());
      Tile src = NewTile(dtype, 8, 64);
      Fill(src.get(), 1);
      status = pto_textract(dst.get(), src.get(), 2, 32);
      break;
    }
    case OpDtypes::kTgather:
    case OpDtypes::kGatherIndices: {  // element 0 (a one) everywhere; the indices row gathers FLOAT32
      const pto_dtype data_dt = op == OpDtypes::kGatherIndices ? PTO_FLOAT32 : dtype;
      const pto_dtype index_dt = op == OpDtypes::kGatherIndices ? dtype : PTO_INT32;
      dst = NewTile(data_dt, kRows, kCols);
      FillSentinel(dst.get());
      Tile src = NewTile(data_dt, kRows, kCols);
      Tile indices = NewTile(index_dt, kRows, kCols), tmp = NewTile(index_dt, kRows, kCols);
      Fill(src.get(), 1);
      Fill(indices.get(), 0);
      status = pto_tgather(dst.get(), src.get(), indices.get(), tmp.get());
      break;
    }
    case OpDtypes::kTsetval:
    case OpDtypes::kTgetval: {  // a one into a 1x1 dst; tgetval reads it from a tile of ones first
      dst = NewTile(dtype, 1, 1);
      FillSentinel(dst.get());
      double value = 1;
      if (op == OpDtypes::kTgetval) {
        Tile src = NewTile(dtype, kRows, kCols);
        Fill(src.get(), 1);
        value = 0;
        status = pto_tgetval(src.get(), 40, &value);
        if (status != PTO_OK) break;
      }
      status = pto_tsetval(dst.get(), 0, value);
      break;
    }
    case OpDtypes::kTcmp:
    case OpDtypes::kTcmps:
    case OpDtypes::kCompareMask: {  // 1 == 1 in every column: a mask of ones
      // The mask row compares FLOAT32 (every profile's) into a mask of `dtype`.
      const pto_dtype src_dt = op == OpDtypes::kCompareMask ? PTO_FLOAT32 : dtype;
      dst = NewTile(op == OpDtypes::kCompareMask ? dtype : PTO_UINT8, kRows, (kCols + 7) / 8);
      FillSentinel(dst.get());
      Tile src0 = NewTile(src_dt, kRows, kCols), src1 = NewTile(src_dt, kRows, kCols);
      Fill(src0.get(), 1);
      Fill(src1.get(), 1);
      status = op == OpDtypes::kTcmps ? pto_tcmps(dst.get(), src0.get(), 1, PTO_CMP_EQ)
                                      : pto_tcmp(dst.get(), src0.get(), src1.get(), PTO_CMP_EQ);
      break;
    }
    case OpDtypes::kTsel:
    case OpDtypes::kTsels: {  // every mask bit set: src0 (1) everywhere
      Tile mask = NewTile(PTO_UINT8, kRows, (kCols + 7) / 8);
      Fill(mask.get(), 255);
      Tile src0 = NewTile(dtype, kRows, kCols), src1 = NewTile(dtype, kRows, kCols);
      Fill(src0.get(), 1);
      Fill(src1.get(), 2);
      // A2A3's tmp: UINT32 mask words for tsel, dst's dtype for tsels.
      Tile tmp = NewTile(op == OpDtypes::kTsel ? PTO_UINT32 : dtype, 1, 16);
      status = op == OpDtypes::kTsel
                   ? pto_tsel(dst.get(), mask.get(), src0.get(), src1.get(), tmp.get())
                   : pto_tsels(dst.get(), mask.get(), src0.get(), tmp.get(), 2);
      break;
    }
    case OpDtypes::kFloatCopy: {  // into the tile, then out of it into a float array
      std::vector<float> values(size_t{kRows} * kCols, 2.0f);
      status = pto_tile_write_f32(dst.get(), values.data(), values.size());
      if (status != PTO_OK) break;
      std::vector<float> out(values.size());
      memset(out.data(), kSentinelByte, out.size() * sizeof(float));
      assert_int_equal(pto_tile_read_f32(dst.get(), out.data(), out.size()), PTO_OK);
      const size_t untouched = SentinelElements(reinterpret_cast<const uint8_t*>(out.data()),
                                                out.size(), sizeof(float));
      if (untouched != 0) fail_msg("%s: pto_tile_read_f32 left %zu floats unwritten", where, untouched);
      break;
    }
    case OpDtypes::kCount: return false;
    default: fail_msg("%s: an operation of no family this test knows", where);
  }
  assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
  if (status != PTO_OK)
    fail_msg("%s: the table accepts it, but the call returned %s (%s)", where,
             pto_status_string(status), pto_last_error());
  ExpectWritten(dst.get(), where);
  return true;
}

void test_every_accepted_cell_writes_dst(void** state) {
  (void)state;
  size_t cells = 0;
  for (size_t row = 0; row < pto::kOpDtypeRuleCount; ++row) {
    const OpDtypes op = pto::kOpDtypeRules[row].op;
    for (pto_profile profile : kProfiles)
      for (int d = PTO_INT8; d <= PTO_FLOAT32; ++d) {
        const pto_dtype dtype = static_cast<pto_dtype>(d);
        if (!pto::Accepts(op, profile, dtype)) continue;
        assert_true(RunCell(op, profile, dtype));
        ++cells;
      }
  }
  // Every row has some accepted cell in every profile.
  assert_true(cells >= pto::kOpDtypeRuleCount * 3);
  print_message("[kernel coverage] %zu accepted (operation, profile, dtype) cells write dst\n",
                cells);
}

}  // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_accepted_cell_writes_dst),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
