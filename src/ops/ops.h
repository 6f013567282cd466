// The one table of operations. Each instruction is described once: its
// mnemonic, its operands' roles, its attribute, the C function whose rules it
// follows, and two entry points — a check that applies every rule of that C
// function under a given profile, and a run that computes on operands the
// check accepted. The C functions (table.cc), the program verifier and
// executor (program/), the tests' and the fuzzer's operation lists read this
// table; the rows' checks and runs are the other files of src/ops/.
#ifndef PTO_OPS_OPS_H_
#define PTO_OPS_OPS_H_

#include <stddef.h>
#include <stdint.h>

#include "dtype_rules.h"
#include "pto_c.h"

namespace pto {
namespace ops {

// The operands of one call. Unused roles are NULL; `attr` is the enum
// argument (pto_pow_algorithm for tpow), 0 where the operation has none;
// `scalar` the Scalar family's scalar as the caller gave it (0 elsewhere);
// `sat` the Conversion attribute's second argument (pto_saturation), with
// `attr` its pto_round_mode; `index` the offsets of an Offsets row
// (textract's index_row, index_col) or an IndexScalar row (tsetval's index,
// with `scalar` its value). `contents_known` is false where the operands'
// values cannot be read (the program verifier's stand-in tiles, index
// scalars known only at run time): the checks then leave out the rules on
// values (tgather's indices, the offsets' ranges), which a later check with
// the values decides.
struct Operands {
  pto_tile* dst;
  const pto_tile* src0;
  const pto_tile* src1;
  pto_tile* tmp;
  int attr;
  double scalar = 0;
  int sat = 0;
  size_t index[2] = {0, 0};
  bool contents_known = true;
};

enum class OpId : uint8_t {
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) k##Camel,
#include "operations.def"
#undef PTO_OPERATION
};
constexpr size_t kOpCount = 0
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) +1
#include "operations.def"
#undef PTO_OPERATION
    ;

// Where an operation's check and run come from (operations.def's Family).
enum class Family : uint8_t {
  kSpecial,  // written by hand: arithmetic.cc, tcvt.cc, datamove.cc, element_access.cc, compare.cc
  kBinary,   // elementwise dst = f(src0, src1): the family's rules and kernels
  kUnary,    // elementwise dst = f(src): the family's rules and kernels
  kScalar,   // elementwise dst = f(src, scalar): the family's rules and kernels
  kFill,     // dst = scalar over dst's valid region (no source): a Scalar kernel
  kRowReduce,  // dst(i,0) = reduction of src's valid row i (src's region the domain)
  kColReduce,  // dst(0,j) = reduction of src's valid column j (src's region the domain)
  kRowExpand,  // dst = f(src0, src1), one source per row (or the broadcast alone)
  kColExpand,  // dst = f(src0, src1), one source per column (or the broadcast alone)
};

// How the C function treats tmp.
enum class TmpRole : uint8_t {
  kNone,      // no tmp operand
  kOptional,  // may be NULL (a profile may require it)
  kRequired,  // must be given
};

// The attribute an operation takes in PTO assembly, and so its enum argument.
enum class AttrKind : uint8_t {
  kNone,
  kPowPrecision,  // #pto<pow_precision default|high_precision> -> pto_pow_algorithm
  kDivPrecision,  // #pto<div_precision ...>: division is always correctly rounded
  kScalar,        // a `double scalar` argument: the Scalar family's operand
  kScalarFirst,   // the same, before the sources (scalar / src): dst, scalar, src
  kBinaryOrder,   // an `int binary_order` argument, 0 or 1: {isBinary = false|true}
  kConversion,    // rmode = #pto<round_mode ...> -> pto_round_mode, and
                  // sat_mode = #pto<saturation_mode ...> -> pto_saturation
  kPadValue,      // a pto_pad_value: dst's tile_buf pad= in text
  kScalarDescending,  // a `double start` (the scalar) and an `int descending` (0 or 1,
                      // {descending = false|true} in text): tci
  kScalarPowPrecision,  // a `double exp` (the scalar) and a pto_pow_algorithm: tpows
  kCmpMode,             // a pto_cmp_mode: tcmp
  kScalarCmpMode,       // a `double scalar` and a pto_cmp_mode: tcmps
  kOffsets,             // a `size_t index_row` and a `size_t index_col`: textract
  kIndexScalar,         // a `size_t index` and a `double value` (the scalar): tsetval
};

// How many size_t offsets the row takes (Operands::index), each an SSA index
// scalar in text.
constexpr int IndexCount(AttrKind kind) {
  return kind == AttrKind::kOffsets ? 2 : kind == AttrKind::kIndexScalar ? 1 : 0;
}

// Whether the row takes a `double scalar` (Operands::scalar).
constexpr bool TakesScalar(AttrKind kind) {
  return kind == AttrKind::kScalar || kind == AttrKind::kScalarFirst ||
         kind == AttrKind::kScalarDescending || kind == AttrKind::kScalarPowPrecision ||
         kind == AttrKind::kScalarCmpMode || kind == AttrKind::kIndexScalar;
}

// How many values the attribute's enum argument takes (0: no argument).
// (kConversion: the round mode's; its saturation takes 2.)
constexpr int AttrValueCount(AttrKind kind) {
  return kind == AttrKind::kPowPrecision || kind == AttrKind::kBinaryOrder ||
                 kind == AttrKind::kScalarDescending || kind == AttrKind::kScalarPowPrecision
             ? 2
         : kind == AttrKind::kConversion                                   ? 7
         : kind == AttrKind::kPadValue                                     ? 4
         : kind == AttrKind::kCmpMode || kind == AttrKind::kScalarCmpMode  ? 6
                                                                           : 0;
}

struct OpDescriptor {
  OpId id;
  Family family;
  const char* mnemonic;    // "tpow": PTO assembly spells it `tpow` or `pto.tpow`
  const char* c_function;  // "pto_tpow": names every refusal
  const char* summary;     // operations.def's one line
  uint8_t source_count;    // 0, 1 or 2
  const char* source_names[2];
  TmpRole tmp;
  AttrKind attr;
  int attr_count;  // values of the enum argument (0..attr_count-1); 0 without one
  // Every rule of the C function under `profile`, in its order; records the
  // C function's sentence on failure. Reads no profile of its own.
  pto_status (*check)(const Operands& o, pto_profile profile);
  // Computes over dst's valid region (WritesWholeDst: its rows x cols); only
  // for operands `check` accepted under the same profile, with a non-empty
  // dst valid region (unless WritesWholeDst), inside a
  // FloatEnvironmentGuard where dst's dtype is a float type.
  void (*run)(const Operands& o, pto_profile profile);
};

extern const OpDescriptor kOps[kOpCount];

inline const OpDescriptor& Descriptor(OpId id) { return kOps[static_cast<size_t>(id)]; }

// A program instruction keeps its attribute in one int; a kConversion one
// packs the mode in the low byte and the saturation in the next.
inline int AttrOf(const OpDescriptor& op, int packed) {
  return op.attr == AttrKind::kConversion ? packed & 0xFF : packed;
}
inline int SaturationOf(const OpDescriptor& op, int packed) {
  return op.attr == AttrKind::kConversion ? packed >> 8 : 0;
}

// Whether run writes dst's whole rows x cols rather than its valid region
// (tfillpad's padding, treshape's bytes), and so runs whatever dst's valid
// region.
inline bool WritesWholeDst(const OpDescriptor& op) {
  return op.attr == AttrKind::kPadValue || op.id == OpId::kTreshape;
}

// Writes pad (a pto_pad_value, as an element value of t's dtype: zero,
// +/-inf for float dtypes, the dtype's largest or smallest integer, as
// pto-isa's PadValueMap) into t's first rows x cols elements outside its
// top-left valid_rows x valid_cols: to the right of them in those rows, and
// every column of the rows below (tfillpad's padding, a tload's pad=).
void FillPad(pto_tile* t, uint32_t valid_rows, uint32_t valid_cols, uint32_t rows, uint32_t cols,
             int pad);

// The operation whose mnemonic is `name` (name_length bytes); NULL if none.
// A ScalarFirst row is not found by its own mnemonic: text spells it as its
// twin's (ScalarFirstForm).
const OpDescriptor* FindOp(const char* name, size_t name_length);

// The ScalarFirst row whose text is `op`'s with the scalar first
// (tdivs_scalar_by_tile for tdivs); NULL if none.
const OpDescriptor* ScalarFirstForm(const OpDescriptor& op);

// tsel's rules and run (three sources: not a row; pto_tsel and programs call
// these; compare.cc).
pto_status CheckTsel(pto_tile* dst, const pto_tile* mask, const pto_tile* src0,
                     const pto_tile* src1, const pto_tile* tmp, pto_profile profile);
void RunTsel(pto_tile* dst, const pto_tile* mask, const pto_tile* src0, const pto_tile* src1);
// The bytes of a mask row for `cols` compared columns: ceil(cols / 8).
inline uint32_t MaskBytes(uint32_t cols) { return cols / 8 + (cols % 8 != 0); }

// pto_tgetval's rules (src not NULL, out not NULL unless `out_given` is
// false, the index addressing a valid element when `index_known`) and its
// read: the element's value as a double (exact for every dtype;
// element_access.cc).
pto_status CheckTgetval(const pto_tile* src, size_t index, bool out_given, bool index_known,
                        pto_profile profile);
double ElementValue(const pto_tile* t, size_t index);

}  // namespace ops
}  // namespace pto

#endif  // PTO_OPS_OPS_H_
