// The quantisation group: tquant (FLOAT32 to INT8 / UINT8 codes by a
// per-row scale, and offset) and tdequant (INT8 / INT16 codes back to
// FLOAT32). Each has a check (every rule of its C function, in order, under
// a profile) and a run (kernels/quant.cc).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
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

pto_status CheckTQuant(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *scale = o.src1, *offset = o.src2;
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
      asym ? ParamPlane(o.src2, profile) : kernels::ConstPlane{nullptr, 0};
  kernels::Quantize(asym, o.dst->valid_rows, o.dst->valid_cols, PlaneOf(o.dst),
                    ConstPlaneOf(o.src0), ParamPlane(o.src1, profile), asym ? &offset : nullptr);
}

// ---- tdequant -------------------------------------------------------------

pto_status CheckTDequant(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *scale = o.src1, *offset = o.src2;
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
                      ParamPlane(o.src2, profile));
}

}  // namespace ops
}  // namespace pto
