// tcvt's check (the profile's conversion pairs, the rounding mode, the
// placement rules) and run (the converter of kernels/tcvt.cc); tpack's, an
// integer conversion keeping the low bits, on the same converter and rules of
// placement.
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "convert_rules.h"
#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// ---- tcvt ----------------------------------------------------------------

// "FLOAT32, INT16" (at most every dtype's name).
struct DtypeListText {
  char text[320];
};
DtypeListText ListOf(const DtypeSet& set) {
  DtypeListText out{};
  size_t used = 0;
  for (uint32_t i = 0; i < set.count; ++i) {
    const int n = snprintf(out.text + used, sizeof out.text - used, "%s%s", i ? ", " : "",
                           DtypeName(set.members[i]));
    if (n < 0 || static_cast<size_t>(n) >= sizeof out.text - used) break;
    used += static_cast<size_t>(n);
  }
  return out;
}

// The refusal of a conversion at src's start address that is not in place in
// order, saying which condition fails.
void RefuseOverlap(Validator& v, const pto_tile* src, const pto_tile* dst) {
  const size_t src_size = ElementBytes(src->dtype), dst_size = ElementBytes(dst->dtype);
  if (dst_size > src_size) {
    v.Require(false, PTO_ERR_ALIASING,
              "dst's %s elements are wider than src's %s elements, so converting in place "
              "would overwrite source elements before they are read",
              DtypeName(dst->dtype), DtypeName(src->dtype));
  } else {
    v.Require(false, PTO_ERR_ALIASING,
              "dst's rows (%u bytes) are longer than src's (%u bytes), so converting in place "
              "would overwrite source rows before they are read",
              static_cast<unsigned>(dst->cols * dst_size), static_cast<unsigned>(src->cols * src_size));
  }
}

// A packed pair's regions: the same valid rows, the packed side's valid
// cols (bytes) half the other's (values); under HOST and A5 an odd count of
// values pairs with the bytes that hold them, ceil(values / 2) (A5's TCVT:
// the last byte's high nibble is neither read nor written, see
// PackedValues).
void PackedRegions(Validator& v, const pto_tile* src, const pto_tile* dst, pto_profile profile) {
  const bool packed_dst = IsPackedDtype(dst->dtype);
  const pto_tile* packed = packed_dst ? dst : src;
  const pto_tile* other = packed_dst ? src : dst;
  const uint64_t values = other->valid_cols, bytes = packed->valid_cols;
  const bool odd = profile != PTO_PROFILE_A2A3 && values % 2 == 1 && bytes == (values + 1) / 2;
  v.Require(src->valid_rows == dst->valid_rows && (2 * bytes == values || odd),
            PTO_ERR_SHAPE_MISMATCH,
            "%s's valid region %ux%u (bytes of two %s values) does not hold %s's %ux%u values "
            "(its valid cols must be twice the packed side's%s)",
            packed_dst ? "dst" : "src", packed->valid_rows, packed->valid_cols,
            DtypeName(packed->dtype), packed_dst ? "src" : "dst", other->valid_rows,
            other->valid_cols,
            profile == PTO_PROFILE_A2A3 ? "" : ", or an odd count with one byte for the last");
}

// The values a packed pair converts per row: all of the unpacked side's
// when unpacking; when packing, the whole bytes only, so an odd count's
// last value is not converted and the boundary byte keeps its bits (A5's
// TCVT stores complete bytes only; its ST golden's boundary byte is the
// destination's as it was).
uint32_t PackedValues(const pto_tile* src, const pto_tile* dst) {
  return IsPackedDtype(dst->dtype) ? src->valid_cols / 2 * 2 : dst->valid_cols;
}

// The FP4 formats have no NaN: the first NaN of src's valid region (row
// order) is refused, naming where it is.
void RefuseNaNIntoFp4(Validator& v, const pto_tile* src, const pto_tile* dst) {
  if (dst->dtype != PTO_FLOAT4_E1M2X2 && dst->dtype != PTO_FLOAT4_E2M1X2) return;
  if (src->dtype != PTO_BFLOAT16 && src->dtype != PTO_FLOAT16 && src->dtype != PTO_FLOAT32) return;
  const size_t size = ElementBytes(src->dtype);
  for (uint32_t i = 0; i < src->valid_rows; ++i) {
    const unsigned char* row = static_cast<const unsigned char*>(src->data) + size_t{i} * src->cols * size;
    for (uint32_t j = 0; j < PackedValues(src, dst); ++j) {
      uint32_t bits = 0;
      memcpy(&bits, row + size_t{j} * size, size);
      const bool nan = size == 4   ? (bits & 0x7FFFFFFFu) > 0x7F800000u
                       : src->dtype == PTO_BFLOAT16 ? (bits & 0x7FFFu) > 0x7F80u
                                                    : (bits & 0x7FFFu) > 0x7C00u;
      if (nan) {
        v.Require(false, PTO_ERR_OUT_OF_RANGE,
                  "src (%u, %u) is a NaN, which %s cannot hold (it has no NaN)", i, j,
                  DtypeName(dst->dtype));
        return;
      }
    }
  }
}

// A packed pair's placement (apart: no in-place form) and regions.
void CheckPacked(Validator& v, const pto_tile* src, const pto_tile* dst, bool contents_known,
                 pto_profile profile) {
  if (src == static_cast<const pto_tile*>(dst) || ValidRegionsOverlap(src, dst)) {
    v.Require(false, PTO_ERR_ALIASING,
              "converting %s to %s needs src and dst apart (a packed type has no in-place "
              "form)",
              DtypeName(src->dtype), DtypeName(dst->dtype));
    return;
  }
  PackedRegions(v, src, dst, profile);
  if (v.ok() && contents_known) RefuseNaNIntoFp4(v, src, dst);
}

}  // namespace

pto_status CheckTCvt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  Validator v("pto_tcvt");
  v.NotNull("dst", dst).NotNull("src", src);
  v.EnumInRange("mode", o.attr, AttrValueCount(AttrKind::kConversion))
      .EnumInRange("sat", o.sat, 2);
  if (!v.ok()) return v.status();
  // The pair: src's dtype must convert to dst's under the profile
  // (convert_rules.h); the refusal lists where src converts to there.
  const DtypeSet& targets = ConvertDestinations(src->dtype, profile);
  if (!targets.Contains(dst->dtype)) {
    v.Require(false, PTO_ERR_UNSUPPORTED_DTYPE,
              "converting %s to %s is not supported on %s (%s converts to: %s)",
              DtypeName(src->dtype), DtypeName(dst->dtype), pto_profile_string(profile),
              DtypeName(src->dtype), targets.count ? ListOf(targets).text : "nothing");
    return v.status();
  }
  if (o.attr == PTO_ROUND_ODD && !ConvertHasOdd(src->dtype, dst->dtype)) {
    v.Require(false, PTO_ERR_INVALID_ARGUMENT,
              "mode PTO_ROUND_ODD is not supported converting %s to %s (only FLOAT32 to "
              "FLOAT16 has it)",
              DtypeName(src->dtype), DtypeName(dst->dtype));
    return v.status();
  }
  if (tmp != nullptr) v.Distinct("tmp", tmp, "dst", dst).Distinct("tmp", tmp, "src", src);
  if (ConvertIsPacked(src->dtype, dst->dtype)) {
    if (v.ok()) CheckPacked(v, src, dst, o.contents_known, profile);
    return v.status();
  }
  // In place where the order of elements makes it well defined: the same
  // start, dst's elements and rows no wider than src's (overlap.h); or the
  // rows of both in row order, as every row-order instruction's.
  const bool in_place = ConvertsInPlaceInOrder(src, dst);
  if (v.ok() && !in_place && src->data == dst->data && ValidRegionsOverlap(src, dst))
    RefuseOverlap(v, src, dst);
  if (v.ok() && !in_place && src != static_cast<const pto_tile*>(dst))
    v.InRowOrderOrApart("src", src, dst, profile);
  uint32_t dst_row = 0, src_row = 0, covered = 0;
  if (v.ok() && in_place && profile == PTO_PROFILE_A2A3 &&
      RepeatsOverwriteEarlierRemainder(src, dst, &dst_row, &src_row, &covered)) {
    v.Require(false, PTO_ERR_ALIASING,
              "converting in place on A2A3, dst row %u's whole 256-byte repeats (columns 0..%u) "
              "overwrite src row %u's columns %u..%u before they are read (A2A3 converts every "
              "row's repeats before any row's remainder)",
              dst_row, covered - 1, src_row, covered, dst->valid_cols - 1);
  }
  v.SameValidRegion("src", src, "dst", dst);
  return v.status();
}

namespace {

// The kernel's reading of the arguments: PTO_ROUND_NONE resolved, and what
// happens beyond dst's range under the profile (pto_c.h).
kernels::ConvertSpec ConvertSpecOf(const Operands& o, pto_profile profile) {
  const pto_dtype to = o.dst->dtype, from = o.src0->dtype;
  const bool float_to_int = IsFloatFormat(from) && !IsFloatFormat(to);
  pto_round_mode round = static_cast<pto_round_mode>(o.attr);
  if (round == PTO_ROUND_NONE) round = float_to_int ? PTO_ROUND_TRUNC : PTO_ROUND_RINT;
  if (profile == PTO_PROFILE_A5 && A5FixedRounding(from, to) != PTO_ROUND_NONE)
    round = A5FixedRounding(from, to);
  const bool sat = o.sat == PTO_SAT_ON;
  kernels::IntOverflow overflow = kernels::IntOverflow::kSaturate;
  if (!sat && !IsFloatFormat(from)) {
    overflow = kernels::IntOverflow::kWrap;
  } else if (!sat && profile != PTO_PROFILE_HOST && ConvertWrapsThroughInt32(from, to)) {
    overflow = kernels::IntOverflow::kInt32ThenWrap;
  }
  return {to, from, round, sat, overflow};
}

// A conversion in place between sizes (or row lengths): each row is converted
// in order, a bounded chunk at a time into a buffer and copied down, so every
// source element is read before the bytes it shares with dst are written
// (ConvertsInPlaceInOrder says why rows in order suffice).
void ConvertInPlaceByChunks(const kernels::ConvertSpec& spec, pto_tile* dst, const pto_tile* src) {
  constexpr size_t kChunk = 512;  // elements: 4 KiB of the widest dst element
  alignas(64) unsigned char staged[kChunk * 8];
  const size_t src_size = ElementBytes(src->dtype), dst_size = ElementBytes(dst->dtype);
  for (uint32_t i = 0; i < dst->valid_rows; ++i) {
    const unsigned char* from = static_cast<const unsigned char*>(src->data) + i * src->cols * src_size;
    unsigned char* to = static_cast<unsigned char*>(dst->data) + i * dst->cols * dst_size;
    for (size_t j = 0; j < dst->valid_cols; j += kChunk) {
      const size_t n = dst->valid_cols - j < kChunk ? dst->valid_cols - j : kChunk;
      kernels::Convert(spec, 1, n, {staged, n}, {from + j * src_size, n});
      memcpy(to + j * dst_size, staged, n * dst_size);
    }
  }
}

// dst's valid region converted from src's by the spec (no packed side): in
// place by chunks, whole contiguous regions as one row, or row by row.
void ConvertRegion(const kernels::ConvertSpec& spec, pto_tile* dst, const pto_tile* src) {
  const bool element_under_element = ElementBytes(src->dtype) == ElementBytes(dst->dtype) &&
                                     src->cols == dst->cols;
  if (src->data == dst->data && !element_under_element)
    return ConvertInPlaceByChunks(spec, dst, src);
  if (dst->cols == dst->valid_cols && src->cols == dst->valid_cols) {
    const size_t n = RegionElements(dst);
    return kernels::Convert(spec, 1, n, {dst->data, n}, {src->data, n});
  }
  kernels::Convert(spec, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(src));
}

}  // namespace

void RunTCvt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const kernels::ConvertSpec spec = ConvertSpecOf(o, profile);
  if (ConvertIsPacked(o.src0->dtype, dst->dtype)) {  // apart; cols counts values
    const uint32_t values = PackedValues(o.src0, dst);
    if (values == 0) return;  // one value packed: no whole byte to write
    return kernels::Convert(spec, dst->valid_rows, values, PlaneOf(dst), ConstPlaneOf(o.src0));
  }
  ConvertRegion(spec, dst, o.src0);
}

// ---- tpack ---------------------------------------------------------------

namespace {

// TPACK's integer dtypes, as sources and destinations (the 4-bit pairs have
// no element of their own to pack).
bool IsPackInteger(pto_dtype d) {
  switch (d) {
    case PTO_INT8: case PTO_UINT8: case PTO_INT16: case PTO_UINT16:
    case PTO_INT32: case PTO_UINT32: case PTO_INT64: case PTO_UINT64: return true;
    default: return false;
  }
}

// A5's size pairs (its TPack.hpp's static_asserts and PTOAS's verifier):
// 4 -> 2, 4 -> 1 and 2 -> 1 bytes.
bool A5PackSizes(size_t from, size_t to) {
  return (from == 4 && (to == 2 || to == 1)) || (from == 2 && to == 1);
}

// The dtype rules of pto_tpack in order: the profile, float dtypes, the
// pair's integer dtypes and (A5) their sizes.
void CheckPackDtypes(Validator& v, const pto_tile* src, const pto_tile* dst, pto_profile profile) {
  v.Require(profile != PTO_PROFILE_A2A3, PTO_ERR_UNSUPPORTED_DTYPE,
            "tpack is not supported on A2A3 (pto-isa implements it for A5 and its CPU model "
            "only; PTOAS accepts it on A5 targets only)");
  const bool has_float = IsFloatFormat(src->dtype) || IsFloatFormat(dst->dtype);
  v.Require(!has_float, PTO_ERR_UNSUPPORTED_DTYPE,
            "packing %s into %s is refused: tpack is defined on integer dtypes only (A5 keeps "
            "the low bytes of each element's bit pattern, the CPU model converts the value, "
            "and for floats the two differ)",
            DtypeName(src->dtype), DtypeName(dst->dtype));
  v.DtypeAccepted(OpDtypes::kTPack, profile, "dst", dst);
  v.Require(IsPackInteger(src->dtype), PTO_ERR_UNSUPPORTED_DTYPE,
            "src dtype %s is not an integer dtype tpack packs (INT8, UINT8, INT16, UINT16, "
            "INT32, UINT32, INT64, UINT64)",
            DtypeName(src->dtype));
  if (profile == PTO_PROFILE_A5) {
    v.Require(A5PackSizes(ElementBytes(src->dtype), ElementBytes(dst->dtype)),
              PTO_ERR_UNSUPPORTED_DTYPE,
              "packing %s into %s is not supported on A5 (element sizes 4 -> 2, 4 -> 1 and "
              "2 -> 1 bytes only)",
              DtypeName(src->dtype), DtypeName(dst->dtype));
  }
}

}  // namespace

pto_status CheckTPack(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_tpack");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  CheckPackDtypes(v, src, dst, profile);
  // Placement as tcvt's: in place at src's start when narrowing (or keeping
  // the size) with rows no longer in bytes, rows in order, or apart.
  const bool in_place = ConvertsInPlaceInOrder(src, dst);
  if (v.ok() && !in_place && src->data == dst->data && ValidRegionsOverlap(src, dst))
    RefuseOverlap(v, src, dst);
  if (v.ok() && !in_place && src != static_cast<const pto_tile*>(dst))
    v.InRowOrderOrApart("src", src, dst, profile);
  v.SameValidRegion("src", src, "dst", dst);
  return v.status();
}

// Integer to integer with the low bits kept: the low bytes of a narrower
// dst, the value (sign- or zero-extended by src's signedness) in a wider one.
void RunTPack(const Operands& o, pto_profile) {
  const kernels::ConvertSpec spec{o.dst->dtype, o.src0->dtype, PTO_ROUND_TRUNC, false,
                                  kernels::IntOverflow::kWrap};
  ConvertRegion(spec, o.dst, o.src0);
}

void RoundFromF32(pto_dtype dtype, size_t n, void* dst, const float* src) {
  kernels::FromF32(dtype, n, dst, src);
}

}  // namespace ops
}  // namespace pto
