// TCVT's (src dtype, dst dtype) pairs per profile, beside the check that
// reads them (ops/tcvt.cc). operations.def's row lists dst's dtypes only; a pair
// needs both. docs/profiles.md cites the page's table and the NPU
// implementations these come from.
#ifndef PTO_CONVERT_RULES_H_
#define PTO_CONVERT_RULES_H_

#include <stdint.h>

#include "dtype_rules.h"
#include "pto_c.h"

namespace pto {

// For one source dtype, the dtypes it converts to under A2A3 and under A5,
// each in the order of the page's table (refusals quote it). HOST takes their
// union.
struct ConvertTargets {
  pto_dtype src;
  DtypeSet a2a3;
  DtypeSet a5;
};

namespace convert_dtypes {
using namespace def_dtypes;  // NOLINT: the page's names, as operations.def spells them
#define PTO_DTYPE_LIST(...) DtypesOf({__VA_ARGS__})
inline constexpr ConvertTargets kConvertTargets[] = {
    {PTO_FLOAT32, PTO_DTYPE_LIST(FLOAT16, FLOAT32, BFLOAT16, INT16, INT32, INT64),
     PTO_DTYPE_LIST(FLOAT32, FLOAT16, BFLOAT16, INT16, INT32, INT64, FLOAT8_E4M3, FLOAT8_E5M2,
                    HIFLOAT8)},
    {PTO_FLOAT16, PTO_DTYPE_LIST(FLOAT32, INT32, INT16, INT8, UINT8, INT4X2),
     PTO_DTYPE_LIST(FLOAT32, INT32, INT16, INT8, UINT8, HIFLOAT8)},
    {PTO_BFLOAT16, PTO_DTYPE_LIST(FLOAT32, INT32),
     PTO_DTYPE_LIST(FLOAT32, INT32, FLOAT16, FLOAT4_E1M2X2, FLOAT4_E2M1X2)},
    {PTO_INT16, PTO_DTYPE_LIST(FLOAT16, FLOAT32),
     PTO_DTYPE_LIST(UINT8, FLOAT16, FLOAT32, UINT32, INT32)},
    {PTO_INT32, PTO_DTYPE_LIST(FLOAT32, INT16, INT64, FLOAT16),
     PTO_DTYPE_LIST(FLOAT32, INT16, UINT16, INT64, UINT8)},
    {PTO_INT64, PTO_DTYPE_LIST(FLOAT32, INT32), PTO_DTYPE_LIST(FLOAT32, INT32)},
    {PTO_UINT8, PTO_DTYPE_LIST(FLOAT16), PTO_DTYPE_LIST(FLOAT16, UINT16)},
    {PTO_INT8, PTO_DTYPE_LIST(FLOAT16), PTO_DTYPE_LIST(FLOAT16, INT16, INT32)},
    {PTO_INT4X2, PTO_DTYPE_LIST(FLOAT16), DtypesOf({})},
    {PTO_UINT32, DtypesOf({}), PTO_DTYPE_LIST(UINT8, UINT16, INT16)},
    {PTO_UINT16, DtypesOf({}), DtypesOf({})},
    {PTO_FLOAT8_E4M3, DtypesOf({}), PTO_DTYPE_LIST(FLOAT32)},
    {PTO_FLOAT8_E5M2, DtypesOf({}), PTO_DTYPE_LIST(FLOAT32)},
    {PTO_HIFLOAT8, DtypesOf({}), PTO_DTYPE_LIST(FLOAT32)},
    {PTO_FLOAT4_E1M2X2, DtypesOf({}), PTO_DTYPE_LIST(BFLOAT16)},
    {PTO_FLOAT4_E2M1X2, DtypesOf({}), PTO_DTYPE_LIST(BFLOAT16)},
};
#undef PTO_DTYPE_LIST
}  // namespace convert_dtypes
using convert_dtypes::kConvertTargets;

// The union of two lists, a's order first.
constexpr DtypeSet UnionOf(const DtypeSet& a, const DtypeSet& b) {
  DtypeSet set = a;
  for (uint32_t i = 0; i < b.count; ++i) {
    if (set.Contains(b.members[i])) continue;
    set.mask |= DtypeBit(b.members[i]);
    set.members[set.count++] = b.members[i];
  }
  return set;
}

// The lists by profile (HOST, A2A3, A5) and source dtype, derived from the
// rows above at compile time.
struct ConvertTable {
  DtypeSet by_profile_and_src[3][kDtypeCount];
};
constexpr ConvertTable MakeConvertTable() {
  ConvertTable table{};
  for (const ConvertTargets& row : kConvertTargets) {
    const int src = static_cast<int>(row.src);
    table.by_profile_and_src[PTO_PROFILE_HOST][src] = UnionOf(row.a2a3, row.a5);
    table.by_profile_and_src[PTO_PROFILE_A2A3][src] = row.a2a3;
    table.by_profile_and_src[PTO_PROFILE_A5][src] = row.a5;
  }
  return table;
}
inline constexpr ConvertTable kConvertTable = MakeConvertTable();

// The dtypes `src` converts to under `profile`, in the page's order.
inline const DtypeSet& ConvertDestinations(pto_dtype src, pto_profile profile) {
  return kConvertTable.by_profile_and_src[static_cast<int>(profile)][static_cast<int>(src)];
}

// The one pair with PTO_ROUND_ODD (both pages' implementations: vconv_f322f16o
// on A2A3, RoundOType only for half <- float on A5).
inline bool ConvertHasOdd(pto_dtype src, pto_dtype dst) {
  return src == PTO_FLOAT32 && dst == PTO_FLOAT16;
}

// Whether a dtype holds floating-point values: the IEEE ones and the
// low-precision floats (not the 4-bit integers).
inline bool IsFloatFormat(pto_dtype d) {
  return IsFloatDtype(d) || (IsLowPrecisionDtype(d) && d != PTO_INT4X2);
}

// A5 rounds these pairs one way whatever the mode (its TCvt.hpp: vcvt with
// ROUND_R for FLOAT32 -> FP8, ROUND_A for FLOAT32 and FLOAT16 -> HIFLOAT8):
// that mode, or PTO_ROUND_NONE where the mode is kept.
inline pto_round_mode A5FixedRounding(pto_dtype src, pto_dtype dst) {
  if (dst == PTO_FLOAT8_E4M3 || dst == PTO_FLOAT8_E5M2) return PTO_ROUND_RINT;
  if (dst == PTO_HIFLOAT8 && (src == PTO_FLOAT32 || src == PTO_FLOAT16)) return PTO_ROUND_ROUND;
  return PTO_ROUND_NONE;
}

// A conversion to or from a packed type: the packed side's valid cols (bytes)
// hold twice as many values.
inline bool ConvertIsPacked(pto_dtype src, pto_dtype dst) {
  return IsPackedDtype(src) || IsPackedDtype(dst);
}

// Whether every value of src is exactly a value of dst (a widening pair).
inline bool ConvertIsWidening(pto_dtype src, pto_dtype dst) {
  switch (src) {
    case PTO_FLOAT16:
    case PTO_BFLOAT16:
      return dst == PTO_FLOAT32;
    case PTO_INT8:
      return dst == PTO_FLOAT16 || dst == PTO_INT16 || dst == PTO_INT32 || dst == PTO_FLOAT32;
    case PTO_UINT8:
      return dst == PTO_FLOAT16 || dst == PTO_UINT16 || dst == PTO_INT16 || dst == PTO_INT32 ||
             dst == PTO_UINT32 || dst == PTO_FLOAT32;
    case PTO_INT16:
      return dst == PTO_INT32 || dst == PTO_FLOAT32;
    case PTO_INT32:
      return dst == PTO_INT64;
    default:
      return false;
  }
}

// A2A3 and A5 with PTO_SAT_OFF: the float -> integer pairs that the NPU
// converts through INT32 and then narrows keeping the low bits (A2A3's
// NonSatTorch paths and both targets' default-OFF list for these pairs).
inline bool ConvertWrapsThroughInt32(pto_dtype src, pto_dtype dst) {
  return (src == PTO_FLOAT32 && dst == PTO_INT16) ||
         (src == PTO_FLOAT16 && (dst == PTO_INT16 || dst == PTO_INT8 || dst == PTO_UINT8));
}

}  // namespace pto

#endif  // PTO_CONVERT_RULES_H_
