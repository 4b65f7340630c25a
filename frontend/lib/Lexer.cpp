//===- Lexer.cpp - tokens of the .coll language ---------------------------===//
#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace coll;

Token Lexer::make(Token::Kind kind, const char *start) const {
  Token token;
  token.kind = kind;
  token.spelling = llvm::StringRef(start, cur - start);
  token.loc = llvm::SMLoc::getFromPointer(start);
  return token;
}

Token Lexer::makeError(const char *start, std::string message) const {
  Token token = make(Token::error, start);
  token.message = std::move(message);
  return token;
}

Token Lexer::next() {
  const char *end = buffer.end();
  // Skip whitespace and comments.
  while (cur != end) {
    if (llvm::isSpace(*cur)) {
      ++cur;
    } else if (*cur == '/' && cur + 1 != end && cur[1] == '/') {
      while (cur != end && *cur != '\n')
        ++cur;
    } else if (*cur == '/' && cur + 1 != end && cur[1] == '*') {
      const char *start = cur;
      cur += 2;
      while (cur != end && !(*cur == '*' && cur + 1 != end && cur[1] == '/'))
        ++cur;
      if (cur == end)
        return makeError(start, "unterminated comment");
      cur += 2;
    } else {
      break;
    }
  }
  const char *start = cur;
  if (cur == end)
    return make(Token::eof, start);

  char c = *cur++;
  if (llvm::isAlpha(c) || c == '_') {
    while (cur != end && (llvm::isAlnum(*cur) || *cur == '_'))
      ++cur;
    return make(Token::identifier, start);
  }
  if (llvm::isDigit(c)) {
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
    return make(Token::integer, start);
  }
  switch (c) {
  case ':':
    return make(Token::colon, start);
  case ';':
    return make(Token::semicolon, start);
  case ',':
    return make(Token::comma, start);
  case '{':
    return make(Token::l_brace, start);
  case '}':
    return make(Token::r_brace, start);
  case '(':
    return make(Token::l_paren, start);
  case ')':
    return make(Token::r_paren, start);
  case '<':
    return make(Token::less, start);
  case '>':
    return make(Token::greater, start);
  case '^':
    return make(Token::caret, start);
  case '*':
    return make(Token::star, start);
  case '=':
    if (cur != end && *cur == '=') {
      ++cur;
      return make(Token::equal_equal, start);
    }
    return make(Token::equal, start);
  default:
    break;
  }
  std::string shown = llvm::isPrint(c) ? std::string(1, c)
                                       : "\\x" + llvm::utohexstr(
                                                     static_cast<uint8_t>(c));
  return makeError(start, "unexpected character '" + shown + "'");
}

const char *Lexer::describe(Token::Kind kind) {
  switch (kind) {
  case Token::eof:
    return "end of file";
  case Token::error:
    return "invalid token";
  case Token::identifier:
    return "identifier";
  case Token::integer:
    return "integer";
  case Token::colon:
    return "':'";
  case Token::semicolon:
    return "';'";
  case Token::comma:
    return "','";
  case Token::l_brace:
    return "'{'";
  case Token::r_brace:
    return "'}'";
  case Token::l_paren:
    return "'('";
  case Token::r_paren:
    return "')'";
  case Token::less:
    return "'<'";
  case Token::greater:
    return "'>'";
  case Token::equal:
    return "'='";
  case Token::equal_equal:
    return "'=='";
  case Token::caret:
    return "'^'";
  case Token::star:
    return "'*'";
  }
  return "token";
}
