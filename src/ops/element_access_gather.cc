// Element access by index: elements picked by an index tile (TGATHER, with
// its mask-pattern and compare forms), 32-byte blocks picked by byte offsets
// (TGATHERB) and elements placed by an index tile (TSCATTER). Index tiles
// hold flat element offsets, index = row * cols + col, as element_access.cc
// explains; every row here is a row of operations.def (its check and run).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

// ---- tgather, tscatter -----------------------------------------------------

pto_status CheckTGather(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *indices = o.src1;
  const pto_tile* tmp = o.tmp;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  Validator v("pto_tgather");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("indices", indices);
  if (a2a3)
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT, "tmp is NULL, but on A2A3 tgather needs a tmp");
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTGather, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .DtypeAccepted(OpDtypes::kGatherIndices, profile, "indices", indices);
  // A5's a5/TGather.hpp: 8-byte data by 4-byte indices only.
  if (v.ok() && ElementBytes(dst->dtype) == 8)
    v.Require(ElementBytes(indices->dtype) == 4, PTO_ERR_DTYPE_MISMATCH,
              "indices dtype %s is not 4 bytes wide, which %s data gathers by",
              DtypeName(indices->dtype), DtypeName(dst->dtype));
  if (a2a3) v.SameDtype("tmp", tmp, "indices", indices);
  if (tmp != nullptr)
    v.Distinct("tmp", tmp, "dst", dst)
        .Distinct("tmp", tmp, "src", src)
        .Distinct("tmp", tmp, "indices", indices);
  v.Require(!SharesStorage(src, dst), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's (any of them may be gathered)");
  v.Require(!SharesStorage(indices, dst), PTO_ERR_ALIASING,
            "indices' valid elements share storage with dst's");
  v.SameValidRegion("indices", indices, "dst", dst);
  if (profile != PTO_PROFILE_HOST)
    v.Require(dst->valid_cols == dst->cols, PTO_ERR_SHAPE_MISMATCH,
              "dst valid cols %u differs from its cols %u, which %s requires them to equal "
              "(contiguous rows)",
              dst->valid_cols, dst->cols, pto_profile_string(profile));
  if (a2a3)
    v.Require(tmp->rows == indices->valid_rows && tmp->cols == indices->valid_cols,
              PTO_ERR_SHAPE_MISMATCH,
              "tmp %ux%u is not indices' valid region %ux%u, which A2A3 requires", tmp->rows,
              tmp->cols, indices->valid_rows, indices->valid_cols);
  if (profile == PTO_PROFILE_A5)
    v.Require(indices->valid_cols == indices->cols, PTO_ERR_SHAPE_MISMATCH,
              "indices valid cols %u differs from its cols %u, which A5 requires them to equal",
              indices->valid_cols, indices->cols);
  if (!v.ok() || !o.contents_known) return v.status();
  return RequireIndicesInRangeOrBoard(v, indices, "src", src, profile).status();
}

void RunTGather(const Operands& o, pto_profile) {
  // The check accepted only indices naming src's elements (in board mode,
  // elements of its storage): as unsigned, the same values.
  kernels::Gather(ElementBytes(o.dst->dtype), ElementBytes(o.src1->dtype), o.dst->valid_rows,
                  o.dst->valid_cols, PlaneOf(o.dst), o.src0->data, ConstPlaneOf(o.src1));
}

// ---- tgather's mask-pattern form -------------------------------------------

namespace {
// The columns a mask pattern keeps: those c with c % period == phase
// (pto-isa's MaskSelect; P1111 every column).
struct ColumnPattern {
  uint32_t period, phase;
};
ColumnPattern PatternColumns(int pattern) {
  switch (pattern) {
    case PTO_MASK_P0101: return {2, 0};
    case PTO_MASK_P1010: return {2, 1};
    case PTO_MASK_P0001: return {4, 0};
    case PTO_MASK_P0010: return {4, 1};
    case PTO_MASK_P0100: return {4, 2};
    case PTO_MASK_P1000: return {4, 3};
    default: return {1, 0};
  }
}
// How many of a row's first `cols` columns the pattern keeps.
uint64_t KeptColumns(ColumnPattern p, uint32_t cols) {
  return cols <= p.phase ? 0 : (uint64_t{cols} - p.phase + p.period - 1) / p.period;
}
// The mask-pattern forms' attribute: a pto_mask_pattern and a pto_gather_axis.
void RequirePatternAndAxis(Validator& v, const Operands& o) {
  v.Require(o.attr >= PTO_MASK_P0101 && o.attr <= PTO_MASK_P1111, PTO_ERR_INVALID_ARGUMENT,
            "pattern %d is not a pto_mask_pattern (1 to 7)", o.attr);
  v.EnumInRange("axis", o.sat, 2);
}
}  // namespace

pto_status CheckTGatherMask(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_tgather_mask");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTGatherMask, profile, "dst", dst)
      .DtypeAccepted(OpDtypes::kTGatherMask, profile, "src", src);
  v.Require(ElementBytes(src->dtype) == ElementBytes(dst->dtype), PTO_ERR_DTYPE_MISMATCH,
            "src dtype %s is not of dst's element size (%s, %zu bytes)", DtypeName(src->dtype),
            DtypeName(dst->dtype), ElementBytes(dst->dtype));
  RequirePatternAndAxis(v, o);
  v.Require(!SharesStorage(src, dst), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's (dst is packed from its first element)");
  if (!v.ok()) return v.status();
  const ColumnPattern pattern = PatternColumns(o.attr);
  if (o.sat == PTO_GATHER_COL) {
    // Whole rows (the CPU model's TGatherCol; A2A3's GetStrideByMask).
    const uint64_t kept = KeptColumns(pattern, src->valid_rows);
    v.Require(dst->valid_rows == kept && dst->valid_cols == src->valid_cols,
              PTO_ERR_SHAPE_MISMATCH,
              "dst valid region %ux%u is not the %llu kept rows of src's %ux%u", dst->valid_rows,
              dst->valid_cols, static_cast<unsigned long long>(kept), src->valid_rows,
              src->valid_cols);
    if (profile != PTO_PROFILE_HOST)
      v.Require(src->valid_rows % pattern.period == 0, PTO_ERR_SHAPE_MISMATCH,
                "src valid rows %u are not a multiple of %u, which %s requires along \"col\"",
                src->valid_rows, pattern.period, pto_profile_string(profile));
    return v.status();
  }
  v.Require(dst->valid_cols == dst->cols, PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u differs from its cols %u (the kept elements are packed into "
            "contiguous rows)",
            dst->valid_cols, dst->cols);
  if (!v.ok()) return v.status();
  const uint64_t packed = src->valid_rows * KeptColumns(pattern, src->valid_cols);
  v.Require(packed <= uint64_t{dst->valid_rows} * dst->cols, PTO_ERR_SHAPE_MISMATCH,
            "the pattern keeps %llu elements of src's valid region %ux%u, more than dst's valid "
            "%ux%u holds",
            static_cast<unsigned long long>(packed), src->valid_rows, src->valid_cols,
            dst->valid_rows, dst->cols);
  return v.status();
}

void RunTGatherMask(const Operands& o, pto_profile) {
  const ColumnPattern p = PatternColumns(o.attr);
  const size_t size = ElementBytes(o.dst->dtype);
  if (o.sat == PTO_GATHER_COL) {
    // The kept rows: src's rows from the phase on, period rows apart (the
    // bits copied as dst's dtype, which has src's size).
    const kernels::ConstPlane src = ConstPlaneOf(o.src0);
    const kernels::ConstPlane kept{static_cast<const char*>(src.data) + p.phase * src.stride * size,
                                   src.stride * p.period};
    kernels::Copy(o.dst->dtype, o.dst->valid_rows, o.src0->valid_cols, PlaneOf(o.dst), kept);
    return;
  }
  kernels::GatherColumns(size, o.src0->valid_rows, o.src0->valid_cols, p.period, p.phase,
                         o.dst->data, ConstPlaneOf(o.src0));
}

// ---- tgather's compare form ------------------------------------------------

namespace {
// Row i's threshold as src's values are compared with it: HOST and A5
// k_value[i,0]'s value; A2A3 its bits as a signed integer of its width (the
// implementation's vconv_s322f32 / vconv_s162f16, or the INT32 copy)
// converted to src's dtype, to nearest even.
double CompareThreshold(const pto_tile* k, const pto_tile* src, uint32_t i, pto_profile profile) {
  const size_t at = static_cast<size_t>(i) * k->cols;
  if (profile != PTO_PROFILE_A2A3) return ElementValue(k, at);
  const char* p = static_cast<const char*>(k->data) + at * ElementBytes(k->dtype);
  double bits_signed;
  if (ElementBytes(k->dtype) == 2) {
    int16_t e;
    memcpy(&e, p, sizeof e);
    bits_signed = e;
  } else {
    int32_t e;
    memcpy(&e, p, sizeof e);
    bits_signed = e;
  }
  return kernels::ValueInDtype(src->dtype, bits_signed);
}

// The index of row i's first position, modulo 2^32: offset + i x src cols
// (HOST, A2A3: src's flat offset); A5 offset + i x 64 x the row's 64-lane
// repeats (its index vector runs on across rows).
uint32_t CompareRowBase(const pto_tile* src, uint32_t i, size_t offset, pto_profile profile) {
  const uint64_t stride = profile == PTO_PROFILE_A5 ? (src->valid_cols + 63u) / 64u * 64u
                                                    : static_cast<uint64_t>(src->cols);
  return static_cast<uint32_t>(offset + i * stride);
}

const void* SrcRow(const pto_tile* src, uint32_t i) {
  return static_cast<const char*>(src->data) +
         static_cast<size_t>(i) * src->cols * ElementBytes(src->dtype);
}

// The dtype rules of pto_tgather_cmp past src's (the row's lists).
void CheckGatherCmpDtypes(Validator& v, const pto_tile* dst, const pto_tile* src,
                          const pto_tile* k, const pto_tile* cdst, pto_profile profile) {
  v.DtypeAccepted(OpDtypes::kTGatherCmp, profile, "src", src);
  v.Require(dst->dtype == PTO_INT32 || dst->dtype == PTO_UINT32, PTO_ERR_UNSUPPORTED_DTYPE,
            "dst dtype %s is not INT32 or UINT32", DtypeName(dst->dtype));
  v.SameDtype("cdst", cdst, "dst", dst);
  if (!v.ok() || k == nullptr) return;
  const pto_dtype kd = k->dtype;
  const bool k16 = kd == PTO_INT16 || kd == PTO_UINT16, k32 = kd == PTO_INT32 || kd == PTO_UINT32;
  if (profile == PTO_PROFILE_A2A3 && src->dtype == PTO_FLOAT16)
    v.Require(k16, PTO_ERR_UNSUPPORTED_DTYPE,
              "k_value dtype %s is not INT16 or UINT16, the 16-bit thresholds A2A3 reads for "
              "FLOAT16 src",
              DtypeName(kd));
  else if (profile == PTO_PROFILE_A2A3)
    v.Require(k32, PTO_ERR_UNSUPPORTED_DTYPE, "k_value dtype %s is not INT32 or UINT32 (A2A3)",
              DtypeName(kd));
  else if (profile == PTO_PROFILE_A5)
    v.Require(kd == PTO_UINT16 || kd == PTO_UINT32, PTO_ERR_UNSUPPORTED_DTYPE,
              "k_value dtype %s is not UINT16 or UINT32 (A5)", DtypeName(kd));
  else
    v.Require(k16 || k32, PTO_ERR_UNSUPPORTED_DTYPE,
              "k_value dtype %s is not INT16, UINT16, INT32 or UINT32", DtypeName(kd));
}

// dst, cdst and tmp apart from every other operand (k null: the text form's
// scalar threshold).
void CheckGatherCmpApart(Validator& v, const pto_tile* dst, const pto_tile* src,
                         const pto_tile* k, const pto_tile* tmp, const pto_tile* cdst) {
  v.Distinct("cdst", cdst, "dst", dst).Distinct("dst", dst, "src", src)
      .Distinct("cdst", cdst, "src", src);
  if (k != nullptr) v.Distinct("dst", dst, "k_value", k).Distinct("cdst", cdst, "k_value", k);
  if (tmp != nullptr)
    v.Distinct("tmp", tmp, "dst", dst).Distinct("tmp", tmp, "cdst", cdst)
        .Distinct("tmp", tmp, "src", src).Distinct("tmp", tmp, "k_value", k);
  v.Require(!SharesStorage(src, dst) && !SharesStorage(src, cdst), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's or cdst's");
  if (k != nullptr)
    v.Require(!SharesStorage(k, dst) && !SharesStorage(k, cdst), PTO_ERR_ALIASING,
              "k_value's valid elements share storage with dst's or cdst's");
  v.Require(!SharesStorage(dst, cdst), PTO_ERR_ALIASING,
            "dst's valid elements share storage with cdst's");
}

// A2A3's scratch in bytes (the page's tmpSize): the compare bitmap (a row of
// ceil(cols / 8) bytes rounded up to 32), the index table (dst's 4-byte
// elements, one per src element), the converted thresholds (one per row).
size_t GatherCmpScratchBytes(const pto_tile* src) {
  const size_t rows = src->rows, cols = src->cols;
  return rows * (((cols + 7) / 8 + 31) / 32 * 32) + rows * cols * 4 +
         rows * ElementBytes(src->dtype);
}
}  // namespace

// Operands: src0 src, src1 k_value, src2 tmp (the page's scratch), tmp cdst
// (the row's second destination). A program's text form (PTOAS's) gives one
// scalar threshold for every row instead of k_value: Operands::sat 1, the
// threshold in Operands::scalar, a value of src's dtype; PTOAS's verifier
// asks nothing of tmp's size there.
pto_status CheckTGatherCmp(const Operands& o, pto_profile profile) {
  pto_tile *dst = o.dst, *cdst = o.tmp;
  const pto_tile *src = o.src0, *k = o.src1, *tmp = o.ext->src2;
  const bool a2a3 = profile == PTO_PROFILE_A2A3, one_threshold = o.sat == 1;
  Validator v("pto_tgather_cmp");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("cdst", cdst);
  if (!one_threshold) v.NotNull("k_value", k);
  if (a2a3)
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT,
              "tmp is NULL, but on A2A3 tgather's compare form needs a tmp");
  if (!v.ok()) return v.status();
  CheckGatherCmpDtypes(v, dst, src, one_threshold ? nullptr : k, cdst, profile);
  const int mode = o.attr;
  v.Require(mode == PTO_CMP_EQ || mode == PTO_CMP_GT, PTO_ERR_INVALID_ARGUMENT,
            "mode %d is not PTO_CMP_EQ or PTO_CMP_GT", mode);
  if (a2a3 && src->dtype == PTO_INT32)
    v.Require(mode == PTO_CMP_EQ, PTO_ERR_INVALID_ARGUMENT,
              "A2A3 compares INT32 src with PTO_CMP_EQ only, not mode %d", mode);
  v.Require(o.index[0] <= UINT32_MAX, PTO_ERR_INVALID_ARGUMENT,
            "offset %zu is above UINT32_MAX (the page's offset is a uint32_t)", o.index[0]);
  CheckGatherCmpApart(v, dst, src, one_threshold ? nullptr : k, tmp, cdst);
  const uint32_t rows = src->valid_rows;
  if (!one_threshold)
    v.Require(k->valid_rows >= rows && k->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
              "k_value's valid region %ux%u does not cover src valid rows %u x 1 column",
              k->valid_rows, k->valid_cols, rows);
  v.Require(cdst->valid_rows >= rows && cdst->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
            "cdst's valid region %ux%u does not cover src valid rows %u x 1 column",
            cdst->valid_rows, cdst->valid_cols, rows);
  v.Require(dst->valid_rows >= rows && (rows == 0 || dst->valid_cols >= 1),
            PTO_ERR_SHAPE_MISMATCH,
            "dst's valid region %ux%u does not cover src valid rows %u x at least 1 column",
            dst->valid_rows, dst->valid_cols, rows);
  if (a2a3 && !one_threshold && v.ok()) {
    const size_t have = ElementCount(tmp) * ElementBytes(tmp->dtype);
    const size_t need = GatherCmpScratchBytes(src);
    v.Require(have >= need, PTO_ERR_SHAPE_MISMATCH,
              "tmp holds %zu bytes, fewer than the %zu A2A3's compare form needs for src %ux%u",
              have, need, src->rows, src->cols);
  }
  if (!v.ok() || !o.contents_known) return v.status();
  // Every row's matches must fit dst's valid cols: counted before anything
  // is written.
  for (uint32_t i = 0; i < rows; ++i) {
    const size_t count = kernels::GatherCompareRow(
        src->dtype, mode == PTO_CMP_GT, src->valid_cols, SrcRow(src, i),
        one_threshold ? o.scalar : CompareThreshold(k, src, i, profile), 0, nullptr);
    v.Require(count <= dst->valid_cols, PTO_ERR_OUT_OF_RANGE,
              "row %u of src has %zu elements that compare true, more than dst's %u valid cols",
              i, count, dst->valid_cols);
    if (!v.ok()) break;
  }
  return v.status();
}

void RunTGatherCmp(const Operands& o, pto_profile profile) {
  pto_tile *dst = o.dst, *cdst = o.tmp;
  const pto_tile *src = o.src0, *k = o.src1;
  for (uint32_t i = 0; i < src->valid_rows; ++i) {
    uint32_t* out = static_cast<uint32_t*>(dst->data) + static_cast<size_t>(i) * dst->cols;
    const uint32_t count = static_cast<uint32_t>(kernels::GatherCompareRow(
        src->dtype, o.attr == PTO_CMP_GT, src->valid_cols, SrcRow(src, i),
        o.sat == 1 ? o.scalar : CompareThreshold(k, src, i, profile),
        CompareRowBase(src, i, o.index[0], profile), out));
    memcpy(static_cast<char*>(cdst->data) + static_cast<size_t>(i) * cdst->cols * 4, &count, 4);
  }
}

// ---- tgatherb ----------------------------------------------------------------

namespace {
// TGATHERB moves 32-byte blocks (pto-isa's BLOCK_BYTE_SIZE, one vgatherb
// offset per block).
constexpr size_t kGatherBlockBytes = 32;

// The blocks of one dst row and the bytes of its last block.
size_t GatherBlocksPerRow(const pto_tile* dst) {
  return (size_t{dst->valid_cols} * ElementBytes(dst->dtype) + kGatherBlockBytes - 1) /
         kGatherBlockBytes;
}
size_t GatherLastBlockBytes(const pto_tile* dst) {
  const size_t rest = size_t{dst->valid_cols} * ElementBytes(dst->dtype) % kGatherBlockBytes;
  return rest == 0 ? kGatherBlockBytes : rest;
}

// The rule that every block dst's valid region takes lies within src's rows
// x cols bytes, the first (i, k) in row order that does not quoted. The
// offsets are read once before anything is written.
Validator& RequireBlocksInSrc(Validator& v, const pto_tile* dst, const pto_tile* src,
                              const pto_tile* offsets) {
  const uint64_t src_bytes = uint64_t{src->rows} * src->cols * ElementBytes(src->dtype);
  const size_t blocks = GatherBlocksPerRow(dst), last = GatherLastBlockBytes(dst);
  const uint32_t* base = static_cast<const uint32_t*>(offsets->data);
  for (size_t i = 0; i < dst->valid_rows; ++i) {
    const uint32_t* row = base + i * offsets->cols;
    for (size_t k = 0; k < blocks; ++k) {
      const uint64_t taken = k + 1 == blocks ? last : kGatherBlockBytes;
      if (uint64_t{row[k]} + taken <= src_bytes) continue;
      return v.Require(false, PTO_ERR_OUT_OF_RANGE,
                       "offsets (%zu, %zu) is %u: its %llu bytes end past src's %llu bytes "
                       "(%ux%u %s)",
                       i, k, row[k], static_cast<unsigned long long>(taken),
                       static_cast<unsigned long long>(src_bytes), src->rows, src->cols,
                       DtypeName(src->dtype));
    }
  }
  return v;
}
}  // namespace

pto_status CheckTGatherB(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *offsets = o.src1;
  Validator v("pto_tgatherb");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("offsets", offsets);
  if (!v.ok()) return v.status();
  // The pages list src's and dst's dtypes alike and ask no equality: the
  // blocks are bytes.
  v.DtypeAccepted(OpDtypes::kTGatherB, profile, "dst", dst)
      .DtypeAccepted(OpDtypes::kTGatherB, profile, "src", src);
  // "Offsets are interpreted as uint32_t values (byte offsets)".
  if (v.ok())
    v.Require(offsets->dtype == PTO_INT32 || offsets->dtype == PTO_UINT32,
              PTO_ERR_UNSUPPORTED_DTYPE,
              "offsets dtype %s is not INT32 or UINT32 (32-bit byte offsets)",
              DtypeName(offsets->dtype));
  if (!v.ok()) return v.status();
  // A block may come from any byte of src's rows x cols.
  pto_tile src_whole = *src;
  src_whole.valid_rows = src->rows;
  src_whole.valid_cols = src->cols;
  v.Require(!SharesStorage(src, dst) && !ValidRegionsOverlapSlow(&src_whole, dst),
            PTO_ERR_ALIASING,
            "src's %ux%u elements share storage with dst's valid elements (any byte of them "
            "may be gathered)",
            src->rows, src->cols);
  v.Require(!SharesStorage(offsets, dst), PTO_ERR_ALIASING,
            "offsets' valid elements share storage with dst's");
  // HOST (the CPU model's assert) and A2A3 (whole vgatherb blocks) move
  // whole blocks; A5 masks the last block of a row to dst's valid cols.
  if (profile != PTO_PROFILE_A5)
    v.Require(size_t{dst->valid_cols} * ElementBytes(dst->dtype) % kGatherBlockBytes == 0,
              PTO_ERR_SHAPE_MISMATCH,
              "dst valid cols %u of %s are not a multiple of 32 bytes, which %s gathers in "
              "whole blocks",
              dst->valid_cols, DtypeName(dst->dtype), pto_profile_string(profile));
  const size_t blocks = GatherBlocksPerRow(dst);
  v.Require(offsets->valid_rows >= dst->valid_rows && offsets->valid_cols >= blocks,
            PTO_ERR_SHAPE_MISMATCH,
            "offsets valid region %ux%u does not cover dst's %u rows of %zu blocks (one offset "
            "per 32 bytes of a row)",
            offsets->valid_rows, offsets->valid_cols, dst->valid_rows, blocks);
  if (!v.ok() || !o.contents_known) return v.status();
  return RequireBlocksInSrc(v, dst, src, offsets).status();
}

void RunTGatherB(const Operands& o, pto_profile) {
  const size_t size = ElementBytes(o.dst->dtype);
  kernels::GatherBlocks(o.dst->valid_rows, size_t{o.dst->valid_cols} * size,
                        {o.dst->data, size_t{o.dst->cols} * size}, o.src0->data,
                        ConstPlaneOf(o.src1));
}

pto_status CheckTScatter(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *indices = o.src1;
  Validator v("pto_tscatter");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("indices", indices);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTScatter, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .DtypeAccepted(OpDtypes::kScatterIndices, profile, "indices", indices);
  if (!v.ok()) return v.status();
  // Both targets' pairing: 8- (A5) and 4-byte data by 4-byte indices, 2-
  // and 1-byte data by 2-byte ones.
  const size_t index_bytes = ElementBytes(dst->dtype) >= 4 ? 4 : 2;
  v.Require(ElementBytes(indices->dtype) == index_bytes, PTO_ERR_DTYPE_MISMATCH,
            "indices dtype %s is not %zu bytes wide, which %s data scatters by",
            DtypeName(indices->dtype), index_bytes, DtypeName(dst->dtype));
  // dst is zeroed over its whole rows x cols before the first element
  // moves: neither source may share a byte with any of it.
  pto_tile whole = *dst;
  whole.valid_rows = dst->rows;
  whole.valid_cols = dst->cols;
  v.Require(!SharesStorage(src, dst) && !ValidRegionsOverlapSlow(src, &whole), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's %ux%u elements, which are zeroed "
            "first",
            dst->rows, dst->cols)
      .Require(!SharesStorage(indices, dst) && !ValidRegionsOverlapSlow(indices, &whole),
               PTO_ERR_ALIASING,
               "indices' valid elements share storage with dst's %ux%u elements, which are "
               "zeroed first",
               dst->rows, dst->cols);
  v.Require(indices->valid_rows <= src->valid_rows && indices->valid_cols <= src->valid_cols,
            PTO_ERR_SHAPE_MISMATCH,
            "indices valid region %ux%u exceeds src's %ux%u (src[i,j] moves for each index)",
            indices->valid_rows, indices->valid_cols, src->valid_rows, src->valid_cols);
  if (!v.ok() || !o.contents_known) return v.status();
  return RequireIndicesInRange(v, indices, "dst", dst).status();
}

void RunTScatter(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const pto_tile* indices = o.src1;
  kernels::Scatter(ElementBytes(dst->dtype), ElementBytes(indices->dtype),
                   size_t{dst->rows} * dst->cols, indices->valid_rows, indices->valid_cols,
                   dst->data, ConstPlaneOf(o.src0), ConstPlaneOf(indices));
}

// ---- tscatter's mask-pattern form ------------------------------------------

// pto-isa's TSCATTER<MaskPattern, ScatterAxis>(dst, src) on A2A3 and A5
// (TScatter.hpp): dst zeroed over its whole rows x cols, then src[i,j] to
// lane `phase` of the group of `period` columns ("row") or rows ("col") it
// expands to; P1111 (a group of one) is TMOV, nothing zeroed.
pto_status CheckTScatterMask(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_tscatter_mask");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTScatterMask, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  RequirePatternAndAxis(v, o);
  if (!v.ok()) return v.status();
  pto_tile whole = *dst;
  whole.valid_rows = dst->rows;
  whole.valid_cols = dst->cols;
  v.Require(!SharesStorage(src, dst) && !ValidRegionsOverlapSlow(src, &whole), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's %ux%u elements, which are zeroed "
            "first",
            dst->rows, dst->cols);
  const uint64_t period = PatternColumns(o.attr).period;
  const bool by_rows = o.sat == PTO_GATHER_COL;
  const uint64_t want_rows = src->valid_rows * (by_rows ? period : 1);
  const uint64_t want_cols = src->valid_cols * (by_rows ? 1 : period);
  v.Require(dst->valid_rows == want_rows && dst->valid_cols == want_cols, PTO_ERR_SHAPE_MISMATCH,
            "dst valid region %ux%u is not src's %ux%u with its %s times %llu", dst->valid_rows,
            dst->valid_cols, src->valid_rows, src->valid_cols, by_rows ? "rows" : "cols",
            static_cast<unsigned long long>(period));
  return v.status();
}

void RunTScatterMask(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const ColumnPattern p = PatternColumns(o.attr);
  const size_t size = ElementBytes(dst->dtype);
  if (p.period > 1) memset(dst->data, 0, size_t{dst->rows} * dst->cols * size);
  const bool by_rows = o.sat == PTO_GATHER_COL;
  kernels::Spread(size, o.src0->valid_rows, o.src0->valid_cols, by_rows ? p.period : 1,
                  by_rows ? p.phase : 0, by_rows ? 1 : p.period, by_rows ? 0 : p.phase,
                  PlaneOf(dst), ConstPlaneOf(o.src0));
}

}  // namespace ops
}  // namespace pto
