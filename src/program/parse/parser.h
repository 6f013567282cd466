// The parser and type checker of PTO assembly: the parse core (Parser) that
// the dialects' readers (readers.h) share. Private to src/program/parse/
// (Compile, in program.h, is its entry point).
#ifndef PTO_PROGRAM_PARSE_PARSER_H_
#define PTO_PROGRAM_PARSE_PARSER_H_

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
  Type type;    // a typed value's (`7 : i32`), else kind kNone
  SourceLoc type_loc;
};

// How an operation uses a tile operand (UseTile): the parameter access it
// records, and a tmp that no access records.
enum class Use : uint8_t { kRead, kWrite, kTmp };

// How a token reads in a message: "'%a'", "the end of the text", ...
std::string Describe(const Token& t);

class ModuleReader;
class ScalarReader;
class MemoryReader;
class TileReader;
class SpecialFormReader;
class CubeReader;
class PipeReader;
class SyncReader;
class CommReader;

// The parse core: a recursive-descent reader's cursor over the tokens, the
// first error, the SSA names in their scopes, and the operand helpers every
// dialect shares. The dialects' constructs are read by nine readers, each
// owning its dialect's state (readers.h); ParseOperation hands an operation
// to its reader by its name (dispatch.cc). Error keeps the first error only
// (status_); the Expect* helpers return false once there is one, so each
// parser returns at its first failed step.
class Parser {
 public:
  // entry: the function to run (empty: chosen by the module's attributes);
  // check_only: the function is read to be checked, never run (it may return
  // values and take views).
  Parser(std::string_view text, Program* program, std::string_view entry, bool check_only);
  ~Parser();

  pto_status Run();

  ModuleReader& module() { return *module_; }
  ScalarReader& scalar() { return *scalar_; }
  MemoryReader& memory() { return *memory_; }
  TileReader& tile() { return *tile_; }
  SpecialFormReader& forms() { return *forms_; }
  CubeReader& cube() { return *cube_; }
  PipeReader& pipes() { return *pipes_; }
  SyncReader& sync() { return *sync_; }
  CommReader& comm() { return *comm_; }

  // ---- tokens and errors (parser.cc)

  Program* program() const { return p_; }
  // The operation being read, as the text names it (pto.tquant.mx).
  const std::string& op_name() const { return op_name_; }
  // The same without its "pto." prefix (tmrgsort), for messages.
  std::string bare_op_name() const {
    return op_name_.compare(0, 4, "pto.") == 0 ? op_name_.substr(4) : op_name_;
  }
  const Token& tok() const { return tok_; }
  bool ok() const { return status_ == PTO_OK; }
  void Advance();
  const Token& Peek();
  bool Error(SourceLoc loc, const std::string& message,
             pto_status status = PTO_ERR_INVALID_ARGUMENT);
  bool Expect(char c);
  bool ExpectIdent(std::string_view word);
  bool ExpectArrow();
  bool ExpectValueName(Token* out);
  Cursor Save() const { return Cursor{lexer_, tok_, peek_, has_peek_}; }
  void Restore(const Cursor& c) {
    lexer_ = c.lexer;
    tok_ = c.tok;
    peek_ = c.peek;
    has_peek_ = c.has_peek;
  }
  // A name the text does not spell (%r#0 of `%r:2 = ...`), kept for the
  // parser's lifetime.
  Token SyntheticName(const std::string& text, SourceLoc loc);

  // ---- types, SSA names and operands (parser.cc)

  // `%a, %b, ...` (possibly none).
  void ParseValueNames(std::vector<Token>* out);
  bool ParseType(Type* out);
  // `T -> U`, a cast's two types, with where each begins.
  bool ParseTypeArrowType(Type* from, SourceLoc* from_loc, Type* to, SourceLoc* to_loc);
  // `!name = type`'s alias; false (an error at name) if it is defined twice.
  bool DefineAlias(const Token& name, const Type& t);
  // `count` types separated by commas (an operand list's), with where each begins.
  bool ParseTypes(size_t count, std::vector<Type>* types, std::vector<SourceLoc>* locs);
  bool ParseTypeList(std::vector<Type>* out, std::vector<SourceLoc>* locs);
  // `) outs(%name : T)`, the end of an ins( ) list and the output.
  bool ParseOuts(Token* name, Type* type, SourceLoc* type_loc);
  bool ParseAttrDict(std::vector<AttrEntry>* out);
  Value* Lookup(std::string_view name);
  bool Define(const Token& name, const Value& v);
  void OpenScope() { scopes_.emplace_back(); }
  void CloseScope();
  // The names in scope exchanged with *values and *scopes (a called
  // function's body is read with its own names, then the caller's return).
  void SwapNames(std::unordered_map<std::string, Value>* values,
                 std::vector<std::vector<std::string>>* scopes);
  uint32_t NewIntReg() { return p_->int_regs++; }
  bool UseValue(const Token& name, Value* out);
  // Whether `actual`, %name's type, is the type the text writes for it at loc.
  bool WrittenAs(const Token& name, const Type& actual, const Type& written, SourceLoc loc);
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

  // ---- one operation, handed to its reader (dispatch.cc)

  void ParseOperation();
  // Whether the operation defines n results; else an error at op.
  bool ResultCount(const Token& op, const std::vector<Token>& results, size_t n);

 private:
  bool ParseResults(std::vector<Token>* results);

  Lexer lexer_;
  Program* p_;
  Token tok_, peek_;
  bool has_peek_ = false;
  pto_status status_ = PTO_OK;
  std::unordered_map<std::string, Value> values_;
  std::vector<std::vector<std::string>> scopes_;
  std::unordered_map<std::string, Type> aliases_;
  std::vector<std::unique_ptr<std::string>> names_;  // SyntheticName's storage
  // The operation being read, and whether it takes a boxed vec tile (tmov,
  // a pipe's push or pop): UseTile refuses one elsewhere.
  std::string op_name_;
  bool boxed_vec_ok_ = false;
  std::unique_ptr<ModuleReader> module_;
  std::unique_ptr<ScalarReader> scalar_;
  std::unique_ptr<MemoryReader> memory_;
  std::unique_ptr<TileReader> tile_;
  std::unique_ptr<SpecialFormReader> forms_;
  std::unique_ptr<CubeReader> cube_;
  std::unique_ptr<PipeReader> pipes_;
  std::unique_ptr<SyncReader> sync_;
  std::unique_ptr<CommReader> comm_;
};

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_PARSE_PARSER_H_
