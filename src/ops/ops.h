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

#include "attributes.def"
#include "dtype_rules.h"
#include "operation_traits.h"
#include "pto_c.h"
#include "tile.h"

namespace pto {
namespace ops {

// A table in the caller's memory (a Table or TableDst operand: mgather's,
// mscatter's): table_elements elements of table_dtype from data.
struct GlobalTable {
  void* data;
  size_t elements;
  // table_dtype as the caller passed it: any int (RawEnumValue), so that a
  // value outside the enum is compared and quoted, never loaded as one.
  int dtype;
  // What an index past the table does: the C functions' kOobRefuse, or a
  // program's gatherOob / scatterOob mode (the pages' GatherOOB and
  // ScatterOOB: the index clamped to the last, taken modulo the capacity,
  // or the element zeroed (gather) / not written (scatter)).
  int oob = kOobRefuse;
  static constexpr int kOobRefuse = 0, kOobClamp = 1, kOobWrap = 2, kOobZeroOrSkip = 3;
};

// The operands only some rows take, apart from Operands so that a call of
// a row without them clears none of them (a 1x1 call's fixed cost: every C
// function builds its Operands on its stack): Operands::ext points at a
// block of them, the shared empty one (kNoOperandsExt) where the caller
// sets none.
struct OperandsExt {
  const pto_tile* src2 = nullptr;  // a third source (tmatmul_bias's bias)
  const pto_tile* src3 = nullptr;  // a fourth (tconcatidx's src1_idx)
  const pto_tile* src4 = nullptr;  // a fifth (tmatmul_mx_bias's bias)
  double* out = nullptr;  // a row's scalar result (tgetval's value; its NoDst trait)
  GlobalTable table = {nullptr, 0, 0};  // a Table or TableDst operand (mgather's, mscatter's)
  uint32_t words[6] = {};  // Words2 / Words4 operands' words in order (trandom's key, counter)
  uint16_t* counts = nullptr;  // a Counts argument: kCounts counts, one per list (tmrgsort_lists)
  pto_tile* aux[3] = {};  // Aux / OptionalAux operands in order (tquant_hif4's exp, max, scaling)
  const void* config = nullptr;  // a Config operand: its struct (timg2col's pto_img2col_config)
  // A program's options its row's C function has not, from the text (0 from
  // the C functions): tquant_mx's interleave = true, 1 (ops::MxQuant).
  int text_flags = 0;
  // A program's sources' (src0 .. src3, a program's four source slots) and
  // tmp's cols as their types declare them (a subview's window, where the
  // tile's cols are its parent's row pitch); 0, as from the C functions: the
  // tiles' own (tmrgsort_lists's A5 rule).
  uint32_t declared_cols[4] = {};
  uint32_t declared_tmp_cols = 0;
};
inline constexpr OperandsExt kNoOperandsExt{};

// The operands of one call. Unused roles are NULL; `attr` is the enum
// argument (pto_pow_algorithm for tpow), 0 where the operation has none;
// `scalar` the Scalar family's scalar as the caller gave it (0 elsewhere);
// `sat` the Conversion attribute's second argument (pto_saturation), with
// `attr` its pto_round_mode, or an Int argument after an Enum (tquant_mx's
// group_axis); `index` the offsets of an Offsets row
// (textract's index_row, index_col) or an IndexScalar row (tsetval's index,
// with `scalar` its value). `contents_known` is false where the operands'
// values cannot be read (the program verifier's stand-in tiles, index
// scalars known only at run time): the checks then leave out the rules on
// values (tgather's indices, the offsets' ranges), which a later check with
// the values decides. `cube_placements_checked` is true where the caller
// has judged the cube operands' locations and layouts by rules of its own
// (a program's verifier, which takes a left tile in either of its
// encodings, ZZ or NZ, under every profile, as pto-isa's CPU model does):
// the matrix multiplies then leave theirs out.
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
  bool cube_placements_checked = false;
  const OperandsExt* ext = &kNoOperandsExt;  // the further operands (OperandsExt)
};
// Every C function clears one on its stack (GCC with 16-byte vector stores,
// src/meson.build's call-path flags); its OperandsExt only where its row
// takes one of those operands.
static_assert(sizeof(Operands) <= 96, "ops::Operands outgrew a few stores");

// How many counts a Counts argument holds (tmrgsort_lists's executed[4]).
constexpr int kCounts = 4;

// Operands' k-th source slot (src0 .. src4), where the C functions store
// their sources in order: src0 and src1 in o, the others in ext.
constexpr const pto_tile** SourceSlot(Operands* o, OperandsExt* ext, int k) {
  return k == 0   ? &o->src0
         : k == 1 ? &o->src1
         : k == 2 ? &ext->src2
         : k == 3 ? &ext->src3
                  : &ext->src4;
}

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

// The attribute an operation takes (src/attributes.def: one row per kind):
// its C arguments after the tiles and its spelling in PTO assembly.
enum class AttrKind : uint8_t {
#define PTO_ATTRIBUTE_KIND(Kind) k##Kind,
  PTO_ATTRIBUTE_KINDS(PTO_ATTRIBUTE_KIND)
#undef PTO_ATTRIBUTE_KIND
};

// What an attribute argument is (attributes.def's Role): where the C
// function puts it in the Operands.
enum class ArgRole : uint8_t {
  kNone,    // no argument
  kDouble,  // Operands::scalar
  kIndex,   // Operands::index, in order
  kBool,    // Operands::attr, 0 or 1
  kEnum,    // Operands::attr; a second enum Operands::sat
  kOut,     // OperandsExt::out: where the result goes (tgetval's value)
  kFlags,   // Operands::attr: option bits (an unsigned, its bits kept)
  kWord,    // Operands::attr: a uint32_t's bits (trandom's rounds)
  kCounts,  // OperandsExt::counts: kCounts counts written (tmrgsort_lists's executed)
  kInt,     // Operands::sat: an int after an Enum (tquant_mx's group_axis)
  kShort,   // Operands::index, in order: a uint16_t (timg2col's pos_m, pos_k)
};

// How PTO assembly spells an attribute (attributes.def's Text): which parser
// of src/program/parse/tile_attributes.cc reads it.
enum class TextAttr : uint8_t {
  kNone,          // no attribute in text
  kDivPrecision,  // {precisionType = #pto<div_precision ...>}
  kAnyPrecision,  // {precisionType = #pto<... default|high_precision>}
  kPowPrecision,  // {precisionType = #pto<pow_precision ...>}
  kBinaryOrder,   // {isBinary = false|true}, or bare after outs(...)
  kConversion,    // {rmode = #pto<round_mode ...>, sat_mode = #pto<saturation_mode ...>}
  kPadOfDst,      // no attribute: dst's tile_buf pad=
  kDescending,    // {descending = false|true}
  kCmpMode,       // {cmpMode = #pto<cmp ...>} or #pto.cmp<...>
  kMaskPattern,   // {maskPattern = #pto.mask_pattern<P0101>}, tgather's one-source form
  kUpperOrLower,  // {upperOrLower = 0|1 : i32}, ttri's triangle
  kHistByte,      // {byte = 0..3 : i32}, thistogram's byte (default 1)
  kGlobalModes,   // {coalesce = #pto<coalesce row|elem>, gatherOob / scatterOob = ...,
                  // scatterAtomicOp = ..., scatterConflict = ...}: mgather's, mscatter's
  kRounds,        // {rounds = 7|10 : i32}, trandom's (default 10)
  kMxQuant,       // {quant_type = #pto<quant_type MXFP8|MXFP4_E2M1>, quantScaleAlg = ...,
                  // grpAxis = ..., interleave = ...}: tquant.mx's (quant_type required)
  kQuantType,     // {quant_type = #pto<quant_type INT8_SYM|INT8_ASYM>}: tquant's (required;
                  // 0 SYM, 1 ASYM)
  kListCounts,    // {exhausted = true|false}: tmrgsort's lists' (default false)
};

// One row of attributes.def, as the table reads it.
struct Attribute {
  bool leads;      // its arguments come before the sources
  uint8_t values;  // values of its first Enum or Bool argument; 0 without one
  TextAttr text;
  ArgRole roles[2];
};

#define PTO_ATTRIBUTE_ROW(Kind, Leads, Values, Text, R0, T0, N0, B0, D0, E0, R1, T1, N1, B1, D1, \
                          E1)                                                                   \
  Attribute{Leads != 0, Values, TextAttr::k##Text, {ArgRole::k##R0, ArgRole::k##R1}},
#define PTO_ATTRIBUTE_KIND(Kind) PTO_ATTRIBUTE_##Kind(PTO_ATTRIBUTE_ROW)
constexpr Attribute kAttributes[] = {PTO_ATTRIBUTE_KINDS(PTO_ATTRIBUTE_KIND)};
#undef PTO_ATTRIBUTE_KIND
#undef PTO_ATTRIBUTE_ROW

constexpr const Attribute& AttributeOf(AttrKind kind) {
  return kAttributes[static_cast<size_t>(kind)];
}

constexpr int RoleCount(AttrKind kind, ArgRole role) {
  return (AttributeOf(kind).roles[0] == role) + (AttributeOf(kind).roles[1] == role);
}

// How many size_t offsets the row takes (Operands::index), each an SSA index
// scalar in text.
constexpr int IndexCount(AttrKind kind) { return RoleCount(kind, ArgRole::kIndex); }

// Whether the row takes a `double` (Operands::scalar).
constexpr bool TakesScalar(AttrKind kind) { return RoleCount(kind, ArgRole::kDouble) != 0; }

// How many values the attribute's enum argument takes (0: no argument).
// (kConversion: the round mode's; its saturation takes 2.)
constexpr int AttrValueCount(AttrKind kind) { return AttributeOf(kind).values; }

// Whether the row's attribute arguments come before its sources (the
// scalar / src forms).
constexpr bool AttrLeads(AttrKind kind) { return AttributeOf(kind).leads; }

// Whether the attribute is two enums: the program keeps both in one int.
constexpr bool TwoEnums(AttrKind kind) { return RoleCount(kind, ArgRole::kEnum) == 2; }

// A row's operands as its PTO assembly text declares them, for the rules
// PTOAS's verifier adds to the C function's (the TextRules trait): each
// tile's type, rows x cols (not its valid region) and dtype.
struct TextTile {
  uint32_t rows, cols;
  pto_dtype dtype;
  bool row_major = true;  // blayout row_major (a col_major type is not, one column or not)
};
struct TextOperands {
  TextTile dst;
  TextTile sources[3];  // source_count of them
  bool tmp_given;       // the text names a tmp
  TextTile tmp;         // its type, where tmp_given
  bool dps_form;        // PTOAS's ins(...) outs(...) form
  bool high_precision;  // that form's precisionType is high_precision
  pto_profile profile;
  int attr;              // the attribute as the text gives it (tquant's quant_type: 1 INT8_ASYM)
  uint8_t sources_given;  // the sources the text names (OptionalSrc ones may be left out)
};
// Writes the sentence of the first text rule that fails into `sentence` and
// returns false; true when all hold.
using TextRules = bool (*)(const TextOperands& o, char* sentence, size_t size);

struct OpDescriptor {
  OpId id;
  Family family;
  const char* mnemonic;    // "tpow": PTO assembly spells it `tpow` or `pto.tpow`
  const char* c_function;  // "pto_tpow": names every refusal
  const char* summary;     // operations.def's one line
  uint8_t source_count;    // 0 to 5
  const char* source_names[5];
  TmpRole tmp;
  AttrKind attr;
  int attr_count;  // values of the enum argument (0..attr_count-1); 0 without one
  uint32_t traits;  // operations.def's Traits: PTO_TRAIT_* flags
  TextRules text_rules;  // TextRules<Camel> for a TextRules row, else null
  // Every rule of the C function under `profile`, in its order; records the
  // C function's sentence on failure. Reads no profile of its own.
  pto_status (*check)(const Operands& o, pto_profile profile);
  // Computes over dst's valid region (WritesWholeDst: its rows x cols); only
  // for operands `check` accepted under the same profile, with a non-empty
  // dst valid region (unless WritesWholeDst), inside a
  // FloatEnvironmentGuard where dst's dtype is a float type.
  void (*run)(const Operands& o, pto_profile profile);
  // A Table operand's position among the operands (dst 0; 0 for none, a
  // TableDst being in dst's place): PTO_OPERANDS_TABLE_POSITION. A program's
  // ins( ) gives the table there among the sources.
  uint8_t table_position = 0;
  // The names of its Words2 / Words4 operands' words, in OperandsExt::words'
  // order, null past the last (trandom's key0, key1, counter0 ...). A
  // program's ins( ) gives them, 32-bit integer values, after the sources.
  const char* word_names[6] = {};
  // The names of its Aux / OptionalAux operands, in OperandsExt::aux's order,
  // null past the last (tquant_mx's exp, max, scaling). A program's outs( )
  // gives them after dst.
  const char* aux_names[3] = {};
  // How many of its last sources are OptionalSrc (NULL allowed): a
  // program's ins( ) may leave them out (tquant's offset).
  uint8_t optional_sources = 0;
};

// How many words the row reads (OperandsExt::words).
constexpr int WordCount(const OpDescriptor& op) {
  int n = 0;
  while (n < 6 && op.word_names[n] != nullptr) ++n;
  return n;
}

// How many Aux / OptionalAux operands the row writes (OperandsExt::aux).
constexpr int AuxCount(const OpDescriptor& op) {
  int n = 0;
  while (n < 3 && op.aux_names[n] != nullptr) ++n;
  return n;
}

extern const OpDescriptor kOps[kOpCount];

inline const OpDescriptor& Descriptor(OpId id) { return kOps[static_cast<size_t>(id)]; }

// A program instruction keeps its attribute in one int; a two-enum one
// (tcvt's) packs the first in the low byte and the second in the next, as
// tgather_cmp's text form packs its mode and 1 (one scalar threshold for
// every row, Operands::sat 1, where the C function takes a k_value tile),
// and as mgather's and mscatter's pack their coalesce and the pages' modes
// (Operands::sat: GlobalTable::oob in bits 0-3, a scatter's
// pto_scatter_atomic in bits 4-7; 0, the C functions', none), and as
// tquant.mx's packs its alg, its group axis and, from bit 16, the options
// its C function has not (OperandsExt::text_flags: interleave).
inline bool PacksSecondByte(AttrKind kind) {
  return TwoEnums(kind) || kind == AttrKind::kCmpOffset || kind == AttrKind::kCoalesce ||
         kind == AttrKind::kMxQuant;
}
inline int AttrOf(const OpDescriptor& op, int packed) {
  return PacksSecondByte(op.attr) ? packed & 0xFF : packed;
}
inline int SaturationOf(const OpDescriptor& op, int packed) {
  return PacksSecondByte(op.attr) ? (packed >> 8) & 0xFF : 0;
}
inline int TextFlagsOf(const OpDescriptor& op, int packed) {
  return PacksSecondByte(op.attr) ? packed >> 16 : 0;
}
// Whether a program's instruction takes a scalar: its row's attribute does,
// or it is tgather_cmp's text form (its threshold).
inline bool TakesScalarAtRun(const OpDescriptor& op, int packed) {
  return TakesScalar(op.attr) || (op.attr == AttrKind::kCmpOffset && SaturationOf(op, packed) != 0);
}

// Whether run writes dst's whole rows x cols rather than its valid region
// (tfillpad's padding, treshape's bytes), and so runs whatever dst's valid
// region.
constexpr bool HasTrait(const OpDescriptor& op, uint32_t trait) { return (op.traits & trait) != 0; }

inline bool WritesWholeDst(const OpDescriptor& op) { return HasTrait(op, PTO_TRAIT_WholeDst); }

// Writes pad (a pto_pad_value, as an element value of t's dtype: zero,
// +/-inf for float dtypes, the dtype's largest or smallest integer, as
// pto-isa's PadValueMap) into t's first rows x cols elements outside its
// top-left valid_rows x valid_cols: to the right of them in those rows, and
// every column of the rows below (tfillpad's padding, a tload's pad=).
void FillPad(pto_tile* t, uint32_t valid_rows, uint32_t valid_cols, uint32_t rows, uint32_t cols,
             int pad);

// n FLOAT32 values written at dst as FLOAT16 or BFLOAT16 (dtype), each
// rounded to nearest even as tcvt's RINT rounds: the fixpipe's cast of a
// program's pto.tstore from an acc tile (tcvt.cc).
void RoundFromF32(pto_dtype dtype, size_t n, void* dst, const float* src);

// The operation whose mnemonic is `name` (name_length bytes); NULL if none.
// A ScalarFirst row is not found by its own mnemonic: text spells it as its
// twin's (ScalarFirstForm); nor is a MaskPattern row (MaskPatternForm) or
// a ListCounts one (ListsForm).
const OpDescriptor* FindOp(const char* name, size_t name_length);

// The ScalarFirst row whose text is `op`'s with the scalar first
// (tdivs_scalar_by_tile for tdivs); NULL if none.
const OpDescriptor* ScalarFirstForm(const OpDescriptor& op);

// The row whose text is `op`'s with one source (tdeinterleave_single for
// tdeinterleave); NULL if none.
const OpDescriptor* SingleSourceForm(const OpDescriptor& op);

// The MaskPattern row whose text is `op`'s with one source and a
// maskPattern attribute (tgather_mask for tgather); NULL if none.
const OpDescriptor* MaskPatternForm(const OpDescriptor& op);

// The Fixpipe row whose text is `op`'s with an fp operand (tmov_fp for
// tmov, textract_fp for textract); NULL if none.
const OpDescriptor* FixpipeForm(const OpDescriptor& op);

// The CmpOffset row whose text is `op`'s with a scalar threshold
// (tgather_cmp for tgather); NULL if none.
const OpDescriptor* CompareForm(const OpDescriptor& op);

// The ListCounts row whose text is `op`'s with several lists and their
// counts (tmrgsort_lists for tmrgsort); NULL if none.
const OpDescriptor* ListsForm(const OpDescriptor& op);

// The row whose mnemonic programs spell for `op`: the row op is the
// ListsForm of (tmrgsort for tmrgsort_lists), else op.
const OpDescriptor& TextRow(const OpDescriptor& op);

// Whether the valid regions of dst and of sources with dst's valid region
// are each valid_rows * valid_cols consecutive elements from the tile's
// data: every tile's rows are exactly its valid columns. The elementwise
// kernels then take the region as one row (kernels.h).
inline bool Contiguous(const pto_tile* dst, const pto_tile* a, const pto_tile* b) {
  const uint32_t cols = dst->valid_cols;
  return dst->cols == cols && a->cols == cols && b->cols == cols;
}

// Whether a source shares storage with dst otherwise than exactly: the
// overlaps of the row order (overlap.h, RowOrderOf) that a row-order
// instruction's check allows, which its run then takes one row at a time.
bool SharesRowsWithDst(const Operands& o);

// The kernel a Binary or Unary row's run calls on Contiguous operands, the
// region as one row of n elements (a Unary row's source given as a and b);
// null for every other row. For callers that resolve it once (a program's
// plain operations).
using ContiguousKernel = void (*)(pto_dtype dtype, size_t n, void* dst, const void* a,
                                  const void* b);
ContiguousKernel ContiguousKernelOf(const OpDescriptor& op);

// The bytes of a mask row for `cols` compared columns: ceil(cols / 8).
inline uint32_t MaskBytes(uint32_t cols) { return cols / 8 + (cols % 8 != 0); }

// pto_tgetval's rules (src not NULL, out not NULL unless `out_given` is
// false, the index addressing a valid element when `index_known`) and its
// read: the element's value as a double (exact for every dtype;
// element_access.cc).
pto_status CheckTgetval(const pto_tile* src, size_t index, bool out_given, bool index_known,
                        pto_profile profile);
double ElementValue(const pto_tile* t, size_t index);

// TQUANT's MX forms: their operands, rules and run (quant.cc), the row
// tquant_mx's (exp, max and scaling its Aux operands; a program's
// pto.tquant.mx is that row, its interleave in OperandsExt::text_flags).
struct MxQuant {
  pto_tile* dst;
  const pto_tile* src;
  pto_tile* exp;
  pto_tile* max;      // NULL: not written
  pto_tile* scaling;  // NULL: not written
  int alg;            // a pto_mx_alg
  int group_axis;     // 1 ND (blocks along a row), 0 DN (along a column)
  // DN's exponents interleaved (PTOAS's interleave = true; programs only):
  // exp is [M/64, 2N], exp(p, 2c + d) the exponent of block row 2p + d,
  // column c (pto-isa's tquant_dn ST: [hat_m / 2, n, 2]).
  bool interleave = false;
};
pto_status CheckTQuantMx(const MxQuant& q, pto_profile profile);
void RunTQuantMx(const MxQuant& q);
// MGATHER's and MSCATTER's rules and copies with the modes of a program's
// pto.mgather / pto.mscatter and of pto_mgather_oob and pto_mscatter_ex
// (global_gather.cc; the rows mgather and mscatter are these without
// modes). The C arguments pto_mgather_oob and pto_mscatter_ex add: the oob and
// atomic enums as passed (checked in range; table.oob holds the oob mode
// they name), and the function the sentences name (NULL: pto_mgather's or
// pto_mscatter's).
struct GlobalModes {
  const char* function = nullptr;
  int oob = 0;
  int atomic = PTO_SCATTER_ATOMIC_NONE;
};
pto_status CheckGlobalGather(const pto_tile* dst, const GlobalTable& table, const pto_tile* indices,
                             int coalesce, pto_profile profile, const GlobalModes& modes = {});
void RunGlobalGather(pto_tile* dst, const GlobalTable& table, const pto_tile* indices, int coalesce);
pto_status CheckGlobalScatter(const GlobalTable& table, const pto_tile* src, const pto_tile* indices,
                              int coalesce, pto_profile profile, const GlobalModes& modes = {});
// atomic: a pto_scatter_atomic (NONE: a plain store, the last writer wins).
void RunGlobalScatter(const GlobalTable& table, const pto_tile* src, const pto_tile* indices,
                      int coalesce, int atomic = PTO_SCATTER_ATOMIC_NONE);

// TMRGSORT's multi-list form: its operands, rules and merge (sort.cc), the
// row tmrgsort_lists's (its counts a Counts argument; a program's multi-list
// pto.tmrgsort is that row). sources[2] and sources[3] NULL for fewer lists.
struct MrgSortLists {
  pto_tile* dst;
  const pto_tile* sources[4];
  const pto_tile* tmp;
  bool exhausted;
  // The cols of each source's and of tmp's type, which A5's tmp rule counts
  // (a program's subview: its window's, where the tile's cols are its
  // parent's row pitch); 0: the tile's own cols (a tile of pto_tile_create*).
  uint32_t type_cols[4] = {0, 0, 0, 0};
  uint32_t tmp_type_cols = 0;
};
pto_status CheckTMrgSortLists(const MrgSortLists& o, pto_profile profile);
// Merges; `executed` (may be NULL) receives the pairs taken from each list.
void RunTMrgSortLists(const MrgSortLists& o, uint16_t* executed);

}  // namespace ops
}  // namespace pto

#endif  // PTO_OPS_OPS_H_
