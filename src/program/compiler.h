// The parser and type checker of PTO assembly: the class that compile.cc and
// its four companions define together, one file per kind of construct. Private
// to src/program/ (Compile, in program.h, is its entry point).
#ifndef PTO_PROGRAM_COMPILER_H_
#define PTO_PROGRAM_COMPILER_H_

#include <stdint.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ops.h"
#include "program/lexer.h"
#include "program/program.h"
#include "program/types.h"
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
  Compiler(std::string_view text, Program* program) : lexer_(text), p_(program) { Advance(); }

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
  bool ParseType(Type* out);
  Value* Lookup(std::string_view name);
  bool Define(const Token& name, const Value& v);
  void OpenScope() { scopes_.emplace_back(); }
  void CloseScope();
  uint32_t NewIntReg() { return p_->int_regs++; }
  // A use of an integer value (index or iN).
  bool UseInt(const Token& name, Value* out, const char* what);
  bool ParseIntOperand(Value* out, const char* what);
  uint32_t NewTileSlot(const Type& type, SourceLoc loc, std::string_view name);
  uint32_t AddParam(std::string_view name, pto_param_kind kind, const Type& type, uint32_t reg);
  // A tile operand written with its type: an existing tile of that type, or,
  // in a snippet, a new input tile.
  bool UseTile(const Token& name, const Type& type, SourceLoc type_loc, Use use, uint32_t* slot);
  bool ParseAttrDict(std::vector<AttrEntry>* out);

  // ---- compile_module.cc: the file, module and func.func structure, directives,
  // and the dispatch of one operation to its parser

  void ParseFile();
  void ParseAlias();
  bool SetTarget(const AttrEntry& e);
  void ParseModule();
  void ParseFunc();
  void ParseDirective();
  void ParseOperation();

  // ---- compile_scalar.cc: constants, integer arithmetic, scf control flow and
  // block queries

  void ParseConstantValue(const Token& result);
  void ParseArith(const Token& op, const Token& result);
  void EmitIntResult(Instr in, const Type& type, const Token& result);
  void ParseRegion();
  void ParseFor(const Token& op);
  void ParseIf(const Token& op);
  void ParseBlockQuery(const Token& op, const Token& result);

  // ---- compile_memory.cc: global-memory views, tload/tstore, tile allocation,
  // valid shapes and placement

  bool ParseIndexList(std::string_view key, std::vector<Value>* out);
  bool SkipLayoutAttr();
  void ParseMakeView(const Token& op, const Token& result);
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

  // ---- compile_tile_ops.cc: the operations of the table (ops::FindOp) on tiles

  bool ParseOpAttrs(const ops::OpDescriptor& op, int* attr);
  bool TextTmpAllowed(const ops::OpDescriptor& op);
  bool EmitTileOp(const ops::OpDescriptor& op, SourceLoc loc, const std::vector<uint32_t>& ins,
                  uint32_t dst, int attr);
  bool OperandCountFits(const Token& op, const ops::OpDescriptor& desc, size_t count,
                        const char* what);
  bool UseOperands(const ops::OpDescriptor& desc, const std::vector<Token>& names,
                   const std::vector<Type>& types, const std::vector<SourceLoc>& type_locs,
                   std::vector<uint32_t>* slots);
  void ParseDpsTileOp(const Token& op, const ops::OpDescriptor& desc);
  void ParseSsaTileOp(const Token& op, const ops::OpDescriptor& desc, const Token& result);

  Lexer lexer_;
  Program* p_;
  Token tok_, peek_;
  bool has_peek_ = false;
  pto_status status_ = PTO_OK;
  std::unordered_map<std::string, Value> values_;
  std::vector<std::vector<std::string>> scopes_;
  std::unordered_map<std::string, Type> aliases_;
  std::unordered_map<std::string, uint64_t> pending_addr_;
  std::unordered_map<std::string, SourceLoc> pending_loc_;
  std::unordered_map<uint32_t, uint32_t> view_ptr_;  // view register -> pointer index
};

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_COMPILER_H_
