// Element-type facts: which dtypes are floating point, and the one table of
// which dtypes each operation accepts under each target profile.
#ifndef PTO_DTYPE_RULES_H_
#define PTO_DTYPE_RULES_H_

#include <stddef.h>
#include <stdint.h>

#include <initializer_list>

#include "pto_c.h"

namespace pto {

// How many dtypes the enum has (PTO_INT8 .. PTO_INT4X2).
constexpr size_t kDtypeCount = PTO_INT4X2 + 1;

constexpr uint32_t DtypeBit(pto_dtype d) { return 1u << static_cast<unsigned>(d); }

// A set of dtypes, kept in the order an instruction page lists them so that
// a refusal can quote the list as the page does.
struct DtypeSet {
  uint32_t mask;  // DtypeBit of each member
  uint32_t count;
  pto_dtype members[kDtypeCount];

  constexpr bool Contains(pto_dtype d) const { return (mask & DtypeBit(d)) != 0; }
};

template <typename... Dtypes>
constexpr DtypeSet MakeDtypeSet(Dtypes... members) {
  return DtypeSet{(DtypeBit(members) | ... | 0u), sizeof...(members), {members...}};
}

// The nine dtypes of 1, 2 and 4 bytes ("all nine" of the contract and ALL
// of operations.def: the pages' common lists); the 8-byte integers are named
// where a page lists them.
constexpr DtypeSet kAllDtypes =
    MakeDtypeSet(PTO_INT8, PTO_UINT8, PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32, PTO_FLOAT16,
                 PTO_BFLOAT16, PTO_FLOAT32);
constexpr DtypeSet kInt64Dtypes = MakeDtypeSet(PTO_INT64, PTO_UINT64);
constexpr DtypeSet kFloatDtypes = MakeDtypeSet(PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32);

// The low-precision types (0.6): one byte an element, packed pairs for the
// x2 ones. No operation takes them unless its page lists them.
constexpr DtypeSet kLowPrecisionDtypes =
    MakeDtypeSet(PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2, PTO_HIFLOAT8, PTO_FLOAT8_E8M0,
                 PTO_FLOAT4_E2M1X2, PTO_FLOAT4_E1M2X2, PTO_INT4X2);

inline bool IsFloatDtype(pto_dtype d) { return kFloatDtypes.Contains(d); }
constexpr bool Is64BitDtype(pto_dtype d) { return d == PTO_INT64 || d == PTO_UINT64; }
constexpr bool IsLowPrecisionDtype(pto_dtype d) { return d >= PTO_FLOAT8_E4M3 && d <= PTO_INT4X2; }
// Two 4-bit values a byte: a tile's cols count bytes, its values twice that.
constexpr bool IsPackedDtype(pto_dtype d) {
  return d == PTO_FLOAT4_E2M1X2 || d == PTO_FLOAT4_E1M2X2 || d == PTO_INT4X2;
}

// Bytes per element of a dtype inside the enum (a tile's), without the call
// through the exported pto_dtype_size.
constexpr size_t ElementBytes(pto_dtype d) {
  return d == PTO_INT8 || d == PTO_UINT8 || IsLowPrecisionDtype(d) ? 1
         : d == PTO_INT32 || d == PTO_UINT32 || d == PTO_FLOAT32 ? 4
         : d == PTO_INT64 || d == PTO_UINT64                     ? 8
                                                                 : 2;
}

// "FLOAT32", ...; "an invalid dtype" outside the enum.
const char* DtypeName(pto_dtype d);
// The same names for a raw enum value; `outside` for one outside the enum.
const char* DtypeNameOr(int dtype_value, const char* outside);
// The set's names in its order, ", " between them ("" for none), cut at
// `size`: the list a refusal quotes.
void DtypeListText(const DtypeSet& set, char* out, size_t size);

// Sets as operations.def spells them: a parenthesised list of dtype names, ALL
// (kAllDtypes: every dtype but the 8-byte integers) and FLOAT (the float
// dtypes) among them, in the page's order; (NONE), no dtype: a profile that
// has not the instruction.
namespace def_dtypes {
enum Name : int {
  INT8 = PTO_INT8,
  UINT8 = PTO_UINT8,
  INT16 = PTO_INT16,
  UINT16 = PTO_UINT16,
  INT32 = PTO_INT32,
  UINT32 = PTO_UINT32,
  FLOAT16 = PTO_FLOAT16,
  BFLOAT16 = PTO_BFLOAT16,
  FLOAT32 = PTO_FLOAT32,
  INT64 = PTO_INT64,
  UINT64 = PTO_UINT64,
  FLOAT8_E4M3 = PTO_FLOAT8_E4M3,
  FLOAT8_E5M2 = PTO_FLOAT8_E5M2,
  HIFLOAT8 = PTO_HIFLOAT8,
  FLOAT8_E8M0 = PTO_FLOAT8_E8M0,
  FLOAT4_E2M1X2 = PTO_FLOAT4_E2M1X2,
  FLOAT4_E1M2X2 = PTO_FLOAT4_E1M2X2,
  INT4X2 = PTO_INT4X2,
  ALL = -1,
  FLOAT = -2,
  NONE = -3,
};
}  // namespace def_dtypes

constexpr DtypeSet DtypesOf(std::initializer_list<def_dtypes::Name> names) {
  DtypeSet set{0, 0, {}};
  const auto add = [&set](pto_dtype d) {
    if (set.Contains(d)) return;
    set.mask |= DtypeBit(d);
    set.members[set.count++] = d;
  };
  for (const def_dtypes::Name name : names) {
    if (name == def_dtypes::NONE) continue;
    const DtypeSet& group = name == def_dtypes::ALL     ? kAllDtypes
                            : name == def_dtypes::FLOAT ? kFloatDtypes
                                                        : DtypeSet{0, 0, {}};
    if (group.count == 0) add(static_cast<pto_dtype>(name));
    for (uint32_t i = 0; i < group.count; ++i) add(group.members[i]);
  }
  return set;
}

// The operations as far as their dtype rules go: one key per operations.def
// row (dst's dtypes), then the rules an operation has besides.
enum class OpDtypes {
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) k##Camel,
#include "operations.def"
#undef PTO_OPERATION
  kPowHighPrecision,  // tpow with PTO_POW_HIGH_PRECISION
  kPreluTmp,          // tprelu's tmp, where a profile uses it
  kFloatCopy,         // pto_tile_write_f32 / pto_tile_read_f32
  kCompareMask,       // the compares' dst and the selects' mask
  kGatherIndices,     // tgather's indices
  kScatterIndices,    // tscatter's indices
  kQuantSrc,          // tquant's src
  kDequantSrc,        // tdequant's src
  kQuantParam,        // tquant's and tdequant's scale and offset, tquant's tmp
  kGlobalIndices,     // mgather's and mscatter's index tiles
  kCount
};

struct OpDtypeRule {
  OpDtypes op;                 // the row's key: kOpDtypeRules[i].op == i
  DtypeSet by_profile[3];      // indexed by pto_profile: HOST, A2A3, A5
  const char* host_condition;  // completes "dst dtype X is not supported" under HOST
};

// The rule table: operations.def's lists first (HOST from the contract; A2A3
// and A5 from the pages' implementation checks and, where the pages are
// silent, from the NPU implementations: docs/profiles.md cites each), then
// the rules beside them.
namespace def_dtypes {
#define PTO_DTYPE_LIST(...) DtypesOf({__VA_ARGS__})
inline constexpr OpDtypeRule kOpDtypeRules[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, Family, operand_list, Attr, host, a2a3, a5, ...) \
  {OpDtypes::k##Camel, {PTO_DTYPE_LIST host, PTO_DTYPE_LIST a2a3, PTO_DTYPE_LIST a5}, ""},
#include "operations.def"
#undef PTO_OPERATION
    // tpow HIGH_PRECISION: float dtypes; A2A3 ignores the algorithm, so its
    // list is tpow's.
    {OpDtypes::kPowHighPrecision,
     {kFloatDtypes, PTO_DTYPE_LIST(INT32, INT16, INT8, UINT32, UINT16, UINT8, FLOAT32),
      kFloatDtypes},
     " with PTO_POW_HIGH_PRECISION"},
    // A2A3 keeps tprelu's comparison mask, one bit per element, in tmp.
    {OpDtypes::kPreluTmp, {kAllDtypes, PTO_DTYPE_LIST(UINT8), kAllDtypes}, ""},
    // whole-tile float copies (no profile restricts them)
    {OpDtypes::kFloatCopy, {kFloatDtypes, kFloatDtypes, kFloatDtypes}, ""},
    {OpDtypes::kCompareMask,
     {PTO_DTYPE_LIST(UINT8), PTO_DTYPE_LIST(UINT8), PTO_DTYPE_LIST(UINT8)}, ""},
    // tgather's index tile: A2A3 b32, A5 b16 or b32 (the page), HOST their union
    {OpDtypes::kGatherIndices,
     {PTO_DTYPE_LIST(INT16, UINT16, INT32, UINT32), PTO_DTYPE_LIST(INT32, UINT32),
      PTO_DTYPE_LIST(INT16, UINT16, INT32, UINT32)},
     ""},
    // tscatter's index tile: 16- or 32-bit integers on both targets (the page),
    // paired with the data's width by the check
    {OpDtypes::kScatterIndices,
     {PTO_DTYPE_LIST(INT16, INT32, UINT16, UINT32), PTO_DTYPE_LIST(INT16, INT32, UINT16, UINT32),
      PTO_DTYPE_LIST(INT16, INT32, UINT16, UINT32)},
     ""},
    // tquant's src: FLOAT32 only for the INT8 forms (the page)
    {OpDtypes::kQuantSrc,
     {PTO_DTYPE_LIST(FLOAT32), PTO_DTYPE_LIST(FLOAT32), PTO_DTYPE_LIST(FLOAT32)}, ""},
    // tdequant's src: S8 or S16 (the page)
    {OpDtypes::kDequantSrc,
     {PTO_DTYPE_LIST(INT8, INT16), PTO_DTYPE_LIST(INT8, INT16), PTO_DTYPE_LIST(INT8, INT16)}, ""},
    // the quantisation parameters (and tquant's tmp): FLOAT32 (the pages)
    {OpDtypes::kQuantParam,
     {PTO_DTYPE_LIST(FLOAT32), PTO_DTYPE_LIST(FLOAT32), PTO_DTYPE_LIST(FLOAT32)}, ""},
    // mgather's and mscatter's indices: int32_t or uint32_t (the pages)
    {OpDtypes::kGlobalIndices,
     {PTO_DTYPE_LIST(INT32, UINT32), PTO_DTYPE_LIST(INT32, UINT32), PTO_DTYPE_LIST(INT32, UINT32)},
     ""},
};
#undef PTO_DTYPE_LIST
}  // namespace def_dtypes
using def_dtypes::kOpDtypeRules;

constexpr size_t kOpDtypeRuleCount = sizeof(kOpDtypeRules) / sizeof(kOpDtypeRules[0]);

// Rows are looked up by index, so row i must carry key i, and every key must
// have its row: an inserted or missing row fails to compile instead of
// handing one operation another's rules.
constexpr bool RuleRowsKeyedInOrder() {
  if (kOpDtypeRuleCount != static_cast<size_t>(OpDtypes::kCount)) return false;
  for (size_t i = 0; i < kOpDtypeRuleCount; ++i)
    if (static_cast<size_t>(kOpDtypeRules[i].op) != i) return false;
  return true;
}
static_assert(RuleRowsKeyedInOrder(),
              "kOpDtypeRules: one row per OpDtypes value, row i keyed OpDtypes(i)");

inline const DtypeSet& AcceptedDtypes(OpDtypes op, pto_profile profile) {
  return kOpDtypeRules[static_cast<int>(op)].by_profile[static_cast<int>(profile)];
}

// The table's masks alone, packed, for the check every call makes (derived
// at compile time, so the table above stays the one place to edit).
struct AcceptMasks {
  uint32_t by_op_and_profile[kOpDtypeRuleCount][3];
};
constexpr AcceptMasks MakeAcceptMasks() {
  AcceptMasks masks{};
  for (size_t op = 0; op < kOpDtypeRuleCount; ++op)
    for (size_t profile = 0; profile < 3; ++profile)
      masks.by_op_and_profile[op][profile] = kOpDtypeRules[op].by_profile[profile].mask;
  return masks;
}
inline constexpr AcceptMasks kAcceptMasks = MakeAcceptMasks();

inline bool Accepts(OpDtypes op, pto_profile profile, pto_dtype d) {
  return (kAcceptMasks.by_op_and_profile[static_cast<int>(op)][static_cast<int>(profile)] &
          DtypeBit(d)) != 0;
}

}  // namespace pto

#endif  // PTO_DTYPE_RULES_H_
