// The parser and type checker of PTO assembly: the class that compile.cc and
// its four companions define together, one file per kind of construct. Private
// to src/program/ (Compile, in program.h, is its entry point).
#ifndef PTO_PROGRAM_PARSE_COMPILER_H_
#define PTO_PROGRAM_PARSE_COMPILER_H_

#include <stdint.h>

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ops/ops.h"
#include "program/ir/program.h"
#include "program/ir/types.h"
#include "program/parse/lexer.h"
#include "pto_c.h"

namespace pto {
namespace program {

// An SSA value: its type and where it lives at run time.
struct Value {
  Type type;
  uint32_t reg = 0;  // int/float/view register, pointer index or tile slot
  bool is_const = false;
  int64_t const_value = 0;
};

// Where the reader is: the lexer and the current and peeked tokens (saved to
// read a called function's body, then restored).
struct Cursor {
  Lexer lexer;
  Token tok, peek;
  bool has_peek = false;
};

// A func.func of the module, as the first pass reads it: its signature and
// where its body starts. The body is read where it runs: once for the entry,
// once per call for the others (a call is inlined).
struct FuncInfo {
  std::string name;
  SourceLoc loc;
  std::vector<Token> param_names;
  std::vector<Type> param_types;
  std::vector<SourceLoc> param_locs;
  std::vector<Type> result_types;
  bool is_private = false;
  bool marked_entry = false;  // pto.entry, pto.kernel or a pto.kernel_kind attribute
  uint8_t core = 0;           // its pto.kernel_kind (a CoreKind), 0 for none
  bool marked_entry_only = false;  // pto.entry or pto.kernel (not only a kernel_kind)
  Cursor body;                // at the body's '{'
};

struct AttrEntry {
  std::string_view key;
  Token value;  // kEnd for a unit attribute
  SourceLoc loc;
};

// A recursive-descent reader emitting Program instructions as it goes, one
// Parse* function per construct. Error keeps the first error only
// (status_); the Expect* helpers return false once there is one, so each
// parser returns at its first failed step.
class Compiler {
 public:
  // Calls are read in place: a program larger than this is refused.
  static constexpr size_t kMaxInstructions = size_t{1} << 20;

  // entry: the function to run (empty: chosen by the module's attributes);
  // check_only: the function is read to be checked, never run (it may return
  // values and take views).
  Compiler(std::string_view text, Program* program, std::string_view entry, bool check_only)
      : lexer_(text), p_(program), entry_(entry), check_only_(check_only) {
    Advance();
  }

  pto_status Run() {
    ParseFile();
    return status_;
  }

 private:
  enum class Use : uint8_t { kRead, kWrite, kTmp };

  // ---- compile.cc: tokens, errors, types, SSA names, tile operands,
  // attribute dictionaries

  bool ok() const { return status_ == PTO_OK; }

  void Advance();
  const Token& Peek();
  bool Error(SourceLoc loc, const std::string& message,
             pto_status status = PTO_ERR_INVALID_ARGUMENT);
  static std::string Describe(const Token& t);
  bool Expect(char c);
  bool ExpectIdent(std::string_view word);
  bool ExpectArrow();
  bool ExpectValueName(Token* out);
  // `%a, %b, ...` (possibly none).
  void ParseValueNames(std::vector<Token>* out);
  bool ParseType(Type* out);
  // `count` types separated by commas (an operand list's), with where each begins.
  bool ParseTypes(size_t count, std::vector<Type>* types, std::vector<SourceLoc>* locs);
  // `) outs(%name : T)`, the end of an ins( ) list and the output.
  bool ParseOuts(Token* name, Type* type, SourceLoc* type_loc);
  Value* Lookup(std::string_view name);
  bool Define(const Token& name, const Value& v);
  void OpenScope() { scopes_.emplace_back(); }
  void CloseScope();
  uint32_t NewIntReg() { return p_->int_regs++; }
  // A use of an integer value (index or iN).
  bool UseInt(const Token& name, Value* out, const char* what);
  bool ParseIntOperand(Value* out, const char* what);
  // An index constant n in a new register (its kConstInt at loc).
  Value ConstIndex(int64_t n, SourceLoc loc);
  uint32_t NewTileSlot(const Type& type, SourceLoc loc, std::string_view name);
  uint32_t AddParam(std::string_view name, pto_param_kind kind, const Type& type, uint32_t reg);
  // A tile operand written with its type: an existing tile of that type, or,
  // in a snippet, a new input tile.
  bool UseTile(const Token& name, const Type& type, SourceLoc type_loc, Use use, uint32_t* slot);
  // A Scalar-family operation's scalar operand: names[index] (declared as
  // types[index]) is taken out of the lists and checked against the value.
  bool TakeScalarOperand(const ops::OpDescriptor& desc, std::vector<Token>* names,
                         std::vector<Type>* types, std::vector<SourceLoc>* type_locs,
                         Instr* scalar);
  // A row's offsets (ops::IndexCount: textract's two, tsetval's one): the
  // integer values right after its sources, taken out of the lists into
  // in->index_regs.
  bool TakeIndexOperands(const ops::OpDescriptor& desc, std::vector<Token>* names,
                         std::vector<Type>* types, std::vector<SourceLoc>* type_locs,
                         Instr* in);
  bool ParseAttrDict(std::vector<AttrEntry>* out);

  // ---- compile_module.cc: the file, module and func.func structure, directives,
  // and the dispatch of one operation to its parser

  void ParseFile();
  void ParseAlias();
  bool SetTarget(const AttrEntry& e);
  void ParseModule();
  void ParseFuncSignature();
  bool ChooseEntry(const FuncInfo** entry);
  void CompileEntry(const FuncInfo& f);
  // Whether two functions take the same arguments (the launch's identity aside).
  bool SameArguments(const FuncInfo& a, const FuncInfo& b) const;
  void CompileVectorPeer(const FuncInfo& f, const std::vector<Value>& args);
  bool BindParam(const Token& name, const Type& t, SourceLoc type_loc);
  bool ParseBody(const FuncInfo& f, std::vector<Value>* returned);
  void ParseCall(const Token& op, const std::vector<Token>& results);
  Cursor Save() const { return Cursor{lexer_, tok_, peek_, has_peek_}; }
  void Restore(const Cursor& c) {
    lexer_ = c.lexer;
    tok_ = c.tok;
    peek_ = c.peek;
    has_peek_ = c.has_peek;
  }
  // A name the text does not spell (%r#0 of `%r:2 = ...`), kept for the
  // compiler's lifetime.
  Token SyntheticName(const std::string& text, SourceLoc loc);
  void ParseDirective();
  void ParseOperation();

  // ---- compile_scalar.cc: constants, integer arithmetic, scf control flow and
  // block queries

  void ParseConstantValue(const Token& result);
  void ParseArith(const Token& op, const Token& result);
  bool ParseFloatArith(const Token& op, const Token& result);
  bool ParseConversion(const Token& op, const Token& result);
  void EmitIntResult(Instr in, const Type& type, const Token& result);
  void EmitFloatResult(Instr in, const Type& type, const Token& result);
  bool UseValue(const Token& name, Value* out);
  // Whether `actual`, %name's type, is the type the text writes for it at loc.
  bool WrittenAs(const Token& name, const Type& actual, const Type& written, SourceLoc loc);
  bool ParseTypeList(std::vector<Type>* out, std::vector<SourceLoc>* locs);
  void ParseRegion();
  // A home for a carried value (iter_args, scf.if and scf.while results): a
  // new register, or for a tile the slot of `like`.
  Value CarryHome(const Value& like);
  void EmitCopy(const Value& from, const Value& to, SourceLoc loc);
  void EmitCarry(const std::vector<Value>& from, const std::vector<Value>& to, SourceLoc loc);
  bool CheckYield(SourceLoc loc, const char* what, const std::vector<Type>& want);
  void ParseYield(const Token& op);
  bool ParseIterArgs(std::vector<Token>* names, std::vector<Value>* inits);
  bool DefineResults(const Token& op, const std::vector<Token>& results,
                     const std::vector<Value>& values);
  void ParseFor(const Token& op, const std::vector<Token>& results);
  void ParseIf(const Token& op, const std::vector<Token>& results);
  void ParseWhile(const Token& op, const std::vector<Token>& results);
  void ParseBlockQuery(const Token& op, const Token& result);
  void ParseScalarAccess(const Token& op, const std::vector<Token>& results);
  void ParseAddPtr(const Token& op, const std::vector<Token>& results);
  void ParseUnrealizedCast(const Token& result);
  void ParseDeclareLocalArray(const Token& op, const std::vector<Token>& results);
  void ParseLocalArrayAccess(const Token& op, const std::vector<Token>& results);
  // %v = pto.tgetval ins(%src, %index : T, index) outs : E (compile_tile_ops.cc)
  void ParseGetVal(const Token& op, const std::vector<Token>& results);
  void ParseSync(const Token& op);

  // ---- compile_pipes.cc: the cores' sections and the pipes between them

  // A kSection for the code that follows (a kernel_kind function's body, a
  // pto.section.* region): its index, for EndSection, or kNoSlot where the
  // code is already that core's; false (an error) inside another core's.
  bool BeginSection(CoreKind kind, SourceLoc loc, const std::string& what, uint32_t* at,
                    uint8_t* outer);
  void EndSection(uint32_t at, uint8_t outer);
  void ParsePipeOp(const Token& op, const std::vector<Token>& results);
  void ParseReserveBuffer(const Token& op, const std::vector<Token>& results, bool import);
  void ParseInitializePipe(const Token& op, bool cube);
  void ParsePipeTransfer(const Token& op, const std::vector<Token>& results, PipeOp kind,
                         bool to_vector);
  void NoteVectorCores(Split split);
  bool PipeSplit(const Token& op, const std::vector<AttrEntry>& attrs, bool c2v,
                 int64_t* id, Split* split);

  // ---- compile_memory.cc: global-memory views, tload/tstore, tile allocation,
  // valid shapes and placement

  bool ParseIndexList(std::string_view key, std::vector<Value>* out, bool literals = false);
  bool SkipLayoutAttr();
  void ParseMakeView(const Token& op, const Token& result);
  bool BindMemref(const Token& name, const Type& t);
  void ParsePartitionView(const Token& op, const Token& result);
  bool TakeDim(SourceLoc loc, const std::string& what, const Value& given, int64_t* dim);
  uint32_t EmitView(Code code, SourceLoc loc, uint32_t from, const Type& type,
                    const std::vector<Value>& first, const std::vector<Value>& second,
                    const Token& result);
  bool ParseOneInOneOut(Token* in_name, Type* in_type, SourceLoc* in_loc, Token* out_name,
                        Type* out_type, SourceLoc* out_loc);
  void ParseLoadStore(const Token& op, bool load);
  bool ConstantAddress(const Token& name, uint64_t* addr);
  void ParseAllocTile(const Token& op, const Token& result);
  void EmitSetValid(SourceLoc loc, uint32_t slot, const Value* rows, const Value* cols);
  void ParseSetValidShape(const Token& op);
  bool PlaceSlot(uint32_t slot, uint64_t addr, SourceLoc loc);
  void ParseTassign(const Token& op, const std::vector<Token>& results);

  // ---- compile_sync.cc: synchronisation and cache maintenance, checked for form

  void ParseBufferToken(const Token& op);
  void ParseCacheInvalid(const Token& op);
  void ParseFence(const Token& op);
  void ParseSyncAll(const Token& op);
  void ParsePrefetch(const Token& op, const Token& result);

  // ---- compile_print.cc: pto.tprint

  void ParsePrint(const Token& op);

  // ---- compile_subview.cc: tile subviews (pto.subset, pto.subview). valid:
  // the two valid-dim operands of a sized subview, or null.

  bool EmitSubview(const Token& op, uint32_t parent, uint32_t view, const Value& row,
                   const Value& col, SubviewRule rule, const Value* valid);
  // A cube tile's subview rules on the view's type vt at constant offsets
  // r, c (-1: known at run time).
  bool CubeWindowFits(const Token& op, const TileSlot& from, const Type& vt, int64_t r,
                      int64_t c);
  bool SizedValid(const std::string& what, const Token& src_name, const Type& u, SourceLoc loc,
                  const int64_t sizes[2], const Value* valid, Type* t);
  void ParseSubset(const Token& op, const Token& result, bool sized);
  void ParseSubview(const Token& op, const std::vector<Token>& results);

  // ---- compile_tile_ops.cc: the operations of the table (ops::FindOp) on tiles

  bool ParseOpAttrs(const ops::OpDescriptor& op, int* attr);
  bool BinaryOrderValue(const Token& value, int* attr);
  bool ParseBareBinaryOrder(int* attr);
  bool MaskPatternValue(const AttrEntry& e, int* attr);
  bool ParseBareMaskPattern(int* attr);
  bool MaskPatternGiven(const Token& op, const ops::OpDescriptor& desc, int attr);
  bool ParseGatherAxis(int* attr);
  bool IsMrgSortLists(const std::vector<Token>& results);
  bool ParseExhausted(int* exhausted);
  void ParseMrgSortLists(const Token& op, const std::vector<Token>& results);
  bool ParseConversionAttrs(int* attr);
  bool TextTmpAllowed(const ops::OpDescriptor& op);
  // How the text spelled an operation, beyond its operands: what a row's
  // text rules may ask (ops::TextOperands).
  struct TextForm {
    bool dps;             // PTOAS's ins(...) outs(...) form
    bool high_precision;  // its precisionType is high_precision
    bool tmp_given;       // it named a tmp
  };
  bool EmitTileOp(const ops::OpDescriptor& op, SourceLoc loc, const std::vector<uint32_t>& ins,
                  uint32_t dst, int attr, const Instr& scalar, const TextForm& form);
  bool OperandCountFits(const Token& op, const ops::OpDescriptor& desc, size_t count,
                        const char* what);
  bool UseOperands(const ops::OpDescriptor& desc, const std::vector<Token>& names,
                   const std::vector<Type>& types, const std::vector<SourceLoc>& type_locs,
                   std::vector<uint32_t>* slots);
  void ParseDpsTileOp(const Token& op, const ops::OpDescriptor& named);
  void ParseSsaTileOp(const Token& op, const ops::OpDescriptor& named, const Token& result);
  bool DefineResultTile(const Token& op, const Token& result, const Type& type, SourceLoc type_loc,
                        uint32_t* slot);
  void ParseTsel(const Token& op, const std::vector<Token>& results);

  // ---- compile_cube.cc: the cube's tiles: matrix multiply, and the moves
  // (tmov, textract, tload, tstore) whose tiles lie in the cube's memories

  void ParseMatmul(const Token& op, const ops::OpDescriptor& desc);
  bool EmitCubeMove(const ops::OpDescriptor& op, SourceLoc loc, uint32_t src, uint32_t dst,
                    const Instr& offsets);
  bool CheckCubeTransfer(const Token& op, bool load, uint32_t slot, pto_dtype view_dtype,
                         bool atomic_add);

  Lexer lexer_;
  Program* p_;
  // Whether the attributes ParseOpAttrs read last gave precisionType =
  // high_precision (ParseDpsTileOp resets it).
  bool text_high_precision_ = false;
  std::string entry_;
  bool check_only_ = false;
  std::vector<FuncInfo> funcs_;
  // A module of one cube and one vector kernel and no entry mark: the
  // vector one, run with the cube one (the entry) as its block's cores.
  const FuncInfo* vector_peer_ = nullptr;
  std::vector<std::string> call_stack_;  // functions being read, entry first
  std::vector<std::unique_ptr<std::string>> names_;  // SyntheticName's storage
  Token tok_, peek_;
  bool has_peek_ = false;
  pto_status status_ = PTO_OK;
  std::unordered_map<std::string, Value> values_;
  std::vector<std::vector<std::string>> scopes_;
  std::unordered_map<std::string, Type> aliases_;
  std::unordered_map<std::string, uint64_t> pending_addr_;
  std::unordered_map<std::string, SourceLoc> pending_loc_;
  std::unordered_map<uint32_t, uint32_t> view_ptr_;  // view register -> pointer index
  uint8_t core_ = 0;  // the CoreKind of the code being read, 0 outside every core's
  // The operation being read, and whether it takes a boxed vec tile (tmov,
  // a pipe's push or pop): UseTile refuses one elsewhere.
  std::string op_name_;
  bool boxed_vec_ok_ = false;
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
  // The innermost region's terminator: scf.yield's or scf.condition's values.
  struct Yield {
    bool seen = false;
    bool is_condition = false;
    SourceLoc loc;
    Value condition;
    std::vector<Value> values;
  };
  Yield yield_;
};

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_PARSE_COMPILER_H_
