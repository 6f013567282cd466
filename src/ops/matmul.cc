// TMATMUL, TMATMUL_ACC, TMATMUL_BIAS: their rules and runs (the kernel is
// kernels/matmul.cc). Under HOST the operands are ordinary row-major tiles;
// the NPU profiles' cube operands live in the cube's own memories in
// fractal layouts, which these C calls do not model, so A2A3 and A5 refuse
// every call with a sentence saying so.
#include <string.h>

#include "ops/common.h"
#include "overlap.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// Where each chain of dst starts.
enum class Seed : uint8_t {
  kZero,  // tmatmul
  kDst,   // tmatmul_acc: dst as it was
  kBias,  // tmatmul_bias: bias(0, j)
};

// The source dtype that goes with dst's: FLOAT32 takes BFLOAT16, FLOAT16 or
// FLOAT32 sources, INT32 takes INT8.
bool PairAccepted(pto_dtype dst, pto_dtype source) {
  if (dst == PTO_FLOAT32)
    return source == PTO_BFLOAT16 || source == PTO_FLOAT16 || source == PTO_FLOAT32;
  return dst == PTO_INT32 && source == PTO_INT8;
}

constexpr const char* kTriples =
    "(FLOAT32; BFLOAT16), (FLOAT32; FLOAT16), (FLOAT32; FLOAT32), (INT32; INT8)";

// dst, a, b (and bias) under `profile`, in the contract's order: NULL
// handles; the profile; dtypes; aliasing (same handles, then shared bytes);
// valid regions.
pto_status CheckMatmul(const Operands& o, pto_profile profile, const char* function, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1, *bias = o.src2;
  Validator v(function);
  v.NotNull("dst", dst).NotNull("a", a).NotNull("b", b);
  if (seed == Seed::kBias) v.NotNull("bias", bias);
  if (!v.ok()) return v.status();
  v.Require(profile == PTO_PROFILE_HOST, PTO_ERR_INVALID_ARGUMENT,
            "under %s the cube's operands are tiles of its own memories (left, right, acc) in "
            "fractal layouts, which this call does not model; the HOST profile multiplies "
            "row-major tiles",
            pto_profile_string(profile))
      .Require(dst->dtype == PTO_FLOAT32 || dst->dtype == PTO_INT32, PTO_ERR_UNSUPPORTED_DTYPE,
               "dst dtype %s is not one of a matrix multiply's (dst; a, b) triples %s",
               DtypeName(dst->dtype), kTriples)
      .SameDtype("b", b, "a", a)
      .Require(PairAccepted(dst->dtype, a->dtype), PTO_ERR_UNSUPPORTED_DTYPE,
               "(dst %s; a, b %s) is not one of a matrix multiply's (dst; a, b) triples %s",
               DtypeName(dst->dtype), DtypeName(a->dtype), kTriples);
  if (seed == Seed::kBias) v.SameDtype("bias", bias, "dst", dst);
  v.Distinct("a", a, "dst", dst).Distinct("b", b, "dst", dst);
  if (seed == Seed::kBias) v.Distinct("bias", bias, "dst", dst);
  v.Require(!ValidRegionsOverlap(a, dst), PTO_ERR_ALIASING,
            "a overlaps the storage of dst, which a matrix multiply writes while it reads a")
      .Require(!ValidRegionsOverlap(b, dst), PTO_ERR_ALIASING,
               "b overlaps the storage of dst, which a matrix multiply writes while it reads b");
  if (seed == Seed::kBias)
    v.Require(!ValidRegionsOverlap(bias, dst), PTO_ERR_ALIASING,
              "bias overlaps the storage of dst, which a matrix multiply writes while it reads "
              "bias");
  v.Require(a->valid_rows == dst->valid_rows, PTO_ERR_SHAPE_MISMATCH,
            "a valid rows %u differ from dst valid rows %u (M)", a->valid_rows, dst->valid_rows)
      .Require(a->valid_cols == b->valid_rows, PTO_ERR_SHAPE_MISMATCH,
               "a valid cols %u differ from b valid rows %u (K)", a->valid_cols, b->valid_rows)
      .Require(b->valid_cols == dst->valid_cols, PTO_ERR_SHAPE_MISMATCH,
               "b valid cols %u differ from dst valid cols %u (N)", b->valid_cols,
               dst->valid_cols);
  if (seed == Seed::kBias)
    v.Require(bias->valid_rows >= 1 && bias->valid_cols == dst->valid_cols,
              PTO_ERR_SHAPE_MISMATCH,
              "bias valid region %ux%u is not one row (or more) of dst valid cols %u",
              bias->valid_rows, bias->valid_cols, dst->valid_cols);
  return v.status();
}

// Seeds dst's valid region, then runs the chains over a's valid cols.
void RunMatmul(const Operands& o, Seed seed) {
  pto_tile* dst = o.dst;
  const pto_tile *a = o.src0, *b = o.src1;
  const size_t m = dst->valid_rows, n = dst->valid_cols, k = a->valid_cols;
  const size_t row_bytes = n * pto_dtype_size(dst->dtype);
  for (size_t i = 0; i < m; ++i) {
    void* row = Offset(dst, static_cast<uint32_t>(i), 0).data;
    if (seed == Seed::kZero) memset(row, 0, row_bytes);  // +0.0f and 0 alike
    if (seed == Seed::kBias) memcpy(row, o.src2->data, row_bytes);
  }
  kernels::Matmul(a->dtype, m, k, n, Offset(dst, 0, 0), Offset(a, 0, 0), Offset(b, 0, 0));
}

}  // namespace

pto_status CheckTMatmul(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tmatmul", Seed::kZero);
}
void RunTMatmul(const Operands& o, pto_profile) { RunMatmul(o, Seed::kZero); }

pto_status CheckTMatmulAcc(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tmatmul_acc", Seed::kDst);
}
void RunTMatmulAcc(const Operands& o, pto_profile) { RunMatmul(o, Seed::kDst); }

pto_status CheckTMatmulBias(const Operands& o, pto_profile profile) {
  return CheckMatmul(o, profile, "pto_tmatmul_bias", Seed::kBias);
}
void RunTMatmulBias(const Operands& o, pto_profile) { RunMatmul(o, Seed::kBias); }

}  // namespace ops
}  // namespace pto
