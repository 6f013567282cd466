// The table of operations (kOps, one row per line of operations.def), the
// lookups on it, and the C functions: each one's common call accepted in a
// few compares and run straight away, any other checked under the calling
// thread's profile first. The rows' checks and runs are in the other files
// of src/ops/.
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dtype_rules.h"
#include "float_env.h"
#include "operation_operands.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

// TextRules<Camel> for a row with the TextRules trait, else null; the
// function is named only where the row has one (declared for every row in
// common.h, defined for those).
template <uint32_t kTraits, class Get>
constexpr TextRules TextRulesOf(Get get) {
  if constexpr ((kTraits & PTO_TRAIT_TextRules) != 0) {
    return get(0);
  } else {
    (void)get;
    return nullptr;
  }
}

// The table, row by row from operations.def.
namespace {

// The instructions whose dst row i reads only row i of each source (the
// contract's v0.6 row order; their checks allow sources on earlier dst rows).
constexpr bool ReadsRowsInOrder(Family family, OpId id) {
  return family == Family::kBinary || family == Family::kUnary || family == Family::kScalar ||
         family == Family::kRowExpand || id == OpId::kTPow || id == OpId::kTPows ||
         id == OpId::kTRsqrt || id == OpId::kTPrelu || id == OpId::kTPartAdd ||
         id == OpId::kTCvt || id == OpId::kTExtract;
}

// Row i of t as a tile of one row (no row when t has no valid row i).
pto_tile RowOf(const pto_tile* t, uint32_t i) {
  pto_tile row = *t;
  if (i >= t->valid_rows) {
    row.valid_rows = 0;
    return row;
  }
  row.data = static_cast<char*>(t->data) + size_t{i} * t->cols * ElementBytes(t->dtype);
  row.rows = t->rows - i;
  row.valid_rows = 1;
  return row;
}

// A row-order instruction's run: straight to kRun, or, where a source lies on
// dst's rows in row order, one dst row at a time in order, so every source row
// is read before a later dst row is written over it (a conversion in place
// at one start address converts its rows in order itself).
template <void (*kRun)(const Operands&, pto_profile)>
void RunInRowOrder(const Operands& o, pto_profile profile) {
  if (!PTO_UNLIKELY(SharesRowsWithDst(o)) ||
      (o.src0 != nullptr && o.src0->data == o.dst->data && ConvertsInPlaceInOrder(o.src0, o.dst)))
    return kRun(o, profile);
  for (uint32_t i = 0; i < o.dst->valid_rows; ++i) {
    pto_tile dst = RowOf(o.dst, i);
    pto_tile sources[5];
    const pto_tile* given[5] = {o.src0, o.src1, o.ext->src2, o.ext->src3, o.ext->src4};
    Operands row = o;
    OperandsExt row_ext = *o.ext;
    row.dst = &dst;
    row.ext = &row_ext;
    const pto_tile** slots[5] = {&row.src0, &row.src1, &row_ext.src2, &row_ext.src3,
                                 &row_ext.src4};
    for (int k = 0; k < 5; ++k) {
      if (given[k] == nullptr) continue;
      sources[k] = given[k] == o.dst ? dst : RowOf(given[k], i);
      *slots[k] = given[k] == o.dst ? &dst : &sources[k];
    }
    kRun(row, profile);
  }
}

template <void (*kRun)(const Operands&, pto_profile)>
constexpr auto RunOf(Family family, OpId id) -> void (*)(const Operands&, pto_profile) {
  return ReadsRowsInOrder(family, id) ? &RunInRowOrder<kRun> : kRun;
}

}  // namespace

bool SharesRowsWithDst(const Operands& o) {
  const pto_tile* dst = o.dst;
  for (const pto_tile* src : {o.src0, o.src1, o.ext->src2, o.ext->src3, o.ext->src4}) {
    if (src != nullptr && src != dst && (src->buffer != nullptr || dst->buffer != nullptr) &&
        !SamePlacement(src, dst) && ValidRegionsOverlapSlow(src, dst))
      return true;
  }
  return false;
}

constexpr OpDescriptor kOps[kOpCount] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, operand_list, Attr, host, a2a3, a5, summary, \
                      Traits, Group)                                                            \
  {OpId::k##Camel,                                                                              \
   Family::k##Fam,                                                                              \
   #mnemonic,                                                                                   \
   "pto_" #mnemonic,                                                                            \
   summary,                                                                                     \
   PTO_OPERANDS_SOURCE_COUNT(operand_list),                                                     \
   {PTO_OPERANDS_SOURCE_NAMES(operand_list)},                                                   \
   static_cast<TmpRole>(PTO_OPERANDS_TMP(operand_list)),                                        \
   AttrKind::k##Attr,                                                                           \
   AttrValueCount(AttrKind::k##Attr),                                                           \
   PTO_TRAIT_BITS Traits | PTO_OPERANDS_TRAITS(operand_list),                                   \
   TextRulesOf<PTO_TRAIT_BITS Traits>([](auto) { return &TextRules##Camel; }),                  \
   Check##Camel,                                                                                \
   RunOf<Run##Camel>(Family::k##Fam, OpId::k##Camel),                                           \
   PTO_OPERANDS_TABLE_POSITION(operand_list),                                                   \
   {PTO_OPERANDS_WORD_NAMES(operand_list)},                                                     \
   {PTO_OPERANDS_AUX_NAMES(operand_list)},                                                      \
   static_cast<uint8_t>(PTO_OPERANDS_OPTIONAL_SOURCE_COUNT(operand_list))},
#include "operations.def"
#undef PTO_OPERATION
};

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
    if (!AttrLeads(op.attr) && op.attr != AttrKind::kMaskPattern &&
        op.attr != AttrKind::kListCounts &&
        strlen(op.mnemonic) == name_length &&
        memcmp(op.mnemonic, name, name_length) == 0)
      return &op;
  }
  return nullptr;
}

namespace {
// The row whose mnemonic is op's followed by `suffix`; NULL if none.
const OpDescriptor* SuffixedForm(const OpDescriptor& op, const char* suffix) {
  const size_t length = strlen(op.mnemonic);
  for (const OpDescriptor& form : kOps) {
    if (strncmp(form.mnemonic, op.mnemonic, length) == 0 &&
        strcmp(form.mnemonic + length, suffix) == 0)
      return &form;
  }
  return nullptr;
}
}  // namespace

const OpDescriptor* ScalarFirstForm(const OpDescriptor& op) {
  const OpDescriptor* form = SuffixedForm(op, "_scalar_by_tile");
  return form != nullptr && AttrLeads(form->attr) ? form : nullptr;
}

const OpDescriptor* SingleSourceForm(const OpDescriptor& op) {
  const OpDescriptor* form = SuffixedForm(op, "_single");
  return form != nullptr && form->source_count == 1 ? form : nullptr;
}

const OpDescriptor* FixpipeForm(const OpDescriptor& op) {
  const OpDescriptor* form = SuffixedForm(op, "_fp");
  return form != nullptr && HasTrait(*form, PTO_TRAIT_Fixpipe) ? form : nullptr;
}

const OpDescriptor* CompareForm(const OpDescriptor& op) {
  const OpDescriptor* form = SuffixedForm(op, "_cmp");
  return form != nullptr && form->attr == AttrKind::kCmpOffset ? form : nullptr;
}

const OpDescriptor* ListsForm(const OpDescriptor& op) {
  const OpDescriptor* form = SuffixedForm(op, "_lists");
  return form != nullptr && form->attr == AttrKind::kListCounts ? form : nullptr;
}

const OpDescriptor& TextRow(const OpDescriptor& op) {
  if (op.attr != AttrKind::kListCounts) return op;
  for (const OpDescriptor& twin : kOps)
    if (ListsForm(twin) == &op) return twin;
  return op;
}

const OpDescriptor* MaskPatternForm(const OpDescriptor& op) {
  const OpDescriptor* form = SuffixedForm(op, "_mask");
  return form != nullptr && form->attr == AttrKind::kMaskPattern ? form : nullptr;
}

namespace {
// An operation other than pto_tmov and the matrix multiplies refuses the
// cube's tiles before its other rules (pto_c.h, "Cube tiles").
pto_status RefuseCubeTiles(const OpDescriptor& op, const Operands& o) {
  Validator v(op.c_function);
  v.OnVec("dst", o.dst);
  const pto_tile* sources[5] = {o.src0, o.src1, o.ext->src2, o.ext->src3, o.ext->src4};
  for (int i = 0; i < op.source_count; ++i) v.OnVec(op.source_names[i], sources[i]);
  if (op.tmp != TmpRole::kNone) v.OnVec("tmp", o.tmp);
  return v.status();
}

// op.run on operands its check accepted, dst's valid region not empty, under
// IEEE defaults where dst's dtype is a float type.
PTO_CHECK_INLINE inline pto_status RunAccepted(void (*run)(const Operands&, pto_profile),
                                               const Operands& o, pto_profile profile) {
  // (tcvt computes in float lanes when either dtype is a float type.)
  const FloatEnvironmentGuard float_env((o.dst != nullptr && IsFloatDtype(o.dst->dtype)) ||
                                        (o.src0 != nullptr && IsFloatDtype(o.src0->dtype)));
  run(o, profile);
  return PTO_OK;
}

// ---- the C functions' path ----------------------------------------------

// sizeof(T) bytes of a tile from `first` as one value: adjacent fields
// that the common call then compares in one instruction.
template <typename T>
inline T FieldsKey(const void* first) {
  T key;
  memcpy(&key, first, sizeof(key));
  return key;
}

// valid_rows and valid_cols: two regions compare in one instruction.
inline uint64_t ValidRegionKey(const pto_tile* t) {
  static_assert(offsetof(pto_tile, valid_cols) == offsetof(pto_tile, valid_rows) + 4,
                "valid_rows and valid_cols are adjacent");
  return FieldsKey<uint64_t>(&t->valid_rows);
}

// location and layout: 0 for a vec ND tile, as the common calls' tiles are.
inline uint16_t PlacementKey(const pto_tile* t) {
  static_assert(offsetof(pto_tile, layout) == offsetof(pto_tile, location) + 1,
                "location and layout are adjacent bytes");
  return FieldsKey<uint16_t>(&t->location);
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
      (PlacementKey(dst) | PlacementKey(src0) | PlacementKey(e)) != 0 ||
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
// families' rows and the Special rows with the CommonCall trait. Every other
// Special row has operands of other shapes or dtypes (a conversion, a pad, a
// transpose, offsets, indices, masks, its own lists): its check decides each
// of its calls.
constexpr bool HasFamilyRules(const OpDescriptor& op) {
  return op.family != Family::kSpecial || HasTrait(op, PTO_TRAIT_CommonCall);
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
         tmp->dtype == dtype &&
         (PlacementKey(dst) | PlacementKey(src0) | PlacementKey(src1) | PlacementKey(tmp)) == 0 &&
         ValidRegionKey(src0) == region &&
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
                                                       const pto_tile* src2,
                                                       const pto_tile* src3,
                                                       const pto_tile* src4, double* out,
                                                       const GlobalTable* table,
                                                       const uint32_t* words,
                                                       uint16_t* counts,
                                                       pto_tile* const* aux,
                                                       const void* config,
                                                       pto_profile profile) {
  constexpr const OpDescriptor& op = kOps[static_cast<size_t>(kId)];
  Operands o{dst, src0, src1, tmp, attr, scalar, sat, {index0, index1}};
  OperandsExt ext;
  ext.src2 = src2;
  ext.src3 = src3;
  ext.src4 = src4;
  ext.out = out;
  ext.table = *table;
  memcpy(ext.words, words, sizeof ext.words);
  ext.counts = counts;
  memcpy(ext.aux, aux, sizeof ext.aux);
  ext.config = config;
  o.ext = &ext;
  if constexpr (kId == OpId::kTMov) {
    // A move into or out of the cube's memories: the cube's rules.
    if (IsCubeMove(o)) {
      const pto_status status = CheckCubeMove(o, profile);
      if (status == PTO_OK && !IsEmptyRegion(dst)) RunCubeMove(o);
      return status;
    }
  }
  if constexpr (kId == OpId::kTExtract) {
    // A window of a mat tile into a left or right tile: the cube's rules.
    if (IsCubeMove(o)) {  // a cube tile on either side
      const pto_status status = CheckCubeExtract(o, profile);
      if (status == PTO_OK && !IsEmptyRegion(dst)) RunCubeExtract(o);
      return status;
    }
  }
  if constexpr (kId == OpId::kTInsert) {
    // A vec NZ or ZN tile into a mat or vec tile of its layout: A5's rules.
    if (IsFractalInsert(o)) {
      const pto_status status = CheckFractalInsert(o, profile);
      if (status == PTO_OK && !IsEmptyRegion(o.src0)) RunFractalInsert(o);
      return status;
    }
  }
  // (A Table row checks its tiles' placement in its own order, after the
  // NULL pointers the table's among them; so does a NullsFirst row.)
  if constexpr (!HasTrait(op, PTO_TRAIT_Cube) && !HasTrait(op, PTO_TRAIT_Table) &&
                !HasTrait(op, PTO_TRAIT_NullsFirst)) {
    const pto_status placed = RefuseCubeTiles(op, o);
    if (placed != PTO_OK) return placed;
  }
  const pto_status status = op.check(o, profile);
  if (status != PTO_OK) return status;
  // (A NoDst row's result is one value, whatever src's region.)
  if (!HasTrait(op, PTO_TRAIT_NoDst) && IsEmptyRegion(dst) && !WritesWholeDst(op)) {
    // An empty dst takes nothing from any source: a Counts argument's counts are 0.
    if (counts != nullptr) memset(counts, 0, kCounts * sizeof *counts);
    return status;
  }
  return RunAccepted(op.run, o, profile);
}

// Each row's run as its Run function is, without RunInRowOrder's test for
// sources on dst's rows: for the common call, whose tiles are owned (separate
// allocations), so that no source lies on dst's rows unless it is dst.
constexpr void (*kOwnedRuns[kOpCount])(const Operands&, pto_profile) = {
#define PTO_OPERATION(Camel, ...) Run##Camel,
#include "operations.def"
#undef PTO_OPERATION
};

// What every C function does with its operands: a common call goes straight
// to the kernels; any other call goes through CheckAndRun, the check under the
// calling thread's profile and then the kernels. Inlined into each C
// function, which then holds only the common call's compares and the kernel
// call (the full check stays out of line in the table).
template <OpId kId>
PTO_CHECK_INLINE inline pto_status Call(const Operands& o) {
  const pto_profile profile = CurrentProfile();
  if (PTO_UNLIKELY(!IsCommonCall<kId>(o, profile)))
    return CheckAndRun<kId>(o.dst, o.src0, o.src1, o.tmp, o.attr, o.scalar, o.sat, o.index[0],
                            o.index[1], o.ext->src2, o.ext->src3, o.ext->src4, o.ext->out,
                            &o.ext->table, o.ext->words, o.ext->counts, o.ext->aux,
                            o.ext->config, profile);
  return RunAccepted(kOwnedRuns[static_cast<size_t>(kId)], o, profile);
}

}  // namespace
}  // namespace ops
}  // namespace pto

using pto::ops::Call;
using pto::ops::Operands;

// The C functions, their parameters from each row's roles: dst (or a
// NoDst row's one source), the sources, tmp where the row has one (its Operands list:
// operation_operands.h), the attribute's arguments (its attributes.def row:
// before the sources where it leads).

// One attribute argument: its parameter, and its place in the Operands `o`
// (`second`: true where it follows an argument of the same role).
#define PTO_ARG_PARAM_None(type, name)
#define PTO_ARG_PARAM_Double(type, name) , type name
#define PTO_ARG_PARAM_Index(type, name) , type name
#define PTO_ARG_PARAM_Bool(type, name) , type name
#define PTO_ARG_PARAM_Enum(type, name) , type name
#define PTO_ARG_PARAM_Out(type, name) , type name
#define PTO_ARG_PARAM_Flags(type, name) , type name
#define PTO_ARG_PARAM_Word(type, name) , type name
#define PTO_ARG_PARAM_Counts(type, name) , type name
#define PTO_ARG_PARAM_Int(type, name) , type name
#define PTO_ARG_PARAM_Short(type, name) , type name
#define PTO_ARG_STORE_None(name, second)
#define PTO_ARG_STORE_Double(name, second) o.scalar = name;
#define PTO_ARG_STORE_Index(name, second) o.index[second] = name;
#define PTO_ARG_STORE_Bool(name, second) o.attr = name;
#define PTO_ARG_STORE_Enum(name, second) (second ? o.sat : o.attr) = pto::RawEnumValue(name);
#define PTO_ARG_STORE_Flags(name, second) o.attr = static_cast<int>(name);
#define PTO_ARG_STORE_Word(name, second) o.attr = static_cast<int>(name);
#define PTO_ARG_STORE_Out(name, second) ext_.out = name, uses_ext_ = true;
#define PTO_ARG_STORE_Counts(name, second) ext_.counts = name, uses_ext_ = true;
#define PTO_ARG_STORE_Int(name, second) o.sat = name;
#define PTO_ARG_STORE_Short(name, second) o.index[second] = name;
// A row of attributes.def as the parameters before the sources (LEAD), after
// tmp (TRAIL), and the statements that store them.
#define PTO_ATTR_LEAD(Kind, Leads, Values, Text, R0, T0, N0, B0, D0, E0, R1, T1, N1, B1, D1, E1) \
  PTO_ATTR_LEAD_##Leads(PTO_ARG_PARAM_##R0(T0, N0) PTO_ARG_PARAM_##R1(T1, N1))
#define PTO_ATTR_TRAIL(Kind, Leads, Values, Text, R0, T0, N0, B0, D0, E0, R1, T1, N1, B1, D1, E1) \
  PTO_ATTR_TRAIL_##Leads(PTO_ARG_PARAM_##R0(T0, N0) PTO_ARG_PARAM_##R1(T1, N1))
#define PTO_ATTR_STORE(Kind, Leads, Values, Text, R0, T0, N0, B0, D0, E0, R1, T1, N1, B1, D1, E1) \
  PTO_ARG_STORE_##R0(N0, 0)                                                                 \
  PTO_ARG_STORE_##R1(N1, (pto::ops::ArgRole::k##R0 == pto::ops::ArgRole::k##R1))
#define PTO_ATTR_LEAD_0(params)
#define PTO_ATTR_LEAD_1(params) params
#define PTO_ATTR_TRAIL_0(params) params
#define PTO_ATTR_TRAIL_1(params)

extern "C" {

#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, operand_list, Attr, ...)            \
  pto_status pto_##mnemonic(PTO_OPERANDS_HEAD_PARAM(operand_list)                      \
                                PTO_ATTRIBUTE_##Attr(PTO_ATTR_LEAD)                    \
                                    PTO_OPERANDS_PARAMS(operand_list)                  \
                                        PTO_ATTRIBUTE_##Attr(PTO_ATTR_TRAIL)) {        \
    Operands o{nullptr, nullptr, nullptr, nullptr, 0};                                 \
    pto::ops::OperandsExt ext_;                                                        \
    bool uses_ext_ = false;                                                            \
    PTO_OPERANDS_STORE(operand_list) PTO_ATTRIBUTE_##Attr(PTO_ATTR_STORE)              \
    if (uses_ext_) o.ext = &ext_;                                                      \
    return Call<pto::ops::OpId::k##Camel>(o);                                          \
  }
#include "operations.def"
#undef PTO_OPERATION

}  // extern "C"
