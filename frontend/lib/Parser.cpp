//===- Parser.cpp - .coll text to coll spec ops ---------------------------===//
//
// A hand-written recursive-descent parser; the grammar is in docs/dsl.md.
// Every check that can point at the user's text is made here, so the
// message carries the right line and column; the op verifiers repeat the
// semantic ones for hand-written MLIR.
//
//===----------------------------------------------------------------------===//
#include "coll/Frontend/Parser.h"
#include "Lexer.h"

#include "coll/Dialect/CollOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>

using namespace mlir;
using namespace coll;

namespace {

/// What one `collective` declaration said, before it becomes an op.
struct Declaration {
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  CollectiveKind kind = CollectiveKind::allreduce;
  Type elementType; // null: any
  ReduceOp op = ReduceOp::sum;

  llvm::SMLoc ranksLoc;
  std::optional<int64_t> fixedRanks;
  llvm::StringRef rankVar;
  bool powerOfTwo = false;

  llvm::SMLoc groupLoc, groupArgLoc;
  std::optional<GroupKind> group;
  llvm::StringRef groupVar;
  std::optional<int64_t> groupFixed;

  llvm::SMLoc scheduleLoc;
  std::optional<ScheduleKind> schedule;
  int64_t butterflyR = 0;
};

class Parser {
public:
  Parser(llvm::SourceMgr &sourceMgr, MLIRContext *context, ModuleOp module)
      : sourceMgr(sourceMgr), context(context), builder(context),
        lexer(sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                  ->getBuffer()) {
    filename = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                   ->getBufferIdentifier();
    builder.setInsertionPointToEnd(module.getBody());
    consume();
  }

  LogicalResult parseFile();

private:
  // Token handling.
  void consume() { tok = lexer.next(); }
  Location loc(llvm::SMLoc where) {
    auto [line, col] = sourceMgr.getLineAndColumn(where);
    return FileLineColLoc::get(context, filename, line, col);
  }
  InFlightDiagnostic error(llvm::SMLoc where, const llvm::Twine &message) {
    return emitError(loc(where), message);
  }
  /// Reports the current token as unexpected, or the lexer's own message.
  LogicalResult unexpected(const llvm::Twine &expected) {
    if (tok.is(Token::error))
      return error(tok.loc, tok.message);
    if (tok.is(Token::eof))
      return error(tok.loc, "expected " + expected + ", found end of file");
    return error(tok.loc, "expected " + expected + ", found '" +
                              tok.spelling + "'");
  }
  LogicalResult expect(Token::Kind kind) {
    if (!tok.is(kind))
      return unexpected(Lexer::describe(kind));
    consume();
    return success();
  }
  /// `;` is reported at the end of the statement it should close.
  LogicalResult expectSemicolon(const Token &last, llvm::StringRef what) {
    if (tok.is(Token::semicolon)) {
      consume();
      return success();
    }
    if (tok.is(Token::error))
      return error(tok.loc, tok.message);
    return error(last.endLoc(), "expected ';' after " + what);
  }
  LogicalResult parseInteger(int64_t &value) {
    if (!tok.is(Token::integer))
      return unexpected("an integer");
    if (tok.spelling.getAsInteger(10, value))
      return error(tok.loc, "integer '" + tok.spelling + "' is too large");
    consume();
    return success();
  }

  // Grammar.
  LogicalResult parseCollective();
  LogicalResult parseKindArguments(Declaration &decl);
  LogicalResult parseStatement(Declaration &decl);
  LogicalResult parseRanks(Declaration &decl);
  LogicalResult parseGroup(Declaration &decl);
  LogicalResult parseSchedule(Declaration &decl);
  LogicalResult finish(Declaration &decl, llvm::SMLoc closeLoc);

  std::optional<Type> parseElementType(llvm::StringRef word);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  OpBuilder builder;
  Lexer lexer;
  Token tok;
  llvm::StringRef filename;
  llvm::StringMap<llvm::SMLoc> declared;
};

} // namespace

LogicalResult Parser::parseFile() {
  while (!tok.is(Token::eof))
    if (failed(parseCollective()))
      return failure();
  return success();
}

LogicalResult Parser::parseCollective() {
  if (!tok.isKeyword("collective"))
    return unexpected("'collective'");
  consume();
  Declaration decl;
  if (!tok.is(Token::identifier))
    return unexpected("a collective name");
  decl.name = tok.spelling;
  decl.nameLoc = tok.loc;
  auto [it, inserted] = declared.try_emplace(decl.name, tok.loc);
  if (!inserted) {
    InFlightDiagnostic diag =
        error(tok.loc, "redefinition of collective '" + decl.name + "'");
    diag.attachNote(loc(it->second)) << "previous definition is here";
    return diag;
  }
  consume();
  if (failed(expect(Token::colon)))
    return failure();

  if (!tok.is(Token::identifier))
    return unexpected("a collective kind");
  std::optional<CollectiveKind> kind = symbolizeCollectiveKind(tok.spelling);
  if (!kind)
    return error(tok.loc, "unknown collective kind '" + tok.spelling +
                              "'; expected allreduce, reduce_scatter or "
                              "allgather");
  if (*kind != CollectiveKind::allreduce &&
      *kind != CollectiveKind::reduce_scatter &&
      *kind != CollectiveKind::allgather)
    return error(tok.loc, "collective kind '" + tok.spelling +
                              "' is not available in .coll files yet; "
                              "expected allreduce, reduce_scatter or "
                              "allgather");
  decl.kind = *kind;
  consume();
  if (tok.is(Token::less) && failed(parseKindArguments(decl)))
    return failure();

  if (failed(expect(Token::l_brace)))
    return failure();
  while (!tok.is(Token::r_brace)) {
    if (tok.is(Token::eof))
      return error(tok.loc, "expected '}' to close collective '" + decl.name +
                                "', found end of file");
    if (failed(parseStatement(decl)))
      return failure();
  }
  llvm::SMLoc closeLoc = tok.loc;
  consume();
  return finish(decl, closeLoc);
}

std::optional<Type> Parser::parseElementType(llvm::StringRef word) {
  static const struct {
    const char *name;
    unsigned width;
    bool isFloat, isUnsigned;
  } types[] = {{"i8", 8, false, false},   {"i16", 16, false, false},
               {"i32", 32, false, false}, {"i64", 64, false, false},
               {"u8", 8, false, true},    {"u16", 16, false, true},
               {"u32", 32, false, true},  {"u64", 64, false, true},
               {"f32", 32, true, false},  {"f64", 64, true, false}};
  if (word == "any")
    return Type();
  for (const auto &t : types) {
    if (word != t.name)
      continue;
    if (t.isFloat)
      return t.width == 32 ? Type(builder.getF32Type())
                           : Type(builder.getF64Type());
    return Type(IntegerType::get(context, t.width,
                                 t.isUnsigned ? IntegerType::Unsigned
                                              : IntegerType::Signless));
  }
  return std::nullopt;
}

LogicalResult Parser::parseKindArguments(Declaration &decl) {
  consume(); // '<'
  if (!tok.is(Token::identifier))
    return unexpected("an element type");
  std::optional<Type> type = parseElementType(tok.spelling);
  if (!type)
    return error(tok.loc, "unknown element type '" + tok.spelling +
                              "'; expected any, i8, i16, i32, i64, u8, u16, "
                              "u32, u64, f32 or f64");
  decl.elementType = *type;
  consume();
  // allgather moves data without reducing it: no operator.
  if (decl.kind == CollectiveKind::allgather)
    return expect(Token::greater);
  if (failed(expect(Token::comma)))
    return failure();
  if (!tok.is(Token::identifier))
    return unexpected("an operator");
  std::optional<ReduceOp> op = symbolizeReduceOp(tok.spelling);
  if (!op)
    return error(tok.loc, "unknown operator '" + tok.spelling +
                              "'; expected sum, prod, min or max");
  decl.op = *op;
  consume();
  return expect(Token::greater);
}

LogicalResult Parser::parseStatement(Declaration &decl) {
  if (!tok.is(Token::identifier))
    return unexpected("a statement (ranks, group or schedule)");
  llvm::StringRef word = tok.spelling;
  auto duplicate = [&](llvm::SMLoc previous) -> LogicalResult {
    if (!previous.isValid())
      return success();
    InFlightDiagnostic diag =
        error(tok.loc, "duplicate '" + word + "' statement in collective '" +
                           decl.name + "'");
    diag.attachNote(loc(previous)) << "previous '" << word << "' is here";
    return diag;
  };
  if (word == "ranks") {
    if (failed(duplicate(decl.ranksLoc)))
      return failure();
    return parseRanks(decl);
  }
  if (word == "group") {
    if (failed(duplicate(decl.groupLoc)))
      return failure();
    return parseGroup(decl);
  }
  if (word == "schedule") {
    if (failed(duplicate(decl.scheduleLoc)))
      return failure();
    return parseSchedule(decl);
  }
  return error(tok.loc, "unknown statement '" + word +
                            "'; expected ranks, group or schedule");
}

LogicalResult Parser::parseRanks(Declaration &decl) {
  decl.ranksLoc = tok.loc;
  consume();
  Token last = tok;
  if (tok.is(Token::integer)) {
    int64_t count;
    llvm::SMLoc countLoc = tok.loc;
    if (failed(parseInteger(count)))
      return failure();
    if (count < 1)
      return error(countLoc, "rank count must be at least 1, got " +
                                 llvm::Twine(count));
    decl.fixedRanks = count;
    return expectSemicolon(last, "the ranks statement");
  }
  if (!tok.is(Token::identifier))
    return unexpected("a rank count or a name for it");
  decl.rankVar = tok.spelling;
  consume();
  if (!tok.isKeyword("where"))
    return expectSemicolon(last, "the ranks statement");
  consume();
  // where P == 2^k
  if (!tok.is(Token::identifier))
    return unexpected("a constraint such as 'P == 2^k'");
  if (tok.spelling != decl.rankVar)
    return error(tok.loc, "the constraint must be on the rank count '" +
                              decl.rankVar + "', not '" + tok.spelling + "'");
  consume();
  if (failed(expect(Token::equal_equal)))
    return failure();
  llvm::SMLoc baseLoc = tok.loc;
  int64_t base;
  if (failed(parseInteger(base)))
    return failure();
  if (base != 2)
    return error(baseLoc, "only power-of-two constraints ('" + decl.rankVar +
                              " == 2^k') are supported");
  if (failed(expect(Token::caret)))
    return failure();
  if (!tok.is(Token::identifier))
    return unexpected("an exponent name");
  last = tok;
  consume();
  decl.powerOfTwo = true;
  return expectSemicolon(last, "the ranks statement");
}

LogicalResult Parser::parseGroup(Declaration &decl) {
  decl.groupLoc = tok.loc;
  consume();
  if (!tok.is(Token::identifier))
    return unexpected("a group");
  std::optional<GroupKind> group = symbolizeGroupKind(tok.spelling);
  if (!group)
    return error(tok.loc, "unknown group '" + tok.spelling +
                              "'; expected cyclic or xor");
  decl.group = group;
  consume();
  if (failed(expect(Token::l_paren)))
    return failure();
  decl.groupArgLoc = tok.loc;
  if (tok.is(Token::integer)) {
    int64_t order;
    if (failed(parseInteger(order)))
      return failure();
    if (order < 1)
      return error(decl.groupArgLoc,
                   "group order must be at least 1, got " + llvm::Twine(order));
    decl.groupFixed = order;
  } else if (tok.is(Token::identifier)) {
    decl.groupVar = tok.spelling;
    consume();
  } else {
    return unexpected("the group order (a rank count or its name)");
  }
  Token last = tok;
  if (failed(expect(Token::r_paren)))
    return failure();
  return expectSemicolon(last, "the group statement");
}

LogicalResult Parser::parseSchedule(Declaration &decl) {
  decl.scheduleLoc = tok.loc;
  consume();
  if (!tok.is(Token::identifier))
    return unexpected("a schedule");
  std::optional<ScheduleKind> schedule = symbolizeScheduleKind(tok.spelling);
  if (!schedule)
    return error(tok.loc, "unknown schedule '" + tok.spelling +
                              "'; expected linear or butterfly");
  decl.schedule = schedule;
  Token last = tok;
  consume();
  if (tok.is(Token::l_paren)) {
    if (*schedule != ScheduleKind::butterfly)
      return error(tok.loc, "schedule '" + last.spelling +
                                "' takes no parameters");
    consume();
    if (!tok.isKeyword("r"))
      return unexpected("'r'");
    consume();
    if (failed(expect(Token::equal)))
      return failure();
    llvm::SMLoc rLoc = tok.loc;
    if (failed(parseInteger(decl.butterflyR)))
      return failure();
    if (decl.butterflyR != 0)
      return error(rLoc, "butterfly(r = " + llvm::Twine(decl.butterflyR) +
                             ") is not implemented yet; only r = 0 "
                             "(bandwidth-optimal) is");
    last = tok;
    if (failed(expect(Token::r_paren)))
      return failure();
  }
  return expectSemicolon(last, "the schedule statement");
}

LogicalResult Parser::finish(Declaration &decl, llvm::SMLoc closeLoc) {
  if (!decl.group)
    return error(closeLoc, "collective '" + decl.name +
                               "' needs a 'group' statement");
  if (!decl.schedule)
    return error(closeLoc, "collective '" + decl.name +
                               "' needs a 'schedule' statement");

  // The group's order must be the rank count, by name or by value.
  if (!decl.ranksLoc.isValid()) {
    decl.fixedRanks = decl.groupFixed;
    decl.rankVar = decl.groupVar;
  } else if (decl.groupFixed) {
    if (!decl.fixedRanks || *decl.fixedRanks != *decl.groupFixed) {
      InFlightDiagnostic diag = error(
          decl.groupArgLoc, "group order " + llvm::Twine(*decl.groupFixed) +
                                " does not match the rank count");
      diag.attachNote(loc(decl.ranksLoc)) << "rank count declared here";
      return diag;
    }
  } else if (decl.fixedRanks || decl.groupVar != decl.rankVar) {
    InFlightDiagnostic diag =
        error(decl.groupArgLoc, "group order '" + decl.groupVar +
                                    "' is not the rank count");
    diag.attachNote(loc(decl.ranksLoc)) << "rank count declared here";
    return diag;
  }

  if (*decl.group == GroupKind::xor_) {
    if (decl.fixedRanks && !llvm::isPowerOf2_64(*decl.fixedRanks))
      return error(decl.groupArgLoc,
                   "group xor(P) needs P to be a power of two, got P = " +
                       llvm::Twine(*decl.fixedRanks));
    if (!decl.fixedRanks && !decl.powerOfTwo)
      return error(decl.groupArgLoc,
                   "group xor(" + decl.rankVar +
                       ") needs a power-of-two rank count; write 'ranks " +
                       decl.rankVar + " where " + decl.rankVar + " == 2^k;'");
  }

  MLIRContext *ctx = context;
  IntegerAttr numRanks;
  if (decl.fixedRanks)
    numRanks = builder.getI64IntegerAttr(*decl.fixedRanks);
  builder.create<CollectiveOp>(
      loc(decl.nameLoc), builder.getStringAttr(decl.name),
      CollectiveKindAttr::get(ctx, decl.kind),
      decl.elementType ? TypeAttr::get(decl.elementType) : TypeAttr(),
      ReduceOpAttr::get(ctx, decl.op), numRanks,
      RankConstraintAttr::get(ctx, decl.powerOfTwo
                                       ? RankConstraint::power_of_two
                                       : RankConstraint::any),
      GroupKindAttr::get(ctx, *decl.group),
      ScheduleKindAttr::get(ctx, *decl.schedule),
      builder.getI64IntegerAttr(decl.butterflyR));
  return success();
}

OwningOpRef<ModuleOp> coll::parseCollFile(llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context) {
  context->getOrLoadDialect<CollDialect>();
  llvm::StringRef name =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferIdentifier();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(context, name, 1, 1));
  Parser parser(sourceMgr, context, *module);
  if (failed(parser.parseFile()))
    return nullptr;
  return module;
}
