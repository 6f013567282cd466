// Tokens of PTO assembly text. Newlines carry no meaning (an MLIR operation
// may span lines); types and attributes with angle brackets
// (`!pto.tile_buf<...>`, `#pto<...>`) are single tokens whose bodies the type
// parser reads.
#ifndef PTO_PROGRAM_PARSE_LEXER_H_
#define PTO_PROGRAM_PARSE_LEXER_H_

#include <stddef.h>
#include <stdint.h>

#include <string_view>

#include "program/ir/types.h"

namespace pto {
namespace program {

enum class Tok : uint8_t {
  kEnd,
  kIdent,      // module, func.func, pto.tpow, index, f32, ins, ...
  kValue,      // %name (text without '%')
  kSymbol,     // @name (text without '@')
  kLabel,      // ^name, a block label (text without '^')
  kType,       // !name or !name<...> (text with '!')
  kAttr,       // #name or #name<...> (text with '#')
  kDirective,  // .arg, .const (text with '.')
  kInt,        // 12, -3, 0x1000
  kFloat,      // 1.5, -2e3
  kString,     // "a5" (text without quotes)
  kArrow,      // ->
  kPunct,      // one of ( ) [ ] { } , : = ? ; < >
  kError,      // text: what is wrong
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string_view text;
  SourceLoc loc;
  char punct() const { return kind == Tok::kPunct ? text[0] : '\0'; }
  bool Is(char c) const { return kind == Tok::kPunct && text[0] == c; }
  bool IsIdent(std::string_view s) const { return kind == Tok::kIdent && text == s; }
};

class Lexer {
 public:
  Lexer() = default;
  explicit Lexer(std::string_view text) : text_(text) {}
  // The next token; kEnd at the end, kError (and then kEnd) on a character
  // that starts no token.
  Token Next();
  // The text of the balanced <...> that `open` (a '<' token this lexer
  // returned) begins, the lexer then after its '>'; false (the lexer at the
  // end) if the text ends first. MLIR elides the `!dialect.name` of a type
  // where an operation's syntax implies it (`ins(%a : <loc=left, ...>)`).
  bool AngleBodyFrom(const Token& open, std::string_view* body);

 private:
  void SkipSpaceAndComments();
  bool AtLocation() const;
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void Advance(size_t n = 1);
  // Consumes a balanced <...> (nested brackets and quoted strings allowed);
  // false if the text ends first.
  bool SkipAngleBody();
  // A number's characters (Next): *kind kInt or kFloat; false for 0x
  // without hex digits.
  bool SkipNumber(char c, Tok* kind);

  std::string_view text_;
  size_t pos_ = 0;
  SourceLoc loc_;
};

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_PARSE_LEXER_H_
