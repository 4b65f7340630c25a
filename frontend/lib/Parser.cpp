//===- Parser.cpp - .coll text to coll spec ops ---------------------------===//
//
// A hand-written recursive-descent parser; the grammar is in docs/dsl.md.
// Every check that can point at the user's text is made here, so the
// message carries the right line and column; the op verifiers repeat the
// semantic ones for hand-written MLIR.
//
//===----------------------------------------------------------------------===//
#include "coll/Frontend/Parser.h"
#include "coll/Dialect/Catalogue.h"
#include "coll/Frontend/Nesting.h"
#include "Lexer.h"

#include "coll/Dialect/CollOps.h"
#include "coll/Dialect/PermutationGroup.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>

using namespace mlir;
using namespace coll;

namespace {

/// What one `collective` declaration said, before it becomes an op.
struct Declaration {
  std::string name;
  llvm::SMLoc nameLoc;
  // A candidate of `choose { name { ... } ... }`: the dispatcher's name.
  std::string choiceOf;
  CollectiveKind kind = CollectiveKind::allreduce;
  Type elementType; // null: any
  ReduceOp op = ReduceOp::sum;
  bool noncommutative = false;

  llvm::SMLoc ranksLoc;
  std::optional<int64_t> fixedRanks;
  llvm::StringRef rankVar;
  bool powerOfTwo = false;

  llvm::SMLoc groupLoc, groupArgLoc;
  std::optional<GroupKind> group;
  llvm::StringRef groupVar;
  std::optional<int64_t> groupFixed;
  // `cyclic(3) * xor(4)`: the factors (kind, order); `generated { ... }`:
  // each generator's cycles, every rank with its location.
  std::vector<std::pair<GroupKind, int64_t>> factors;
  using Cycle = std::vector<std::pair<int64_t, llvm::SMLoc>>;
  std::vector<std::vector<Cycle>> generatorCycles;
  std::vector<Permutation> generators;

  llvm::SMLoc scheduleLoc;
  std::optional<ScheduleKind> schedule;
  int64_t butterflyR = 0; // kButterflyMax for `r = max`
  llvm::SMLoc butterflyRLoc;
  bool autoR = false; // `r = auto`: a choice over r, by the cost model
  bool autoArity = false; // `tree arity(auto)`: a choice over the arity
  bool autoSegments = false; // `segments = auto`: a choice over S
  llvm::SMLoc autoLoc;

  // `tree flat | binomial | arity(k) [flat_below(t)]` sets the schedule.
  llvm::SMLoc treeLoc;
  std::optional<int64_t> arity, flatBelow;

  llvm::SMLoc rootLoc, rootValueLoc;
  std::optional<int64_t> root;
  bool anyRoot = false; // `root = any;`: the caller passes the root

  // `digits radix(k) | balanced_ternary [reconfigure auto]` sets the
  // schedule.
  llvm::SMLoc digitsLoc, reconfigureLoc;
  std::optional<int64_t> radix;

  // `segments = S`: pipeline S segments of the buffer.
  llvm::SMLoc segmentsLoc;
  std::optional<int64_t> segments;

  // `choose { a { ... } b { ... } }`: the candidates' own statements.
  llvm::SMLoc chooseLoc;
  std::vector<Declaration> candidates;
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
  LogicalResult parseGeneratedGroup(Declaration &decl);
  LogicalResult parseSegments(Declaration &decl);
  /// An error at the first of `offending` that was given (a statement that
  /// does not belong), with a note at `anchor`; success when none was.
  LogicalResult rejectStatements(std::initializer_list<llvm::SMLoc> offending,
                                 const llvm::Twine &message, llvm::SMLoc anchor,
                                 const llvm::Twine &note) {
    for (llvm::SMLoc at : offending) {
      if (!at.isValid())
        continue;
      InFlightDiagnostic diag = error(at, message);
      diag.attachNote(loc(anchor)) << note.str();
      return diag;
    }
    return success();
  }
  LogicalResult parseChoose(Declaration &decl);
  LogicalResult expandAuto(Declaration &decl);
  LogicalResult finishChoice(Declaration &decl, llvm::SMLoc closeLoc);
  LogicalResult checkGeneratedGroup(Declaration &decl);
  LogicalResult parseSchedule(Declaration &decl);
  LogicalResult parseTree(Declaration &decl);
  LogicalResult parseRoot(Declaration &decl);
  LogicalResult parseDigits(Declaration &decl);
  LogicalResult parseParenthesizedInteger(int64_t &value, llvm::StringRef param);
  LogicalResult finish(Declaration &decl, llvm::SMLoc closeLoc);
  LogicalResult finishTree(Declaration &decl, llvm::SMLoc closeLoc);
  LogicalResult finishDigits(Declaration &decl, llvm::SMLoc closeLoc);
  LogicalResult finishScan(Declaration &decl, llvm::SMLoc closeLoc);
  LogicalResult checkAndBuild(const Declaration &decl);
  void build(const Declaration &decl);

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
  decl.name = tok.spelling.str();
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
                              "'; expected allreduce, reduce_scatter, "
                              "allgather, alltoall, broadcast, reduce, "
                              "gather, scatter, inclusive_scan, "
                              "exclusive_scan or barrier");
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
  if ((decl.autoR || decl.autoArity || decl.autoSegments) &&
      failed(expandAuto(decl)))
    return failure();
  if (decl.chooseLoc.isValid())
    return finishChoice(decl, closeLoc);
  return finish(decl, closeLoc);
}

/// `butterfly(r = auto)`, `tree arity(auto)` and `segments = auto`: a
/// choice over the catalogue's values (coll::autoValues: r = 0 ..
/// ceil(log2 P) - 1 and max, arities 2, 3, 4, 8 and 16 below a fixed P,
/// S = 1, 2, 4, ..., 256), candidates NAME_rN, NAME_aK and NAME_sS. The
/// cost model picks at compile time.
LogicalResult Parser::expandAuto(Declaration &decl) {
  llvm::SMLoc at = decl.autoR          ? decl.butterflyRLoc
                   : decl.autoSegments ? decl.segmentsLoc
                                       : decl.autoLoc;
  std::string what = decl.autoR          ? "r = auto"
                     : decl.autoSegments ? "segments = auto"
                                         : "arity(auto)";
  if (decl.autoR + decl.autoArity + decl.autoSegments > 1)
    return error(at, what + " together with another auto parameter; one "
                            "parameter per collective is chosen by the "
                            "model (write a choose block for more)");
  if (decl.chooseLoc.isValid())
    return error(at, what + " inside choose; give the candidates fixed values");
  if (const FamilyInfo &shifted = familyInfo(Family::shiftedButterfly);
      decl.autoR && !llvm::is_contained(shifted.kinds, decl.kind))
    return error(at, "butterfly(r = auto) tries " +
                         std::string(shifted.name) + " ('" + shifted.spelling +
                         "'), which serves " + kindList(shifted.kinds) +
                         ", not " +
                         stringifyCollectiveKind(decl.kind).str() +
                         "; use r = 0");
  // The values auto tries are the catalogue's.
  std::vector<std::pair<std::string, int64_t>> values;
  llvm::StringRef param = decl.autoSegments ? "segments"
                          : decl.autoR      ? "r"
                                            : "arity";
  std::string prefix = decl.autoSegments ? "_s" : decl.autoR ? "_r" : "_a";
  for (int64_t v : autoValues(param, decl.fixedRanks))
    values.push_back({prefix + (v == kButterflyMax ? std::string("max")
                                                   : std::to_string(v)),
                      v});
  if (values.size() < 2) // nothing to choose between: the one value
    return decl.autoR ? (decl.butterflyR = values[0].second, success())
                      : (decl.arity = values[0].second, success());
  for (auto [suffix, value] : values) {
    Declaration candidate = decl;
    candidate.autoR = candidate.autoArity = candidate.autoSegments = false;
    if (decl.autoSegments)
      candidate.segments = value;
    else
      (decl.autoR ? candidate.butterflyR : *candidate.arity) = value;
    candidate.choiceOf = decl.name;
    candidate.name = decl.name + suffix;
    candidate.candidates.clear();
    auto [it, inserted] = declared.try_emplace(candidate.name, decl.nameLoc);
    if (!inserted)
      return error(decl.nameLoc, what + " makes a collective '" +
                                     candidate.name + "', which exists");
    decl.candidates.push_back(std::move(candidate));
  }
  // The candidates carry the schedule; the dispatcher carries none.
  decl.chooseLoc = at;
  decl.groupLoc = decl.scheduleLoc = decl.treeLoc = llvm::SMLoc();
  decl.segmentsLoc = llvm::SMLoc();
  return success();
}

/// choose { NAME { statements } ... }: each candidate is a collective of
/// its own, NAME prefixed with the dispatcher's name and '_'.
LogicalResult Parser::parseChoose(Declaration &decl) {
  decl.chooseLoc = tok.loc;
  consume();
  if (failed(expect(Token::l_brace)))
    return failure();
  while (!tok.is(Token::r_brace)) {
    if (!tok.is(Token::identifier))
      return unexpected("a candidate name or '}'");
    Declaration candidate;
    candidate.name = decl.name + "_" + tok.spelling.str();
    candidate.nameLoc = tok.loc;
    candidate.choiceOf = decl.name;
    candidate.kind = decl.kind;
    candidate.elementType = decl.elementType;
    candidate.op = decl.op;
    candidate.noncommutative = decl.noncommutative;
    auto [it, inserted] = declared.try_emplace(candidate.name, tok.loc);
    if (!inserted) {
      InFlightDiagnostic diag = error(
          tok.loc, "candidate '" + tok.spelling + "' makes a second '" +
                       candidate.name + "'");
      diag.attachNote(loc(it->second)) << "the first is here";
      return diag;
    }
    consume();
    if (failed(expect(Token::l_brace)))
      return failure();
    while (!tok.is(Token::r_brace)) {
      if (tok.is(Token::eof))
        return error(tok.loc, "expected '}' to close candidate '" +
                                  candidate.name + "', found end of file");
      if (tok.isKeyword("choose"))
        return error(tok.loc, "a candidate cannot choose again");
      if (failed(parseStatement(candidate)))
        return failure();
    }
    consume();
    decl.candidates.push_back(std::move(candidate));
  }
  consume();
  if (decl.candidates.size() < 2)
    return error(decl.chooseLoc, "choose needs at least two candidates");
  return success();
}

/// The candidates take the ranks and root of the enclosing collective
/// unless they state their own; the enclosing one states no schedule.
LogicalResult Parser::finishChoice(Declaration &decl, llvm::SMLoc closeLoc) {
  if (failed(rejectStatements({decl.groupLoc, decl.scheduleLoc, decl.treeLoc,
                                decl.digitsLoc, decl.segmentsLoc},
                               "a collective that chooses states its "
                               "schedules in the candidates",
                               decl.chooseLoc, "the choice is here")))
    return failure();
  if (decl.kind == CollectiveKind::barrier)
    return error(decl.chooseLoc, "choose picks by message size; a barrier "
                                 "has none");
  for (Declaration &candidate : decl.candidates) {
    if (!candidate.ranksLoc.isValid()) {
      candidate.ranksLoc = decl.ranksLoc;
      candidate.fixedRanks = decl.fixedRanks;
      candidate.rankVar = decl.rankVar;
      candidate.powerOfTwo = decl.powerOfTwo;
    }
    if (!candidate.rootLoc.isValid()) {
      candidate.rootLoc = decl.rootLoc;
      candidate.rootValueLoc = decl.rootValueLoc;
      candidate.root = decl.root;
      candidate.anyRoot = decl.anyRoot;
    } else if (decl.rootLoc.isValid() && (candidate.root != decl.root ||
                                          candidate.anyRoot != decl.anyRoot)) {
      InFlightDiagnostic diag =
          error(candidate.rootLoc,
                "a candidate's root differs from the collective's; the "
                "candidates of a choice share the collective's root");
      diag.attachNote(loc(decl.rootLoc)) << "the collective's root is here";
      return diag;
    }
    if (candidate.root != decl.candidates.front().root ||
        candidate.anyRoot != decl.candidates.front().anyRoot)
      return error(candidate.rootLoc.isValid() ? candidate.rootLoc
                                               : candidate.nameLoc,
                   "the candidates of a choice share one root");
    if (failed(finish(candidate, closeLoc)))
      return failure();
  }
  return success();
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
  if (decl.kind == CollectiveKind::barrier)
    return error(tok.loc, "barrier moves no data: it takes no element type "
                          "or operator");
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
  // Kinds that move data without reducing it take no operator.
  if (!takesOperator(decl.kind))
    return expect(Token::greater);
  if (failed(expect(Token::comma)))
    return failure();
  if (!tok.is(Token::identifier))
    return unexpected("an operator");
  std::optional<ReduceOp> op = symbolizeReduceOp(tok.spelling);
  if (!op)
    return error(tok.loc, "unknown operator '" + tok.spelling +
                              "'; expected sum, prod, min, max or custom");
  decl.op = *op;
  consume();
  // `custom noncommutative`: the caller's operator, folded in rank order.
  if (tok.isKeyword("noncommutative")) {
    if (std::optional<std::string> bad = checkOperator(decl.op, true))
      return error(tok.loc, *bad);
    decl.noncommutative = true;
    consume();
  }
  return expect(Token::greater);
}

LogicalResult Parser::parseStatement(Declaration &decl) {
  if (!tok.is(Token::identifier))
    return unexpected(
        "a statement (ranks, group, schedule, tree, digits, root, "
        "segments or choose)");
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
  // Each statement once; its parser records where it was.
  static const struct {
    const char *word;
    llvm::SMLoc Declaration::*seen;
    LogicalResult (Parser::*parse)(Declaration &);
  } statements[] = {{"ranks", &Declaration::ranksLoc, &Parser::parseRanks},
                    {"group", &Declaration::groupLoc, &Parser::parseGroup},
                    {"schedule", &Declaration::scheduleLoc,
                     &Parser::parseSchedule},
                    {"tree", &Declaration::treeLoc, &Parser::parseTree},
                    {"root", &Declaration::rootLoc, &Parser::parseRoot},
                    {"digits", &Declaration::digitsLoc, &Parser::parseDigits},
                    {"segments", &Declaration::segmentsLoc,
                     &Parser::parseSegments},
                    {"choose", &Declaration::chooseLoc, &Parser::parseChoose}};
  for (const auto &statement : statements) {
    if (word != statement.word)
      continue;
    if (failed(duplicate(decl.*statement.seen)))
      return failure();
    return (this->*statement.parse)(decl);
  }
  return error(tok.loc, "unknown statement '" + word +
                            "'; expected ranks, group, schedule, tree, "
                            "digits, root, segments or choose");
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

/// group := factor ('*' factor)* | 'generated' '{' generator (',' generator)* '}'
/// factor := ('cyclic' | 'xor') '(' (integer | name) ')'
/// generator := cycle+, cycle := '(' integer* ')'
LogicalResult Parser::parseGroup(Declaration &decl) {
  decl.groupLoc = tok.loc;
  consume();
  if (tok.isKeyword("generated"))
    return parseGeneratedGroup(decl);
  Token last = tok;
  for (;;) {
    if (!tok.is(Token::identifier))
      return unexpected("a group");
    std::optional<GroupKind> group = symbolizeGroupKind(tok.spelling);
    if (!group || *group == GroupKind::generated)
      return error(tok.loc, "unknown group '" + tok.spelling +
                                "'; expected cyclic, xor or generated");
    consume();
    if (failed(expect(Token::l_paren)))
      return failure();
    llvm::SMLoc argLoc = tok.loc;
    if (!decl.groupArgLoc.isValid())
      decl.groupArgLoc = argLoc;
    std::optional<int64_t> order;
    if (tok.is(Token::integer)) {
      int64_t value;
      if (failed(parseInteger(value)))
        return failure();
      if (value < 1)
        return error(argLoc, "group order must be at least 1, got " +
                                 llvm::Twine(value));
      order = value;
    } else if (tok.is(Token::identifier)) {
      decl.groupVar = tok.spelling;
      consume();
    } else {
      return unexpected("the group order (a rank count or its name)");
    }
    last = tok;
    if (failed(expect(Token::r_paren)))
      return failure();
    bool more = tok.is(Token::star);
    if ((more || !decl.factors.empty()) && !order)
      return error(argLoc, "a factor of a product group needs a fixed order, "
                           "not '" + decl.groupVar + "'");
    if ((more || !decl.factors.empty()) && *group == GroupKind::xor_)
      if (std::optional<std::string> bad = checkXorOrder(*order, "n"))
        return error(argLoc, *bad);
    decl.factors.push_back({*group, order.value_or(0)});
    if (!more)
      break;
    consume();
  }
  if (decl.factors.size() == 1) {
    decl.group = decl.factors.front().first;
    if (decl.factors.front().second > 0)
      decl.groupFixed = decl.factors.front().second;
  } else {
    // A product is generated by its factors' generators (mixed radix).
    decl.group = GroupKind::generated;
    int64_t order = 1;
    for (auto [kind, n] : decl.factors)
      order *= n;
    decl.groupFixed = order;
  }
  return expectSemicolon(last, "the group statement");
}

LogicalResult Parser::parseGeneratedGroup(Declaration &decl) {
  decl.groupArgLoc = tok.loc;
  decl.group = GroupKind::generated;
  consume();
  if (failed(expect(Token::l_brace)))
    return failure();
  for (;;) {
    std::vector<Declaration::Cycle> cycles;
    if (!tok.is(Token::l_paren))
      return unexpected("a generator in cycle notation, such as '(0 1)(2 3)'");
    while (tok.is(Token::l_paren)) {
      consume();
      Declaration::Cycle cycle;
      while (tok.is(Token::integer)) {
        llvm::SMLoc at = tok.loc;
        int64_t rank;
        if (failed(parseInteger(rank)))
          return failure();
        cycle.push_back({rank, at});
      }
      if (failed(expect(Token::r_paren)))
        return failure();
      cycles.push_back(std::move(cycle));
    }
    decl.generatorCycles.push_back(std::move(cycles));
    if (tok.is(Token::comma)) {
      consume();
      continue;
    }
    Token last = tok;
    if (failed(expect(Token::r_brace)))
      return failure();
    return expectSemicolon(last, "the group statement");
  }
}

LogicalResult Parser::parseSchedule(Declaration &decl) {
  decl.scheduleLoc = tok.loc;
  consume();
  if (!tok.is(Token::identifier))
    return unexpected("a schedule");
  std::optional<ScheduleKind> schedule = symbolizeScheduleKind(tok.spelling);
  if (schedule && isTreeSchedule(*schedule))
    return error(tok.loc, "'" + tok.spelling + "' is a tree; write 'tree " +
                              tok.spelling + ";' instead of a schedule");
  if (schedule && isDigitSchedule(*schedule) &&
      *schedule != ScheduleKind::direct)
    return error(tok.loc, "'" + tok.spelling +
                              "' is a digit routing; write 'digits " +
                              tok.spelling +
                              (*schedule == ScheduleKind::radix ? "(k)" : "") +
                              ";' instead of a schedule");
  if (!schedule)
    return error(tok.loc, "unknown schedule '" + tok.spelling +
                              "'; expected linear, butterfly, direct or "
                              "doubling");
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
    decl.butterflyRLoc = tok.loc;
    if (tok.isKeyword("max")) {
      decl.butterflyR = kButterflyMax;
      consume();
    } else if (tok.isKeyword("auto")) {
      decl.autoR = true;
      consume();
    } else if (!tok.is(Token::integer)) {
      return unexpected("an integer, 'max' or 'auto'");
    } else if (failed(parseInteger(decl.butterflyR))) {
      return failure();
    }
    last = tok;
    if (failed(expect(Token::r_paren)))
      return failure();
  }
  return expectSemicolon(last, "the schedule statement");
}

/// `(N)` for the catalogue's parameter `param`, in its range.
LogicalResult Parser::parseParenthesizedInteger(int64_t &value,
                                                llvm::StringRef param) {
  if (failed(expect(Token::l_paren)))
    return failure();
  llvm::SMLoc valueLoc = tok.loc;
  if (failed(parseInteger(value)))
    return failure();
  if (std::optional<std::string> bad = checkParameter(param, value))
    return error(valueLoc, *bad);
  return expect(Token::r_paren);
}

LogicalResult Parser::parseTree(Declaration &decl) {
  decl.treeLoc = tok.loc;
  consume();
  if (!tok.is(Token::identifier))
    return unexpected("a tree (flat, binomial, chain or arity(k))");
  Token last = tok;
  if (tok.spelling == "flat" || tok.spelling == "binomial" ||
      tok.spelling == "chain") {
    decl.schedule = tok.spelling == "flat"       ? ScheduleKind::flat
                    : tok.spelling == "binomial" ? ScheduleKind::binomial
                                                 : ScheduleKind::chain;
    consume();
    return expectSemicolon(last, "the tree statement");
  }
  if (tok.spelling != "arity")
    return error(tok.loc, "unknown tree '" + tok.spelling +
                              "'; expected flat, binomial, chain or arity(k)");
  decl.schedule = ScheduleKind::hierarchical;
  consume();
  // flat_below's default: HPX's threshold (seeds/000), in the catalogue.
  int64_t arity = 2, flatBelow = *parameterDefault("flat_below");
  if (tok.is(Token::l_paren) && lexer.peekIsKeyword("auto")) {
    consume();
    decl.autoLoc = tok.loc;
    decl.autoArity = true;
    consume();
    if (failed(expect(Token::r_paren)))
      return failure();
  } else if (failed(parseParenthesizedInteger(arity, "arity"))) {
    return failure();
  }
  if (tok.isKeyword("flat_below")) {
    consume();
    if (failed(parseParenthesizedInteger(flatBelow, "flat_below")))
      return failure();
  }
  decl.arity = arity;
  decl.flatBelow = flatBelow;
  if (tok.is(Token::semicolon)) {
    consume();
    return success();
  }
  if (tok.is(Token::identifier))
    return error(tok.loc, "unknown tree parameter '" + tok.spelling +
                              "'; expected flat_below(t)");
  return error(tok.loc, "expected ';' after the tree statement");
}

LogicalResult Parser::parseDigits(Declaration &decl) {
  decl.digitsLoc = tok.loc;
  consume();
  if (!tok.is(Token::identifier))
    return unexpected("a number system (radix(k) or balanced_ternary)");
  Token last = tok;
  if (tok.spelling == "balanced_ternary") {
    decl.schedule = ScheduleKind::balanced_ternary;
    consume();
  } else if (tok.spelling == "radix") {
    decl.schedule = ScheduleKind::radix;
    consume();
    int64_t radix;
    last = tok;
    if (failed(parseParenthesizedInteger(radix, "radix")))
      return failure();
    decl.radix = radix;
  } else {
    return error(tok.loc, "unknown number system '" + tok.spelling +
                              "'; expected radix(k) or balanced_ternary");
  }
  // `reconfigure auto`: where to set an optical circuit switch (seed 002).
  if (tok.isKeyword("reconfigure")) {
    decl.reconfigureLoc = tok.loc;
    consume();
    if (!tok.isKeyword("auto"))
      return unexpected("'auto' after 'reconfigure'");
    last = tok;
    consume();
  }
  if (tok.is(Token::semicolon)) {
    consume();
    return success();
  }
  if (tok.is(Token::identifier))
    return error(tok.loc, "unknown digits parameter '" + tok.spelling +
                              "'; expected reconfigure auto");
  return expectSemicolon(last, "the digits statement");
}

LogicalResult Parser::parseRoot(Declaration &decl) {
  decl.rootLoc = tok.loc;
  consume();
  if (failed(expect(Token::equal)))
    return failure();
  decl.rootValueLoc = tok.loc;
  Token last = tok;
  if (tok.isKeyword("any")) {
    consume();
    decl.anyRoot = true;
    return expectSemicolon(last, "the root statement");
  }
  if (!tok.is(Token::integer))
    return unexpected("a rank or 'any' for root");
  int64_t root;
  if (failed(parseInteger(root)))
    return failure();
  decl.root = root;
  return expectSemicolon(last, "the root statement");
}

LogicalResult Parser::parseSegments(Declaration &decl) {
  decl.segmentsLoc = tok.loc;
  consume();
  if (failed(expect(Token::equal)))
    return failure();
  llvm::SMLoc at = tok.loc;
  if (tok.isKeyword("auto")) {
    Token last = tok;
    consume();
    decl.autoSegments = true;
    return expectSemicolon(last, "the segments statement");
  }
  if (tok.is(Token::identifier))
    return error(at, "expected an integer or 'auto' for segments, found '" +
                         tok.spelling + "'");
  Token last = tok;
  int64_t segments;
  if (failed(parseInteger(segments)))
    return failure();
  if (std::optional<std::string> bad = checkParameter("segments", segments))
    return error(at, *bad);
  decl.segments = segments;
  return expectSemicolon(last, "the segments statement");
}

LogicalResult Parser::finish(Declaration &decl, llvm::SMLoc closeLoc) {
  bool rooted = isRooted(decl.kind);
  // The catalogue's root rule (its range part waits for the rank count).
  if (std::optional<std::string> bad =
          checkRoot(decl.kind, decl.root, std::nullopt, decl.anyRoot))
    return decl.root || decl.anyRoot ? error(decl.rootLoc, *bad)
                     : error(closeLoc, "collective '" + decl.name + "' " +
                                           *bad + " ('root = k;' or 'root = any;')");
  if (decl.treeLoc.isValid())
    return finishTree(decl, closeLoc);
  if (isScan(decl.kind) || decl.schedule == ScheduleKind::doubling)
    return finishScan(decl, closeLoc);
  if (decl.kind == CollectiveKind::barrier && !decl.group && !decl.schedule)
    return error(closeLoc, "collective '" + decl.name +
                               "' of kind barrier needs a 'tree' statement "
                               "(flat, binomial, chain or arity(k)) or 'group "
                               "G; schedule butterfly(r = N);'");
  bool direct = decl.schedule == ScheduleKind::direct;
  if (decl.digitsLoc.isValid() || direct ||
      decl.kind == CollectiveKind::alltoall)
    return finishDigits(decl, closeLoc);
  if (rooted)
    return error(closeLoc, "collective '" + decl.name + "' of kind " +
                               stringifyCollectiveKind(decl.kind) +
                               " needs a 'tree' statement (flat, binomial, chain or "
                               "arity(k))");
  if (!decl.group)
    return error(closeLoc, "collective '" + decl.name +
                               "' needs a 'group' statement");
  if (!decl.schedule)
    return error(closeLoc, "collective '" + decl.name +
                               "' needs a 'schedule' statement");

  // The group's order must be the rank count, by name or by value.
  bool explicitGenerators = !decl.generatorCycles.empty();
  if (explicitGenerators) {
    std::optional<int64_t> fixed;
    if (decl.ranksLoc.isValid())
      fixed = decl.fixedRanks;
    if (std::optional<std::string> bad =
            coll::checkGeneratedGroup({}, fixed, ScheduleKind::linear))
      return error(decl.groupLoc, *bad + "; declare 'ranks N;'");
  } else if (!decl.ranksLoc.isValid()) {
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

  if (*decl.group == GroupKind::generated && failed(checkGeneratedGroup(decl)))
    return failure();
  return checkAndBuild(decl);
}

LogicalResult Parser::finishTree(Declaration &decl, llvm::SMLoc closeLoc) {
  if (failed(rejectStatements({decl.groupLoc, decl.scheduleLoc},
                               "a collective takes either a 'tree' or a "
                               "'group' and 'schedule', not both",
                               decl.treeLoc, "the tree is here")))
    return failure();
  if (!decl.ranksLoc.isValid())
    return error(closeLoc, "collective '" + decl.name +
                               "' needs a 'ranks' statement");
  if (std::optional<std::string> bad =
          checkRoot(decl.kind, decl.root, decl.fixedRanks, decl.anyRoot)) {
    InFlightDiagnostic diag = error(decl.rootValueLoc, *bad);
    diag.attachNote(loc(decl.ranksLoc)) << "rank count declared here";
    return diag;
  }
  return checkAndBuild(decl);
}

LogicalResult Parser::finishScan(Declaration &decl, llvm::SMLoc closeLoc) {
  if (!isScan(decl.kind)) // schedule doubling elsewhere
    return checkAndBuild(decl);
  if (decl.digitsLoc.isValid()) // the catalogue says which kinds it serves
    return checkAndBuild(decl);
  if (!decl.schedule || (*decl.schedule != ScheduleKind::linear &&
                         *decl.schedule != ScheduleKind::doubling))
    return error(decl.scheduleLoc.isValid() ? decl.scheduleLoc : closeLoc,
                 "collective '" + decl.name + "' of kind " +
                     stringifyCollectiveKind(decl.kind) +
                     " needs " + schedulesFor(decl.kind));
  if (!decl.ranksLoc.isValid())
    return error(closeLoc, "collective '" + decl.name +
                               "' needs a 'ranks' statement");
  return checkAndBuild(decl);
}

/// Digit routings: alltoall's, and `digits balanced_ternary;` on allreduce
/// (Trivance, seeds/002: peers r +- 3^k). Neither takes a group.
LogicalResult Parser::finishDigits(Declaration &decl, llvm::SMLoc closeLoc) {
  llvm::SMLoc routing =
      decl.digitsLoc.isValid() ? decl.digitsLoc : decl.scheduleLoc;
  if (routing.isValid() && decl.kind != CollectiveKind::alltoall &&
      decl.schedule && isDigitSchedule(*decl.schedule))
    return checkAndBuild(decl); // the catalogue names what it serves
  if (!routing.isValid() || (decl.schedule && !isDigitSchedule(*decl.schedule)))
    return error(routing.isValid() ? routing : closeLoc,
                 "collective '" + decl.name + "' of kind alltoall needs " +
                     schedulesFor(CollectiveKind::alltoall));
  if (decl.digitsLoc.isValid() &&
      failed(rejectStatements({decl.scheduleLoc},
                              "a collective takes either 'digits' or a "
                              "'schedule', not both",
                              decl.digitsLoc, "the digits are here")))
    return failure();
  if (!decl.ranksLoc.isValid())
    return error(closeLoc, "collective '" + decl.name +
                               "' needs a 'ranks' statement");
  return checkAndBuild(decl);
}

/// The generators of a product or of `generated { ... }` as permutations of
/// the P ranks, checked: each a permutation, together abelian, transitive
/// and of order P, and enumerable for the butterfly if it is the schedule.
LogicalResult Parser::checkGeneratedGroup(Declaration &decl) {
  int64_t P = *decl.fixedRanks;
  if (decl.generatorCycles.empty()) {
    // cyclic(n) adds 1 to its digit; xor(n) flips one bit of it.
    std::vector<int64_t> orders;
    std::vector<std::pair<size_t, int64_t>> moves; // (factor, xor mask or 0)
    for (size_t f = 0; f < decl.factors.size(); ++f) {
      orders.push_back(decl.factors[f].second);
      if (decl.factors[f].first == GroupKind::cyclic)
        moves.push_back({f, 0});
      else
        for (int64_t bit = 1; bit < decl.factors[f].second; bit *= 2)
          moves.push_back({f, bit});
    }
    for (auto [f, mask] : moves) {
      int64_t stride = 1;
      for (size_t g = f + 1; g < orders.size(); ++g)
        stride *= orders[g];
      Permutation p(static_cast<size_t>(P));
      for (int64_t x = 0; x < P; ++x) {
        int64_t digit = (x / stride) % orders[f];
        int64_t next = mask ? digit ^ mask : (digit + 1) % orders[f];
        p[static_cast<size_t>(x)] = x + (next - digit) * stride;
      }
      decl.generators.push_back(std::move(p));
    }
  }
  for (size_t i = 0; i < decl.generatorCycles.size(); ++i) {
    Permutation p(static_cast<size_t>(P));
    for (int64_t x = 0; x < P; ++x)
      p[static_cast<size_t>(x)] = x;
    std::vector<bool> named(static_cast<size_t>(P), false);
    for (const Declaration::Cycle &cycle : decl.generatorCycles[i]) {
      for (size_t j = 0; j < cycle.size(); ++j) {
        auto [rank, at] = cycle[j];
        if (rank >= P)
          return error(at, "rank " + llvm::Twine(rank) + " in generator " +
                               llvm::Twine(i + 1) + " is outside [0, " +
                               llvm::Twine(P) + ")");
        if (named[static_cast<size_t>(rank)])
          return error(at, "rank " + llvm::Twine(rank) +
                               " appears twice in generator " +
                               llvm::Twine(i + 1) +
                               "; its cycles must be disjoint");
        named[static_cast<size_t>(rank)] = true;
        p[static_cast<size_t>(rank)] = cycle[(j + 1) % cycle.size()].first;
      }
    }
    decl.generators.push_back(std::move(p));
  }
  if (std::optional<std::string> bad = coll::checkGeneratedGroup(
          decl.generators, P, *decl.schedule,
          decl.generatorCycles.empty() ? "product group" : "generated group"))
    return error(decl.groupArgLoc, *bad);
  return success();
}

/// The catalogue's rules (coll/Dialect/Catalogue.h), reported at the
/// statement they are about; then the op.
LogicalResult Parser::checkAndBuild(const Declaration &decl) {
  FamilySpec spec;
  spec.kind = decl.kind;
  spec.schedule = *decl.schedule;
  spec.group = decl.group;
  spec.butterflyR = decl.butterflyR;
  spec.arity = decl.arity;
  spec.flatBelow = decl.flatBelow;
  spec.radix = decl.radix;
  spec.segments = decl.segments;
  spec.reconfigure = decl.reconfigureLoc.isValid();
  spec.fixedRanks = decl.fixedRanks;
  spec.powerOfTwo = decl.powerOfTwo;
  std::optional<FamilyViolation> bad = checkFamily(spec);
  if (!bad) {
    build(decl);
    return success();
  }
  llvm::SMLoc schedule = decl.treeLoc.isValid()     ? decl.treeLoc
                         : decl.digitsLoc.isValid() ? decl.digitsLoc
                                                    : decl.scheduleLoc;
  llvm::SMLoc at;
  switch (bad->field) {
  case SpecField::kind:
  case SpecField::schedule:
  case SpecField::arity:
  case SpecField::flatBelow:
  case SpecField::radix:
    at = schedule;
    break;
  case SpecField::group:
    at = decl.groupArgLoc.isValid() ? decl.groupArgLoc : decl.groupLoc;
    break;
  case SpecField::butterflyR:
    at = decl.butterflyRLoc.isValid() ? decl.butterflyRLoc : schedule;
    break;
  case SpecField::segments:
    at = decl.segmentsLoc;
    break;
  case SpecField::reconfigure:
    at = decl.reconfigureLoc;
    break;
  }
  return error(at.isValid() ? at : decl.nameLoc, bad->message);
}

void Parser::build(const Declaration &decl) {
  MLIRContext *ctx = context;
  auto optionalInt = [&](std::optional<int64_t> value) {
    return value ? builder.getI64IntegerAttr(*value) : IntegerAttr();
  };
  SmallVector<Attribute> generators;
  for (const Permutation &p : decl.generators)
    generators.push_back(builder.getDenseI64ArrayAttr(p));
  builder.create<CollectiveOp>(
      loc(decl.nameLoc), builder.getStringAttr(decl.name),
      CollectiveKindAttr::get(ctx, decl.kind),
      decl.elementType ? TypeAttr::get(decl.elementType) : TypeAttr(),
      ReduceOpAttr::get(ctx, decl.op), optionalInt(decl.fixedRanks),
      RankConstraintAttr::get(ctx, decl.powerOfTwo
                                       ? RankConstraint::power_of_two
                                       : RankConstraint::any),
      decl.group ? GroupKindAttr::get(ctx, *decl.group) : GroupKindAttr(),
      generators.empty() ? ArrayAttr() : builder.getArrayAttr(generators),
      ScheduleKindAttr::get(ctx, *decl.schedule),
      builder.getI64IntegerAttr(decl.butterflyR), optionalInt(decl.root),
      optionalInt(decl.arity), optionalInt(decl.flatBelow),
      optionalInt(decl.radix), optionalInt(decl.segments),
      decl.choiceOf.empty() ? StringAttr() : builder.getStringAttr(decl.choiceOf),
      decl.reconfigureLoc.isValid() ? builder.getUnitAttr() : UnitAttr(),
      decl.noncommutative ? builder.getUnitAttr() : UnitAttr(),
      decl.anyRoot ? builder.getUnitAttr() : UnitAttr());
}

OwningOpRef<ModuleOp> coll::parseCollFile(llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context) {
  context->getOrLoadDialect<CollDialect>();
  if (failed(checkNesting(sourceMgr, context)))
    return nullptr;
  llvm::StringRef name =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferIdentifier();
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(context, name, 1, 1));
  Parser parser(sourceMgr, context, *module);
  if (failed(parser.parseFile()))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> coll::parseInputFile(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context) {
  llvm::StringRef name =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferIdentifier();
  if (!name.ends_with(".mlir"))
    return parseCollFile(sourceMgr, context);
  if (failed(checkNesting(sourceMgr, context)))
    return nullptr;
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}
