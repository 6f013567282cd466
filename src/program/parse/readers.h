// The readers of PTO assembly's dialects: each reads its dialect's
// operations with the parse core (parser.h), owns that dialect's state, and
// emits the program's instructions as it goes. dispatch.cc hands each
// operation to its reader by name.
#ifndef PTO_PROGRAM_PARSE_READERS_H_
#define PTO_PROGRAM_PARSE_READERS_H_

#include <stdint.h>
#include <stdlib.h>

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ops/ops.h"
#include "program/ir/program.h"
#include "program/ir/types.h"
#include "program/parse/parser.h"
#include "pto_c.h"

namespace pto {
namespace program {

// What every reader holds: the parse core it reads with and the program it
// emits into.
class Reader {
 protected:
  explicit Reader(Parser& parser) : parser_(parser), p_(parser.program()) {}
  const Token& tok() const { return parser_.tok(); }

  Parser& parser_;
  Program* const p_;
};

// The file, the module and its func.func structure, directives, and calls
// (module_reader.cc, module_functions.cc).
class ModuleReader : public Reader {
 public:
  // Calls are read in place: a program larger than this is refused.
  static constexpr size_t kMaxInstructions = size_t{1} << 20;

  // entry: the function to run (empty: chosen by the module's attributes);
  // check_only: the function is read to be checked, never run.
  ModuleReader(Parser& parser, std::string_view entry, bool check_only)
      : Reader(parser), entry_(entry), check_only_(check_only) {}

  void ParseFile();
  void ParseCall(const Token& op, const std::vector<Token>& results);
  // The module's functions, as the first pass reads them.
  const std::vector<FuncInfo>& functions() const { return funcs_; }

 private:
  void ParseAlias();
  bool SetTarget(const AttrEntry& e);
  void ParseModule();
  void ParseFuncSignature();
  bool ParseCallTypes(std::vector<Type>* types, std::vector<Type>* result_types);
  bool ParseFuncAttributes(FuncInfo* f);
  bool ChooseEntry(const FuncInfo** entry);
  void CompileEntry(const FuncInfo& f);
  // Whether two functions take the same arguments (the launch's identity aside).
  bool SameArguments(const FuncInfo& a, const FuncInfo& b) const;
  bool MixedPair(const FuncInfo** cube, const FuncInfo** vector) const;
  void CompileVectorPeer(const FuncInfo& f, const std::vector<Value>& args);
  bool BindParam(const Token& name, const Type& t, SourceLoc type_loc);
  bool ParseBody(const FuncInfo& f, std::vector<Value>* returned);
  void ParseDirective();

  std::string entry_;
  bool check_only_ = false;
  std::vector<FuncInfo> funcs_;
  // A module of one cube and one vector kernel and no entry mark: the
  // vector one, run with the cube one (the entry) as its block's cores.
  const FuncInfo* vector_peer_ = nullptr;
  std::vector<std::string> call_stack_;  // functions being read, entry first
};

// The innermost region's terminator: scf.yield's or scf.condition's values.
struct Yield {
  bool seen = false;
  bool is_condition = false;
  SourceLoc loc;
  Value condition;
  std::vector<Value> values;
};

// Constants, integer and float arithmetic, scf control flow, block queries
// and local arrays (scalar_reader.cc, scalar_control.cc).
class ScalarReader : public Reader {
 public:
  explicit ScalarReader(Parser& parser) : Reader(parser) {}

  void ParseConstantValue(const Token& result);
  void ParseArith(const Token& op, const Token& result);
  void ParseUnrealizedCast(const Token& result);
  void ParseBlockQuery(const Token& op, const Token& result);
  void ParseDeclareLocalArray(const Token& op, const std::vector<Token>& results);
  void ParseLocalArrayAccess(const Token& op, const std::vector<Token>& results);
  void EmitArrayAccess(const SourceLoc& loc, bool get, const Value& array,
                       const std::vector<Token>& index_names, const Value& value, const Type& elem,
                       const std::vector<Token>& results);
  void ParseFor(const Token& op, const std::vector<Token>& results);
  void ParseIf(const Token& op, const std::vector<Token>& results);
  void ParseWhile(const Token& op, const std::vector<Token>& results);
  void ParseYield(const Token& op);
  void EmitIntResult(Instr in, const Type& type, const Token& result);
  void EmitFloatResult(Instr in, const Type& type, const Token& result);
  // `{ operations }`, its terminator (if any) left in the pending one.
  void ParseRegion();
  // A region without a terminator (a pto.section.*'s, named what): false
  // (an error) if it has one. The pending terminator is kept around it.
  bool ParseBareRegion(const std::string& what);
  // The terminator read last and not yet taken by its region, if any.
  const Yield& pending_yield() const { return yield_; }
  // The pending terminator replaced by y (a called function's body starts
  // with none); the one it replaces returned.
  Yield SwapYield(Yield y);

 private:
  bool ParseFloatArith(const Token& op, const Token& result);
  bool ParseConversion(const Token& op, const Token& result);
  // A home for a carried value (iter_args, scf.if and scf.while results): a
  // new register, or for a tile the slot of `like`.
  Value CarryHome(const Value& like);
  void EmitCopy(const Value& from, const Value& to, SourceLoc loc);
  void EmitCarry(const std::vector<Value>& from, const std::vector<Value>& to, SourceLoc loc);
  bool CheckYield(SourceLoc loc, const char* what, const std::vector<Type>& want);
  bool ParseIterArgs(std::vector<Token>* names, std::vector<Value>* inits);
  bool DefineResults(const Token& op, const std::vector<Token>& results,
                     const std::vector<Value>& values);

  Yield yield_;
};

// Global memory and tile storage: pointers and scalar loads and stores,
// views, tload/tstore, tile allocation, valid shapes, placement and tile
// subviews (memory_reader.cc, memory_pointers.cc, memory_subviews.cc).
class MemoryReader : public Reader {
 public:
  explicit MemoryReader(Parser& parser) : Reader(parser) {}

  void ParseScalarAccess(const Token& op, const std::vector<Token>& results);
  void ParseAddPtr(const Token& op, const std::vector<Token>& results);
  void ParseMakeView(const Token& op, const Token& result);
  void ParsePartitionView(const Token& op, const Token& result);
  void ParseLoadStore(const Token& op, bool load);
  bool ParseTransferAttrs(const Token& op, bool load, bool* atomic_add, bool* relu);
  // pto.tprefetch ins(%view : V) outs(%dst : T): checked; dst left as it is.
  void ParsePrefetchTile(const Token& op);
  void ParseAllocTile(const Token& op, const Token& result);
  void ParseSetValidShape(const Token& op);
  void ParseTassign(const Token& op, const std::vector<Token>& results);
  void ParseSubset(const Token& op, const Token& result, bool sized);
  void ParseSubview(const Token& op, const std::vector<Token>& results);
  bool BindMemref(const Token& name, const Type& t);
  // A view of `parent`'s column 0 (its rows and cols, valid cols 1): a
  // memref parameter of tquant, whose NPU implementations read column 0.
  bool ColumnZeroView(const Token& op, uint32_t parent, uint32_t* view);
  // The pointer a view register was made from.
  // The pointer a view was made from; false for a view parameter of a
  // function checked alone (it has none).
  bool FindViewPointer(uint32_t view, uint32_t* pointer) const {
    const auto made = view_ptr_.find(view);
    if (made == view_ptr_.end() || made->second >= p_->pointer_root.size()) return false;
    *pointer = made->second;
    return true;
  }
  void SetViewPointer(uint32_t view, uint32_t pointer) { view_ptr_[view] = pointer; }
  // A Table or TableDst operand %name (written as `written`): a view made in
  // the function, *view its value, its pointer marked with `access`
  // (memory_pointers.cc); `what` names the operation in errors.
  bool TableView(const std::string& what, const Token& name, const Type& written, SourceLoc loc,
                 unsigned access, Value* view);
  // PTOAS's rules on mgather's and mscatter's text before the generic DPS
  // reader emits them (memory_gather.cc); attr as GlobalModesAttrs packs it.
  bool GlobalIndexRules(const Token& op, const ops::OpDescriptor& desc, uint32_t tile,
                        SourceLoc tile_loc, uint32_t indices, pto_dtype table_dtype, int* attr);
  // Marks the pointer parameter a view (or pointer) register reaches as read
  // and/or written (PTO_PARAM_READ | PTO_PARAM_WRITE): pto-run --check's and
  // pto_program_param_access's listing. A view parameter of a function
  // checked alone reaches none.
  void MarkViewAccess(uint32_t view, unsigned access) {
    uint32_t made = 0;
    if (FindViewPointer(view, &made)) MarkPointerAccess(made, access);
  }
  void MarkPointerAccess(uint32_t pointer, unsigned access) {
    for (Param& param : p_->params)
      if (param.kind == PTO_PARAM_POINTER && param.reg == p_->pointer_root[pointer])
        param.access |= access;
  }
  // The address pto.tassign gave the tile named name before it was
  // declared, taken (true) if there is one.
  bool TakePendingAddress(const std::string& name, uint64_t* addr);
  // False (an error) if pto.tassign placed a name no operation declared.
  bool CheckPendingAddresses();

 private:
  bool ParseIndexList(std::string_view key, std::vector<Value>* out, bool literals = false);
  bool SkipLayoutAttr();
  bool TakeDim(SourceLoc loc, const std::string& what, const Value& given, int64_t* dim);
  uint32_t EmitView(Code code, SourceLoc loc, uint32_t from, const Type& type,
                    const std::vector<Value>& first, const std::vector<Value>& second,
                    const Token& result);
  bool ParseOneInOneOut(Token* in_name, Type* in_type, SourceLoc* in_loc, Token* out_name,
                        Type* out_type, SourceLoc* out_loc,
                        Token* fp_name = nullptr, Type* fp_type = nullptr,
                        SourceLoc* fp_loc = nullptr);
  bool ConstantAddress(const Token& name, uint64_t* addr);
  void EmitSetValid(SourceLoc loc, uint32_t slot, const Value* rows, const Value* cols);
  bool PlaceSlot(uint32_t slot, uint64_t addr, SourceLoc loc);
  // valid: the two valid-dim operands of a sized subview, or null.
  bool EmitSubview(const Token& op, uint32_t parent, uint32_t view, const Value& row,
                   const Value& col, SubviewRule rule, const Value* valid);
  // A cube tile's subview rules on the view's type vt at constant offsets
  // r, c (-1: known at run time).
  bool CubeWindowFits(const Token& op, const TileSlot& from, const Type& vt, int64_t r, int64_t c);
  bool SizedValid(const std::string& what, const Token& src_name, const Type& u, SourceLoc loc,
                  const int64_t sizes[2], const Value* valid, Type* t);

  // pto.tassign's addresses of tiles not yet declared, by name, and where
  // each was given.
  std::unordered_map<std::string, uint64_t> pending_addr_;
  std::unordered_map<std::string, SourceLoc> pending_loc_;
  std::unordered_map<uint32_t, uint32_t> view_ptr_;  // view register -> pointer index
};

// The operations of the table (ops::FindOp) on tiles in their DPS and SSA
// forms, their attributes, and pto.tprint (tile_reader.cc,
// tile_ssa_forms.cc, tile_attributes.cc, tile_print.cc).
class TileReader : public Reader {
 public:
  explicit TileReader(Parser& parser) : Reader(parser) {}

  void ParseDpsTileOp(const Token& op, const ops::OpDescriptor& named);
  void ParseSsaTileOp(const Token& op, const ops::OpDescriptor& named, const Token& result);
  // The DPS form of a row with operands beyond tiles (TakesOperandsBeyondTiles:
  // a table in memory, no tile result, a scalar result, words, Aux
  // destinations), results its
  // %result if it defines one; from ins( )'s parenthesis
  // (tile_table_operands.cc).
  void ParseDpsValueOp(const Token& op, const ops::OpDescriptor& desc,
                       const std::vector<Token>& results);
  // %dst, %counts = pto.OP %s0, %s1, ... [{...}] : (T0, T1, ...) -> (T,
  // vector<4xi16>): the SSA form of a row with a Counts argument
  // (tmrgsort's lists; tile_table_operands.cc).
  void ParseSsaCountsOp(const Token& op, const ops::OpDescriptor& desc,
                        const std::vector<Token>& results);
  // pto.tgather ins(%src, %kValue, %tmp : T, S, U) outs(%dst, %cdst : D, C)
  // [{cmpMode = ..., offset = N : i32}]: its compare form, ins( ) read
  // (tile_reader.cc; its attributes GatherCompareAttrs).
  void ParseGatherCompare(const Token& op, const ops::OpDescriptor& desc,
                          const std::vector<Token>& names, const std::vector<Type>& types,
                          const std::vector<SourceLoc>& locs);
  void ParsePrint(const Token& op);
  bool DefineResultTile(const Token& op, const Token& result, const Type& type, SourceLoc type_loc,
                        uint32_t* slot);

 private:
  // How the text spelled an operation, beyond its operands: what a row's
  // text rules may ask (ops::TextOperands).
  struct TextForm {
    bool dps;             // PTOAS's ins(...) outs(...) form
    bool high_precision;  // its precisionType is high_precision
    bool tmp_given;       // it named a tmp
    uint32_t tmp_slot = kNoSlot;  // that tmp's tile, kept for the row's text rules
  };
  // A row's scalar result (an Out argument): the %result it defines, its type.
  struct ValueResult {
    const Token* name = nullptr;
    Type type;
    SourceLoc loc;
  };

  // A Scalar-family operation's scalar operand: names[index] (declared as
  // types[index]) is taken out of the lists and checked against the value.
  bool TakeScalarOperand(const ops::OpDescriptor& desc, std::vector<Token>* names,
                         std::vector<Type>* types, std::vector<SourceLoc>* type_locs,
                         Instr* scalar);
  // A row's offsets (ops::IndexCount: textract's two, tsetval's one): the
  // integer values right after its sources, taken out of the lists into
  // in->index_regs.
  bool TakeIndexOperands(const ops::OpDescriptor& desc, std::vector<Token>* names,
                         std::vector<Type>* types, std::vector<SourceLoc>* type_locs, Instr* in);
  // The attribute dictionary of op; *high_precision (unless null) set when
  // it gives precisionType = high_precision.
  bool ParseOpAttrs(const ops::OpDescriptor& op, int* attr, bool* high_precision);
  bool ParseAttrsAfterOuts(const Token& op, const ops::OpDescriptor& desc, int* attr,
                           bool* high_precision);
  bool HistByteAttr(const AttrEntry& e, int* attr, int* given_byte, int* legacy_msb);
  bool BinaryOrderValue(const Token& value, int* attr);
  bool ParseBareBinaryOrder(int* attr);
  bool MaskPatternValue(const AttrEntry& e, int* attr);
  bool ParseBareMaskPattern(int* attr);
  bool MaskPatternGiven(const Token& op, const ops::OpDescriptor& desc, int attr);
  bool ParseGatherAxis(int* attr);
  bool ParseConversionAttrs(int* attr);
  // mgather's and mscatter's attribute dictionary (the text kind
  // GlobalModes): the coalesce in bits 0-7 (kCoalesceGiven set when given),
  // the OOB mode in bits 8-11, a scatter's atomic in bits 12-15.
  bool GlobalModesAttrs(const ops::OpDescriptor& desc, int* attr);
  bool TextTmpAllowed(const ops::OpDescriptor& op);
  // value: the row's scalar result, or null.
  bool EmitTileOp(const ops::OpDescriptor& op, SourceLoc loc, const std::vector<uint32_t>& ins,
                  uint32_t dst, int attr, const Instr& scalar, const TextForm& form,
                  const ValueResult* value = nullptr);
  // A bound dst that the row reads too (its old elements stay or count) is
  // marked read.
  void MarkDstRead(const ops::OpDescriptor& desc, uint32_t dst);
  bool TakeTableOperand(const Token& op, const ops::OpDescriptor& desc, std::vector<Token>* names,
                        std::vector<Type>* types, std::vector<SourceLoc>* type_locs, Value* table);
  bool ParseValueOuts(const Token& op, const ops::OpDescriptor& desc, std::vector<Token>* outs,
                      std::vector<Type>* types, std::vector<SourceLoc>* locs, ValueResult* value);
  bool ConversionAttr(SourceLoc loc, uint32_t src, uint32_t dst, int* attr, Instr* in);
  bool TextRulesHold(const ops::OpDescriptor& op, SourceLoc loc, const std::vector<uint32_t>& ins,
                     uint32_t dst, int attr, const TextForm& form);
  // PTOAS's fp operand of tmov, textract, tinsert.
  const ops::OpDescriptor* FixpipeForm(const ops::OpDescriptor& named);
  bool TakeFixpipeOperand(std::vector<Token>* names, std::vector<Type>* types,
                          std::vector<SourceLoc>* type_locs);
  // besides: operands counted in the message beside the tiles (a table).
  bool OperandCountFits(const Token& op, const ops::OpDescriptor& desc, size_t count,
                        const char* what, size_t besides = 0);
  bool ParseTwoOuts(Token* dst, Type* dst_type, SourceLoc* dst_loc, Token* idx, Type* idx_type,
                    SourceLoc* idx_loc);
  bool ParseSharedTypes(const ops::OpDescriptor& desc, const std::vector<Token>& names,
                        std::vector<Type>* types, std::vector<SourceLoc>* type_locs, Type* dst_type,
                        SourceLoc* dst_loc);
  bool UseOperands(const ops::OpDescriptor& desc, const std::vector<Token>& names,
                   const std::vector<Type>& types, const std::vector<SourceLoc>& type_locs,
                   std::vector<uint32_t>* slots, size_t sources = SIZE_MAX);
};

// The row a text form names (tile_reader.cc): `op`, or its ScalarFirst form
// where the first operand's declared type is not a tile, its MaskPattern
// form or its single-source form where the text gives one source.
const ops::OpDescriptor& WithScalarFirst(const ops::OpDescriptor& op,
                                         const std::vector<Type>& types);
const ops::OpDescriptor& WithMaskPattern(const ops::OpDescriptor& op, size_t sources);
const ops::OpDescriptor& WithSingleSource(const ops::OpDescriptor& op, size_t sources);

// A row's attribute where its text gives none (tile_attributes.cc): PTOAS's
// default (thistogram's byte 1, trandom's rounds 10), -1 where the text must
// give one (tquant.mx's quant_type), else 0.
int TextAttrDefault(const ops::OpDescriptor& desc);
// tgather's compare form's {cmpMode = ..., offset = N : i32}
// (tile_attributes.cc).
bool GatherCompareAttrs(Parser& parser, int* mode, int64_t* offset);

// What a row whose text must give its attribute (TextAttrDefault -1) needs,
// for the refusal of a text without it.
const char* RequiredAttr(const ops::OpDescriptor& desc);

// GlobalModesAttrs's mark of a coalesce the text gave (cleared once
// MemoryReader::GlobalIndexRules has applied PTOAS's rules).
constexpr int kCoalesceGiven = 1 << 16;

// Whether a row has a scalar result (an Out argument: tgetval's value), and
// whether it has operands beyond tiles: that, a table in memory (Table,
// TableDst), no tile result (NoDst), words (trandom's key and counter),
// further destinations (Aux: tquant.mx's exp, max, scaling) or a tmp in
// outs( ) (TmpOut: tquant's) or counts (tmrgsort's lists' executed).
// Such rows are read by TileReader::ParseDpsValueOp.
bool DefinesValue(const ops::OpDescriptor& desc);
bool TakesOperandsBeyondTiles(const ops::OpDescriptor& desc);

// Whether the operation at the cursor (its results read) is its ListsForm
// row's text (tmrgsort's multi-list form): two results (the page's
// synchronous form), or ins( ) with three operands or more, or two followed
// by no_tmp or {exhausted = ...}; tmrgsort's single-list form is ins(%src,
// %blockLen : T, i32) (tile_table_operands.cc).
bool IsListsForm(Parser& parser, const std::vector<Token>& results);

// A core of a block as messages name it (1 the cube, 2 a vector core).
inline const char* CoreName(uint8_t core) { return core == 1 ? "cube" : "vector"; }

// An integer attribute's value (`id = 3`); false for another kind of value.
inline bool IntAttr(const AttrEntry& e, int64_t* out) {
  if (e.value.kind != Tok::kInt) return false;
  *out = strtoll(std::string(e.value.text).c_str(), nullptr, 10);
  return true;
}

// The instruction with a text form of its own, beside the table's
// (tile_quant_mx.cc): the MX exponents' ZZ move.
class SpecialFormReader : public Reader {
 public:
  explicit SpecialFormReader(Parser& parser) : Reader(parser) {}

  // pto.tmov ins(%exp, %tmp : Te, Tt) outs(%zz : Tz) [{grpAxis = ...}], its ins( ) read
  // (tile_quant_mx.cc)
  void ParseMxZzMove(const Token& op, const std::vector<Token>& names,
                     const std::vector<Type>& types, const std::vector<SourceLoc>& locs);
};

// The cube (core_cube.cc): its matrix multiplies and the moves whose tiles
// lie in its memories; and its fixpipe (core_fixpipe.cc): tmov_fp,
// textract_fp, tinsert_fp, tstore's fp form, a pipe's acc_push_epilogue
// and pto.set_quant_*, with the quantisation words read so far.
class CubeReader : public Reader {
 public:
  explicit CubeReader(Parser& parser) : Reader(parser) {}

  void ParseMatmul(const Token& op, const ops::OpDescriptor& desc);
  // pto.tget_scale_addr ins(%src : L|R) outs(%scale : S) (core_cube.cc).
  void ParseGetScaleAddr(const Token& op);
  bool EmitCubeMove(const ops::OpDescriptor& op, SourceLoc loc, uint32_t src, uint32_t dst,
                    const Instr& offsets);
  bool CheckCubeTransfer(const Token& op, bool load, uint32_t slot, pto_dtype view_dtype,
                         bool atomic_add);
  // core_fixpipe.cc: tstore's fp form (TSTORE_FP), the tile in `slot`.
  bool EmitFixpipeMove(const ops::OpDescriptor& op, SourceLoc loc, uint32_t src, uint32_t fp,
                       uint32_t dst, const Instr& offsets);
  bool CheckFixpipeStore(const Token& op, uint32_t slot, pto_dtype view_dtype, const Token& fp,
                         const Type& fp_type, SourceLoc fp_loc, uint32_t* fp_slot);
  // core_fixpipe.cc: a pipe's acc_push_epilogue, pto.set_quant_scalar / _vector.
  bool ParseEpilogue(const AttrEntry& e, PipeEpilogue* out);
  void ParseSetQuant(const Token& op);
  bool QuantSetBefore(SourceLoc loc, const PipeDecl& pipe);
  bool EpilogueAgrees(const Token& op, const PipeDecl& decl, const PipeEpilogue& here, int64_t dir);

 private:
  // A matrix multiply's {accPhase = ...} after its outs (core_cube.cc).
  bool ParseAccPhase(const Token& op);
  bool EmitCubeInsert(SourceLoc loc, uint32_t src, uint32_t dst, const Instr& offsets);
  bool CheckVecRepack(const std::string& what, SourceLoc loc, bool extract, const Type& s,
                      const Type& d);

  std::set<int64_t> quant_set_;  // pipe id * 2 + (vector): pto.set_quant_* read so far
};

// A block's cores and the pipes between them (core_pipes.cc,
// core_pipe_transfers.cc): the cores' sections, the pipes' initialisation,
// their consumer buffers and flag ids, and their transfers.
class PipeReader : public Reader {
 public:
  explicit PipeReader(Parser& parser) : Reader(parser) {}

  // pto.section.vector / pto.section.cube { ... }: a core's code.
  void ParseSection(const Token& op);
  void ParsePipeOp(const Token& op, const std::vector<Token>& results);
  // A kSection for the code that follows (a kernel_kind function's body, a
  // pto.section.* region): its index, for EndSection, or kNoSlot where the
  // code is already that core's; false (an error) inside another core's.
  bool BeginSection(CoreKind kind, SourceLoc loc, const std::string& what, uint32_t* at,
                    uint8_t* outer);
  void EndSection(uint32_t at, uint8_t outer);
  // The CoreKind of the code being read, 0 outside every core's.
  uint8_t core() const { return core_; }
  // False (the error) if a rule checked after the others failed.
  bool CheckLaterRules();

 private:
  void ParseReserveBuffer(const Token& op, const std::vector<Token>& results, bool import);
  void ParseInitializePipe(const Token& op, bool cube);
  bool PipeLimitsHold(const Token& op, const std::string& what, uint8_t side, int64_t id,
                      int64_t dir, int64_t slot_size, int64_t slot_num, int64_t flag_base);
  bool ParsePipeOperands(const std::string& what, uint8_t side, uint64_t slots_bytes, Instr* init,
                         bool* has_gm, uint32_t* gm_pointer);
  void ParsePipeTransfer(const Token& op, const std::vector<Token>& results, PipeOp kind,
                         bool to_vector);
  // One push, pop, alloc or free as the text gives it (ParsePipeTransfer).
  struct Transfer {
    std::string what;  // the operation's name
    PipeOp kind;
    uint8_t side;      // the CoreKind of the end it runs on
    int64_t id;        // the pipe's id
    size_t index;      // the pipe's index in Program::pipes
    bool vector_part;  // a vector core's half of a split tile
    bool takes_operand;
    Token operand;  // the tile or view given (push, free), if takes_operand
    Type type;      // the tile or view pushed, popped, allocated or freed
    SourceLoc type_loc;
  };
  bool TransferSlotView(const Token& op, const Transfer& t, const std::vector<Token>& results,
                        Instr* in);
  bool TransferTile(const Token& op, const Transfer& t, const std::vector<Token>& results,
                    Instr* in);
  void NoteVectorCores(Split split);
  bool PipeSplit(const Token& op, const std::vector<AttrEntry>& attrs, bool c2v, int64_t* id,
                 Split* split);

  uint8_t core_ = 0;  // the CoreKind of the code being read, 0 outside every core's
  // A pto.reserve_buffer's (or its import's) i32 register: the consumer
  // buffer it names, for the pipe initialisation it is given to.
  struct Reserved {
    std::string name;
    Space location = Space::kVec;
    uint64_t size = 0;
  };
  std::unordered_map<uint32_t, Reserved> reserved_;
  // Which cores initialised each of Program::pipes (a CoreKind mask), and
  // the pointer index of each end's gm_slot_buffer (key: pipe x 2 + end, 0
  // the cube's), for the views of slots in global memory.
  std::vector<uint8_t> pipe_sides_;
  // The hardware flag ids the pipes initialised so far take, per CoreKind:
  // at most kFlagIds.
  static constexpr uint32_t kFlagIds = 16;
  uint32_t flag_ids_[3] = {};
  // The first error of a rule checked after the others (a consumer buffer's
  // size), reported at the end of the text.
  std::string later_error_;
  SourceLoc later_loc_;
  std::unordered_map<uint32_t, uint32_t> pipe_gm_;
};

// Synchronisation and cache maintenance (core_sync.cc): checked as PTOAS
// checks them, then nothing (or one check) at run time.
class SyncReader : public Reader {
 public:
  explicit SyncReader(Parser& parser) : Reader(parser) {}

  void ParseSync(const Token& op);
  void ParseBufferToken(const Token& op);
  void ParseCacheInvalid(const Token& op);
  void ParseFence(const Token& op);
  void ParseSyncAll(const Token& op);
  // pto.tsync ins(%e0, ... : T0, ...): checked, then nothing to do.
  void ParseTsync(const Token& op, const std::vector<Token>& results);
  void ParsePrefetch(const Token& op, const Token& result);

 private:
  bool ReadSyncItems(std::string_view n, bool bracketed, bool dyn, std::vector<std::string>* items,
                     std::vector<SourceLoc>* locs);
};

// Communication between ranks (core_comm.cc): pto.comm.tput, tget, tnotify,
// twait, ttest, tbroadcast, tscatter, tgather, treduce.
class CommReader : public Reader {
 public:
  explicit CommReader(Parser& parser) : Reader(parser) {}

  void ParseComm(const Token& op, const std::vector<Token>& results);
  void ParseCommAsync(const Token& op, const std::vector<Token>& results);

 private:
  bool CommAttributes(const Token& op, CommOp kind, const std::vector<AttrEntry>& attrs,
                      size_t group, Instr* in);
};

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_PARSE_READERS_H_
