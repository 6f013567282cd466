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

// One cell's call: the row, the profile and dtype, and dst, which starts as
// a kRows x kCols tile of the sentinel; a row whose dst has another shape
// (or dtype) replaces it with NewDst.
struct Cell {
  OpDtypes op;
  pto_profile profile;
  pto_dtype dtype;
  Tile dst;
  const char* where;

  pto_tile* NewDst(pto_dtype dt, uint32_t rows, uint32_t cols) {
    dst = NewTile(dt, rows, cols);
    FillSentinel(dst.get());
    return dst.get();
  }
};

// A cell's call returns its status, or kNotRun where the cell has nothing to
// run (tprelu's tmp row under a profile whose tprelu refuses FLOAT32).
constexpr pto_status kNotRun = static_cast<pto_status>(-1);

// Reductions of ones: dst is [kRows,1] (rows) or [1,kCols] (columns), every
// element of which is a result; A2A3's row reductions take a tmp.
pto_status RunReduction(Cell& c) {
  const op_id id = static_cast<op_id>(c.op);
  const bool rows = op_row(id)->family == OP_FAMILY_ROW_REDUCE;
  pto_tile* dst = rows ? c.NewDst(c.dtype, kRows, 1) : c.NewDst(c.dtype, 1, kCols);
  Tile src = NewTile(c.dtype, kRows, kCols), tmp = NewTile(c.dtype, kRows, 64);
  Fill(src.get(), 1);
  return op_call(id, PTO_POW_DEFAULT, dst, src.get(), nullptr, tmp.get());
}

// f(1, 2), f(1): every elementwise family row's result differs from the sentinel.
pto_status RunFamily(Cell& c) {
  const op_id id = static_cast<op_id>(c.op);
  Tile src0 = NewTile(c.dtype, kRows, kCols), src1 = NewTile(c.dtype, kRows, kCols);
  Fill(src0.get(), 1);
  Fill(src1.get(), 2);
  if (op_is_broadcast(id)) {  // the last source gives one value per row or column
    const int e = op_row(id)->source_count - 1;
    uint32_t vr, vc;
    op_source_region(id, e, kRows, kCols, &vr, &vc);
    assert_int_equal(pto_tile_set_valid((e == 0 ? src0 : src1).get(), vr, vc), PTO_OK);
  }
  return op_call(id, PTO_POW_DEFAULT, c.dst.get(), src0.get(), src1.get(), nullptr);
}

pto_status RunPow(Cell& c) {  // 2^1 = 2
  Tile base = NewTile(c.dtype, kRows, kCols), exp = NewTile(c.dtype, kRows, kCols);
  Tile tmp = NewTile(c.dtype, kRows, kCols);
  Fill(base.get(), 2);
  Fill(exp.get(), 1);
  return pto_tpow(c.dst.get(), base.get(), exp.get(), tmp.get(),
                  c.op == OpDtypes::kTPow ? PTO_POW_DEFAULT : PTO_POW_HIGH_PRECISION);
}

pto_status RunTPows(Cell& c) {  // 2^1 = 2
  Tile base = NewTile(c.dtype, kRows, kCols);
  Fill(base.get(), 2);
  return pto_tpows(c.dst.get(), base.get(), 1, PTO_POW_DEFAULT);
}

pto_status RunTRsqrt(Cell& c) {  // 1/sqrt(4) = 0.5
  Tile src = NewTile(c.dtype, kRows, kCols);
  Fill(src.get(), 4);
  return pto_trsqrt(c.dst.get(), src.get());
}

// 3 > 0: 3; the tmp row runs FLOAT32 with a tmp of the cell's dtype.
pto_status RunPrelu(Cell& c) {
  const pto_dtype dt = c.op == OpDtypes::kTPrelu ? c.dtype : PTO_FLOAT32;
  const pto_dtype tmp_dt = c.op == OpDtypes::kTPrelu ? PTO_UINT8 : c.dtype;
  if (c.op == OpDtypes::kPreluTmp && !pto::Accepts(OpDtypes::kTPrelu, c.profile, dt)) return kNotRun;
  pto_tile* dst = c.NewDst(dt, kRows, kCols);
  Tile src0 = NewTile(dt, kRows, kCols), src1 = NewTile(dt, kRows, kCols);
  // What A2A3 asks for: rows >= dst valid rows + 1, valid rows == dst's.
  Tile tmp = NewTile(tmp_dt, kRows + 1, (kCols + 7) / 8);
  assert_int_equal(pto_tile_set_valid(tmp.get(), kRows, (kCols + 7) / 8), PTO_OK);
  Fill(src0.get(), 3);
  Fill(src1.get(), 1);
  return pto_tprelu(dst, src0.get(), src1.get(), tmp.get());
}

pto_status RunTColExpandDiv(Cell& c) {  // 6 / 3 = 2
  Tile src0 = NewTile(c.dtype, kRows, kCols), src1 = NewTile(c.dtype, 1, kCols);
  Fill(src0.get(), 6);
  Fill(src1.get(), 3);
  return pto_tcolexpanddiv(c.dst.get(), src0.get(), src1.get());
}

pto_status RunTPartAdd(Cell& c) {  // 1 + 2 = 3 in the corner, 1 elsewhere
  Tile src0 = NewTile(c.dtype, kRows, kCols), src1 = NewTile(c.dtype, kRows, kCols);
  assert_int_equal(pto_tile_set_valid(src1.get(), kRows - 1, kCols - 5), PTO_OK);
  Fill(src0.get(), 1);
  Fill(src1.get(), 2);
  return pto_tpartadd(c.dst.get(), src0.get(), src1.get());
}

// 1 converted from the first source dtype with a pair to the cell's dtype
// (a packed dst's bytes hold two values: twice as many source cols).
pto_status RunTCvt(Cell& c) {
  pto_status status = PTO_ERR_UNSUPPORTED_DTYPE;
  const bool packed = c.dtype == PTO_FLOAT4_E2M1X2 || c.dtype == PTO_FLOAT4_E1M2X2 ||
                      c.dtype == PTO_INT4X2;
  for (pto_dtype from : {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_INT32, PTO_INT16, PTO_INT8,
                         PTO_UINT8, PTO_UINT32, PTO_UINT16}) {
    Tile src = NewTile(from, kRows, packed ? 2 * kCols : kCols);
    Fill(src.get(), 1);
    status = pto_tcvt(c.dst.get(), src.get(), nullptr, PTO_ROUND_RINT, PTO_SAT_ON);
    if (status == PTO_OK) break;
  }
  return status;
}

pto_status RunTFillPad(Cell& c) {  // a 2x3 corner of ones, MAX (never the sentinel) elsewhere
  Tile src = NewTile(c.dtype, kRows, kCols);
  Fill(src.get(), 1);
  assert_int_equal(pto_tile_set_valid(src.get(), 2, 3), PTO_OK);
  return pto_tfillpad(c.dst.get(), src.get(), PTO_PAD_MAX);
}

pto_status RunTCI(Cell& c) {  // 1, 2, 3, ... along one row (A2A3 and A5 take one row)
  return pto_tci(c.NewDst(c.dtype, 1, kCols), 1, 0);
}

pto_status RunTReshape(Cell& c) {  // ones' bytes, dst's shape transposed
  Tile src = NewTile(c.dtype, kCols, kRows);
  Fill(src.get(), 1);
  return pto_treshape(c.dst.get(), src.get());
}

pto_status RunTTrans(Cell& c) {  // ones transposed into the whole of dst (rows of 32 bytes: A5)
  pto_tile* dst = c.NewDst(c.dtype, 32, 32);
  Tile src = NewTile(c.dtype, 32, 32), tmp = NewTile(c.dtype, 1, 8);
  Fill(src.get(), 1);
  return pto_ttrans(dst, src.get(), tmp.get());
}

pto_status RunTConcat(Cell& c) {  // ones: 20 columns of src0, 17 of src1
  Tile src0 = NewTile(c.dtype, kRows, 20), src1 = NewTile(c.dtype, kRows, 17);
  Fill(src0.get(), 1);
  Fill(src1.get(), 1);
  return pto_tconcat(c.dst.get(), src0.get(), src1.get());
}

// A 4x32 window of ones at (2, 32): 32-byte rows and offset (A2A3).
pto_status RunTExtract(Cell& c) {
  pto_tile* dst = c.NewDst(c.dtype, 4, 32);
  Tile src = NewTile(c.dtype, 8, 64);
  Fill(src.get(), 1);
  return pto_textract(dst, src.get(), 2, 32);
}

// Element 0 (a one) everywhere; the indices row gathers FLOAT32.
pto_status RunGather(Cell& c) {
  const pto_dtype data_dt = c.op == OpDtypes::kGatherIndices ? PTO_FLOAT32 : c.dtype;
  const pto_dtype index_dt = c.op == OpDtypes::kGatherIndices ? c.dtype : PTO_INT32;
  pto_tile* dst = c.NewDst(data_dt, kRows, kCols);
  Tile src = NewTile(data_dt, kRows, kCols);
  Tile indices = NewTile(index_dt, kRows, kCols), tmp = NewTile(index_dt, kRows, kCols);
  Fill(src.get(), 1);
  Fill(indices.get(), 0);
  return pto_tgather(dst, src.get(), indices.get(), tmp.get());
}

// A tile of ones, each to its own element (index k at flat offset k); the
// indices row scatters data of its width (FLOAT32 by 4 bytes, FLOAT16 by 2),
// and 8-byte data is scattered by 4-byte indices.
pto_status RunScatter(Cell& c) {
  const bool index_row = c.op == OpDtypes::kScatterIndices;
  const pto_dtype data_dt =
      !index_row ? c.dtype : pto_dtype_size(c.dtype) == 4 ? PTO_FLOAT32 : PTO_FLOAT16;
  const pto_dtype index_dt =
      index_row ? c.dtype : pto_dtype_size(c.dtype) >= 4 ? PTO_INT32 : PTO_INT16;
  pto_tile* dst = c.NewDst(data_dt, kRows, kCols);
  Tile src = NewTile(data_dt, kRows, kCols), indices = NewTile(index_dt, kRows, kCols);
  Fill(src.get(), 1);
  for (uint32_t k = 0; k < kRows * kCols; ++k) {
    const uint32_t bits = k;
    memcpy(static_cast<char*>(pto_tile_data(indices.get())) + k * pto_dtype_size(index_dt), &bits,
           pto_dtype_size(index_dt));  // little-endian: the low bytes
  }
  return pto_tscatter(dst, src.get(), indices.get());
}

// A one into a 1x1 dst; tgetval reads it from a tile of ones first.
pto_status RunElementAccess(Cell& c) {
  pto_tile* dst = c.NewDst(c.dtype, 1, 1);
  double value = 1;
  if (c.op == OpDtypes::kTGetVal) {
    Tile src = NewTile(c.dtype, kRows, kCols);
    Fill(src.get(), 1);
    value = 0;
    const pto_status status = pto_tgetval(src.get(), 40, &value);
    if (status != PTO_OK) return status;
  }
  return pto_tsetval(dst, 0, value);
}

// mgather from a table in memory: a tile of ones is the table (its storage
// read as table_elements elements), every index 0; the indices row gathers
// FLOAT32.
pto_status RunGlobalGather(Cell& c) {
  const bool index_row = c.op == OpDtypes::kGlobalIndices;
  const pto_dtype data_dt = index_row ? PTO_FLOAT32 : c.dtype;
  pto_tile* dst = c.NewDst(data_dt, kRows, kCols);
  Tile table = NewTile(data_dt, kRows, kCols), indices = NewTile(index_row ? c.dtype : PTO_INT32, kRows, kCols);
  Fill(table.get(), 1);
  Fill(indices.get(), 0);
  return pto_mgather(dst, pto_tile_data(table.get()), size_t{kRows} * kCols, data_dt, indices.get(),
                     PTO_COALESCE_ELEM);
}

// mscatter of a tile of ones into a table of zeros (index k to element k),
// then mgather of it back into dst: dst's ones came through the table.
pto_status RunGlobalScatter(Cell& c) {
  pto_tile* dst = c.NewDst(c.dtype, kRows, kCols);
  Tile src = NewTile(c.dtype, kRows, kCols), table = NewTile(c.dtype, kRows, kCols),
       indices = NewTile(PTO_INT32, kRows, kCols);
  Fill(src.get(), 1);
  Fill(table.get(), 0);
  int32_t* at = static_cast<int32_t*>(pto_tile_data(indices.get()));
  for (int32_t k = 0; k < static_cast<int32_t>(kRows * kCols); ++k) at[k] = k;
  const size_t elements = size_t{kRows} * kCols;
  const pto_status status = pto_mscatter(pto_tile_data(table.get()), elements, c.dtype, src.get(),
                                         indices.get(), PTO_COALESCE_ELEM);
  if (status != PTO_OK) return status;
  return pto_mgather(dst, pto_tile_data(table.get()), elements, c.dtype, indices.get(),
                     PTO_COALESCE_ELEM);
}

// Philox words into the whole dst.
pto_status RunRandom(Cell& c) {
  pto_tile* dst = c.NewDst(c.dtype, kRows, kCols);
  return pto_trandom(dst, 1, 2, 3, 4, 5, 6, 10);
}

// An im2col window of a 4x4 map of ones (a 2x2 filter: 9 rows, 4*C0 cols)
// into a 16 x 2*C0 dst, the profile's left tile: rows past the matrix take
// the pad element 0; both differ from the sentinel.
pto_status RunImg2col(Cell& c) {
  const uint32_t c0 = 32 / static_cast<uint32_t>(pto_dtype_size(c.dtype));
  pto_tile *dst = nullptr, *src = nullptr;
  const bool npu = c.profile != PTO_PROFILE_HOST;
  const pto_layout left = c.profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
  assert_int_equal(pto_tile_create_cube(c.dtype, 16, 2 * c0, npu ? PTO_LOC_LEFT : PTO_LOC_VEC,
                                        npu ? left : PTO_LAYOUT_ND, &dst),
                   PTO_OK);
  c.dst = Tile(dst);
  FillSentinel(dst);
  assert_int_equal(pto_tile_create_cube(c.dtype, 16, c0, npu ? PTO_LOC_MAT : PTO_LOC_VEC,
                                        npu ? PTO_LAYOUT_NZ : PTO_LAYOUT_ND, &src),
                   PTO_OK);
  Tile owned(src);
  Fill(src, 1);
  pto_img2col_config config = {};
  config.fmap_h = config.fmap_w = 4;
  config.repeat_time = 1;
  config.stride_h = config.stride_w = config.dilation_h = config.dilation_w = 1;
  config.filter_h = config.filter_w = 2;
  config.channel_size = static_cast<uint16_t>(c0);
  assert_int_equal(pto_setfmatrix(&config), PTO_OK);
  assert_int_equal(pto_set_img2col_padding(&config), PTO_OK);
  assert_int_equal(pto_set_img2col_rpt(&config), PTO_OK);
  return pto_timg2col(dst, src, &config, 0, 0);
}

// 1 == 1 in every column: a mask of ones. The mask row compares FLOAT32
// (every profile's) into a mask of the cell's dtype.
pto_status RunCompare(Cell& c) {
  const bool mask_row = c.op == OpDtypes::kCompareMask;
  const pto_dtype src_dt = mask_row ? PTO_FLOAT32 : c.dtype;
  pto_tile* dst = c.NewDst(mask_row ? c.dtype : PTO_UINT8, kRows, (kCols + 7) / 8);
  Tile src0 = NewTile(src_dt, kRows, kCols), src1 = NewTile(src_dt, kRows, kCols);
  Fill(src0.get(), 1);
  Fill(src1.get(), 1);
  return c.op == OpDtypes::kTCmps ? pto_tcmps(dst, src0.get(), 1, PTO_CMP_EQ)
                                  : pto_tcmp(dst, src0.get(), src1.get(), PTO_CMP_EQ);
}

pto_status RunSelect(Cell& c) {  // every mask bit set: src0 (1) everywhere
  Tile mask = NewTile(PTO_UINT8, kRows, (kCols + 7) / 8);
  Fill(mask.get(), 255);
  Tile src0 = NewTile(c.dtype, kRows, kCols), src1 = NewTile(c.dtype, kRows, kCols);
  Fill(src0.get(), 1);
  Fill(src1.get(), 2);
  // A2A3's tmp: UINT32 mask words for tsel, dst's dtype for tsels.
  Tile tmp = NewTile(c.op == OpDtypes::kTSel ? PTO_UINT32 : c.dtype, 1, 16);
  return c.op == OpDtypes::kTSel
             ? pto_tsel(c.dst.get(), mask.get(), src0.get(), src1.get(), tmp.get())
             : pto_tsels(c.dst.get(), mask.get(), src0.get(), tmp.get(), 2);
}

pto_status RunFloatCopy(Cell& c) {  // into the tile, then out of it into a float array
  std::vector<float> values(size_t{kRows} * kCols, 2.0f);
  const pto_status status = pto_tile_write_f32(c.dst.get(), values.data(), values.size());
  if (status != PTO_OK) return status;
  std::vector<float> out(values.size());
  memset(out.data(), kSentinelByte, out.size() * sizeof(float));
  assert_int_equal(pto_tile_read_f32(c.dst.get(), out.data(), out.size()), PTO_OK);
  const size_t untouched = SentinelElements(reinterpret_cast<const uint8_t*>(out.data()),
                                            out.size(), sizeof(float));
  if (untouched != 0) fail_msg("%s: pto_tile_read_f32 left %zu floats unwritten", c.where, untouched);
  return status;
}

// Ones quantised by a per-row scale of ones (UINT8 dst with an offset of
// ones: twos), or INT8 / INT16 ones dequantised: (1 - 0) * 1. The source and
// parameter rows (FLOAT32, INT8 / INT16) quantise into INT8 or dequantise.
pto_status RunQuant(Cell& c) {
  const bool dequant = c.op == OpDtypes::kTDequant || c.op == OpDtypes::kDequantSrc;
  const pto_dtype src_dt = c.op == OpDtypes::kDequantSrc ? c.dtype
                           : dequant                     ? PTO_INT8
                                                         : PTO_FLOAT32;
  const pto_dtype dst_dt =
      c.op == OpDtypes::kTQuant || c.op == OpDtypes::kTDequant ? c.dtype
      : dequant                                                ? PTO_FLOAT32
                                                               : PTO_INT8;
  pto_tile* dst = c.NewDst(dst_dt, kRows, kCols);
  Tile src = NewTile(src_dt, kRows, kCols), scale = NewTile(PTO_FLOAT32, kRows, 8),
       offset = NewTile(PTO_FLOAT32, kRows, 8), tmp = NewTile(PTO_FLOAT32, kRows, kCols);
  Fill(src.get(), 1);
  Fill(scale.get(), 1);
  Fill(offset.get(), dequant ? 0 : 1);
  assert_int_equal(pto_tile_set_valid(scale.get(), kRows, 1), PTO_OK);
  assert_int_equal(pto_tile_set_valid(offset.get(), kRows, 1), PTO_OK);
  if (dequant) return pto_tdequant(dst, src.get(), scale.get(), offset.get());
  return pto_tquant(dst, src.get(), scale.get(), dst_dt == PTO_UINT8 ? offset.get() : nullptr,
                    tmp.get());
}

// Cells of Special rows with no call below (their own tests cover them).
size_t g_cells_left_to_own_tests = 0;

// The rows of no family (Special rows and the rules beside the operations)
// and their calls.
struct SpecialRun {
  OpDtypes op;
  pto_status (*run)(Cell&);
};
const SpecialRun kSpecialRuns[] = {
    {OpDtypes::kTPow, RunPow},
    {OpDtypes::kPowHighPrecision, RunPow},
    {OpDtypes::kTPows, RunTPows},
    {OpDtypes::kTRsqrt, RunTRsqrt},
    {OpDtypes::kTPrelu, RunPrelu},
    {OpDtypes::kPreluTmp, RunPrelu},
    {OpDtypes::kTColExpandDiv, RunTColExpandDiv},
    {OpDtypes::kTPartAdd, RunTPartAdd},
    {OpDtypes::kTCvt, RunTCvt},
    {OpDtypes::kTFillPad, RunTFillPad},
    {OpDtypes::kTCI, RunTCI},
    {OpDtypes::kTReshape, RunTReshape},
    {OpDtypes::kTTrans, RunTTrans},
    {OpDtypes::kTConcat, RunTConcat},
    {OpDtypes::kTExtract, RunTExtract},
    {OpDtypes::kTGather, RunGather},
    {OpDtypes::kGatherIndices, RunGather},
    {OpDtypes::kTScatter, RunScatter},
    {OpDtypes::kScatterIndices, RunScatter},
    {OpDtypes::kTSetVal, RunElementAccess},
    {OpDtypes::kTGetVal, RunElementAccess},
    {OpDtypes::kTRandom, RunRandom},
    {OpDtypes::kTImg2col, RunImg2col},
    {OpDtypes::kMGather, RunGlobalGather},
    {OpDtypes::kMScatter, RunGlobalScatter},
    {OpDtypes::kGlobalIndices, RunGlobalGather},
    {OpDtypes::kTCmp, RunCompare},
    {OpDtypes::kTCmps, RunCompare},
    {OpDtypes::kCompareMask, RunCompare},
    {OpDtypes::kTSel, RunSelect},
    {OpDtypes::kTSels, RunSelect},
    {OpDtypes::kFloatCopy, RunFloatCopy},
    {OpDtypes::kTQuant, RunQuant},
    {OpDtypes::kTDequant, RunQuant},
    {OpDtypes::kQuantSrc, RunQuant},
    {OpDtypes::kDequantSrc, RunQuant},
    {OpDtypes::kQuantParam, RunQuant},
};

// One accepted cell: runs the operation of `op` on dtype under `profile` and
// checks dst. Returns false for the table's rows that are not an operation.
bool RunCell(OpDtypes op, pto_profile profile, pto_dtype dtype) {
  char where[128];
  snprintf(where, sizeof(where), "row %d, %s, %s", static_cast<int>(op),
           pto_profile_string(profile), pto_dtype_string(dtype));
  assert_int_equal(pto_set_profile(profile), PTO_OK);
  Cell cell{op, profile, dtype, NewTile(dtype, kRows, kCols), where};
  FillSentinel(cell.dst.get());
  const bool is_operation = static_cast<int>(op) < OP_COUNT;
  pto_status status;
  if (is_operation && op_is_reduction(static_cast<op_id>(op))) {
    status = RunReduction(cell);
  } else if (is_operation && op_row(static_cast<op_id>(op))->family != OP_FAMILY_SPECIAL) {
    status = RunFamily(cell);
  } else if (op == OpDtypes::kCount) {
    return false;
  } else {
    const SpecialRun* special = nullptr;
    for (const SpecialRun& s : kSpecialRuns)
      if (s.op == op) special = &s;
    // A Special row this test has no call for is one of the rows the generic
    // loops do not model either: its own test file runs every dtype its rows
    // accept (test_matmul.c the matrix multiplies'). Said in the log.
    if (special == nullptr && is_operation && op_tested_apart(static_cast<op_id>(op))) {
      assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
      print_message("%s (%s): no call here, its own test file covers it\n", where,
                    op_name(static_cast<op_id>(op)));
      ++g_cells_left_to_own_tests;
      return true;
    }
    if (special == nullptr) fail_msg("%s: an operation of no family this test knows", where);
    status = special->run(cell);
    if (status == kNotRun) return true;
  }
  assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
  if (status != PTO_OK)
    fail_msg("%s: the table accepts it, but the call returned %s (%s)", where,
             pto_status_string(status), pto_last_error());
  ExpectWritten(cell.dst.get(), where);
  return true;
}

void test_every_accepted_cell_writes_dst(void** state) {
  (void)state;
  size_t cells = 0;
  for (size_t row = 0; row < pto::kOpDtypeRuleCount; ++row) {
    const OpDtypes op = pto::kOpDtypeRules[row].op;
    for (pto_profile profile : kProfiles)
      for (int d = PTO_INT8; d < TEST_DTYPE_COUNT; ++d) {
        const pto_dtype dtype = static_cast<pto_dtype>(d);
        if (!pto::Accepts(op, profile, dtype)) continue;
        assert_true(RunCell(op, profile, dtype));
        ++cells;
      }
  }
  // Every row has some accepted cell in every profile.
  assert_true(cells >= pto::kOpDtypeRuleCount * 3);
  print_message("[kernel coverage] %zu accepted (operation, profile, dtype) cells write dst; %zu "
                "more are left to their rows' own tests\n",
                cells - g_cells_left_to_own_tests, g_cells_left_to_own_tests);
}

}  // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_accepted_cell_writes_dst),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
