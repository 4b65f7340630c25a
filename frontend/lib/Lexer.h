//===- Lexer.h - tokens of the .coll language -------------------*- C++ -*-===//
#ifndef COLL_FRONTEND_LEXER_H
#define COLL_FRONTEND_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace coll {

struct Token {
  enum Kind {
    eof,
    error, // the lexer already described the problem in `spelling`
    identifier,
    integer,
    colon,
    semicolon,
    comma,
    l_brace,
    r_brace,
    l_paren,
    r_paren,
    less,
    greater,
    equal,
    equal_equal,
    caret,
    star,
  };
  Kind kind = eof;
  llvm::StringRef spelling;
  llvm::SMLoc loc;
  std::string message; // for `error` tokens

  bool is(Kind k) const { return kind == k; }
  bool isKeyword(llvm::StringRef word) const {
    return kind == identifier && spelling == word;
  }
  /// The location just past the token, where a missing `;` belongs.
  llvm::SMLoc endLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.end());
  }
};

/// Splits .coll text into tokens, skipping whitespace and comments
/// (`// ...` to the end of the line and `/* ... */`).
class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer) : buffer(buffer), cur(buffer.begin()) {}
  Token next();
  /// Whether the token after the current position is keyword `word`,
  /// without consuming it (one token of lookahead).
  bool peekIsKeyword(llvm::StringRef word) {
    const char *saved = cur;
    Token t = next();
    cur = saved;
    return t.isKeyword(word);
  }

  /// Describes `kind` for messages such as "expected ';'".
  static const char *describe(Token::Kind kind);

private:
  Token make(Token::Kind kind, const char *start) const;
  Token makeError(const char *start, std::string message) const;

  llvm::StringRef buffer;
  const char *cur;
};

} // namespace coll

#endif
