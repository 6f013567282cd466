// The Special rows of the elementwise, unary, tile-scalar and fill groups,
// which compute over dst's valid region with rules of their own: tpow,
// tpows, trsqrt, tprelu, tpartadd (and the partial max, min, product and
// arg forms), tci. Each has a check (every rule of its C
// function, in order, under a profile) and a run (its kernels).
#include "ops/common.h"

#include <stdio.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <cmath>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

// ---- tpow ----------------------------------------------------------------

pto_status CheckTPow(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *base = o.src0, *exp = o.src1;
  const pto_tile* tmp = o.tmp;
  Validator v("pto_tpow");
  v.NotNull("dst", dst).NotNull("base", base).NotNull("exp", exp).NotNull("tmp", tmp);
  v.EnumInRange("algo", o.attr, 2);
  if (!v.ok()) return v.status();
  const bool high_precision = o.attr == PTO_POW_HIGH_PRECISION;
  v.DtypeAccepted(high_precision ? OpDtypes::kPowHighPrecision : OpDtypes::kTPow, profile,
                  "dst", dst)
      .SameDtype("base", base, "dst", dst)
      .SameDtype("exp", exp, "dst", dst)
      .SameDtype("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "dst", dst)
      .Distinct("tmp", tmp, "base", base)
      .Distinct("tmp", tmp, "exp", exp)
      .InRowOrderOrApart("base", base, dst, profile)
      .InRowOrderOrApart("exp", exp, dst, profile)
      .SameValidRegion("base", base, "dst", dst)
      .SameValidRegion("exp", exp, "dst", dst)
      .SameValidRegion("tmp", tmp, "dst", dst);
  return v.status();
}

// PTOAS's verifier: an integer tpow takes no tmp in text (its C function
// needs one under every dtype).
bool TextRulesTPow(const TextOperands& o, char* sentence, size_t size) {
  if (!o.tmp_given || IsFloatDtype(o.dst.dtype)) return true;
  snprintf(sentence, size, "tpow takes no tmp when its element type is an integer (PTOAS's rule)");
  return false;
}

void RunTPow(const Operands& o, pto_profile profile) {
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
pto_status CheckTPows(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* base = o.src0;
  Validator v("pto_tpows");
  v.NotNull("dst", dst).NotNull("base", base);
  v.EnumInRange("algo", o.attr, 2);
  if (!v.ok()) return v.status();
  const bool high_precision = o.attr == PTO_POW_HIGH_PRECISION;
  v.DtypeAccepted(high_precision ? OpDtypes::kPowHighPrecision : OpDtypes::kTPows, profile,
                  "dst", dst)
      .SameDtype("base", base, "dst", dst);
  if (!v.ok()) return v.status();
  RequireScalarOf(v, "exp", o.scalar, "dst", dst->dtype)
      .InRowOrderOrApart("base", base, dst, profile)
      .SameValidRegion("base", base, "dst", dst);
  return v.status();
}

// tpow's kernel with an exponent plane of stride 0: one row of the scalar's
// element, kExpChunk columns at a time (no allocation). A contiguous region
// goes to the contiguous kernel kExpChunk elements at a time.
void RunTPows(const Operands& o, pto_profile profile) {
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

pto_status CheckTRsqrt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_trsqrt");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTRsqrt, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .InRowOrderOrApart("src", src, dst, profile)
      .SameValidRegion("src", src, "dst", dst);
  return v.status();
}

// PTOAS's verifier, its DPS form: high_precision needs a tmp (the pages'
// forms may leave it out; the result is the same either way).
bool TextRulesTRsqrt(const TextOperands& o, char* sentence, size_t size) {
  if (!o.dps_form || !o.high_precision || o.tmp_given) return true;
  snprintf(sentence, size,
           "pto.trsqrt takes a tmp when precisionType is high_precision (PTOAS's rule): "
           "ins(%%src, %%tmp : T, U)");
  return false;
}

// Under A5 as a5/TRsqrt.hpp computes it in both precisions: vsqrt into a
// register of the dtype, then vdiv of 1 by it, so the square root is rounded
// to the dtype before the reciprocal: tsqrt's kernel, then trecip's in place,
// each correctly rounded (../shared/API.md, "v0.5 change to a v0.4 rule").
// A2A3's call without tmp is one vrsqrt, and HOST rounds 1 / sqrt(x) once:
// rsqrt.cc's correctly rounded kernel.
void RunTRsqrt(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  if (profile == PTO_PROFILE_A5) {
    kernels::TSqrt(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                   ConstPlaneOf(o.src0), ConstPlaneOf(o.src0));
    kernels::TRecip(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                    ConstPlaneOf(dst), ConstPlaneOf(dst));
    return;
  }
  if (Contiguous(dst, o.src0, o.src0)) {
    return kernels::RsqrtContiguous(dst->dtype, RegionElements(dst), dst->data, o.src0->data);
  }
  kernels::Rsqrt(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0));
}

// ---- tprelu --------------------------------------------------------------

pto_status CheckTPrelu(const Operands& o, pto_profile profile) {
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
  v.DtypeAccepted(OpDtypes::kTPrelu, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst);
  if (tmp != nullptr) {
    v.DtypeAccepted(OpDtypes::kPreluTmp, profile, "tmp", tmp)
        .Distinct("tmp", tmp, "dst", dst)
        .Distinct("tmp", tmp, "src0", src0)
        .Distinct("tmp", tmp, "src1", src1);
  }
  v.InRowOrderOrApart("src0", src0, dst, profile).InRowOrderOrApart("src1", src1, dst, profile);
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

void RunTPrelu(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  if (Contiguous(dst, o.src0, o.src1)) {
    return kernels::PreluContiguous(dst->dtype, RegionElements(dst), dst->data, o.src0->data,
                                    o.src1->data);
  }
  kernels::Prelu(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                 ConstPlaneOf(o.src1));
}

// ---- tpartadd ------------------------------------------------------------

// Which source covers dst's whole valid region (the other covers its
// top-left corner); false for both when the pattern is not supported.
namespace {
struct PartAddPattern {
  bool src0_full;
  bool src1_full;
};
inline PartAddPattern PartAddPatternOf(const Operands& o) {
  return {SameRegion(o.src0, o.dst) && RegionFits(o.src1, o.dst),
          SameRegion(o.src1, o.dst) && RegionFits(o.src0, o.dst)};
}
}  // namespace

namespace {

using PartKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                            const kernels::ConstPlane&, const kernels::ConstPlane&);

// The partial operations' rules (TPARTADD's, the pages of TPARTMAX, TPARTMIN
// and TPARTMUL repeat them): the three tiles given, dst's dtype on the
// profile's list and the sources' equal to it, each source dst itself (in
// row order) or apart, and one source's valid region dst's, the other's
// within it.
pto_status CheckPartial(const Operands& o, pto_profile profile, OpDtypes rule,
                        const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InRowOrderOrApart("src0", src0, dst, profile)
      .InRowOrderOrApart("src1", src1, dst, profile);
  if (!v.ok()) return v.status();
  const PartAddPattern pattern = PartAddPatternOf(o);
  v.Require(pattern.src0_full || pattern.src1_full, PTO_ERR_SHAPE_MISMATCH,
            "src0 valid region %ux%u and src1 valid region %ux%u do not fit dst valid region "
            "%ux%u: one must equal it and the other must not exceed it",
            src0->valid_rows, src0->valid_cols, src1->valid_rows, src1->valid_cols,
            dst->valid_rows, dst->valid_cols);
  return v.status();
}

// `full` covers dst's whole valid region; `part` its top-left corner. The
// corner is op(src0, src1), the rest of dst a copy of `full`.
void RunPartial(const Operands& o, PartKernel op) {
  pto_tile* dst = o.dst;
  const bool src0_full = PartAddPatternOf(o).src0_full;
  const pto_tile* full = src0_full ? o.src0 : o.src1;
  const pto_tile* part = src0_full ? o.src1 : o.src0;
  const pto_dtype dtype = dst->dtype;
  const uint32_t rows = dst->valid_rows, cols = dst->valid_cols;
  const uint32_t part_rows = part->valid_rows, part_cols = part->valid_cols;
  // Both sources of dst's region: tadd's sum over the whole of it.
  if (op == kernels::Add && part_rows == rows && part_cols == cols &&
      Contiguous(dst, o.src0, o.src1)) {
    return kernels::AddContiguous(dtype, RegionElements(dst), dst->data, o.src0->data,
                                  o.src1->data);
  }
  if (part_rows > 0 && part_cols > 0) {
    op(dtype, part_rows, part_cols, PlaneOf(dst), ConstPlaneOf(o.src0), ConstPlaneOf(o.src1));
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

// TPARTMUL's INT8 and UINT8 products (A5's list; tmul has no 8-bit dtype,
// so no kernel of its own): the low 8 bits of the product, row by row in
// place order (each element read before its result is written).
void Mul8(pto_dtype dtype, size_t rows, size_t cols, const kernels::Plane& dst,
          const kernels::ConstPlane& a, const kernels::ConstPlane& b) {
  (void)dtype;
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* x = static_cast<const uint8_t*>(a.data) + r * a.stride;
    const uint8_t* y = static_cast<const uint8_t*>(b.data) + r * b.stride;
    uint8_t* out = static_cast<uint8_t*>(dst.data) + r * dst.stride;
    for (size_t c = 0; c < cols; ++c) out[c] = static_cast<uint8_t>(x[c] * y[c]);
  }
}

}  // namespace

pto_status CheckTPartAdd(const Operands& o, pto_profile profile) {
  return CheckPartial(o, profile, OpDtypes::kTPartAdd, "pto_tpartadd");
}
void RunTPartAdd(const Operands& o, pto_profile) { RunPartial(o, kernels::Add); }

pto_status CheckTPartMax(const Operands& o, pto_profile profile) {
  return CheckPartial(o, profile, OpDtypes::kTPartMax, "pto_tpartmax");
}
void RunTPartMax(const Operands& o, pto_profile) { RunPartial(o, kernels::TMax); }

pto_status CheckTPartMin(const Operands& o, pto_profile profile) {
  return CheckPartial(o, profile, OpDtypes::kTPartMin, "pto_tpartmin");
}
void RunTPartMin(const Operands& o, pto_profile) { RunPartial(o, kernels::TMin); }

pto_status CheckTPartMul(const Operands& o, pto_profile profile) {
  return CheckPartial(o, profile, OpDtypes::kTPartMul, "pto_tpartmul");
}
void RunTPartMul(const Operands& o, pto_profile) {
  const bool narrow = o.dst->dtype == PTO_INT8 || o.dst->dtype == PTO_UINT8;
  RunPartial(o, narrow ? Mul8 : kernels::TMul);
}

// ---- tpartargmax, tpartargmin ----------------------------------------------

namespace {

// TPARTARGMAX's and TPARTARGMIN's rules (the pages' constraints, in the C
// order); src0_idx, src1_idx are Operands' src2, src3 and dst_idx its tmp.
pto_status CheckPartArg(const Operands& o, pto_profile profile, OpDtypes rule,
                        const char* c_function) {
  pto_tile *dst = o.dst, *dst_idx = o.tmp;
  const pto_tile *src0 = o.src0, *src1 = o.src1, *idx0 = o.ext->src2, *idx1 = o.ext->src3;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  v.NotNull("src0_idx", idx0).NotNull("src1_idx", idx1).NotNull("dst_idx", dst_idx);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(rule, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst);
  // "If the value type is half, the index type must be int16_t, uint16_t,
  // int32_t, or uint32_t. If the value type is float, the index type must
  // be int32_t or uint32_t."
  if (v.ok()) {
    const pto_dtype i = dst_idx->dtype;
    const bool wide = i == PTO_INT32 || i == PTO_UINT32;
    v.Require(wide || (dst->dtype == PTO_FLOAT16 && (i == PTO_INT16 || i == PTO_UINT16)),
              PTO_ERR_UNSUPPORTED_DTYPE,
              "dst_idx dtype %s is not an index dtype of %s values (%s)", DtypeName(i),
              DtypeName(dst->dtype),
              dst->dtype == PTO_FLOAT16 ? "INT16, UINT16, INT32, UINT32" : "INT32, UINT32");
  }
  v.SameDtype("src0_idx", idx0, "dst_idx", dst_idx).SameDtype("src1_idx", idx1, "dst_idx", dst_idx);
  v.InRowOrderOrApart("src0", src0, dst, profile)
      .InRowOrderOrApart("src1", src1, dst, profile)
      .InRowOrderOrApart("src0_idx", idx0, dst_idx, profile)
      .InRowOrderOrApart("src1_idx", idx1, dst_idx, profile);
  if (!v.ok()) return v.status();
  const pto_tile* values[] = {dst, src0, src1};
  const pto_tile* indices[] = {dst_idx, idx0, idx1};
  static const char* const kValueNames[] = {"dst", "src0", "src1"};
  static const char* const kIndexNames[] = {"dst_idx", "src0_idx", "src1_idx"};
  // A destination shares nothing with a tile of the other kind (sources
  // may overlap one another: they are only read).
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      if (a == 0 || b == 0)
        v.Require(!SharesStorage(values[a], indices[b]), PTO_ERR_ALIASING,
                  "%s shares storage with %s (a destination shares none with the other kind's "
                  "tiles)",
                  kIndexNames[b], kValueNames[a]);
  for (int k = 0; k < 3; ++k)
    v.Require(SameRegion(indices[k], values[k]), PTO_ERR_SHAPE_MISMATCH,
              "%s valid region %ux%u is not %s's %ux%u", kIndexNames[k], indices[k]->valid_rows,
              indices[k]->valid_cols, kValueNames[k], values[k]->valid_rows,
              values[k]->valid_cols);
  v.Require((SameRegion(src0, dst) && RegionFits(src1, dst)) ||
                (SameRegion(src1, dst) && RegionFits(src0, dst)),
            PTO_ERR_SHAPE_MISMATCH,
            "src0 valid region %ux%u and src1 valid region %ux%u do not fit dst valid region "
            "%ux%u: one must equal it and the other must not exceed it",
            src0->valid_rows, src0->valid_cols, src1->valid_rows, src1->valid_cols,
            dst->valid_rows, dst->valid_cols);
  return v.status();
}

// Each profile's choice where both sources are valid (pto_c.h): the page's
// and the CPU model's under HOST, vcmp_ge/vcmp_le then vsel under A2A3,
// vcmp_gt/vcmp_lt of src1 against src0 under A5.
void RunPartArg(const Operands& o, pto_profile profile, bool largest) {
  const kernels::PartArgRule rule = profile == PTO_PROFILE_A2A3 ? kernels::PartArgRule::kSrc0IfNotWorse
                                    : profile == PTO_PROFILE_A5 ? kernels::PartArgRule::kSrc1IfBetter
                                                                : kernels::PartArgRule::kSrc0IfBetter;
  kernels::PartArgTiles t{PlaneOf(o.dst),
                          PlaneOf(o.tmp),
                          {ConstPlaneOf(o.src0), ConstPlaneOf(o.src1)},
                          {ConstPlaneOf(o.ext->src2), ConstPlaneOf(o.ext->src3)},
                          {o.src0->valid_rows, o.src1->valid_rows},
                          {o.src0->valid_cols, o.src1->valid_cols}};
  kernels::PartArg(largest, rule, o.dst->dtype, ElementBytes(o.tmp->dtype), o.dst->valid_rows,
                   o.dst->valid_cols, t);
}

}  // namespace

pto_status CheckTPartArgMax(const Operands& o, pto_profile profile) {
  return CheckPartArg(o, profile, OpDtypes::kTPartArgMax, "pto_tpartargmax");
}
void RunTPartArgMax(const Operands& o, pto_profile profile) { RunPartArg(o, profile, true); }

pto_status CheckTPartArgMin(const Operands& o, pto_profile profile) {
  return CheckPartArg(o, profile, OpDtypes::kTPartArgMin, "pto_tpartargmin");
}
void RunTPartArgMin(const Operands& o, pto_profile profile) { RunPartArg(o, profile, false); }

// ---- tci ----------------------------------------------------------------

pto_status CheckTCI(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  Validator v("pto_tci");
  v.NotNull("dst", dst);
  v.EnumInRange("descending", o.attr, 2);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTCI, profile, "dst", dst);
  RequireScalarOf(v, "start", o.scalar, "dst", dst->dtype);
  if (profile != PTO_PROFILE_HOST)
    v.Require(dst->rows == 1, PTO_ERR_SHAPE_MISMATCH,
              "dst rows %u is not 1, which %s requires (the sequence runs along the row)",
              dst->rows, pto_profile_string(profile));
  return v.status();
}

// Element k (row-major over the valid region) is start + k or start - k
// (kernels::Sequence), start the scalar as dst's dtype holds it.
void RunTCI(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::Sequence(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                    kernels::ValueInDtype(dst->dtype, o.scalar), o.attr != 0);
}

// ---- ttri ---------------------------------------------------------------

pto_status CheckTTri(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  Validator v("pto_ttri");
  v.NotNull("dst", dst);
  v.EnumInRange("upper", o.attr, 2);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTTri, profile, "dst", dst);
  if (!v.ok()) return v.status();
  // The page's `int diagonal`.
  v.Require(std::nearbyint(o.scalar) == o.scalar && o.scalar >= INT32_MIN && o.scalar <= INT32_MAX,
            PTO_ERR_INVALID_ARGUMENT, "diagonal %g is not an integer in int32's range", o.scalar);
  return v.status();
}

// PTOAS's verifier under A5 takes no 8-byte element type for ttri (its list:
// f16/f32/bf16/i8/i16/i32/u8/u16/u32), where the page and a5/TTri.hpp do.
bool TextRulesTTri(const TextOperands& o, char* sentence, size_t size) {
  if (o.profile != PTO_PROFILE_A5 || (o.dst.dtype != PTO_INT64 && o.dst.dtype != PTO_UINT64))
    return true;
  snprintf(sentence, size,
           "ttri's dst element type %s is refused under A5 in text (PTOAS's rule: "
           "f16/f32/bf16/i8/i16/i32/u8/u16/u32; the C function takes it)",
           pto_dtype_string(o.dst.dtype));
  return false;
}

// Ones on and below (lower) or on and above (upper) the diagonal, zeros
// elsewhere, over dst's valid region (kernels::Triangle).
void RunTTri(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::Triangle(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                    static_cast<int64_t>(o.scalar), o.attr != 0);
}

// The row trandom (Dst(dst), Words2(key), Words4(counter)): the key and
// counter in OperandsExt::words, rounds (a Word) in attr as its bits. Its rules
// in the contract's order: NULL, the cube's tiles, rounds (an enum-like
// argument), then dst's dtype, which is where A2A3 (no implementation of the
// instruction) refuses.
pto_status CheckTRandom(const Operands& o, pto_profile profile) {
  const uint32_t rounds = static_cast<uint32_t>(o.attr);
  Validator v("pto_trandom");
  v.NotNull("dst", o.dst).OnVec("dst", o.dst);
  v.Require(rounds == 7 || rounds == 10, PTO_ERR_INVALID_ARGUMENT,
            "rounds %u is neither 7 nor 10", rounds);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTRandom, profile, "dst", o.dst);
  return v.status();
}

// PTOAS's verifier asks a row-major vec dst, where the C function's tile
// has no other layout.
bool TextRulesTRandom(const TextOperands& o, char* sentence, size_t size) {
  if (o.dst.row_major) return true;
  snprintf(sentence, size,
           "trandom's dst is a row-major vec tile (PTOAS's rule), not a col_major one");
  return false;
}

// INT32 and UINT32 hold the same bits: the generator writes uint32 words.
void RunTRandom(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::RandomPhilox(static_cast<uint32_t*>(dst->data), dst->cols, dst->valid_rows,
                        dst->valid_cols, o.ext->words, o.ext->words + 2,
                        static_cast<uint32_t>(o.attr));
}

}  // namespace ops
}  // namespace pto
