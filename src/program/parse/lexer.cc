#include "program/parse/lexer.h"

namespace pto {
namespace program {
namespace {

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// MLIR's suffix-id characters, for %names, @names and dotted identifiers.
bool IsNameChar(char c) {
  return IsIdentStart(c) || IsDigit(c) || c == '.' || c == '$' || c == '-';
}
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c) || c == '.' || c == '$'; }

}  // namespace

void Lexer::Advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < text_.size(); ++i) {
    if (text_[pos_] == '\n') {
      ++loc_.line;
      loc_.col = 1;
    } else {
      ++loc_.col;
    }
    ++pos_;
  }
}

void Lexer::SkipSpaceAndComments() {
  for (;;) {
    const char c = Peek();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';') {
      // ';' ends a statement in PTO-AS and means nothing more here.
      Advance();
    } else if (c == '/' && Peek(1) == '/') {
      while (pos_ < text_.size() && Peek() != '\n') Advance();
    } else if (c == '#' && !IsIdentStart(Peek(1))) {
      // "# text" (the pages' comment lines); "#pto<...>" is an attribute.
      while (pos_ < text_.size() && Peek() != '\n') Advance();
    } else if (AtLocation()) {
      // MLIR's location of an operation, `loc("model.py":107:13)` (PyPTO
      // writes one after each operation it generates): where the operation
      // came from, nothing the program means. Skipped to its closing
      // parenthesis; strings inside may hold parentheses.
      Advance(3);  // "loc"; the loop starts at its '('
      int depth = 0;
      do {
        const char d = Peek();
        if (d == '"') {
          Advance();
          while (pos_ < text_.size() && Peek() != '"' && Peek() != '\n') Advance(Peek() == '\\' ? 2 : 1);
        } else if (d == '(') {
          ++depth;
        } else if (d == ')') {
          --depth;
        } else if (d == '\n') {
          return;  // an unterminated location: the parser reports what follows
        }
        Advance();
      } while (depth > 0 && pos_ < text_.size());
    } else {
      return;
    }
  }
}

bool Lexer::AtLocation() const {
  return text_.compare(pos_, 4, "loc(") == 0 && (pos_ == 0 || !IsNameChar(text_[pos_ - 1]));
}

bool Lexer::SkipAngleBody() {
  int depth = 0;
  while (pos_ < text_.size()) {
    const char c = Peek();
    if (c == '"') {
      Advance();
      while (pos_ < text_.size() && Peek() != '"' && Peek() != '\n') Advance();
      if (Peek() != '"') return false;
    } else if (c == '<') {
      ++depth;
    } else if (c == '>') {
      // "->" inside a body (function types) is not a closing bracket.
      if (pos_ == 0 || text_[pos_ - 1] != '-') {
        if (--depth == 0) {
          Advance();
          return true;
        }
      }
    }
    Advance();
  }
  return false;
}

bool Lexer::AngleBodyFrom(const Token& open, std::string_view* body) {
  const size_t start = static_cast<size_t>(open.text.data() - text_.data());
  pos_ = start;
  loc_ = open.loc;
  if (!SkipAngleBody()) return false;
  *body = text_.substr(start, pos_ - start);
  return true;
}

// A number's characters from pos_, c the first: *kind kInt (decimal or
// 0x hex) or kFloat; false for 0x without hex digits.
bool Lexer::SkipNumber(char c, Tok* kind) {
  if (c == '-') Advance();
  if (Peek() == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
    Advance(2);
    if (!IsHexDigit(Peek())) return false;
    while (IsHexDigit(Peek())) Advance();
    *kind = Tok::kInt;
    return true;
  }
  bool is_float = false;
  while (IsDigit(Peek())) Advance();
  if (Peek() == '.' && IsDigit(Peek(1))) {
    is_float = true;
    Advance();
    while (IsDigit(Peek())) Advance();
  }
  if ((Peek() == 'e' || Peek() == 'E') &&
      (IsDigit(Peek(1)) || ((Peek(1) == '+' || Peek(1) == '-') && IsDigit(Peek(2))))) {
    is_float = true;
    Advance(2);
    while (IsDigit(Peek())) Advance();
  }
  *kind = is_float ? Tok::kFloat : Tok::kInt;
  return true;
}

Token Lexer::Next() {
  SkipSpaceAndComments();
  Token t;
  t.loc = loc_;
  const size_t start = pos_;
  if (pos_ >= text_.size()) {
    t.kind = Tok::kEnd;
    return t;
  }
  const char c = Peek();
  auto finish = [&](Tok kind, size_t skip_front = 0, size_t skip_back = 0) {
    t.kind = kind;
    t.text = text_.substr(start + skip_front, pos_ - start - skip_front - skip_back);
    return t;
  };
  auto error = [&](std::string_view what) {
    t.kind = Tok::kError;
    t.text = what;
    pos_ = text_.size();
    return t;
  };
  if (c == '%' || c == '@') {
    Advance();
    if (!IsNameChar(Peek()))
      return error(c == '%' ? "expected a name after '%'" : "expected a name after '@'");
    while (IsNameChar(Peek())) Advance();
    // %r#1: result 1 of an operation with several results (%r:2 = ...).
    if (c == '%' && Peek() == '#' && IsDigit(Peek(1))) {
      Advance();
      while (IsDigit(Peek())) Advance();
    }
    return finish(c == '%' ? Tok::kValue : Tok::kSymbol, 1);
  }
  if (c == '^') {
    // ^bb0: a block label (a region's arguments, as scf.while's do region).
    Advance();
    if (!IsNameChar(Peek())) return error("expected a block name after '^'");
    while (IsNameChar(Peek())) Advance();
    return finish(Tok::kLabel, 1);
  }
  if (c == '!' || c == '#') {
    Advance();
    if (!IsIdentStart(Peek()))
      return error(c == '!' ? "expected a type name after '!'"
                            : "expected an attribute name after '#'");
    while (IsIdentChar(Peek())) Advance();
    if (Peek() == '<' && !SkipAngleBody()) return error("unterminated '<' in a type or attribute");
    return finish(c == '!' ? Tok::kType : Tok::kAttr);
  }
  if (c == '.' && IsIdentStart(Peek(1))) {
    Advance();
    while (IsIdentChar(Peek())) Advance();
    return finish(Tok::kDirective);
  }
  if (c == '"') {
    Advance();
    while (pos_ < text_.size() && Peek() != '"' && Peek() != '\n') Advance();
    if (Peek() != '"') return error("unterminated string");
    Advance();
    return finish(Tok::kString, 1, 1);
  }
  if (c == '-' && Peek(1) == '>') {
    Advance(2);
    return finish(Tok::kArrow);
  }
  if (IsDigit(c) || (c == '-' && IsDigit(Peek(1)))) {
    Tok kind;
    if (!SkipNumber(c, &kind)) return error("expected hex digits after 0x");
    return finish(kind);
  }
  if (IsIdentStart(c)) {
    while (IsIdentChar(Peek())) Advance();
    // MLIR's builtin vector type and dense elements attribute
    // (`vector<4xi16>`, `dense<0>`): one token with their angle body.
    const std::string_view word = text_.substr(start, pos_ - start);
    if ((word == "vector" || word == "dense") && Peek() == '<') {
      if (!SkipAngleBody()) return error("unterminated '<' in a type or attribute");
      return finish(word == "vector" ? Tok::kType : Tok::kAttr);
    }
    return finish(Tok::kIdent);
  }
  switch (c) {
    case '(': case ')': case '[': case ']': case '{': case '}': case ',': case ':':
    case '=': case '?': case '<': case '>':
      Advance();
      return finish(Tok::kPunct);
    default:
      return error("unexpected character");
  }
}

}  // namespace program
}  // namespace pto
