// The elementwise families: Binary (dst = f(src0, src1)), Unary (dst =
// f(src)), Scalar (dst = f(src, scalar)) and Fill (dst = scalar), each
// row's check (every rule of its C function, in order, under a profile) and
// run (the family's kernel over dst's valid region); and the rules and bits
// of a scalar operand, which the Special rows share.
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmath>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {
namespace {

// ---- the Binary family ---------------------------------------------------

// The rules a row has beyond its family's, checked after the aliasing rules
// and before the valid regions; none unless specialised below.
template <OpId kId>
void RowRules(Validator&, const Operands&, pto_profile) {}

// TRECIP's page: "A3's TRECIP instruction does not support setting the
// source Tile and destination Tile to the same memory."
template <>
void RowRules<OpId::kTRecip>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile == PTO_PROFILE_A2A3)
    v.ApartOn(profile, "src and dst must not share memory", "src", o.src0, "dst", o.dst);
}

// The bitwise and shift rows' rules (docs/profiles.md [F-BITWISE]).
// TXOR on A2A3 computes through dst (and(not(and(a, b)), or(a, b)), TXor.hpp):
// "In manual mode, dst, src0, src1, and tmp must not overlap in memory".
template <>
void RowRules<OpId::kTXor>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile != PTO_PROFILE_A2A3) return;
  const char* rule = "dst must not share memory with src0 or src1";
  v.ApartOn(profile, rule, "src0", o.src0, "dst", o.dst)
      .ApartOn(profile, rule, "src1", o.src1, "dst", o.dst);
}
// TANDS and TORS (both profiles' pages): "setting the source tile and
// destination tile to the same memory is unsupported"; TXORS on A2A3:
// "source, destination, and temporary storage must not overlap".
void SourceApartFromDst(Validator& v, const Operands& o, pto_profile profile) {
  v.ApartOn(profile, "src and dst must not share memory", "src", o.src0, "dst", o.dst);
}
template <>
void RowRules<OpId::kTAnds>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile != PTO_PROFILE_HOST) SourceApartFromDst(v, o, profile);
}
template <>
void RowRules<OpId::kTOrs>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile != PTO_PROFILE_HOST) SourceApartFromDst(v, o, profile);
}
template <>
void RowRules<OpId::kTXors>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile == PTO_PROFILE_A2A3) SourceApartFromDst(v, o, profile);
}
// TSHLS and TSHRS (both profiles' pages): "Scalar only supports zero and
// positive values". HOST shifts by any count (pto_c.h).
void CountNotNegative(Validator& v, const Operands& o, pto_profile profile) {
  v.Require(o.scalar >= 0, PTO_ERR_INVALID_ARGUMENT,
            "the shift count %.17g is negative, but on %s the count is zero or positive",
            o.scalar, pto_profile_string(profile));
}
template <>
void RowRules<OpId::kTShls>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile != PTO_PROFILE_HOST) CountNotNegative(v, o, profile);
}
template <>
void RowRules<OpId::kTShrs>(Validator& v, const Operands& o, pto_profile profile) {
  if (profile != PTO_PROFILE_HOST) CountNotNegative(v, o, profile);
}

// Whether a Binary row's sources of another valid region than dst's are a
// board-mode warning: the rows whose a2a3/ and a5/ implementations check
// the regions with PTO_ASSERT only, then iterate dst's valid region reading
// each source at its own row stride (docs/profiles.md, "Board mode").
// TADDRELU has no pto-isa implementation to follow (PTOAS's verifier asks
// matching shapes): refused in both modes.
constexpr bool BoardRunsDstRegion(OpId id) { return id != OpId::kTAddRelu; }

// dst = f(src0, src1) elementwise over dst's valid region: both sources of
// dst's dtype and valid region, each dst itself (in place) or apart from it.
// A source of another valid region is a board-mode warning where
// BoardRunsDstRegion; the kernels read each source at dst's positions of
// its own rows.
template <OpId kId>
pto_status CheckBinary(const Operands& o, pto_profile profile, const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(static_cast<OpDtypes>(kId), profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst)
      .InRowOrderOrApart("src0", src0, dst, profile)
      .InRowOrderOrApart("src1", src1, dst, profile);
  RowRules<kId>(v, o, profile);
  if constexpr (BoardRunsDstRegion(kId)) {
    v.SameValidRegionOrBoard("src0", src0, "dst", dst, profile)
        .SameValidRegionOrBoard("src1", src1, "dst", dst, profile);
  } else {
    v.SameValidRegion("src0", src0, "dst", dst).SameValidRegion("src1", src1, "dst", dst);
  }
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
      .InRowOrderOrApart("src", src, dst, profile);
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


// dst = f(src, scalar) elementwise over dst's valid region: src of dst's
// dtype and valid region, dst itself (in place) or apart from it; the scalar
// a value of the dtype.
template <OpId kId>
pto_status CheckScalar(const Operands& o, pto_profile profile, const char* c_function) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  Validator v(c_function);
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(static_cast<OpDtypes>(kId), profile, "dst", dst)
      .SameDtype("src", src, "dst", dst);
  if (!v.ok()) return v.status();
  RequireScalarOf(v, "scalar", o.scalar, "dst", dst->dtype)
      .InRowOrderOrApart("src", src, dst, profile);
  RowRules<kId>(v, o, profile);
  v.SameValidRegion("src", src, "dst", dst);
  return v.status();
}

using ScalarKernel = void (*)(pto_dtype, size_t, size_t, const kernels::Plane&,
                              const kernels::ConstPlane&, double);
using ScalarContiguousKernel = void (*)(pto_dtype, size_t, void*, const void*, double);

void RunScalar(const Operands& o, ScalarKernel kernel, ScalarContiguousKernel contiguous) {
  pto_tile* dst = o.dst;
  const double value = kernels::ValueInDtype(dst->dtype, o.scalar);
  if (Contiguous(dst, o.src0, o.src0)) {
    return contiguous(dst->dtype, RegionElements(dst), dst->data, o.src0->data, value);
  }
  kernel(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0), value);
}

// ---- NPU sequences under A2A3 and A5 --------------------------------------

// A row whose NPU implementation stores an intermediate in a register or tile
// of its own type computes that sequence under A2A3 and A5, each step
// rounded as the NPU rounds it (../shared/API.md, "v0.5 change to a v0.4
// rule"; docs/profiles.md, "Compound instructions" cites each sequence).
// Every other row, and every row under HOST, runs its family kernel.
bool FloatOnNpu(const Operands& o, pto_profile profile) {
  return profile != PTO_PROFILE_HOST &&
         (o.dst->dtype == PTO_FLOAT32 || o.dst->dtype == PTO_FLOAT16);
}

// TREM on floats: a2a3/TRem.hpp and a5/TRem.hpp, q = a / b, floor, the
// product, the difference, then r + b where b * r < 0.
void RunNpuRem(const Operands& o) {
  pto_tile* dst = o.dst;
  kernels::NpuRem(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                  ConstPlaneOf(o.src0), ConstPlaneOf(o.src1));
}

// TREMS on floats: A2A3's a2a3/TRemS.hpp with the sign correction, A5's
// a5/TRemS.hpp without it (its RemSOp ends at the subtraction).
void RunNpuRems(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  kernels::NpuRems(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                   ConstPlaneOf(o.src0), kernels::ValueInDtype(dst->dtype, o.scalar),
                   profile == PTO_PROFILE_A2A3);
}

// TDIVS in place under A2A3: a2a3/TDivS.hpp's DivSOp, where dst == src,
// takes inv = (T)(1.0f / scalar) and multiplies by it (vmuls), so the
// reciprocal is rounded to the dtype first. Apart from src it divides
// (vdiv), as A5 always does: one rounding.
bool DividesByReciprocal(const Operands& o, pto_profile profile) {
  return profile == PTO_PROFILE_A2A3 && FloatOnNpu(o, profile) &&
         (o.src0 == o.dst || SamePlacement(o.src0, o.dst));
}
void RunTimesReciprocal(const Operands& o) {
  const pto_dtype dtype = o.dst->dtype;
  const double inverse =
      kernels::ValueInDtype(dtype, 1.0 / kernels::ValueInDtype(dtype, o.scalar));
  RunScalar(Operands{o.dst, o.src0, nullptr, nullptr, 0, inverse}, kernels::TMuls,
            kernels::TMulsContiguous);
}

// TFMOD and TFMODS on floats: a2a3/TFmod.hpp, a5/TFMod.hpp (DEFAULT
// precision) and their S forms, q = a / b, truncated, the product, the
// difference (A5's half in float32, narrowed toward zero).
void RunNpuFmod(const Operands& o) {
  pto_tile* dst = o.dst;
  kernels::NpuFmod(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                   ConstPlaneOf(o.src0), ConstPlaneOf(o.src1));
}
void RunNpuFmods(const Operands& o) {
  pto_tile* dst = o.dst;
  kernels::NpuFmods(dst->dtype, dst->valid_rows, dst->valid_cols, PlaneOf(dst),
                    ConstPlaneOf(o.src0), kernels::ValueInDtype(dst->dtype, o.scalar));
}

// A5's 64-bit shifts (a5/Int64Binary.hpp Int64ShiftRegs) take the count
// mod 64, `vand` with 63, before shifting the two 32-bit halves, and A5's ST
// goldens expect that; every other lane and profile shifts every bit out for
// a count of the width or more (pto_c.h).
bool A5WideShift(const Operands& o, pto_profile profile) {
  return profile == PTO_PROFILE_A5 && (o.dst->dtype == PTO_INT64 || o.dst->dtype == PTO_UINT64);
}
uint64_t Lane64(const pto_tile* t, uint32_t row, uint32_t col) {
  uint64_t v;
  memcpy(&v, static_cast<const unsigned char*>(t->data) + (static_cast<size_t>(row) * t->cols + col) * 8,
         8);
  return v;
}
// Each element's value and count are read before its result is written, so
// a source that is dst itself is read as it was.
void RunA5Shift64(const Operands& o, bool left) {
  pto_tile* dst = o.dst;
  const bool arithmetic = dst->dtype == PTO_INT64;
  for (uint32_t i = 0; i < dst->valid_rows; ++i) {
    for (uint32_t j = 0; j < dst->valid_cols; ++j) {
      const uint64_t a = Lane64(o.src0, i, j), n = Lane64(o.src1, i, j) & 63;
      uint64_t r = left ? a << n : a >> n;
      if (!left && arithmetic && (a >> 63) != 0 && n != 0) r |= ~(~UINT64_C(0) >> n);
      memcpy(static_cast<unsigned char*>(dst->data) + (static_cast<size_t>(i) * dst->cols + j) * 8, &r, 8);
    }
  }
}

template <OpId kId>
void RunBinaryRow(const Operands& o, pto_profile profile, BinaryKernel kernel,
                  BinaryContiguousKernel contiguous) {
  if constexpr (kId == OpId::kTShl || kId == OpId::kTShr) {
    if (A5WideShift(o, profile)) return RunA5Shift64(o, kId == OpId::kTShl);
  }
  if constexpr (kId == OpId::kTRem) {
    if (FloatOnNpu(o, profile)) return RunNpuRem(o);
  }
  if constexpr (kId == OpId::kTFmod) {
    if (FloatOnNpu(o, profile)) return RunNpuFmod(o);
  }
  RunBinary(o, kernel, contiguous);
}

template <OpId kId>
void RunScalarRow(const Operands& o, pto_profile profile, ScalarKernel kernel,
                  ScalarContiguousKernel contiguous) {
  if constexpr (kId == OpId::kTRems) {
    if (FloatOnNpu(o, profile)) return RunNpuRems(o, profile);
  }
  if constexpr (kId == OpId::kTFmods) {
    if (FloatOnNpu(o, profile)) return RunNpuFmods(o);
  }
  if constexpr (kId == OpId::kTShls || kId == OpId::kTShrs) {
    if (A5WideShift(o, profile)) {  // the count is zero or positive under A5
      Operands wrapped = o;
      wrapped.scalar = std::fmod(o.scalar, 64.0);
      return RunScalar(wrapped, kernel, contiguous);
    }
  }
  if constexpr (kId == OpId::kTDivs) {
    if (DividesByReciprocal(o, profile)) return RunTimesReciprocal(o);
  }
  RunScalar(o, kernel, contiguous);
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

#define PTO_FAMILY_FUNCTIONS_Binary(Camel, mnemonic, n)                                   \
  PTO_FAMILY_FUNCTIONS(Camel, CheckBinary<OpId::k##Camel>(o, profile, "pto_" #mnemonic), \
                       RunBinaryRow<OpId::k##Camel>(o, profile, kernels::Camel,             \
                                                    kernels::Camel##Contiguous))
#define PTO_FAMILY_FUNCTIONS_Scalar(Camel, mnemonic, n)                                   \
  PTO_FAMILY_FUNCTIONS(Camel, CheckScalar<OpId::k##Camel>(o, profile, "pto_" #mnemonic), \
                       RunScalarRow<OpId::k##Camel>(o, profile, kernels::Camel,             \
                                                    kernels::Camel##Contiguous))
#define PTO_FAMILY_FUNCTIONS_Fill(Camel, mnemonic, n)                                     \
  PTO_FAMILY_FUNCTIONS(Camel, CheckFill(o, profile, OpDtypes::k##Camel, "pto_" #mnemonic), \
                       RunFill(o, kernels::Camel, kernels::Camel##Contiguous))
#define PTO_FAMILY_FUNCTIONS_Unary(Camel, mnemonic, n)                                    \
  PTO_FAMILY_FUNCTIONS(Camel, CheckUnary<OpId::k##Camel>(o, profile, "pto_" #mnemonic), \
                       RunUnary(o, kernels::Camel, kernels::Camel##Contiguous))
}  // namespace

#include "ops/family_rows.inc"

ContiguousKernel ContiguousKernelOf(const OpDescriptor& op) {
#define PTO_CONTIGUOUS_KERNEL_Binary(Camel) \
  case OpId::k##Camel:                      \
    return kernels::Camel##Contiguous;
#define PTO_CONTIGUOUS_KERNEL_Unary(Camel) PTO_CONTIGUOUS_KERNEL_Binary(Camel)
#define PTO_CONTIGUOUS_KERNEL_Scalar(Camel)
#define PTO_CONTIGUOUS_KERNEL_Fill(Camel)
#define PTO_CONTIGUOUS_KERNEL_RowExpand(Camel)
#define PTO_CONTIGUOUS_KERNEL_ColExpand(Camel)
#define PTO_CONTIGUOUS_KERNEL_RowReduce(Camel)
#define PTO_CONTIGUOUS_KERNEL_ColReduce(Camel)
#define PTO_CONTIGUOUS_KERNEL_Special(Camel)
  switch (op.id) {
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, ...) PTO_CONTIGUOUS_KERNEL_##Fam(Camel)
#include "operations.def"
#undef PTO_OPERATION
    default: return nullptr;
  }
#undef PTO_CONTIGUOUS_KERNEL_Binary
#undef PTO_CONTIGUOUS_KERNEL_Unary
#undef PTO_CONTIGUOUS_KERNEL_Scalar
#undef PTO_CONTIGUOUS_KERNEL_Fill
#undef PTO_CONTIGUOUS_KERNEL_RowExpand
#undef PTO_CONTIGUOUS_KERNEL_ColExpand
#undef PTO_CONTIGUOUS_KERNEL_RowReduce
#undef PTO_CONTIGUOUS_KERNEL_ColReduce
#undef PTO_CONTIGUOUS_KERNEL_Special
}

// ---- the text rules of TXOR and TXORS -----------------------------------

// PTOAS's A2/A3 verifier on a given tmp (TXorOp, TXorSOp): of dst's dtype,
// row-major, and at least dst's bytes (the pages: A2A3 computes the OR into
// it). libpto neither reads nor writes it; A5 and HOST take any.
static bool XorTmpRules(const TextOperands& o, const char* mnemonic, char* sentence, size_t size) {
  if (!o.tmp_given || o.profile != PTO_PROFILE_A2A3) return true;
  const char* broken = o.tmp.dtype != o.dst.dtype ? "of dst's dtype"
                       : !o.tmp.row_major         ? "row-major"
                       : uint64_t{o.tmp.rows} * o.tmp.cols < uint64_t{o.dst.rows} * o.dst.cols
                           ? "at least dst's rows x cols"
                           : nullptr;
  if (broken == nullptr) return true;
  snprintf(sentence, size,
           "%s's tmp under A2A3 must be %s (PTOAS's rule: A2A3 computes through it)", mnemonic,
           broken);
  return false;
}

bool TextRulesTXor(const TextOperands& o, char* sentence, size_t size) {
  return XorTmpRules(o, "pto.txor", sentence, size);
}
bool TextRulesTXors(const TextOperands& o, char* sentence, size_t size) {
  return XorTmpRules(o, "pto.txors", sentence, size);
}

// ---- scalar operands -----------------------------------------------------

Validator& RequireScalarOf(Validator& v, const char* name, double scalar, const char* owner,
                           pto_dtype dtype) {
  return v.Require(ScalarIsValueOf(dtype, scalar), PTO_ERR_INVALID_ARGUMENT,
                   "%s %.17g is not a value of %s dtype %s (an integer in its range)", name,
                   scalar, owner, DtypeName(dtype));
}

uint32_t ScalarBits(pto_dtype dtype, double scalar) {
  const double value = kernels::ValueInDtype(dtype, scalar);
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

uint64_t ScalarBits64(pto_dtype dtype, double scalar) {
  if (dtype == PTO_INT64) return static_cast<uint64_t>(static_cast<int64_t>(scalar));
  if (dtype == PTO_UINT64) return static_cast<uint64_t>(scalar);
  return ScalarBits(dtype, scalar);
}

}  // namespace ops
}  // namespace pto
