// pto_tmov with a cube tile on either side (pto_c.h, "Cube tiles"): the
// moves the cube has (pto-isa TMOV.md; PTOAS's TMovOp: mat to left, right
// or bias, acc to vec or mat) and A5's vec repacks into the cube's layouts
// (TMOV.md's ND -> NZ, ND -> ZN and ND -> ZZ: vec to mat or scaling), each
// element kept at its (row, column) and
// laid out as dst's layout says, with each profile's rules of TMOV's NPU
// implementations. Programs' cube moves (program/parse/core_cube.cc,
// run/execute_cube.cc) follow the same pages on their own tiles.
#include "fractal.h"
#include "kernels/kernels.h"
#include "ops/common.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

bool IsMove(const pto_tile* src, const pto_tile* dst, pto_location from, pto_location to) {
  return src->location == from && dst->location == to;
}

// Whether the two tiles' storage shares a byte (a vec dst may be placed on
// a cube tile's bytes through a buffer that wraps them).
bool StorageShared(const pto_tile* a, const pto_tile* b) {
  const char* pa = static_cast<const char*>(a->data);
  const char* pb = static_cast<const char*>(b->data);
  const size_t na = ElementCount(a) * pto_dtype_size(a->dtype);
  const size_t nb = ElementCount(b) * pto_dtype_size(b->dtype);
  return pa < pb + nb && pb < pa + na;
}

// The bias table's widening moves (a2a3/ and a5/TMov.hpp TMovToBt): a
// FLOAT16 mat row into a FLOAT32 bias row on every profile, a BFLOAT16 one
// under A5 and HOST.
bool BiasWidening(const pto_tile* src, const pto_tile* dst, pto_profile profile) {
  return IsMove(src, dst, PTO_LOC_MAT, PTO_LOC_BIAS) && dst->dtype == PTO_FLOAT32 &&
         (src->dtype == PTO_FLOAT16 ||
          (src->dtype == PTO_BFLOAT16 && profile != PTO_PROFILE_A2A3));
}

}  // namespace

bool IsCubeMove(const Operands& o) {
  return (o.dst != nullptr && IsCubeTile(o.dst)) || (o.src0 != nullptr && IsCubeTile(o.src0));
}

// The rules, in pto_tmov's order for cube tiles: NULL handles; the move;
// dst's layout (A2A3, A5); dtypes; aliasing; shapes.
pto_status CheckCubeMove(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v("pto_tmov");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  const auto location = [](const pto_tile* t) { return static_cast<pto_location>(t->location); };
  const auto layout = [](const pto_tile* t) { return static_cast<pto_layout>(t->layout); };
  const bool to_l0 = IsMove(src, dst, PTO_LOC_MAT, PTO_LOC_LEFT) ||
                     IsMove(src, dst, PTO_LOC_MAT, PTO_LOC_RIGHT);
  const bool to_bias = IsMove(src, dst, PTO_LOC_MAT, PTO_LOC_BIAS);
  // MX scales into the scaling memory (pto-isa TMOV.md, Mat to Scaling).
  const bool to_scaling = IsMove(src, dst, PTO_LOC_MAT, PTO_LOC_SCALING);
  const bool from_acc =
      IsMove(src, dst, PTO_LOC_ACC, PTO_LOC_VEC) || IsMove(src, dst, PTO_LOC_ACC, PTO_LOC_MAT);
  // A vec tile laid out in boxes (a5/TMov.hpp's vec ND -> NZ and ND -> ZN).
  const bool vec_fractal = IsMove(src, dst, PTO_LOC_VEC, PTO_LOC_VEC) &&
                           src->layout == PTO_LAYOUT_ND && dst->layout != PTO_LAYOUT_ND;
  // The same repacks (TMOV.md ND -> NZ, ND -> ZN, ND -> ZZ) straight into
  // the mat tile or the scaling tile they feed.
  const bool from_vec =
      IsMove(src, dst, PTO_LOC_VEC, PTO_LOC_MAT) || IsMove(src, dst, PTO_LOC_VEC, PTO_LOC_SCALING);
  v.Require(to_l0 || to_bias || to_scaling || from_acc || vec_fractal || from_vec,
            PTO_ERR_INVALID_ARGUMENT,
            "from %s %s %s tile to %s %s %s tile is not a move the cube has (mat to left, right, "
            "bias or scaling; acc to vec or mat; vec ND to vec NZ or ZN; vec to mat or scaling)",
            LocationArticle(location(src)), LocationName(location(src)), LayoutName(layout(src)),
            LocationArticle(location(dst)), LocationName(location(dst)), LayoutName(layout(dst)))
      .Require(!(profile == PTO_PROFILE_A2A3 && from_acc && dst->location == PTO_LOC_VEC),
               PTO_ERR_INVALID_ARGUMENT,
               "A2A3 moves an acc tile to mat only (acc to vec is A5's)")
      .Require(!(profile == PTO_PROFILE_A2A3 && vec_fractal), PTO_ERR_INVALID_ARGUMENT,
               "the vec moves into NZ and ZN are A5's, not A2A3's")
      .Require(!(profile == PTO_PROFILE_A2A3 && from_vec), PTO_ERR_INVALID_ARGUMENT,
               "A2A3 has no vec repack into the cube's layouts (vec to mat or scaling is A5's)");
  if (profile == PTO_PROFILE_A5 && from_vec) {
    // TMOV.md: ND -> NZ and ND -> ZN into mat's layouts, ND -> ZZ for the
    // MX scales (TMovNdTo2Zz, whose CommonCheckZZ takes bytes only).
    const bool to_mat = dst->location == PTO_LOC_MAT;
    const bool layout_ok = to_mat ? dst->layout == PTO_LAYOUT_NZ || dst->layout == PTO_LAYOUT_ZN
                                  : dst->layout == PTO_LAYOUT_ZZ;
    v.Require(layout_ok, PTO_ERR_INVALID_ARGUMENT,
              "under A5 a vec tile repacks into a mat NZ or ZN tile or a scaling ZZ tile, not a "
              "%s %s tile",
              LocationName(location(dst)), LayoutName(layout(dst)));
    const pto_dtype e = dst->dtype;
    v.Require(to_mat || src->dtype != e || e == PTO_UINT8 || e == PTO_FLOAT8_E8M0 ||
                  e == PTO_HIFLOAT8,
              PTO_ERR_UNSUPPORTED_DTYPE,
              "under A5 the repack into a scaling ZZ tile takes UINT8, FLOAT8_E8M0 or HIFLOAT8, "
              "not %s",
              DtypeName(e));
  }
  if (profile != PTO_PROFILE_HOST && to_l0) {
    const pto_layout want = dst->location == PTO_LOC_RIGHT ? PTO_LAYOUT_ZN
                            : profile == PTO_PROFILE_A2A3  ? PTO_LAYOUT_ZZ
                                                           : PTO_LAYOUT_NZ;
    v.Require(dst->layout == want, PTO_ERR_INVALID_ARGUMENT,
              "under %s a %s tile is laid out %s, not %s", pto_profile_string(profile),
              LocationName(location(dst)), LayoutName(want), LayoutName(layout(dst)));
  }
  v.Require(src->dtype == dst->dtype || BiasWidening(src, dst, profile), PTO_ERR_DTYPE_MISMATCH,
            "src is %s and dst %s; the cube's moves keep the dtype (but mat FLOAT16, and under "
            "A5 BFLOAT16, to a FLOAT32 bias row)",
            DtypeName(src->dtype), DtypeName(dst->dtype));
  // The low-precision types: A2A3's cube knows the 4-bit integers only, A5's
  // TMOV (CommonCheck, CommonCheckMX) the 8-bit and 4-bit floats, not them.
  const pto_dtype d = dst->dtype;
  if (v.ok() && IsLowPrecisionDtype(d) && profile != PTO_PROFILE_HOST)
    v.Require(profile == PTO_PROFILE_A2A3 ? d == PTO_INT4X2 : d != PTO_INT4X2,
              PTO_ERR_UNSUPPORTED_DTYPE, "the cube's moves on %s do not carry %s",
              pto_profile_string(profile), DtypeName(d));
  v.Distinct("src", src, "dst", dst)
      .Require(!StorageShared(src, dst), PTO_ERR_ALIASING,
               "src shares storage with dst, which the move writes while it reads src");
  const bool same_shape = src->rows == dst->rows && src->cols == dst->cols;
  v.Require(!(to_l0 || to_bias || to_scaling || vec_fractal || profile == PTO_PROFILE_A2A3) ||
                same_shape,
            PTO_ERR_SHAPE_MISMATCH,
            "src %ux%u and dst %ux%u differ; this move takes a whole tile of dst's shape",
            src->rows, src->cols, dst->rows, dst->cols)
      .Require(dst->valid_rows <= src->rows && dst->valid_cols <= src->cols,
               PTO_ERR_SHAPE_MISMATCH, "dst's valid region %ux%u is larger than src's %ux%u",
               dst->valid_rows, dst->valid_cols, src->rows, src->cols);
  if (profile != PTO_PROFILE_HOST && to_bias) {
    const size_t bytes = size_t{dst->cols} * pto_dtype_size(dst->dtype);
    v.Require(bytes % 64 == 0 && (profile != PTO_PROFILE_A5 || bytes <= 4096),
              PTO_ERR_SHAPE_MISMATCH,
              "under %s a bias row is a multiple of 64 bytes long%s; here %zu bytes",
              pto_profile_string(profile), profile == PTO_PROFILE_A5 ? ", at most 4096" : "",
              bytes);
  }
  return v.status();
}

// dst's valid region, each element read at its (row, column) of src (a
// bias row widened exactly to FLOAT32 where the dtypes differ).
void RunCubeMove(const Operands& o) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  if (src->dtype != dst->dtype) {  // BiasWidening: both tiles one ND row
    if (dst->valid_rows == 0) return;
    kernels::ToF32(src->dtype, dst->valid_cols, static_cast<float*>(dst->data), src->data);
    return;
  }
  CopyRegion(TileLayout(dst), static_cast<char*>(dst->data), TileLayout(src),
             static_cast<const char*>(src->data), 0, 0, dst->valid_rows, dst->valid_cols,
             pto_dtype_size(dst->dtype));
}

}  // namespace ops
}  // namespace pto
