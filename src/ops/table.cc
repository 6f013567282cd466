// The tile instructions of operations.def. Each has a check (every rule of
// its C function, in order, under a given profile) and a run (the kernels
// over dst's valid region): written here for the Special family, the family's
// own for the others. The C functions and the program executor call them
// through the table in ops.h. Kernels never see invalid arguments.
#include "ops.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "convert_rules.h"
#include "float_env.h"
#include "kernels/kernels.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {
namespace {

using pto::ConstPlaneOf;
using pto::OpDtypes;
using pto::PlaneOf;
using pto::Validator;

bool IsEmptyRegion(const pto_tile* t) { return t->valid_rows == 0 || t->valid_cols == 0; }

bool RegionFits(const pto_tile* inner, const pto_tile* outer) {
  return inner->valid_rows <= outer->valid_rows && inner->valid_cols <= outer->valid_cols;
}

bool SameRegion(const pto_tile* a, const pto_tile* b) {
  return a->valid_rows == b->valid_rows && a->valid_cols == b->valid_cols;
}

// Moves a plane by (row, col) elements of its tile's dtype.
kernels::ConstPlane Offset(const pto_tile* t, uint32_t row, uint32_t col) {
  const char* base = static_cast<const char*>(t->data);
  return {base + (static_cast<size_t>(row) * t->cols + col) * pto_dtype_size(t->dtype), t->cols};
}
kernels::Plane Offset(pto_tile* t, uint32_t row, uint32_t col) {
  char* base = static_cast<char*>(t->data);
  return {base + (static_cast<size_t>(row) * t->cols + col) * pto_dtype_size(t->dtype), t->cols};
}

// Whether the valid regions of dst and of sources with dst's valid region
// are each valid_rows * valid_cols consecutive elements from the tile's
// data: every tile's rows are exactly its valid columns. The elementwise
// kernels then take the region as one row (kernels.h).
bool Contiguous(const pto_tile* dst, const pto_tile* a, const pto_tile* b) {
  const uint32_t cols = dst->valid_cols;
  return dst->cols == cols && a->cols == cols && b->cols == cols;
}

size_t RegionElements(const pto_tile* t) { return size_t{t->valid_rows} * t->valid_cols; }

// ---- tpow ----------------------------------------------------------------

pto_status CheckTpow(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *base = o.src0, *exp = o.src1;
  const pto_tile* tmp = o.tmp;
  Validator v("pto_tpow");
  v.NotNull("dst", dst).NotNull("base", base).NotNull("exp", exp).NotNull("tmp", tmp);
  v.EnumInRange("algo", o.attr, 2);
  if (!v.ok()) return v.status();
  const bool high_precision = o.attr == PTO_POW_HIGH_PRECISION;
  v.DtypeAccepted(high_precision ? OpDtypes::kPowHighPrecision : OpDtypes::kTpow, profile,
                  "dst", dst)
      .SameDtype("base", base, "dst", dst)
      .SameDtype("exp", exp, "dst", dst)
      .SameDtype("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "base", base)
      .Distinct("tmp", tmp, "exp", exp)
      .InPlaceOrApart("base", base, dst)
      .InPlaceOrApart("exp", exp, dst)
      .SameValidRegion("base", base, "dst", dst)
      .SameValidRegion("exp", exp, "dst", dst)
      .SameValidRegion("tmp", tmp, "dst", dst);
  return v.status();
}

void RunTpow(const Operands& o, pto_profile profile) {
  // The A2A3 page: "the precision option is ignored" there, so HIGH_PRECISION
  // computes exactly what DEFAULT computes.
  const pto_pow_algorithm computed = profile == PTO_PROFILE_A2A3 || o.attr == PTO_POW_DEFAULT
                                         ? PTO_POW_DEFAULT
                                         : PTO_POW_HIGH_PRECISION;
  pto_tile* dst = o.dst;
  if (Contiguous(dst, o.src0, o.src1)) {
    return kernels::PowContiguous(dst->dtype, computed, RegionElements(dst), dst->data,
                                  o.src0->data, o.src1->data);
  }
  kernels::Pow(dst->dtype, computed, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
               ConstPlaneOf(o.src0), ConstPlaneOf(o.src1));
}

// ---- tpows ---------------------------------------------------------------

// tpow's rules with the exponent a scalar (the Scalar family's rule for it)
// and no tmp: the page's tmp is the A2A3 kernel's scratch, which libpto does
// not need (pto_c.h).
pto_status CheckTpows(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* base = o.src0;
  Validator v("pto_tpows");
  v.NotNull("dst", dst).NotNull("base", base);
  v.EnumInRange("algo", o.attr, 2);
  if (!v.ok()) return v.status();
  const bool high_precision = o.attr == PTO_POW_HIGH_PRECISION;
  v.DtypeAccepted(high_precision ? OpDtypes::kPowHighPrecision : OpDtypes::kTpows, profile,
                  "dst", dst)
      .SameDtype("base", base, "dst", dst);
  if (!v.ok()) return v.status();
  RequireScalarOf(v, "exp", o.scalar, "dst", dst->dtype)
      .InPlaceOrApart("base", base, dst)
      .SameValidRegion("base", base, "dst", dst);
  return v.status();
}

// tpow's kernel with an exponent plane of stride 0: one row of the scalar's
// element, kExpChunk columns at a time (no allocation). A contiguous region
// goes to the contiguous kernel kExpChunk elements at a time.
void RunTpows(const Operands& o, pto_profile profile) {
  constexpr size_t kExpChunk = 512;
  const pto_pow_algorithm computed = profile == PTO_PROFILE_A2A3 || o.attr == PTO_POW_DEFAULT
                                         ? PTO_POW_DEFAULT
                                         : PTO_POW_HIGH_PRECISION;
  pto_tile* dst = o.dst;
  const pto_dtype dtype = dst->dtype;
  const size_t size = ElementBytes(dtype);
  const bool contiguous = Contiguous(dst, o.src0, o.src0);
  // The exponent row: as many elements as one pass reads (a 1x1 call fills one).
  const size_t width = std::min(kExpChunk, contiguous ? RegionElements(dst) : dst->valid_cols);
  const uint32_t bits = ScalarBits(dtype, o.scalar);
  alignas(64) unsigned char exp_row[kExpChunk * 4];
  if (size == 4) {
    std::fill_n(reinterpret_cast<uint32_t*>(exp_row), width, bits);
  } else if (size == 2) {
    std::fill_n(reinterpret_cast<uint16_t*>(exp_row), width, static_cast<uint16_t>(bits));
  } else {
    memset(exp_row, static_cast<int>(bits & 0xFF), width);
  }
  const kernels::ConstPlane exp{exp_row, 0};
  // (rows, cols, row strides) of the region as the kernel goes over it.
  const auto run = [&](size_t rows, size_t cols, char* out, size_t out_stride, const char* in,
                       size_t in_stride) {
    for (size_t c0 = 0; c0 < cols; c0 += kExpChunk) {
      const size_t n = std::min(kExpChunk, cols - c0);
      kernels::Pow(dtype, computed, rows, n, kernels::Plane{out + c0 * size, out_stride},
                   kernels::ConstPlane{in + c0 * size, in_stride}, exp);
    }
  };
  char* out = static_cast<char*>(dst->data);
  const char* in = static_cast<const char*>(o.src0->data);
  if (contiguous) {
    const size_t total = RegionElements(dst);
    for (size_t at = 0; at < total; at += kExpChunk) {
      kernels::PowContiguous(dtype, computed, std::min(kExpChunk, total - at), out + at * size,
                             in + at * size, exp_row);
    }
    return;
  }
  run(dst->valid_rows, dst->valid_cols, out, dst->cols, in, o.src0->cols);
}

// ---- trsqrt --------------------------------------------------------------

pto_status CheckTrsqrt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_trsqrt");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTrsqrt, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .InPlaceOrApart("src", src, dst)
      .SameValidRegion("src", src, "dst", dst);
  return v.status();
}

void RunTrsqrt(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  if (Contiguous(dst, o.src0, o.src0)) {
    return kernels::RsqrtContiguous(dst->dtype, RegionElements(dst), dst->data, o.src0->data);
  }
  kernels::Rsqrt(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0));
}

// ---- tprelu --------------------------------------------------------------

pto_status CheckTprelu(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  const pto_tile* tmp = o.tmp;
  // A2A3 (docs/profiles.md): the A3 page's "2 source Tile, destination
  // Tile, temporary space must in different memory range without
  // overlapping"; the NPU implementation's UINT8 tmp holding a
  // one-bit-per-element mask in ceil(dst valid_cols / 8) columns of as many
  // valid rows as dst's, plus one physical scratch row. The page's "tmp
  // valid rows >= dst valid cols + 1" is not a rule: the implementation
  // asserts tmp valid rows == dst valid rows, and PTOAS accepts its own
  // samples that break the page's sentence (v0.4).
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  static const char kA2A3Apart[] = "dst, src0, src1 and tmp must not overlap";
  Validator v("pto_tprelu");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (a2a3) {
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT, "tmp is NULL, but on %s tprelu needs a tmp",
              pto_profile_string(profile));
  }
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTprelu, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst);
  if (tmp != nullptr) {
    v.DtypeAccepted(OpDtypes::kPreluTmp, profile, "tmp", tmp)
        .Distinct("tmp", tmp, "dst", dst)
        .Distinct("tmp", tmp, "src0", src0)
        .Distinct("tmp", tmp, "src1", src1);
  }
  v.InPlaceOrApart("src0", src0, dst).InPlaceOrApart("src1", src1, dst);
  if (a2a3) {
    v.ApartOn(profile, kA2A3Apart, "src0", src0, "dst", dst)
        .ApartOn(profile, kA2A3Apart, "src1", src1, "dst", dst)
        .ApartOn(profile, kA2A3Apart, "src1", src1, "src0", src0)
        .ApartOn(profile, kA2A3Apart, "tmp", tmp, "dst", dst)
        .ApartOn(profile, kA2A3Apart, "tmp", tmp, "src0", src0)
        .ApartOn(profile, kA2A3Apart, "tmp", tmp, "src1", src1);
  }
  v.SameValidRegion("src0", src0, "dst", dst).SameValidRegion("src1", src1, "dst", dst);
  if (a2a3) {
    const uint32_t mask_cols = dst->valid_cols / 8 + (dst->valid_cols % 8 != 0);
    v.Require(uint64_t{tmp->rows} >= uint64_t{dst->valid_rows} + 1, PTO_ERR_SHAPE_MISMATCH,
              "tmp rows %u is less than dst valid rows %u + 1, which A2A3 requires",
              tmp->rows, dst->valid_rows)
        .Require(tmp->valid_rows == dst->valid_rows, PTO_ERR_SHAPE_MISMATCH,
                 "tmp valid rows %u differs from dst valid rows %u, which A2A3 requires them to "
                 "equal",
                 tmp->valid_rows, dst->valid_rows)
        .Require(tmp->valid_cols >= mask_cols, PTO_ERR_SHAPE_MISMATCH,
                 "tmp valid cols %u is less than ceil(dst valid cols %u / 8) = %u, which A2A3 "
                 "requires",
                 tmp->valid_cols, dst->valid_cols, mask_cols);
  }
  return v.status();
}

void RunTprelu(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  if (Contiguous(dst, o.src0, o.src1)) {
    return kernels::PreluContiguous(dst->dtype, RegionElements(dst), dst->data, o.src0->data,
                                    o.src1->data);
  }
  kernels::Prelu(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                 ConstPlaneOf(o.src1));
}

// ---- tcolexpanddiv -------------------------------------------------------

pto_status CheckTcolexpanddiv(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v("pto_tcolexpanddiv");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTcolexpanddiv, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst)
      .SameValidRegion("src0", src0, "dst", dst);
  if (!v.ok()) return v.status();
  v.Require(src1->valid_rows >= 1, PTO_ERR_SHAPE_MISMATCH,
            "src1 valid region %ux%u has no row 0 to divide by", src1->valid_rows,
            src1->valid_cols)
      .Require(src1->valid_cols >= dst->valid_cols, PTO_ERR_SHAPE_MISMATCH,
               "src1 valid cols %u is less than dst valid cols %u", src1->valid_cols,
               dst->valid_cols);
  return v.status();
}

void RunTcolexpanddiv(const Operands& o, pto_profile) {
  // src1 is dst itself or placed exactly on it, or apart from dst's valid
  // region: the kernel writes row 0 last, so the divisor row is read intact.
  pto_tile* dst = o.dst;
  kernels::ColExpandDiv(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                        ConstPlaneOf(o.src0), o.src1->data);
}

// ---- tpartadd ------------------------------------------------------------

// Which source covers dst's whole valid region (the other covers its
// top-left corner); false for both when the pattern is not supported.
struct PartAddPattern {
  bool src0_full;
  bool src1_full;
};
inline PartAddPattern PartAddPatternOf(const Operands& o) {
  return {SameRegion(o.src0, o.dst) && RegionFits(o.src1, o.dst),
          SameRegion(o.src1, o.dst) && RegionFits(o.src0, o.dst)};
}

pto_status CheckTpartadd(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v("pto_tpartadd");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTpartadd, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst);
  if (!v.ok()) return v.status();
  const PartAddPattern pattern = PartAddPatternOf(o);
  v.Require(pattern.src0_full || pattern.src1_full, PTO_ERR_SHAPE_MISMATCH,
            "src0 valid region %ux%u and src1 valid region %ux%u do not fit dst valid region "
            "%ux%u: one must equal it and the other must not exceed it",
            src0->valid_rows, src0->valid_cols, src1->valid_rows, src1->valid_cols,
            dst->valid_rows, dst->valid_cols);
  return v.status();
}

void RunTpartadd(const Operands& o, pto_profile) {
  // `full` covers dst's whole valid region; `part` its top-left corner. The
  // corner is summed, the rest of dst is a copy of `full`.
  pto_tile* dst = o.dst;
  const bool src0_full = PartAddPatternOf(o).src0_full;
  const pto_tile* full = src0_full ? o.src0 : o.src1;
  const pto_tile* part = src0_full ? o.src1 : o.src0;
  const pto_dtype dtype = dst->dtype;
  const uint32_t rows = dst->valid_rows, cols = dst->valid_cols;
  const uint32_t part_rows = part->valid_rows, part_cols = part->valid_cols;
  // Both sources of dst's region: the sum over the whole of it.
  if (part_rows == rows && part_cols == cols && Contiguous(dst, o.src0, o.src1)) {
    return kernels::AddContiguous(dtype, RegionElements(dst), dst->data, o.src0->data,
                                  o.src1->data);
  }
  if (part_rows > 0 && part_cols > 0) {
    kernels::Add(dtype, part_rows, part_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                 ConstPlaneOf(o.src1));
  }
  if (!SamePlacement(full, dst)) {
    if (part_cols < cols && part_rows > 0) {
      kernels::Copy(dtype, part_rows, cols - part_cols, Offset(dst, 0, part_cols),
                    Offset(full, 0, part_cols));
    }
    if (part_rows < rows) {
      kernels::Copy(dtype, rows - part_rows, cols, Offset(dst, part_rows, 0),
                    Offset(full, part_rows, 0));
    }
  }
}

// ---- tcvt ----------------------------------------------------------------

// "FLOAT32, INT16" (at most nine names).
struct DtypeListText {
  char text[128];
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

pto_status CheckTcvt(const Operands& o, pto_profile profile) {
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
  // Elementwise in place only where both dtypes have one size: a source
  // element then sits exactly under the dst element it becomes (the same
  // handle, or the same address and row length).
  const bool same_size = ElementBytes(src->dtype) == ElementBytes(dst->dtype);
  const bool in_place = same_size && (src == static_cast<const pto_tile*>(dst) ||
                                      (src->data == dst->data && src->cols == dst->cols));
  if (v.ok() && !in_place && (src == static_cast<const pto_tile*>(dst) || ValidRegionsOverlap(src, dst))) {
    v.Require(false, PTO_ERR_ALIASING,
              same_size ? "src's valid elements share storage with dst's without being placed "
                          "exactly on them"
                        : "src's valid elements share storage with dst's, and %s and %s differ "
                          "in size",
              DtypeName(src->dtype), DtypeName(dst->dtype));
  }
  v.SameValidRegion("src", src, "dst", dst);
  return v.status();
}

// The kernel's reading of the arguments: PTO_ROUND_NONE resolved, and what
// happens beyond dst's range under the profile (pto_c.h).
kernels::ConvertSpec ConvertSpecOf(const Operands& o, pto_profile profile) {
  const pto_dtype to = o.dst->dtype, from = o.src0->dtype;
  const bool float_to_int = IsFloatDtype(from) && !IsFloatDtype(to);
  pto_round_mode round = static_cast<pto_round_mode>(o.attr);
  if (round == PTO_ROUND_NONE) round = float_to_int ? PTO_ROUND_TRUNC : PTO_ROUND_RINT;
  const bool sat = o.sat == PTO_SAT_ON;
  kernels::IntOverflow overflow = kernels::IntOverflow::kSaturate;
  if (!sat && !IsFloatDtype(from)) {
    overflow = kernels::IntOverflow::kWrap;
  } else if (!sat && profile != PTO_PROFILE_HOST && ConvertWrapsThroughInt32(from, to)) {
    overflow = kernels::IntOverflow::kInt32ThenWrap;
  }
  return {to, from, round, sat, overflow};
}

void RunTcvt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const kernels::ConvertSpec spec = ConvertSpecOf(o, profile);
  if (dst->cols == dst->valid_cols && o.src0->cols == dst->valid_cols) {
    const size_t n = RegionElements(dst);
    return kernels::Convert(spec, 1, n, {dst->data, n}, {o.src0->data, n});
  }
  kernels::Convert(spec, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0));
}

// ---- tfillpad ------------------------------------------------------------

// Whether src is dst itself or placed exactly on it (same address and row
// length; its dtype has dst's size by the dtype rule): TFILLPAD_INPLACE.
bool FillpadInPlace(const pto_tile* src, const pto_tile* dst) {
  return src == dst || (src->data == dst->data && src->cols == dst->cols);
}

pto_status CheckTfillpad(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_tfillpad");
  v.NotNull("dst", dst).NotNull("src", src);
  v.EnumInRange("pad", o.attr, AttrValueCount(AttrKind::kPadValue))
      .Require(o.attr != PTO_PAD_NULL, PTO_ERR_INVALID_ARGUMENT,
               "pad PTO_PAD_NULL is not a value to fill with (the page: a vector tile's "
               "PadVal is not Null)");
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTfillpad, profile, "dst", dst)
      .Require(ElementBytes(src->dtype) == ElementBytes(dst->dtype), PTO_ERR_DTYPE_MISMATCH,
               "src dtype %s differs in size from dst dtype %s", DtypeName(src->dtype),
               DtypeName(dst->dtype));
  if (!v.ok()) return v.status();
  // dst is written over its whole rows x cols: src must be on it exactly or
  // apart from every element of it.
  pto_tile whole = *dst;
  whole.valid_rows = dst->rows;
  whole.valid_cols = dst->cols;
  v.Require(FillpadInPlace(src, dst) || !ValidRegionsOverlapSlow(src, &whole), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's %ux%u elements without being "
            "placed exactly on them",
            dst->rows, dst->cols);
  v.Require(src->valid_rows <= dst->rows && src->valid_cols <= dst->cols,
            PTO_ERR_SHAPE_MISMATCH, "src valid region %ux%u does not fit in dst's %ux%u",
            src->valid_rows, src->valid_cols, dst->rows, dst->cols);
  if (profile != PTO_PROFILE_HOST)
    v.Require(src->rows == dst->rows && src->cols == dst->cols, PTO_ERR_SHAPE_MISMATCH,
              "dst shape %ux%u differs from src shape %ux%u, which %s requires equal",
              dst->rows, dst->cols, src->rows, src->cols, pto_profile_string(profile));
  return v.status();
}

}  // namespace

double PadScalar(pto_dtype dtype, int pad) {
  if (pad == PTO_PAD_ZERO) return 0;
  const bool max = pad == PTO_PAD_MAX;
  if (IsFloatDtype(dtype)) return max ? HUGE_VAL : -HUGE_VAL;
  const unsigned bits = 8 * static_cast<unsigned>(ElementBytes(dtype));
  const bool is_signed = dtype == PTO_INT8 || dtype == PTO_INT16 || dtype == PTO_INT32;
  if (!is_signed) return max ? std::ldexp(1.0, static_cast<int>(bits)) - 1 : 0;
  return max ? std::ldexp(1.0, static_cast<int>(bits) - 1) - 1
             : -std::ldexp(1.0, static_cast<int>(bits) - 1);
}

namespace {

// The copy of src's valid region (skipped in place: the bits are already
// there), then the pad to the right of it in its rows and in every row
// below it, up to dst's rows x cols.
void RunTfillpad(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const uint32_t rows = src->valid_rows, cols = src->valid_cols;
  if (!FillpadInPlace(src, dst) && rows != 0 && cols != 0)
    kernels::Copy(src->dtype, rows, cols, PlaneOf(dst), ConstPlaneOf(src));
  const double pad = PadScalar(dst->dtype, o.attr);
  const pto_tile* view = dst;
  if (cols < dst->cols && rows != 0)
    kernels::Texpands(dst->dtype, rows, dst->cols - cols, Offset(dst, 0, cols),
                      Offset(view, 0, cols), pad);
  if (rows < dst->rows)
    kernels::Texpands(dst->dtype, dst->rows - rows, dst->cols, Offset(dst, rows, 0),
                      Offset(view, rows, 0), pad);
}

// ---- the Binary family ---------------------------------------------------

// dst = f(src0, src1) elementwise over dst's valid region: both sources of
// dst's dtype and valid region, each dst itself (in place) or apart from it.
pto_status CheckBinary(const Operands& o, pto_profile profile, OpDtypes rule,
                       const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst)
      .SameValidRegion("src0", src0, "dst", dst)
      .SameValidRegion("src1", src1, "dst", dst);
  return v.status();
}

using BinaryKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                              const kernels::ConstPlane&, const kernels::ConstPlane&);
using BinaryContiguousKernel = void (*)(pto_dtype, size_t, void*, const void*, const void*);

void RunBinary(const Operands& o, BinaryKernel kernel, BinaryContiguousKernel contiguous) {
  pto_tile* dst = o.dst;
  if (Contiguous(dst, o.src0, o.src1)) {
    return contiguous(dst->dtype, RegionElements(dst), dst->data, o.src0->data, o.src1->data);
  }
  kernel(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
         ConstPlaneOf(o.src1));
}

// ---- the Unary family ----------------------------------------------------

// The rules a row has beyond its family's, checked after the aliasing rules
// and before the valid regions; none unless specialised below.
template <OpId kId>
void RowRules(Validator&, const Operands&, pto_profile) {}

// TRECIP's page: "A3's TRECIP instruction does not support setting the
// source Tile and destination Tile to the same memory."
template <>
void RowRules<OpId::kTrecip>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile == PTO_PROFILE_A2A3)
    v.ApartOn(profile, "src and dst must not share memory", "src", o.src0, "dst", o.dst);
}

// dst = f(src) elementwise over dst's valid region: src of dst's dtype and
// valid region, dst itself (in place) or apart from it.
template <OpId kId>
pto_status CheckUnary(const Operands& o, pto_profile profile, const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(static_cast<OpDtypes>(kId), profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .InPlaceOrApart("src", src, dst);
  RowRules<kId>(v, o, profile);
  v.SameValidRegion("src", src, "dst", dst);
  return v.status();
}

// A Unary row's kernel is its family kernel with both operands src
// (binary.cc reads the second operand of none of them).
void RunUnary(const Operands& o, BinaryKernel kernel, BinaryContiguousKernel contiguous) {
  RunBinary(Operands{o.dst, o.src0, o.src0, nullptr, 0}, kernel, contiguous);
}

// ---- the Scalar family ---------------------------------------------------

// Whether `scalar` is a value of dtype: for an integer dtype an integer
// within its range (NaN and the infinities are not); a float dtype takes any
// value, rounded to it.
bool ScalarIsValueOf(pto_dtype dtype, double scalar) {
  if (IsFloatDtype(dtype)) return true;
  const int bits = static_cast<int>(pto_dtype_size(dtype)) * 8;
  const bool is_signed = dtype == PTO_INT8 || dtype == PTO_INT16 || dtype == PTO_INT32;
  const double low = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double high = std::ldexp(1.0, is_signed ? bits - 1 : bits) - 1;
  return scalar == std::trunc(scalar) && scalar >= low && scalar <= high;
}

// dst = f(src, scalar) elementwise over dst's valid region: src of dst's
// dtype and valid region, dst itself (in place) or apart from it; the scalar
// a value of the dtype.
pto_status CheckScalar(const Operands& o, pto_profile profile, OpDtypes rule,
                       const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  if (!v.ok()) return v.status();
  RequireScalarOf(v, "scalar", o.scalar, "dst", dst->dtype)
      .InPlaceOrApart("src", src, dst)
      .SameValidRegion("src", src, "dst", dst);
  return v.status();
}

// The scalar as the element type holds it (round to nearest even for float16
// and bfloat16 too: the double is first rounded to float32 to odd, which
// keeps the one rounding to the narrower type correct), exactly as a double.
double ScalarInDtype(pto_dtype dtype, double scalar) {
  // A NaN scalar is the positive quiet NaN whatever its sign and payload
  // (neither has a meaning in arithmetic, and a double's payload has no
  // element-type counterpart), so every way of giving it computes the same.
  if (std::isnan(scalar)) return std::nan("");
  if (!IsFloatDtype(dtype) || dtype == PTO_FLOAT32)
    return dtype == PTO_FLOAT32 ? static_cast<double>(static_cast<float>(scalar)) : scalar;
  float f = static_cast<float>(scalar);
  if (std::isfinite(f) && static_cast<double>(f) != scalar) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(scalar)) f = std::nextafter(f, 0.0f);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bits |= 1;  // round to odd: the sticky bit of what was cut
    memcpy(&f, &bits, sizeof bits);
  }
  uint16_t narrow = 0;
  kernels::FromF32(dtype, 1, &narrow, &f);
  float back = 0;
  kernels::ToF32(dtype, 1, &back, &narrow);
  return back;
}

using ScalarKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                              const kernels::ConstPlane&, double);
using ScalarContiguousKernel = void (*)(pto_dtype, size_t, void*, const void*, double);

void RunScalar(const Operands& o, ScalarKernel kernel, ScalarContiguousKernel contiguous) {
  pto_tile* dst = o.dst;
  const double value = ScalarInDtype(dst->dtype, o.scalar);
  if (Contiguous(dst, o.src0, o.src0)) {
    return contiguous(dst->dtype, RegionElements(dst), dst->data, o.src0->data, value);
  }
  kernel(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0), value);
}

// ---- the RowExpand and ColExpand families ---------------------------------

// Which source of a two-source broadcast covers dst's valid region (`full`)
// and which gives one value per row or column (`expanded`): src0 when its
// valid region is dst's, else src1 when its is (NULL, NULL when neither is).
// When both are, src0 is the full one, as the NPU implementations decide.
struct BroadcastOperands {
  const pto_tile* full;
  const pto_tile* expanded;
  const char* expanded_name;
};
BroadcastOperands BroadcastOperandsOf(const Operands& o) {
  if (SameRegion(o.src0, o.dst)) return {o.src0, o.src1, "src1"};
  if (SameRegion(o.src1, o.dst)) return {o.src1, o.src0, "src0"};
  return {nullptr, nullptr, nullptr};
}

// The elements of a Mode 2 row operand's block: 32 bytes of the dtype.
uint32_t BlockElements(pto_dtype dtype) {
  return static_cast<uint32_t>(32 / pto_dtype_size(dtype));
}

// The rules before the shapes, common to both families: NULLs, dtypes, a
// given tmp distinct from every other operand (it is never read or written,
// of any dtype and shape), sources in place or apart from dst.
void CheckBroadcastOperands(Validator& v, const Operands& o, OpDtypes rule, pto_profile profile,
                            bool two_sources) {
  pto_tile* dst = o.dst;
  const char* src0_name = two_sources ? "src0" : "src";
  v.NotNull("dst", dst).NotNull(src0_name, o.src0);
  if (two_sources) v.NotNull("src1", o.src1);
  if (!v.ok()) return;
  v.DtypeAccepted(rule, profile, "dst", dst).SameDtype(src0_name, o.src0, "dst", dst);
  if (two_sources) v.SameDtype("src1", o.src1, "dst", dst);
  if (o.tmp != nullptr) {
    v.Distinct("tmp", o.tmp, "dst", dst).Distinct("tmp", o.tmp, "src0", o.src0);
    if (two_sources) v.Distinct("tmp", o.tmp, "src1", o.src1);
  }
  v.InPlaceOrApart(src0_name, o.src0, dst);
  if (two_sources) v.InPlaceOrApart("src1", o.src1, dst);
}

// The full-size source: one source's valid region must be dst's.
void CheckFullSource(Validator& v, const Operands& o, const BroadcastOperands& b) {
  v.Require(b.full != nullptr, PTO_ERR_SHAPE_MISMATCH,
            "neither src0 valid region %ux%u nor src1 valid region %ux%u equals dst valid "
            "region %ux%u: one source must cover dst",
            o.src0->valid_rows, o.src0->valid_cols, o.src1->valid_rows, o.src1->valid_cols,
            o.dst->valid_rows, o.dst->valid_cols);
}

// One source: dst[i,j] = src[i,0] (row) or src[0,j] (column), src of dst's
// valid rows (row) or columns (column, as the NPU implementations assert)
// and at least one column (row) or row (column) where dst's region is not
// empty.
void CheckOneSource(Validator& v, const Operands& o, bool row) {
  const pto_tile *src = o.src0, *dst = o.dst;
  const char* along = row ? "rows" : "cols";
  v.Require((row ? src->valid_rows : src->valid_cols) == (row ? dst->valid_rows : dst->valid_cols),
            PTO_ERR_SHAPE_MISMATCH, "src valid %s %u differs from dst valid %s %u", along,
            row ? src->valid_rows : src->valid_cols, along,
            row ? dst->valid_rows : dst->valid_cols)
      .Require((row ? src->valid_cols : src->valid_rows) >= 1 || IsEmptyRegion(dst),
               PTO_ERR_SHAPE_MISMATCH, "src valid region %ux%u has no %s 0 to broadcast",
               src->valid_rows, src->valid_cols, row ? "column" : "row");
}

// Row broadcasts: dst[i,j] = f(full[i,j], s) (or f(s, full[i,j]) where src0
// is the expanded source e), s row i's value: Mode 1, e of valid region
// R x 1 (s = e[i,0]); Mode 2, R x 32/sizeof(T) (s = e[i, j mod
// 32/sizeof(T)]). A2A3: a given tmp is the NPU's broadcast buffer, Mode 1
// only, of at least ceil(R / 8) 256-byte repeats, 30 at most
// (docs/profiles.md).
void CheckRowOperand(Validator& v, const Operands& o, const BroadcastOperands& b,
                     pto_profile profile) {
  const pto_tile *dst = o.dst, *e = b.expanded;
  const uint32_t block = BlockElements(dst->dtype);
  v.Require(e->valid_rows == dst->valid_rows, PTO_ERR_SHAPE_MISMATCH,
            "%s valid rows %u differs from dst valid rows %u", b.expanded_name, e->valid_rows,
            dst->valid_rows)
      .Require(e->valid_cols == 1 || e->valid_cols == block, PTO_ERR_SHAPE_MISMATCH,
               "%s valid cols %u is neither 1 (one value per row) nor %u (a 32-byte block per "
               "row)",
               b.expanded_name, e->valid_cols, block);
  if (profile != PTO_PROFILE_A2A3 || o.tmp == nullptr) return;
  const uint64_t repeats = std::min<uint64_t>((uint64_t{dst->valid_rows} + 7) / 8, 30);
  const uint64_t tmp_bytes = uint64_t{o.tmp->rows} * o.tmp->cols * pto_dtype_size(o.tmp->dtype);
  v.Require(e->valid_cols == 1, PTO_ERR_SHAPE_MISMATCH,
            "%s valid cols %u is not 1: on A2A3 a tmp broadcasts one value per row only",
            b.expanded_name, e->valid_cols)
      .Require(tmp_bytes >= repeats * 256, PTO_ERR_SHAPE_MISMATCH,
               "tmp holds %llu bytes, less than the %llu that A2A3 broadcasts %u rows through",
               static_cast<unsigned long long>(tmp_bytes),
               static_cast<unsigned long long>(repeats * 256), dst->valid_rows);
}

// Column broadcasts: dst[i,j] = f(full[i,j], e[0,j]) (or f(e[0,j],
// full[i,j])), e of at least one valid row and dst's valid columns (as
// tcolexpanddiv).
void CheckColOperand(Validator& v, const Operands& o, const BroadcastOperands& b) {
  const pto_tile *dst = o.dst, *e = b.expanded;
  v.Require(e->valid_rows >= 1 || IsEmptyRegion(dst), PTO_ERR_SHAPE_MISMATCH,
            "%s valid region %ux%u has no row 0 to broadcast", b.expanded_name, e->valid_rows,
            e->valid_cols)
      .Require(e->valid_cols >= dst->valid_cols, PTO_ERR_SHAPE_MISMATCH,
               "%s valid cols %u is less than dst valid cols %u", b.expanded_name, e->valid_cols,
               dst->valid_cols);
}

// Every rule of a RowExpand (row) or ColExpand row, in the contract's order.
pto_status CheckBroadcast(const Operands& o, pto_profile profile, OpDtypes rule,
                          const char* c_function, bool two_sources, bool row) {
  Validator v(c_function);
  CheckBroadcastOperands(v, o, rule, profile, two_sources);
  if (!v.ok()) return v.status();
  if (!two_sources) {
    CheckOneSource(v, o, row);
    return v.status();
  }
  const BroadcastOperands b = BroadcastOperandsOf(o);
  CheckFullSource(v, o, b);
  if (!v.ok()) return v.status();
  if (row) {
    CheckRowOperand(v, o, b, profile);
  } else {
    CheckColOperand(v, o, b);
  }
  return v.status();
}

// The kernel of a RowExpand or ColExpand row (kernels.h).
using BroadcastKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                                 const kernels::ConstPlane&, const kernels::ConstPlane&, size_t,
                                 bool);

// One source: the broadcast itself (the kernel reads only the expanded
// plane). Two: the full and expanded sources as the check found them, the
// expanded one first in f's operands when it is src0.
void RunBroadcast(const Operands& o, BroadcastKernel kernel, bool row, bool two_sources) {
  pto_tile* dst = o.dst;
  const BroadcastOperands b =
      two_sources ? BroadcastOperandsOf(o) : BroadcastOperands{o.src0, o.src0, "src"};
  const size_t block = row && b.expanded->valid_cols != 1 && two_sources
                           ? BlockElements(dst->dtype)
                           : 1;
  kernel(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(b.full),
         ConstPlaneOf(b.expanded), block, two_sources && b.expanded == o.src0 && b.full != o.src0);
}

// ---- the Fill family -----------------------------------------------------

// dst = scalar over dst's valid region: dst of an accepted dtype, the scalar
// a value of it.
pto_status CheckFill(const Operands& o, pto_profile profile, OpDtypes rule,
                     const char* c_function) {
  pto_tile* dst = o.dst;
  Validator v(c_function);
  v.NotNull("dst", dst);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst);
  if (!v.ok()) return v.status();
  RequireScalarOf(v, "scalar", o.scalar, "dst", dst->dtype);
  return v.status();
}

// A Fill row's kernel is a Scalar one whose functor ignores its source: dst
// stands in for it, so no element outside dst's valid region is touched.
void RunFill(const Operands& o, ScalarKernel kernel, ScalarContiguousKernel contiguous) {
  RunScalar(Operands{o.dst, o.dst, nullptr, nullptr, 0, o.scalar}, kernel, contiguous);
}

// ---- tci ----------------------------------------------------------------

pto_status CheckTci(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  Validator v("pto_tci");
  v.NotNull("dst", dst);
  v.EnumInRange("descending", o.attr, 2);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTci, profile, "dst", dst);
  RequireScalarOf(v, "start", o.scalar, "dst", dst->dtype);
  if (profile != PTO_PROFILE_HOST)
    v.Require(dst->rows == 1, PTO_ERR_SHAPE_MISMATCH,
              "dst rows %u is not 1, which %s requires (the sequence runs along the row)",
              dst->rows, pto_profile_string(profile));
  return v.status();
}

// Element k (row-major over the valid region) is start + k or start - k:
// integers modulo 2^bits, float types the exact sum rounded once (start's
// rounded value plus k is exact in double while it matters: k < 2^32).
void RunTci(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const pto_dtype dtype = dst->dtype;
  const double start = ScalarInDtype(dtype, o.scalar);
  const bool down = o.attr != 0;
  const size_t cols = dst->valid_cols, size = ElementBytes(dtype);
  std::vector<float> row(IsFloatDtype(dtype) ? cols : 0);
  for (size_t i = 0; i < dst->valid_rows; ++i) {
    char* out = static_cast<char*>(dst->data) + i * dst->cols * size;
    const uint64_t first = static_cast<uint64_t>(i) * cols;
    if (IsFloatDtype(dtype)) {
      for (size_t j = 0; j < cols; ++j) {
        const double k = static_cast<double>(first + j);
        row[j] = static_cast<float>(ScalarInDtype(dtype, down ? start - k : start + k));
      }
      kernels::FromF32(dtype, cols, out, row.data());
      continue;
    }
    // The integer start (ScalarIsValueOf: in range) plus or minus k, low bits.
    const uint64_t base = static_cast<uint64_t>(static_cast<int64_t>(start));
    for (size_t j = 0; j < cols; ++j) {
      const uint64_t v = down ? base - (first + j) : base + (first + j);
      if (size == 2) {
        const uint16_t e = static_cast<uint16_t>(v);
        memcpy(out + j * 2, &e, 2);
      } else {
        const uint32_t e = static_cast<uint32_t>(v);
        memcpy(out + j * 4, &e, 4);
      }
    }
  }
}

// ---- treshape -------------------------------------------------------------

size_t TileBytes(const pto_tile* t) { return ElementCount(t) * ElementBytes(t->dtype); }

pto_status CheckTreshape(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_treshape");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTreshape, profile, "dst", dst);
  if (!v.ok()) return v.status();
  // Whole storages: [data, data + bytes) of each.
  pto_tile whole_dst = *dst, whole_src = *src;
  whole_dst.valid_rows = dst->rows, whole_dst.valid_cols = dst->cols;
  whole_src.valid_rows = src->rows, whole_src.valid_cols = src->cols;
  v.Require(src->data == dst->data || !ValidRegionsOverlapSlow(&whole_src, &whole_dst),
            PTO_ERR_ALIASING,
            "src's storage shares bytes with dst's without starting at the same address");
  v.Require(TileBytes(src) == TileBytes(dst), PTO_ERR_SHAPE_MISMATCH,
            "src %ux%u %s is %zu bytes, dst %ux%u %s %zu (a reshape keeps the size)", src->rows,
            src->cols, DtypeName(src->dtype), TileBytes(src), dst->rows, dst->cols,
            DtypeName(dst->dtype), TileBytes(dst));
  return v.status();
}

// The bytes, unless they are already there (dst at src's address).
void RunTreshape(const Operands& o, pto_profile) {
  if (o.src0->data != o.dst->data) memcpy(o.dst->data, o.src0->data, TileBytes(o.dst));
}

// ---- ttrans ---------------------------------------------------------------

pto_status CheckTtrans(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  Validator v("pto_ttrans");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("tmp", tmp);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTtrans, profile, "dst", dst)
      .Require(ElementBytes(src->dtype) == ElementBytes(dst->dtype), PTO_ERR_DTYPE_MISMATCH,
               "src dtype %s differs in size from dst dtype %s", DtypeName(src->dtype),
               DtypeName(dst->dtype))
      .Distinct("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "src", src);
  v.Require(src != dst && !ValidRegionsOverlapSlow(src, dst), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's (a transpose cannot run in place)");
  v.Require(dst->valid_rows == src->valid_cols && dst->valid_cols == src->valid_rows,
            PTO_ERR_SHAPE_MISMATCH, "dst valid region %ux%u is not src's %ux%u transposed",
            dst->valid_rows, dst->valid_cols, src->valid_rows, src->valid_cols);
  if (profile == PTO_PROFILE_A5)
    v.Require((src->cols * ElementBytes(src->dtype)) % 32 == 0 &&
                  (dst->cols * ElementBytes(dst->dtype)) % 32 == 0,
              PTO_ERR_SHAPE_MISMATCH,
              "src cols %u and dst cols %u of %zu-byte elements are not both a multiple of 32 "
              "bytes, which A5 requires",
              src->cols, dst->cols, ElementBytes(dst->dtype));
  return v.status();
}

// Blocks of 16 x 16 elements, so that both tiles are walked a cache line at
// a time; element by element, by size.
template <typename T>
void TransposeAs(const pto_tile* src, pto_tile* dst) {
  const T* in = static_cast<const T*>(src->data);
  T* out = static_cast<T*>(dst->data);
  const size_t rows = src->valid_rows, cols = src->valid_cols;
  constexpr size_t kBlock = 16;
  for (size_t i0 = 0; i0 < rows; i0 += kBlock)
    for (size_t j0 = 0; j0 < cols; j0 += kBlock)
      for (size_t i = i0; i < std::min(rows, i0 + kBlock); ++i)
        for (size_t j = j0; j < std::min(cols, j0 + kBlock); ++j)
          out[j * dst->cols + i] = in[i * src->cols + j];
}

void RunTtrans(const Operands& o, pto_profile) {
  switch (ElementBytes(o.dst->dtype)) {
    case 1: return TransposeAs<uint8_t>(o.src0, o.dst);
    case 2: return TransposeAs<uint16_t>(o.src0, o.dst);
    default: return TransposeAs<uint32_t>(o.src0, o.dst);
  }
}

// ---- tconcat -------------------------------------------------------------

pto_status CheckTconcat(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v("pto_tconcat");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTconcat, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InPlaceOrApart("src0", src0, dst);
  v.Require(src1 != dst && !SamePlacement(src1, dst) && !ValidRegionsOverlapSlow(src1, dst),
            PTO_ERR_ALIASING,
            "src1's valid elements share storage with dst's (they are written at other columns)");
  v.Require(src0->valid_rows == dst->valid_rows && src1->valid_rows == dst->valid_rows,
            PTO_ERR_SHAPE_MISMATCH, "src0 valid rows %u and src1 valid rows %u differ from dst's %u",
            src0->valid_rows, src1->valid_rows, dst->valid_rows);
  v.Require(size_t{src0->valid_cols} + src1->valid_cols == dst->valid_cols,
            PTO_ERR_SHAPE_MISMATCH, "src0 valid cols %u + src1 valid cols %u differ from dst's %u",
            src0->valid_cols, src1->valid_cols, dst->valid_cols);
  return v.status();
}

void RunTconcat(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  const uint32_t rows = dst->valid_rows, left = o.src0->valid_cols, right = o.src1->valid_cols;
  if (left != 0 && o.src0->data != dst->data)
    kernels::Copy(dst->dtype, rows, left, PlaneOf(dst), ConstPlaneOf(o.src0));
  if (right != 0) kernels::Copy(dst->dtype, rows, right, Offset(dst, 0, left), ConstPlaneOf(o.src1));
}

// ---- textract --------------------------------------------------------------

// Whether a source the operation reads while it writes dst shares any byte of
// dst's valid elements: the same handle (even with an empty region), the same
// placement, or overlapping storage.
bool SharesStorage(const pto_tile* src, const pto_tile* dst) {
  return src == dst || SamePlacement(src, dst) || ValidRegionsOverlapSlow(src, dst);
}

// Whether [index, index + extent) lies in [0, bound), without overflow.
bool SpanFits(size_t index, uint32_t extent, uint32_t bound) {
  return index <= bound && extent <= bound - index;
}

pto_status CheckTextract(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const size_t row = o.index[0], col = o.index[1];
  const char* const target = pto_profile_string(profile);
  Validator v("pto_textract");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTextract, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  v.Require(!SharesStorage(src, dst), PTO_ERR_ALIASING,
            "src's valid elements share storage with dst's (the window is copied into dst)");
  const size_t size = ElementBytes(dst->dtype);
  if (profile != PTO_PROFILE_HOST)
    v.Require(dst->rows <= src->rows && dst->cols <= src->cols, PTO_ERR_SHAPE_MISMATCH,
              "dst %ux%u exceeds src %ux%u, which %s forbids", dst->rows, dst->cols, src->rows,
              src->cols, target);
  const bool one_element = dst->valid_rows == 1 && dst->valid_cols == 1;
  if (profile == PTO_PROFILE_A2A3) {
    v.Require((src->cols * size) % 32 == 0 && (dst->cols * size) % 32 == 0,
              PTO_ERR_SHAPE_MISMATCH,
              "src cols %u and dst cols %u of %zu-byte elements are not both a multiple of 32 "
              "bytes, which A2A3 requires",
              src->cols, dst->cols, size)
        .Require(one_element || (dst->valid_cols * size) % 2 == 0, PTO_ERR_SHAPE_MISMATCH,
                 "dst valid cols %u of 1-byte elements is odd, which A2A3 refuses (its copy "
                 "moves 2 bytes at a time)",
                 dst->valid_cols);
  }
  // The offsets, where known: the window inside src's valid region (and,
  // under A2A3 and A5, dst's whole rows x cols inside src's, the page's
  // bound).
  if (!o.contents_known) return v.status();
  v.Require(SpanFits(row, dst->valid_rows, src->valid_rows) &&
                SpanFits(col, dst->valid_cols, src->valid_cols),
            PTO_ERR_OUT_OF_RANGE,
            "the window at (%zu, %zu) of dst's valid region %ux%u is outside src's valid region "
            "%ux%u",
            row, col, dst->valid_rows, dst->valid_cols, src->valid_rows, src->valid_cols);
  if (profile != PTO_PROFILE_HOST)
    v.Require(SpanFits(row, dst->rows, src->rows) && SpanFits(col, dst->cols, src->cols),
              PTO_ERR_OUT_OF_RANGE,
              "index_row %zu + dst rows %u or index_col %zu + dst cols %u exceeds src %ux%u, "
              "which %s forbids",
              row, dst->rows, col, dst->cols, src->rows, src->cols, target);
  if (profile == PTO_PROFILE_A2A3)
    v.Require(one_element || (col * size) % 32 == 0, PTO_ERR_OUT_OF_RANGE,
              "index_col %zu of %zu-byte elements is not a multiple of 32 bytes, which A2A3 "
              "requires (but for a 1x1 dst)",
              col, size);
  return v.status();
}

void RunTextract(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::Copy(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                Offset(o.src0, static_cast<uint32_t>(o.index[0]), static_cast<uint32_t>(o.index[1])));
}

// ---- tgather ---------------------------------------------------------------

// Index (i, j) of an index tile, widened (negative ones stay negative;
// every value of the index dtypes is exact in a double).
int64_t IndexAt(const pto_tile* t, size_t i, size_t j) {
  return static_cast<int64_t>(ElementValue(t, i * t->cols + j));
}

// Whether every index of indices' valid region names an element of src's
// valid region; if not, the first that does not (row order) in *bad_i,
// *bad_j. The common case, src's valid rows whole, is one compare an index,
// without a branch; the position is looked for only when one fails.
template <typename I>
bool IndicesInRangeAs(const pto_tile* indices, const pto_tile* src, size_t* bad_i, size_t* bad_j) {
  // A tile holds fewer than 2^32 elements (PTO_TILE_MAX_BYTES): 32 bits
  // hold every offset, and a negative index widened to 32 bits is past them.
  const uint32_t limit = src->valid_rows * src->cols;
  const bool whole_rows = src->valid_cols == src->cols;
  const I* base = static_cast<const I*>(indices->data);
  for (size_t i = 0; i < indices->valid_rows; ++i) {
    const I* row = base + i * indices->cols;
    bool bad = false;
    if (whole_rows) {
      // k >= limit, or k >= 2^31 (limit < 2^31), sets bit 31 of k | (limit
      // - 1 - k) (unsigned, wrapping): one OR an index, no compare.
      const uint32_t last = limit - 1;
      uint32_t any = 0;
      for (size_t j = 0; j < indices->valid_cols; ++j) {
        const uint32_t k = static_cast<uint32_t>(static_cast<int32_t>(row[j]));
        any |= k | (last - k);
      }
      bad = (any >> 31) != 0;
    } else {
      for (size_t j = 0; j < indices->valid_cols; ++j) {
        const uint32_t k = static_cast<uint32_t>(static_cast<int32_t>(row[j]));
        bad |= k >= limit || k % src->cols >= src->valid_cols;
      }
    }
    if (!bad) continue;
    for (size_t j = 0;; ++j) {
      const uint32_t k = static_cast<uint32_t>(static_cast<int32_t>(row[j]));
      if (k >= limit || k % src->cols >= src->valid_cols) {
        *bad_i = i, *bad_j = j;
        return false;
      }
    }
  }
  return true;
}

// Whether some index is out of range; the first one's position in *bad_i, *bad_j.
bool FirstBadIndex(const pto_tile* indices, const pto_tile* src, size_t* bad_i, size_t* bad_j) {
  switch (indices->dtype) {
    case PTO_INT16: return !IndicesInRangeAs<int16_t>(indices, src, bad_i, bad_j);
    case PTO_UINT16: return !IndicesInRangeAs<uint16_t>(indices, src, bad_i, bad_j);
    case PTO_INT32: return !IndicesInRangeAs<int32_t>(indices, src, bad_i, bad_j);
    default: return !IndicesInRangeAs<uint32_t>(indices, src, bad_i, bad_j);
  }
}

pto_status CheckTgather(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *indices = o.src1;
  const pto_tile* tmp = o.tmp;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  Validator v("pto_tgather");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("indices", indices);
  if (a2a3)
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT, "tmp is NULL, but on A2A3 tgather needs a tmp");
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTgather, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .DtypeAccepted(OpDtypes::kGatherIndices, profile, "indices", indices);
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
  size_t bad_i = 0, bad_j = 0;
  if (!FirstBadIndex(indices, src, &bad_i, &bad_j)) return v.status();
  return v
      .Require(false, PTO_ERR_OUT_OF_RANGE,
               "indices (%zu, %zu) is %lld, which names no element of src's valid region %ux%u "
               "(an index is row * %u + col)",
               bad_i, bad_j, static_cast<long long>(IndexAt(indices, bad_i, bad_j)),
               src->valid_rows, src->valid_cols, src->cols)
      .status();
}

template <typename T, typename I>
void GatherAs(pto_tile* dst, const pto_tile* src, const pto_tile* indices) {
  const T* in = static_cast<const T*>(src->data);
  const I* index = static_cast<const I*>(indices->data);
  T* out = static_cast<T*>(dst->data);
  for (size_t i = 0; i < dst->valid_rows; ++i) {
    const I* row = index + i * indices->cols;
    T* to = out + i * dst->cols;
    for (size_t j = 0; j < dst->valid_cols; ++j) to[j] = in[static_cast<size_t>(row[j])];
  }
}

template <typename T>
void GatherBy(pto_tile* dst, const pto_tile* src, const pto_tile* indices) {
  // The check accepted only indices naming src's elements: as unsigned, the
  // same values.
  if (ElementBytes(indices->dtype) == 2) return GatherAs<T, uint16_t>(dst, src, indices);
  GatherAs<T, uint32_t>(dst, src, indices);
}

void RunTgather(const Operands& o, pto_profile) {
  switch (ElementBytes(o.dst->dtype)) {
    case 1: return GatherBy<uint8_t>(o.dst, o.src0, o.src1);
    case 2: return GatherBy<uint16_t>(o.dst, o.src0, o.src1);
    default: return GatherBy<uint32_t>(o.dst, o.src0, o.src1);
  }
}

// ---- the RowReduce and ColReduce families --------------------------------

constexpr kernels::Reduction ReductionOf(OpId id) {
  return id == OpId::kTrowsum || id == OpId::kTcolsum   ? kernels::Reduction::kSum
         : id == OpId::kTrowmax || id == OpId::kTcolmax ? kernels::Reduction::kMax
                                                        : kernels::Reduction::kMin;
}

// The dtype and aliasing rules of both reduction families: dst's dtype
// accepted, src's (and, where the profile uses one, tmp's) equal to it; a
// given tmp another handle than dst and src; src dst itself, placed exactly
// on it, or apart.
void ReductionOperandRules(Validator& v, const Operands& o, pto_profile profile, OpId id,
                           bool tmp_used) {
  const pto_tile *dst = o.dst, *src = o.src0, *tmp = o.tmp;
  v.DtypeAccepted(static_cast<OpDtypes>(id), profile, "dst", dst)
      .SameDtype("src", src, "dst", dst);
  if (tmp_used) v.SameDtype("tmp", tmp, "dst", dst);
  if (tmp != nullptr) v.Distinct("tmp", tmp, "dst", dst).Distinct("tmp", tmp, "src", src);
  v.InPlaceOrApart("src", src, dst);
}

// dst(i,0) = the reduction of src's valid row i, for every valid row i of
// src (the iteration domain): src of dst's dtype and not empty, dst of as
// many valid rows and at least one valid column (an [R,1] tile, or column 0
// of a wider one), dst itself (in place) or apart from src. tmp is never
// read or written; A2A3 requires one of dst's dtype, large enough for its
// implementation's scratch (docs/profiles.md).
pto_status CheckRowReduce(const Operands& o, pto_profile profile, OpId id,
                          const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src", src);
  if (a2a3) {
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT, "tmp is NULL, but on %s %s needs a tmp",
              pto_profile_string(profile), c_function + 4);
  }
  if (!v.ok()) return v.status();
  ReductionOperandRules(v, o, profile, id, a2a3);
  if (!v.ok()) return v.status();
  v.Require(src->valid_rows != 0 && src->valid_cols != 0, PTO_ERR_SHAPE_MISMATCH,
            "src valid region %ux%u is empty: a row reduction needs at least one element per "
            "row",
            src->valid_rows, src->valid_cols)
      .Require(dst->valid_rows == src->valid_rows, PTO_ERR_SHAPE_MISMATCH,
               "dst valid rows %u differs from src valid rows %u", dst->valid_rows,
               src->valid_rows)
      .Require(dst->valid_cols >= 1, PTO_ERR_SHAPE_MISMATCH,
               "dst valid cols is 0: the results go to column 0");
  if (a2a3 && v.ok()) {
    // TRowSum.hpp / TRowReduceOps.hpp: integers accumulate in one 32-byte
    // block of tmp; floats longer than one 256-byte repeat sum repeat pairs
    // into tmp rows of max(1, repeats / 2) repeats.
    const size_t size = pto_dtype_size(dst->dtype);
    const size_t per_repeat = 256 / size;
    const size_t repeats = src->valid_cols / per_repeat;
    if (!IsFloatDtype(dst->dtype)) {
      v.Require(tmp->cols >= 32 / size, PTO_ERR_SHAPE_MISMATCH,
                "tmp cols %u is less than %zu (one 32-byte block), which A2A3 requires",
                tmp->cols, 32 / size);
    } else if (src->valid_cols > per_repeat) {
      const size_t need = per_repeat * (repeats / 2 > 1 ? repeats / 2 : 1);
      v.Require(tmp->rows >= src->valid_rows, PTO_ERR_SHAPE_MISMATCH,
                "tmp rows %u is less than src valid rows %u, which A2A3 requires", tmp->rows,
                src->valid_rows)
          .Require(tmp->cols >= need, PTO_ERR_SHAPE_MISMATCH,
                   "tmp cols %u is less than %zu (src valid cols %u in 256-byte repeats, summed "
                   "in pairs), which A2A3 requires",
                   tmp->cols, need, src->valid_cols);
    }
  }
  return v.status();
}

void RunRowReduce(const Operands& o, pto_profile profile, OpId id) {
  const pto_tile* src = o.src0;
  kernels::RowReduce(ReductionOf(id),
                     profile == PTO_PROFILE_A2A3 ? kernels::SumOrder::kA2A3
                                                 : kernels::SumOrder::kA5,
                     src->dtype, src->valid_rows, src->valid_cols, PlaneOf(o.dst),
                     ConstPlaneOf(src));
}

// dst(0,j) = the reduction of src's valid column j, for every valid column j
// of src: src of dst's dtype, dst of as many valid columns and, unless src's
// region is empty (nothing is computed then), at least one valid row. tmp is
// never read or written; tcolsum's binary order under A2A3 and A5 requires
// one of dst's dtype with at least src valid cols columns and
// ceil(src valid rows / 2) rows.
pto_status CheckColReduce(const Operands& o, pto_profile profile, OpId id,
                          const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* tmp = o.tmp;
  const bool binary = id == OpId::kTcolsum && o.attr == 1;
  const bool tmp_rules = binary && profile != PTO_PROFILE_HOST;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src", src);
  if (id == OpId::kTcolsum) v.EnumInRange("binary_order", o.attr, 2);
  if (tmp_rules) {
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT,
              "tmp is NULL, but on %s the binary order of tcolsum needs a tmp",
              pto_profile_string(profile));
  }
  if (!v.ok()) return v.status();
  ReductionOperandRules(v, o, profile, id, tmp_rules);
  if (!v.ok()) return v.status();
  const bool empty = IsEmptyRegion(src);
  v.Require(dst->valid_cols == src->valid_cols, PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u differs from src valid cols %u", dst->valid_cols,
            src->valid_cols)
      .Require(empty || dst->valid_rows >= 1, PTO_ERR_SHAPE_MISMATCH,
               "dst valid rows is 0: the results go to row 0");
  if (tmp_rules && !empty) {
    const uint32_t half = src->valid_rows / 2 + src->valid_rows % 2;
    v.Require(tmp->cols >= src->valid_cols, PTO_ERR_SHAPE_MISMATCH,
              "tmp cols %u is less than src valid cols %u, which the binary order requires on "
              "%s",
              tmp->cols, src->valid_cols, pto_profile_string(profile))
        .Require(tmp->rows >= half, PTO_ERR_SHAPE_MISMATCH,
                 "tmp rows %u is less than ceil(src valid rows %u / 2) = %u, which the binary "
                 "order requires on %s",
                 tmp->rows, src->valid_rows, half, pto_profile_string(profile));
  }
  return v.status();
}

void RunColReduce(const Operands& o, pto_profile profile, OpId id) {
  const pto_tile* src = o.src0;
  if (IsEmptyRegion(src)) return;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  const bool binary = id == OpId::kTcolsum && o.attr == 1;
  const kernels::SumOrder order =
      binary ? (a2a3 ? kernels::SumOrder::kA2A3Binary : kernels::SumOrder::kA5Binary)
             : (a2a3 ? kernels::SumOrder::kA2A3 : kernels::SumOrder::kA5);
  kernels::ColReduce(ReductionOf(id), order, src->dtype, src->valid_rows, src->valid_cols,
                     PlaneOf(o.dst), ConstPlaneOf(src));
}

// CheckCamel and RunCamel of every row outside the Special family.
#define PTO_FAMILY_FUNCTIONS(Camel, check, run)                                        \
  pto_status Check##Camel(const Operands& o, pto_profile profile) { return check; }    \
  void Run##Camel(const Operands& o, pto_profile profile) {                            \
    (void)profile;                                                                     \
    run;                                                                               \
  }
#define PTO_FAMILY_FUNCTIONS_Special(Camel, mnemonic, n)
#define PTO_FAMILY_FUNCTIONS_Binary(Camel, mnemonic, n)                                   \
  PTO_FAMILY_FUNCTIONS(Camel, CheckBinary(o, profile, OpDtypes::k##Camel, "pto_" #mnemonic), \
                       RunBinary(o, kernels::Camel, kernels::Camel##Contiguous))
#define PTO_FAMILY_FUNCTIONS_Scalar(Camel, mnemonic, n)                                   \
  PTO_FAMILY_FUNCTIONS(Camel, CheckScalar(o, profile, OpDtypes::k##Camel, "pto_" #mnemonic), \
                       RunScalar(o, kernels::Camel, kernels::Camel##Contiguous))
#define PTO_FAMILY_FUNCTIONS_Fill(Camel, mnemonic, n)                                     \
  PTO_FAMILY_FUNCTIONS(Camel, CheckFill(o, profile, OpDtypes::k##Camel, "pto_" #mnemonic), \
                       RunFill(o, kernels::Camel, kernels::Camel##Contiguous))
#define PTO_FAMILY_FUNCTIONS_Unary(Camel, mnemonic, n)                                    \
  PTO_FAMILY_FUNCTIONS(Camel, CheckUnary<OpId::k##Camel>(o, profile, "pto_" #mnemonic), \
                       RunUnary(o, kernels::Camel, kernels::Camel##Contiguous))
#define PTO_FAMILY_FUNCTIONS_RowReduce(Camel, mnemonic, n)                                \
  PTO_FAMILY_FUNCTIONS(Camel, CheckRowReduce(o, profile, OpId::k##Camel, "pto_" #mnemonic), \
                       RunRowReduce(o, profile, OpId::k##Camel))
#define PTO_FAMILY_FUNCTIONS_ColReduce(Camel, mnemonic, n)                                \
  PTO_FAMILY_FUNCTIONS(Camel, CheckColReduce(o, profile, OpId::k##Camel, "pto_" #mnemonic), \
                       RunColReduce(o, profile, OpId::k##Camel))
#define PTO_FAMILY_FUNCTIONS_BROADCAST(Camel, mnemonic, n, row)                             \
  PTO_FAMILY_FUNCTIONS(                                                                     \
      Camel, CheckBroadcast(o, profile, OpDtypes::k##Camel, "pto_" #mnemonic, n == 2, row), \
      RunBroadcast(o, kernels::Camel, row, n == 2))
#define PTO_FAMILY_FUNCTIONS_RowExpand(Camel, mnemonic, n) \
  PTO_FAMILY_FUNCTIONS_BROADCAST(Camel, mnemonic, n, true)
#define PTO_FAMILY_FUNCTIONS_ColExpand(Camel, mnemonic, n) \
  PTO_FAMILY_FUNCTIONS_BROADCAST(Camel, mnemonic, n, false)
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, n, ...) \
  PTO_FAMILY_FUNCTIONS_##Fam(Camel, mnemonic, n)
#include "operations.def"
#undef PTO_OPERATION

}  // namespace

// The table, row by row from operations.def.
#define PTO_SOURCE_NAMES_0(s0, s1) {nullptr, nullptr}
#define PTO_SOURCE_NAMES_1(s0, s1) {s0, nullptr}
#define PTO_SOURCE_NAMES_2(s0, s1) {s0, s1}
constexpr OpDescriptor kOps[kOpCount] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, n, s0, s1, Tmp, Attr, host, a2a3, a5, summary) \
  {OpId::k##Camel,                                                                               \
   Family::k##Fam,                                                                               \
   #mnemonic,                                                                                    \
   "pto_" #mnemonic,                                                                             \
   summary,                                                                                      \
   n,                                                                                            \
   PTO_SOURCE_NAMES_##n(#s0, #s1),                                                               \
   TmpRole::k##Tmp,                                                                              \
   AttrKind::k##Attr,                                                                            \
   AttrValueCount(AttrKind::k##Attr),                                                            \
   Check##Camel,                                                                                 \
   Run##Camel},
#include "operations.def"
#undef PTO_OPERATION
};
#undef PTO_SOURCE_NAMES_0
#undef PTO_SOURCE_NAMES_1
#undef PTO_SOURCE_NAMES_2

// The table is indexed by OpId: row i must describe operation i, under the
// mnemonic operations.def gives it.
constexpr bool SameText(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return *a == *b;
}
constexpr const char* kMnemonics[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) #mnemonic,
#include "operations.def"
#undef PTO_OPERATION
};
constexpr bool TableInOrder() {
  for (size_t i = 0; i < kOpCount; ++i)
    if (static_cast<size_t>(kOps[i].id) != i || !SameText(kOps[i].mnemonic, kMnemonics[i]))
      return false;
  return true;
}
static_assert(TableInOrder(), "kOps must list the operations in OpId order");

const OpDescriptor* FindOp(const char* name, size_t name_length) {
  for (const OpDescriptor& op : kOps) {
    if (op.attr != AttrKind::kScalarFirst && strlen(op.mnemonic) == name_length &&
        memcmp(op.mnemonic, name, name_length) == 0)
      return &op;
  }
  return nullptr;
}

const OpDescriptor* ScalarFirstForm(const OpDescriptor& op) {
  static constexpr char kSuffix[] = "_scalar_by_tile";
  const size_t length = strlen(op.mnemonic);
  for (const OpDescriptor& form : kOps) {
    if (form.attr == AttrKind::kScalarFirst && strncmp(form.mnemonic, op.mnemonic, length) == 0 &&
        strcmp(form.mnemonic + length, kSuffix) == 0)
      return &form;
  }
  return nullptr;
}

namespace {
// op.run on operands its check accepted, dst's valid region not empty, under
// IEEE defaults where dst's dtype is a float type.
PTO_CHECK_INLINE inline pto_status RunAccepted(const OpDescriptor& op, const Operands& o,
                                               pto_profile profile) {
  // (tcvt computes in float lanes when either dtype is a float type.)
  const FloatEnvironmentGuard float_env(IsFloatDtype(o.dst->dtype) ||
                                        (o.src0 != nullptr && IsFloatDtype(o.src0->dtype)));
  op.run(o, profile);
  return PTO_OK;
}

// ---- the C functions' path ----------------------------------------------

// valid_rows and valid_cols as one value, so that two regions compare in one
// instruction.
inline uint64_t ValidRegionKey(const pto_tile* t) {
  static_assert(offsetof(pto_tile, valid_cols) == offsetof(pto_tile, valid_rows) + 4,
                "valid_rows and valid_cols are adjacent");
  uint64_t key;
  memcpy(&key, &t->valid_rows, sizeof(key));
  return key;
}

// The dtypes the operation accepts for dst under HOST, whatever its attribute
// (an operation's OpDtypes key is its OpId's value).
constexpr uint32_t HostDtypes(OpId id) {
  const auto host = [](OpDtypes op) {
    return kAcceptMasks.by_op_and_profile[static_cast<int>(op)][PTO_PROFILE_HOST];
  };
  const uint32_t own = host(static_cast<OpDtypes>(id));
  const AttrKind attr = kOps[static_cast<size_t>(id)].attr;
  return attr == AttrKind::kPowPrecision || attr == AttrKind::kScalarPowPrecision
             ? own & host(OpDtypes::kPowHighPrecision)
             : own;
}

// A broadcast's common call: HOST, no tmp, owned tiles of one accepted
// dtype, dst's valid region not empty; with one source, src of dst's valid
// rows (row) or columns (column) and at least one value; with two, src0 of
// dst's valid region and src1 a Mode 1 row operand (R x 1) or a column
// operand (a row, at least dst's columns). Every rule of the family holds
// for such a call under HOST; any other goes through the check.
template <OpId kId>
PTO_CHECK_INLINE inline bool IsCommonBroadcast(const Operands& o, pto_profile profile) {
  constexpr const OpDescriptor& op = kOps[static_cast<size_t>(kId)];
  constexpr bool kRow = op.family == Family::kRowExpand;
  constexpr uint32_t dtypes = HostDtypes(kId);
  const pto_tile *dst = o.dst, *src0 = o.src0;
  const pto_tile* e = op.source_count == 2 ? o.src1 : o.src0;
  if (profile != PTO_PROFILE_HOST || dst == nullptr || src0 == nullptr || e == nullptr ||
      o.tmp != nullptr)
    return false;
  const pto_dtype dtype = dst->dtype;
  if ((dtypes & DtypeBit(dtype)) == 0 || src0->dtype != dtype || e->dtype != dtype ||
      IsEmptyRegion(dst) ||
      (reinterpret_cast<uintptr_t>(dst->buffer) | reinterpret_cast<uintptr_t>(src0->buffer) |
       reinterpret_cast<uintptr_t>(e->buffer)) != 0)
    return false;
  if (op.source_count == 2 && ValidRegionKey(src0) != ValidRegionKey(dst)) return false;
  if (kRow) return e->valid_rows == dst->valid_rows && e->valid_cols == 1;
  return e->valid_rows >= 1 && e->valid_cols >= dst->valid_cols &&
         (op.source_count == 2 || e->valid_cols == dst->valid_cols);
}

// Whether every rule of the row's C function is one the common call below
// tests (dtypes, one valid region, the attribute, the scalar, tmp apart): the
// families' rows and the first Special rows (tpow, trsqrt, tprelu,
// tcolexpanddiv, tpartadd). Every later Special row has operands of other
// shapes or dtypes (a conversion, a pad, a transpose, a concatenation, a
// reshape, offsets, indices, masks, tci's and tpows's own lists): its check
// decides each of its calls.
constexpr bool HasFamilyRules(const OpDescriptor& op) {
  if (op.family != Family::kSpecial) return true;
  switch (op.id) {
    case OpId::kTpow:
    case OpId::kTrsqrt:
    case OpId::kTprelu:
    case OpId::kTcolexpanddiv:
    case OpId::kTpartadd:
      return true;
    default:
      return false;
  }
}

// The common call, accepted in a few compares: the HOST profile; every
// operand given, owned (owned tiles are separate allocations, so sources are
// dst itself or apart from it) and of dst's dtype and valid region, which is
// not empty; the attribute in range; tmp, where the operation requires one,
// none of the other operands (an optional tmp is absent). Every rule of every
// C function holds for such a call under HOST, so its check would accept it;
// any other call goes through the check.
template <OpId kId>
PTO_CHECK_INLINE inline bool IsCommonCall(const Operands& o, pto_profile profile) {
  constexpr const OpDescriptor& op = kOps[static_cast<size_t>(kId)];
  constexpr uint32_t dtypes = HostDtypes(kId);
  const pto_tile* dst = o.dst;
  const pto_tile* src0 = op.source_count == 0 ? o.dst : o.src0;
  const pto_tile* src1 = op.source_count == 2 ? o.src1 : src0;
  const pto_tile* tmp = op.tmp == TmpRole::kRequired ? o.tmp : src0;
  if constexpr (op.family == Family::kRowExpand || op.family == Family::kColExpand) {
    return IsCommonBroadcast<kId>(o, profile);
  }
  if constexpr (!HasFamilyRules(op)) return false;
  if (profile != PTO_PROFILE_HOST || dst == nullptr || src0 == nullptr || src1 == nullptr ||
      tmp == nullptr)
    return false;
  if (op.tmp == TmpRole::kOptional && o.tmp != nullptr) return false;
  if (op.tmp == TmpRole::kRequired && (tmp == dst || tmp == src0 || tmp == src1)) return false;
  if (op.attr_count != 0 && static_cast<unsigned>(o.attr) >= static_cast<unsigned>(op.attr_count))
    return false;
  if (TakesScalar(op.attr) && !ScalarIsValueOf(dst->dtype, o.scalar)) return false;
  const pto_dtype dtype = dst->dtype;
  const uint64_t region = ValidRegionKey(dst);
  return (dtypes & DtypeBit(dtype)) != 0 && src0->dtype == dtype && src1->dtype == dtype &&
         tmp->dtype == dtype && ValidRegionKey(src0) == region &&
         ValidRegionKey(src1) == region && ValidRegionKey(tmp) == region &&
         static_cast<uint32_t>(region) != 0 && (region >> 32) != 0 &&
         (reinterpret_cast<uintptr_t>(dst->buffer) | reinterpret_cast<uintptr_t>(src0->buffer) |
          reinterpret_cast<uintptr_t>(src1->buffer) | reinterpret_cast<uintptr_t>(tmp->buffer)) ==
             0;
}

// Any call that is not the common one: the check under `profile`, then the
// kernels when it passes and dst's region is not empty. Out of line, with
// the operands in registers, so that the common call's path stores none of
// them.
template <OpId kId>
__attribute__((noinline, cold)) pto_status CheckAndRun(pto_tile* dst, const pto_tile* src0,
                                                       const pto_tile* src1, pto_tile* tmp,
                                                       int attr, double scalar, int sat,
                                                       size_t index0, size_t index1,
                                                       pto_profile profile) {
  constexpr const OpDescriptor& op = kOps[static_cast<size_t>(kId)];
  const Operands o{dst, src0, src1, tmp, attr, scalar, sat, {index0, index1}};
  const pto_status status = op.check(o, profile);
  if (status != PTO_OK || (IsEmptyRegion(dst) && !WritesWholeDst(op))) return status;
  return RunAccepted(op, o, profile);
}

// What every C function does with its operands: a common call goes straight
// to the kernels; any other call goes through CheckAndRun, the check under the
// calling thread's profile and then the kernels. Inlined into each C
// function, which then holds only the common call's compares and the kernel
// call (the full check stays out of line in the table).
template <OpId kId>
PTO_CHECK_INLINE inline pto_status Call(const Operands& o) {
  constexpr const OpDescriptor& op = kOps[static_cast<size_t>(kId)];
  const pto_profile profile = CurrentProfile();
  if (PTO_UNLIKELY(!IsCommonCall<kId>(o, profile)))
    return CheckAndRun<kId>(o.dst, o.src0, o.src1, o.tmp, o.attr, o.scalar, o.sat, o.index[0],
                            o.index[1], profile);
  return RunAccepted(op, o, profile);
}

}  // namespace

Validator& RequireScalarOf(Validator& v, const char* name, double scalar, const char* owner,
                           pto_dtype dtype) {
  return v.Require(ScalarIsValueOf(dtype, scalar), PTO_ERR_INVALID_ARGUMENT,
                   "%s %.17g is not a value of %s dtype %s (an integer in its range)", name,
                   scalar, owner, DtypeName(dtype));
}

uint32_t ScalarBits(pto_dtype dtype, double scalar) {
  const double value = ScalarInDtype(dtype, scalar);
  if (dtype == PTO_FLOAT32 || dtype == PTO_FLOAT16 || dtype == PTO_BFLOAT16) {
    const float f = static_cast<float>(value);  // exact: value is one of dtype's
    uint32_t bits = 0;
    if (dtype == PTO_FLOAT32) {
      memcpy(&bits, &f, sizeof bits);
    } else {
      uint16_t narrow = 0;
      kernels::FromF32(dtype, 1, &narrow, &f);
      bits = narrow;
    }
    return bits;
  }
  const uint64_t wide = static_cast<uint64_t>(static_cast<int64_t>(value));
  return static_cast<uint32_t>(wide & (pto_dtype_size(dtype) == 4   ? 0xFFFFFFFFu
                                       : pto_dtype_size(dtype) == 2 ? 0xFFFFu
                                                                    : 0xFFu));
}
}  // namespace ops
}  // namespace pto

using pto::ops::Call;
using pto::ops::Operands;

// The C functions, their parameters from each row's roles: dst, the
// sources, tmp where the row has one, the attribute's argument.
#define PTO_SOURCE_PARAMS_0(s0, s1)
#define PTO_SOURCE_PARAMS_1(s0, s1) , const pto_tile* s0
#define PTO_SOURCE_PARAMS_2(s0, s1) , const pto_tile *s0, const pto_tile *s1
#define PTO_SOURCE_ARGS_0(s0, s1) nullptr, nullptr
#define PTO_SOURCE_ARGS_1(s0, s1) s0, nullptr
#define PTO_SOURCE_ARGS_2(s0, s1) s0, s1
#define PTO_TMP_PARAM_None
#define PTO_TMP_PARAM_Optional , pto_tile* tmp
#define PTO_TMP_PARAM_Required , pto_tile* tmp
#define PTO_TMP_ARG_None nullptr
#define PTO_TMP_ARG_Optional tmp
#define PTO_TMP_ARG_Required tmp
#define PTO_ATTR_PARAM_None
#define PTO_ATTR_PARAM_DivPrecision
#define PTO_ATTR_PARAM_PowPrecision , pto_pow_algorithm algo
#define PTO_ATTR_PARAM_Scalar , double scalar
#define PTO_ATTR_PARAM_ScalarFirst
#define PTO_ATTR_PARAM_BinaryOrder , int binary_order
#define PTO_ATTR_PARAM_Conversion , pto_round_mode mode, pto_saturation sat
#define PTO_ATTR_PARAM_PadValue , pto_pad_value pad
#define PTO_ATTR_ARG_PadValue pto::RawEnumValue(pad)
#define PTO_LEAD_PARAM_PadValue
#define PTO_ATTR_PARAM_ScalarDescending , double start, int descending
#define PTO_ATTR_ARG_ScalarDescending descending, start
#define PTO_LEAD_PARAM_ScalarDescending
#define PTO_ATTR_PARAM_ScalarPowPrecision , double exp, pto_pow_algorithm algo
#define PTO_ATTR_ARG_ScalarPowPrecision pto::RawEnumValue(algo), exp
#define PTO_LEAD_PARAM_ScalarPowPrecision
#define PTO_ATTR_PARAM_CmpMode , pto_cmp_mode mode
#define PTO_ATTR_ARG_CmpMode pto::RawEnumValue(mode)
#define PTO_LEAD_PARAM_CmpMode
#define PTO_ATTR_PARAM_ScalarCmpMode , double scalar, pto_cmp_mode mode
#define PTO_ATTR_ARG_ScalarCmpMode pto::RawEnumValue(mode), scalar
#define PTO_LEAD_PARAM_ScalarCmpMode
#define PTO_ATTR_PARAM_Offsets , size_t index_row, size_t index_col
#define PTO_ATTR_ARG_Offsets 0, 0, 0, {index_row, index_col}
#define PTO_LEAD_PARAM_Offsets
#define PTO_ATTR_PARAM_IndexScalar , size_t index, double value
#define PTO_ATTR_ARG_IndexScalar 0, value, 0, {index, 0}
#define PTO_LEAD_PARAM_IndexScalar
#define PTO_ATTR_ARG_None 0
#define PTO_ATTR_ARG_DivPrecision 0
#define PTO_ATTR_ARG_PowPrecision pto::RawEnumValue(algo)
#define PTO_ATTR_ARG_Scalar 0, scalar
#define PTO_ATTR_ARG_ScalarFirst 0, scalar
// An argument before the sources: ScalarFirst's scalar.
#define PTO_LEAD_PARAM_None
#define PTO_LEAD_PARAM_DivPrecision
#define PTO_LEAD_PARAM_PowPrecision
#define PTO_LEAD_PARAM_Scalar
#define PTO_LEAD_PARAM_ScalarFirst , double scalar
#define PTO_LEAD_PARAM_BinaryOrder
#define PTO_ATTR_ARG_BinaryOrder binary_order
#define PTO_LEAD_PARAM_Conversion
#define PTO_ATTR_ARG_Conversion pto::RawEnumValue(mode), 0, pto::RawEnumValue(sat)

extern "C" {

#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, n, s0, s1, Tmp, Attr, ...)                \
  pto_status pto_##mnemonic(pto_tile* dst PTO_LEAD_PARAM_##Attr PTO_SOURCE_PARAMS_##n(s0, s1) \
                                PTO_TMP_PARAM_##Tmp PTO_ATTR_PARAM_##Attr) {                \
    return Call<pto::ops::OpId::k##Camel>(Operands{dst, PTO_SOURCE_ARGS_##n(s0, s1),         \
                                                   PTO_TMP_ARG_##Tmp, PTO_ATTR_ARG_##Attr});  \
  }
#include "operations.def"
#undef PTO_OPERATION

}  // extern "C"
