// The quantisation group: tquant (FLOAT32 to INT8 / UINT8 codes by a
// per-row scale, and offset) and tdequant (INT8 / INT16 codes back to
// FLOAT32), tquant_mx (TQUANT's MX forms: E4M3 / E2M1 codes sharing an E8M0
// exponent per block of 32) and tquant_hif4 (HiFloat4: E1M2 codes and a
// metadata word per group of 64), each with its exp, max and scaling Aux
// operands. Each has a
// check (every rule of its C function, in order, under a profile) and a run
// (kernels/quant.cc, kernels/quant_mx.cc).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vector>

#include "dtype_rules.h"
#include "float_env.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// Whether two given operands share storage (the same tile, the same
// placement, or overlapping valid elements).
bool Share(const pto_tile* a, const pto_tile* b) {
  return a != nullptr && b != nullptr &&
         (a == b || SamePlacement(a, b) || ValidRegionsOverlap(a, b));
}

// A per-row parameter (scale, offset): FLOAT32, one value per dst valid row
// in its column 0. `per_tensor`: one valid row stands for every row too
// (HOST's tquant, as pto-isa's CPU model reads row min(i, valid rows - 1));
// `one_col`: its valid region is one column (PTOAS's A2/A3 verifier asks
// valid_shape[1] = 1). The NPU implementations read row i's value for
// each dst row i whatever the parameter's valid region (no assert): in
// board mode the rows and columns rules are warnings where those rows lie
// in its storage.
void CheckParam(Validator& v, pto_profile profile, const char* name, const pto_tile* p,
                const pto_tile* dst, bool per_tensor, bool one_col) {
  v.DtypeAccepted(OpDtypes::kQuantParam, profile, name, p)
      .Require(!per_tensor || p->valid_rows == dst->valid_rows || p->valid_rows == 1,
               PTO_ERR_SHAPE_MISMATCH,
               "%s valid rows %u are neither dst's %u nor 1 (one value per row of dst, or one "
               "for all)",
               name, p->valid_rows, dst->valid_rows)
      .RequireOrBoard(per_tensor || p->valid_rows == dst->valid_rows,
                      dst->valid_rows <= p->rows, profile, PTO_ERR_SHAPE_MISMATCH,
                      "%s valid rows %u differ from dst's %u (one value per row of dst)", name,
                      p->valid_rows, dst->valid_rows)
      .RequireOrBoard(p->valid_cols >= 1, true, profile, PTO_ERR_SHAPE_MISMATCH,
                      "%s has no valid column: its column 0 holds the values", name)
      .RequireOrBoard(!one_col || p->valid_cols == 1, true, profile, PTO_ERR_SHAPE_MISMATCH,
                      "%s valid cols are %u, but on %s its valid region is one column (one "
                      "value per row)",
                      name, p->valid_cols, pto_profile_string(profile));
}

// `name` must not share storage with dst (each is read while dst is written).
void ApartFromDst(Validator& v, const char* name, const pto_tile* t, const pto_tile* dst) {
  v.Require(!Share(t, dst), PTO_ERR_ALIASING, "%s shares storage with dst", name);
}

// Row i's value at column 0 of row i; HOST's one valid row: the same value
// for every row (stride 0).
kernels::ConstPlane ParamPlane(const pto_tile* p, pto_profile profile) {
  const bool one_for_all = profile == PTO_PROFILE_HOST && p->valid_rows == 1;
  return {p->data, one_for_all ? size_t{0} : size_t{p->cols}};
}

}  // namespace

// ---- tquant ---------------------------------------------------------------

// PTOAS's verifier on the text: INT8_SYM (attr 0) takes no offset and
// writes INT8, INT8_ASYM (1) an offset and UINT8 (where the C function
// reads the form from dst's dtype).
bool TextRulesTQuant(const TextOperands& o, char* sentence, size_t size) {
  const bool asym = o.attr == 1;
  if (asym != (o.sources_given == 3)) {
    snprintf(sentence, size, "%s",
             asym ? "INT8_ASYM quantization requires an offset operand"
                  : "INT8_SYM quantization must not have an offset operand");
    return false;
  }
  const pto_dtype want = asym ? PTO_UINT8 : PTO_INT8;
  if (o.dst.dtype == want) return true;
  snprintf(sentence, size, "%s writes a dst of %s, not %s", asym ? "INT8_ASYM" : "INT8_SYM",
           DtypeName(want), DtypeName(o.dst.dtype));
  return false;
}

pto_status CheckTQuant(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *scale = o.src1, *offset = o.ext->src2;
  const pto_tile* tmp = o.tmp;
  const bool a2a3 = profile == PTO_PROFILE_A2A3;
  Validator v("pto_tquant");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("scale", scale);
  // A2A3's implementation has only the form with tmp (its FLOAT32 -> INT32
  // step's destination).
  if (a2a3)
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT,
              "tmp is NULL, but on %s tquant needs a FLOAT32 tmp of src's valid region",
              pto_profile_string(profile));
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTQuant, profile, "dst", dst)
      .DtypeAccepted(OpDtypes::kQuantSrc, profile, "src", src);
  if (!v.ok()) return v.status();
  // The dst dtype names the form: INT8 is INT8_SYM (no offset), UINT8 is
  // INT8_ASYM (an offset), as the implementations' static_asserts pair them.
  const bool asym = dst->dtype == PTO_UINT8;
  v.Require(!asym || offset != nullptr, PTO_ERR_NULL_ARGUMENT,
            "offset is NULL, but a UINT8 dst (INT8_ASYM) adds one per row")
      .RequireOrBoard(asym || offset == nullptr, true, profile, PTO_ERR_INVALID_ARGUMENT,
                      "offset is given, but an %s dst (INT8_SYM) takes none (INT8_ASYM's dst "
                      "is UINT8)",
                      pto_dtype_string(dst->dtype));
  v.SameValidRegion("src", src, "dst", dst);
  if (!v.ok()) return v.status();
  const bool host = profile == PTO_PROFILE_HOST;
  CheckParam(v, profile, "scale", scale, dst, host, !host);
  if (offset != nullptr) CheckParam(v, profile, "offset", offset, dst, host, !host);
  if (tmp != nullptr) {
    v.DtypeAccepted(OpDtypes::kQuantParam, profile, "tmp", tmp);
    if (a2a3) v.SameValidRegion("tmp", tmp, "src", src);
  }
  ApartFromDst(v, "src", src, dst);
  ApartFromDst(v, "scale", scale, dst);
  ApartFromDst(v, "offset", offset, dst);
  ApartFromDst(v, "tmp", tmp, dst);
  v.Require(!Share(tmp, src) && !Share(tmp, scale) && !Share(tmp, offset), PTO_ERR_ALIASING,
            "tmp shares storage with a source");
  return v.status();
}

void RunTQuant(const Operands& o, pto_profile profile) {
  // INT8_SYM never reads an offset (one given in board mode is ignored, as
  // the implementations ignore it).
  const bool asym = o.dst->dtype == PTO_UINT8;
  const kernels::ConstPlane offset =
      asym ? ParamPlane(o.ext->src2, profile) : kernels::ConstPlane{nullptr, 0};
  kernels::Quantize(asym, o.dst->valid_rows, o.dst->valid_cols, PlaneOf(o.dst),
                    ConstPlaneOf(o.src0), ParamPlane(o.src1, profile), asym ? &offset : nullptr);
}

// ---- tdequant -------------------------------------------------------------

pto_status CheckTDequant(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *scale = o.src1, *offset = o.ext->src2;
  Validator v("pto_tdequant");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("scale", scale).NotNull("offset", offset);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTDequant, profile, "dst", dst)
      .DtypeAccepted(OpDtypes::kDequantSrc, profile, "src", src)
      .SameValidRegionOrBoard("src", src, "dst", dst, profile);
  if (!v.ok()) return v.status();
  CheckParam(v, profile, "scale", scale, dst, false, false);
  CheckParam(v, profile, "offset", offset, dst, false, false);
  ApartFromDst(v, "src", src, dst);
  ApartFromDst(v, "scale", scale, dst);
  ApartFromDst(v, "offset", offset, dst);
  return v.status();
}

void RunTDequant(const Operands& o, pto_profile profile) {
  kernels::Dequantize(o.src0->dtype == PTO_INT16, o.dst->valid_rows, o.dst->valid_cols,
                      PlaneOf(o.dst), ConstPlaneOf(o.src0), ParamPlane(o.src1, profile),
                      ParamPlane(o.ext->src2, profile));
}

}  // namespace ops
}  // namespace pto

// ---- tquant, MX forms (pto_tquant_mx) --------------------------------------

namespace pto {
namespace ops {

namespace {

bool MxFp4(int alg) { return alg == PTO_MX_OCP_FP4_E2M1 || alg == PTO_MX_NV_FP4_E2M1; }

// The valid rows x cols of exp, max and scaling for src's valid region.
void MxBlockRegion(const MxQuant& q, uint32_t* rows, uint32_t* cols) {
  const uint32_t r = q.src->valid_rows, c = q.src->valid_cols;
  *rows = q.group_axis == 0 ? (r + 31) / 32 : r;
  *cols = q.group_axis == 0 ? c : (c + 31) / 32;
}

// ND's blocks also fit one row of rows x cols values, block (i, g) at
// column i * cols + g (PTOAS's legacy flat form [1, M * N/32]).
bool MxFlat(const pto_tile* t, uint32_t rows, uint32_t cols, int axis) {
  return axis == 1 && rows > 1 && t->valid_rows == 1 &&
         static_cast<uint64_t>(t->valid_cols) == static_cast<uint64_t>(rows) * cols;
}

void CheckMxBlockTile(Validator& v, const char* name, const pto_tile* t, uint32_t rows,
                      uint32_t cols, int axis) {
  if (t == nullptr) return;
  v.Require((t->valid_rows == rows && t->valid_cols == cols) || MxFlat(t, rows, cols, axis),
            PTO_ERR_SHAPE_MISMATCH,
            "%s valid region is %ux%u, not %ux%u (one value per block of 32 along src's %s)",
            name, t->valid_rows, t->valid_cols, rows, cols, axis == 0 ? "columns (DN)" : "rows (ND)");
}

// A block tile's rows x cols values: its rows, or the flat form's one row.
kernels::Plane MxBlockPlane(pto_tile* t, uint32_t rows, uint32_t cols, int axis) {
  if (t == nullptr) return {nullptr, 0};
  return {t->data, MxFlat(t, rows, cols, axis) ? size_t{cols} : size_t{t->cols}};
}

void CheckMxDtypes(Validator& v, const MxQuant& q, pto_profile profile) {
  const bool fp4 = MxFp4(q.alg);
  const pto_dtype s = q.src->dtype, d = q.dst->dtype, e = q.exp->dtype;
  v.Require(profile != PTO_PROFILE_A2A3, PTO_ERR_UNSUPPORTED_DTYPE,
            "A2A3 has no MX quantisation (TQUANT's MX forms are A5's only)")
      .Require(s == PTO_BFLOAT16 || s == PTO_FLOAT16 || (!fp4 && s == PTO_FLOAT32),
               PTO_ERR_UNSUPPORTED_DTYPE, "src is %s, but %s takes %s", pto_dtype_string(s),
               fp4 ? "MXFP4 E2M1" : "MXFP8 E4M3",
               fp4 ? "BFLOAT16 or FLOAT16 (not FLOAT32)" : "FLOAT32, BFLOAT16 or FLOAT16")
      .Require(fp4 ? d == PTO_FLOAT4_E2M1X2
                   : (d == PTO_INT8 || d == PTO_UINT8 || d == PTO_FLOAT8_E4M3),
               PTO_ERR_UNSUPPORTED_DTYPE, "dst is %s, but %s writes %s", pto_dtype_string(d),
               fp4 ? "MXFP4 E2M1" : "MXFP8 E4M3",
               fp4 ? "FLOAT4_E2M1X2" : "FLOAT8_E4M3, INT8 or UINT8 (E4M3 codes)")
      .Require(e == PTO_UINT8 || e == PTO_INT8 || e == PTO_FLOAT8_E8M0,
               PTO_ERR_UNSUPPORTED_DTYPE,
               "exp is %s, but it holds E8M0 codes: FLOAT8_E8M0, UINT8 or INT8",
               pto_dtype_string(e));
  if (q.max != nullptr) v.SameDtype("max", q.max, "src", q.src);
  if (q.scaling != nullptr) v.SameDtype("scaling", q.scaling, "src", q.src);
}

void CheckMxApart(Validator& v, const MxQuant& q) {
  const char* const names[] = {"dst", "exp", "max", "scaling"};
  const pto_tile* const outs[] = {q.dst, q.exp, q.max, q.scaling};
  for (size_t i = 0; i < 4; ++i) {
    if (outs[i] == nullptr) continue;
    v.Require(!Share(outs[i], q.src), PTO_ERR_ALIASING, "%s shares storage with src", names[i]);
    for (size_t j = i + 1; j < 4; ++j)
      v.Require(!Share(outs[i], outs[j]), PTO_ERR_ALIASING, "%s shares storage with %s",
                names[i], names[j]);
  }
}

}  // namespace

pto_status CheckTQuantMx(const MxQuant& q, pto_profile profile) {
  Validator v("pto_tquant_mx");
  v.NotNull("dst", q.dst).NotNull("src", q.src).NotNull("exp", q.exp);
  v.EnumInRange("alg", q.alg, 4)
      .Require(q.group_axis == 0 || q.group_axis == 1, PTO_ERR_INVALID_ARGUMENT,
               "group_axis is %d, neither 0 (DN: blocks along columns) nor 1 (ND: along rows)",
               q.group_axis);
  v.OnVec("dst", q.dst).OnVec("src", q.src).OnVec("exp", q.exp).OnVec("max", q.max)
      .OnVec("scaling", q.scaling);
  if (!v.ok()) return v.status();
  CheckMxDtypes(v, q, profile);
  if (!v.ok()) return v.status();
  const bool fp4 = MxFp4(q.alg);
  const uint32_t src_cols = q.src->valid_cols;
  v.Require(!fp4 || src_cols % 2 == 0, PTO_ERR_SHAPE_MISMATCH,
            "src valid cols %u are odd, but an E2M1 dst packs two a byte", src_cols)
      .Require(q.dst->valid_rows == q.src->valid_rows &&
                   q.dst->valid_cols == (fp4 ? src_cols / 2 : src_cols),
               PTO_ERR_SHAPE_MISMATCH, "dst valid region is %ux%u, not %ux%u (src's%s)",
               q.dst->valid_rows, q.dst->valid_cols, q.src->valid_rows,
               fp4 ? src_cols / 2 : src_cols, fp4 ? ", two E2M1 codes a byte" : "");
  uint32_t rows = 0, cols = 0;
  MxBlockRegion(q, &rows, &cols);
  if (q.interleave) {
    // PTOAS's verifier: the DN form only, M a multiple of 64 (row pairs of
    // blocks), exp [M/64, 2N]; with a FLOAT32 src A5 stages the exponents
    // in dst, and PTOAS refuses the combination.
    v.Require(q.group_axis == 0, PTO_ERR_INVALID_ARGUMENT,
              "interleave is the DN form's (group axis 0), not ND's")
        .Require(q.src->dtype != PTO_FLOAT32, PTO_ERR_UNSUPPORTED_DTYPE,
                 "interleave with a FLOAT32 src is refused (A5 stages the exponents in dst)")
        .Require(q.src->valid_rows % 64 == 0, PTO_ERR_SHAPE_MISMATCH,
                 "src valid rows %u are not a multiple of 64, as interleaved exponents pair "
                 "row blocks", q.src->valid_rows);
    if (!v.ok()) return v.status();
    v.Require(q.exp->valid_rows == rows / 2 && q.exp->valid_cols == 2 * cols,
              PTO_ERR_SHAPE_MISMATCH,
              "exp valid region is %ux%u, not %ux%u (interleaved: block rows in pairs)",
              q.exp->valid_rows, q.exp->valid_cols, rows / 2, 2 * cols);
  } else {
    CheckMxBlockTile(v, "exp", q.exp, rows, cols, q.group_axis);
  }
  CheckMxBlockTile(v, "max", q.max, rows, cols, q.group_axis);
  CheckMxBlockTile(v, "scaling", q.scaling, rows, cols, q.group_axis);
  CheckMxApart(v, q);
  return v.status();
}

// The row tquant_mx: its Operands as an MxQuant (exp, max, scaling its Aux
// operands; alg the attribute's Enum, group_axis its Int; a program's
// interleave = true text_flags 1). Its NULL operands
// are refused before the cube's tiles (the row's NullsFirst trait); the
// table runs it under the IEEE defaults (src is a float dtype: NV's
// maximum / 448 is a float32 product rounded to nearest even).
namespace {
MxQuant MxQuantOf(const Operands& o) {
  return MxQuant{o.dst, o.src0, o.ext->aux[0], o.ext->aux[1], o.ext->aux[2], o.attr, o.sat,
                 (o.ext->text_flags & 1) != 0};
}
}  // namespace

pto_status CheckTQuantMX(const Operands& o, pto_profile profile) {
  return CheckTQuantMx(MxQuantOf(o), profile);
}

void RunTQuantMX(const Operands& o, pto_profile) { RunTQuantMx(MxQuantOf(o)); }

void RunTQuantMx(const MxQuant& q) {
  kernels::MxQuantSpec s;
  s.src = q.src->dtype;
  s.fp4 = MxFp4(q.alg);
  s.nv = q.alg == PTO_MX_NV_FP8_E4M3 || q.alg == PTO_MX_NV_FP4_E2M1;
  s.dn = q.group_axis == 0;
  s.rows = q.src->valid_rows;
  s.cols = q.src->valid_cols;
  s.dst = PlaneOf(q.dst);
  s.src_plane = ConstPlaneOf(q.src);
  uint32_t rows = 0, cols = 0;
  MxBlockRegion(q, &rows, &cols);
  std::vector<uint8_t> linear;  // interleave: DN's exponents before their pairing
  if (q.interleave) {
    linear.resize(size_t{rows} * cols);
    s.exp = {linear.data(), cols};
  } else {
    s.exp = MxBlockPlane(q.exp, rows, cols, q.group_axis);
  }
  s.max = MxBlockPlane(q.max, rows, cols, q.group_axis);
  s.scaling = MxBlockPlane(q.scaling, rows, cols, q.group_axis);
  if (s.rows == 0 || s.cols == 0) return;
  kernels::QuantizeMx(s);
  if (q.interleave) {
    uint8_t* e = static_cast<uint8_t*>(q.exp->data);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c)
        e[size_t{r / 2} * q.exp->cols + 2 * size_t{c} + r % 2] = linear[size_t{r} * cols + c];
  }
}

}  // namespace ops
}  // namespace pto

// ---- tquant_hif4: HiFloat4 (its exp, max and scaling Aux operands) --------

namespace pto {
namespace ops {

namespace {

// The row's operands by name: exp, max and scaling its Aux / OptionalAux
// operands, in order (max and scaling NULL: not written).
struct Hif4Quant {
  pto_tile* dst;
  const pto_tile* src;
  pto_tile* exp;
  pto_tile* max;
  pto_tile* scaling;
};
Hif4Quant Hif4Of(const Operands& o) {
  return {o.dst, o.src0, o.ext->aux[0], o.ext->aux[1], o.ext->aux[2]};
}

// Groups of g along src's valid cols: ceil(cols / g).
uint32_t Hif4Groups(const Hif4Quant& q, uint32_t g) { return (q.src->valid_cols + g - 1) / g; }

void CheckHif4Region(Validator& v, const char* name, const pto_tile* t, uint32_t rows,
                     uint32_t cols, const char* what) {
  if (t == nullptr) return;
  v.Require(t->valid_rows == rows && t->valid_cols == cols, PTO_ERR_SHAPE_MISMATCH,
            "%s valid region is %ux%u, not %ux%u (%s)", name, t->valid_rows, t->valid_cols, rows,
            cols, what);
}

void CheckHif4Dtypes(Validator& v, const Hif4Quant& q, pto_profile profile) {
  v.Require(profile == PTO_PROFILE_HOST, PTO_ERR_UNSUPPORTED_DTYPE,
            "%s has no HiFloat4 quantisation (TQUANT_HIF4 is pto-isa's A6 instruction; "
            "PTO_PROFILE_HOST computes it)",
            pto_profile_string(profile))
      .Require(q.src->dtype == PTO_BFLOAT16, PTO_ERR_UNSUPPORTED_DTYPE,
               "src is %s, but HiFloat4 quantises BFLOAT16", pto_dtype_string(q.src->dtype))
      .Require(q.dst->dtype == PTO_FLOAT4_E1M2X2, PTO_ERR_UNSUPPORTED_DTYPE,
               "dst is %s, but HiFloat4's elements are FLOAT4_E1M2X2 codes",
               pto_dtype_string(q.dst->dtype))
      .Require(q.exp->dtype == PTO_UINT32, PTO_ERR_UNSUPPORTED_DTYPE,
               "exp is %s, but it holds one 32-bit metadata word per group of 64: UINT32",
               pto_dtype_string(q.exp->dtype));
  if (q.max != nullptr) v.SameDtype("max", q.max, "src", q.src);
  if (q.scaling != nullptr) v.SameDtype("scaling", q.scaling, "src", q.src);
}

}  // namespace

// Its NULL operands are refused before the cube's tiles (the row's
// NullsFirst trait).
pto_status CheckTQuantHif4(const Operands& o, pto_profile profile) {
  const Hif4Quant q = Hif4Of(o);
  Validator v("pto_tquant_hif4");
  v.NotNull("dst", q.dst).NotNull("src", q.src).NotNull("exp", q.exp);
  if (!v.ok()) return v.status();
  v.OnVec("dst", q.dst).OnVec("src", q.src).OnVec("exp", q.exp).OnVec("max", q.max)
      .OnVec("scaling", q.scaling);
  if (!v.ok()) return v.status();
  CheckHif4Dtypes(v, q, profile);
  if (!v.ok()) return v.status();
  const uint32_t rows = q.src->valid_rows, cols = q.src->valid_cols;
  v.Require(cols % 2 == 0, PTO_ERR_SHAPE_MISMATCH,
            "src valid cols %u are odd, but dst packs two E1M2 codes a byte", cols)
      .Require(q.dst->valid_rows == rows && q.dst->valid_cols == cols / 2, PTO_ERR_SHAPE_MISMATCH,
               "dst valid region is %ux%u, not %ux%u (src's, two E1M2 codes a byte)",
               q.dst->valid_rows, q.dst->valid_cols, rows, cols / 2);
  CheckHif4Region(v, "exp", q.exp, rows, Hif4Groups(q, 64),
                  "one metadata word per group of 64 along src's rows");
  CheckHif4Region(v, "max", q.max, rows, Hif4Groups(q, 4), "one per group of 4 along src's rows");
  CheckHif4Region(v, "scaling", q.scaling, rows, Hif4Groups(q, 4),
                  "one per group of 4 along src's rows");
  const MxQuant apart{q.dst, q.src, q.exp, q.max, q.scaling, 0, 1};
  CheckMxApart(v, apart);
  return v.status();
}

// Every step is a float32 product rounded to bfloat16, nearest even (the
// table runs it under the IEEE defaults: src is BFLOAT16).
void RunTQuantHif4(const Operands& o, pto_profile) {
  const Hif4Quant q = Hif4Of(o);
  kernels::Hif4QuantSpec s;
  s.rows = q.src->valid_rows;
  s.cols = q.src->valid_cols;
  s.dst = PlaneOf(q.dst);
  s.src = ConstPlaneOf(q.src);
  s.exp = PlaneOf(q.exp);
  s.max = q.max != nullptr ? PlaneOf(q.max) : kernels::Plane{nullptr, 0};
  s.scaling = q.scaling != nullptr ? PlaneOf(q.scaling) : kernels::Plane{nullptr, 0};
  if (s.rows == 0 || s.cols == 0) return;
  kernels::QuantizeHif4(s);
}

}  // namespace ops
}  // namespace pto
