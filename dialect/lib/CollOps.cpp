//===- CollOps.cpp - what ODS cannot say about coll ops -------------------===//
#include "coll/Dialect/CollOps.h"
#include "coll/Dialect/Catalogue.h"
#include "coll/Dialect/PermutationGroup.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace coll;

//===----------------------------------------------------------------------===//
// CollectiveOp
//===----------------------------------------------------------------------===//

bool CollectiveOp::isTree() { return isTreeSchedule(getSchedule()); }

bool CollectiveOp::isDigitRouting() { return isDigitSchedule(getSchedule()); }

RankRule CollectiveOp::rankRule() {
  RankRule rule;
  if (std::optional<uint64_t> fixed = getNumRanks())
    rule.fixed = static_cast<int64_t>(*fixed);
  // A root k needs at least k + 1 ranks (the verifier keeps a fixed count
  // above its root).
  rule.atLeast = getRoot() ? static_cast<int64_t>(*getRoot()) + 1 : 1;
  rule.powerOfTwo = getRankConstraint() == RankConstraint::power_of_two;
  return rule;
}

bool CollectiveOp::acceptsRanks(int64_t ranks) {
  RankRule rule = rankRule();
  if (ranks < rule.atLeast)
    return false;
  if (rule.fixed)
    return ranks == *rule.fixed;
  return !rule.powerOfTwo || llvm::isPowerOf2_64(static_cast<uint64_t>(ranks));
}

std::string CollectiveOp::describeRanks() {
  RankRule rule = rankRule();
  if (rule.fixed)
    return "P == " + std::to_string(*rule.fixed);
  std::string text = rule.powerOfTwo ? "P == 2^k" : "";
  if (rule.atLeast > 1 || text.empty())
    text += (text.empty() ? "" : ", ") + std::string("P >= ") +
            std::to_string(rule.atLeast);
  return text;
}

std::string CollectiveOp::acceptsCondition(llvm::StringRef ranks) {
  RankRule rule = rankRule();
  std::string var = ranks.str();
  if (rule.fixed)
    return var + " == " + std::to_string(*rule.fixed);
  std::string least = var + " >= " + std::to_string(rule.atLeast);
  if (rule.powerOfTwo)
    return least + " && (" + var + " & (" + var + " - 1)) == 0";
  return least;
}

LogicalResult CollectiveOp::verify() {
  if (!llvm::json::isUTF8(getSymName()))
    return emitOpError("has a name that is not UTF-8");
  CollectiveKind kind = getKind();
  StringRef kindName = stringifyCollectiveKind(kind);
  if (std::optional<uint64_t> fixed = getNumRanks()) {
    if (static_cast<int64_t>(*fixed) < 1)
      return emitOpError("rank count must be at least 1, got ")
             << static_cast<int64_t>(*fixed);
    if (getRankConstraint() == RankConstraint::power_of_two &&
        !llvm::isPowerOf2_64(*fixed))
      return emitOpError("fixed rank count ")
             << *fixed << " is not a power of two";
  }
  if (std::optional<Type> type = getElementType()) {
    if (!type->isIntOrFloat())
      return emitOpError("element type must be an integer or float type, got ")
             << *type;
  }

  // The catalogue's rules: a family for the schedule and group that
  // serves the kind, with its parameters, segments and reconfiguration.
  FamilySpec family;
  family.kind = kind;
  family.schedule = getSchedule();
  family.group = getGroup();
  family.butterflyR = static_cast<int64_t>(getButterflyR());
  auto value = [](std::optional<uint64_t> v) -> std::optional<int64_t> {
    if (!v)
      return std::nullopt;
    return static_cast<int64_t>(*v);
  };
  family.arity = value(getArity());
  family.flatBelow = value(getFlatBelow());
  family.radix = value(getRadix());
  family.segments = value(getSegments());
  family.reconfigure = getReconfigure();
  family.fixedRanks = value(getNumRanks());
  family.powerOfTwo = getRankConstraint() == RankConstraint::power_of_two;
  if (std::optional<FamilyViolation> bad = checkFamily(family))
    return emitOpError(bad->message);

  auto optionalValue = [](std::optional<uint64_t> v) {
    return v ? std::optional<int64_t>(static_cast<int64_t>(*v)) : std::nullopt;
  };
  if (std::optional<std::string> bad =
          checkRoot(kind, optionalValue(getRoot()),
                    optionalValue(getNumRanks()), getAnyRoot()))
    return emitOpError(*bad);

  if ((getGroup() == GroupKind::generated) != getGroupGenerators().has_value())
    return emitOpError(getGroupGenerators()
                           ? "group_generators need group = generated"
                           : "a generated group needs group_generators");
  if (std::optional<ArrayAttr> generators = getGroupGenerators()) {
    std::optional<uint64_t> fixed = getNumRanks();
    std::vector<std::vector<int64_t>> perms;
    for (Attribute g : fixed ? *generators : ArrayAttr()) {
      ArrayRef<int64_t> images = cast<DenseI64ArrayAttr>(g).asArrayRef();
      perms.emplace_back(images.begin(), images.end());
    }
    if (std::optional<std::string> bad = checkGeneratedGroup(
            perms, optionalValue(fixed), getSchedule()))
      return emitOpError(*bad);
  }
  if (std::optional<std::string> bad =
          checkOperator(getOp(), static_cast<bool>(getNoncommutative())))
    return emitOpError(*bad);
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

PartRules ProgramOp::partRules() {
  PartRules rules{getKind()};
  rules.ranks = static_cast<int64_t>(getNumRanks());
  rules.parts = static_cast<int64_t>(getNumParts());
  rules.scratch = static_cast<int64_t>(getNumScratchParts().value_or(0));
  if (std::optional<uint64_t> root = getRoot())
    rules.root = static_cast<int64_t>(*root);
  return rules;
}

bool ProgramOp::startsWith(int64_t rank, int64_t part) {
  return partRules().startsWith(rank, part);
}

bool ProgramOp::delivers(int64_t rank, int64_t part) {
  return partRules().delivers(rank, part);
}

bool ProgramOp::reduces() { return partRules().reduces(); }

bool ProgramOp::expects(int64_t rank, int64_t part, int64_t fromRank,
                        int64_t fromPart) {
  return partRules().expects(rank, part, fromRank, fromPart);
}

LogicalResult ProgramOp::verify() {
  int64_t ranks = static_cast<int64_t>(getNumRanks());
  // Bounds that keep every encoding's arithmetic (P * P table entries,
  // slot numbers) far from overflow; collc verify takes at most 2^20 ranks.
  constexpr int64_t kMaxRanks = int64_t(1) << 20, kMaxParts = int64_t(1) << 24;
  if (ranks < 1 || ranks > kMaxRanks)
    return emitOpError("needs between 1 and ") << kMaxRanks
                                                << " ranks, got " << ranks;
  if (static_cast<int64_t>(getNumParts()) < 1 ||
      static_cast<int64_t>(getNumParts()) > kMaxParts)
    return emitOpError("needs between 1 and ")
           << kMaxParts << " parts, got "
           << static_cast<int64_t>(getNumParts());
  CollectiveKind kind = getKind();
  std::optional<int64_t> root;
  if (getRoot())
    root = static_cast<int64_t>(*getRoot());
  if (std::optional<std::string> bad = checkRoot(kind, root, ranks))
    return emitOpError(*bad);
  if (std::optional<uint64_t> segments = getSegments())
    if (std::optional<std::string> bad =
            checkParameter("segments", static_cast<int64_t>(*segments)))
      return emitOpError(*bad);
  if (!llvm::json::isUTF8(getSymName()))
    return emitOpError("has a name that is not UTF-8");
  const int64_t scratch =
      static_cast<int64_t>(getNumScratchParts().value_or(0));
  if (scratch < 0)
    return emitOpError("num_scratch_parts must not be negative, got ")
           << scratch;
  if (scratch >= static_cast<int64_t>(getNumParts()))
    return emitOpError("num_scratch_parts ")
           << scratch << " leaves no part of " << getNumParts()
           << " for data";
  if ((getGroup() == GroupKind::generated) != getGroupElements().has_value())
    return emitOpError("a generated group needs group_elements, and only it");
  // The verifier and the runtime read the table as an abelian group acting
  // regularly with t_0 the identity: a table that is not one is an input
  // error here, never a premise of a proof.
  if (std::optional<ArrayRef<int64_t>> elements = getGroupElements())
    if (std::optional<std::string> why = whyNotGroupTable(
            std::vector<int64_t>(elements->begin(), elements->end()), ranks))
      return emitOpError("group_elements ") << *why;
  if (getGroup() == GroupKind::xor_)
    if (std::optional<std::string> bad = checkXorOrder(ranks))
      return emitOpError(*bad);
  if ((kind == CollectiveKind::reduce_scatter ||
       kind == CollectiveKind::allgather || kind == CollectiveKind::gather ||
       kind == CollectiveKind::scatter || kind == CollectiveKind::alltoall) &&
      (static_cast<int64_t>(getNumParts()) != ranks || scratch != 0))
    return emitOpError("of kind ")
           << stringifyCollectiveKind(kind)
           << " needs one data part per rank and no scratch part "
              "(num_parts == num_ranks, num_scratch_parts == 0), got "
           << getNumParts() << " parts, " << scratch << " scratch, for "
           << ranks << " ranks";
  if (kind == CollectiveKind::exclusive_scan &&
      static_cast<int64_t>(getNumParts()) - scratch != 2)
    return emitOpError("of kind exclusive_scan needs two data parts (part 0 "
                       "is the rank's value, part 1 the result), then any "
                       "scratch parts");
  if (std::optional<ArrayRef<int64_t>> chunks = getChunkOfPart()) {
    int64_t parts = getNumParts();
    if (static_cast<int64_t>(chunks->size()) != parts)
      return emitOpError("chunk_of_part has ")
             << chunks->size() << " entries for " << parts << " parts";
    llvm::SmallVector<bool> seen(parts, false);
    for (int64_t chunk : *chunks) {
      if (chunk < 0 || chunk >= parts || seen[chunk])
        return emitOpError("chunk_of_part is not a permutation of [0, ")
               << parts << ")";
      seen[chunk] = true;
    }
  }
  for (Operation &op : getBody().front())
    if (!isa<StepOp>(op))
      return op.emitOpError("is not allowed in a coll.program; only "
                            "coll.step is");
  return success();
}

//===----------------------------------------------------------------------===//
// StepOp
//===----------------------------------------------------------------------===//

/// `vectors {s -> d, ...}`: slots inside the copies, one permutation for
/// all moves (checked again, with counterexamples, by the matching proof),
/// local moves only in copy steps.
static LogicalResult verifyVectorMoves(StepOp step, ProgramOp program,
                                       size_t transfers) {
  int64_t ranks = program.getNumRanks();
  int64_t slots = program.getNumParts();
  ArrayRef<int64_t> sources = *step.getVectorSources();
  std::optional<ArrayRef<int64_t>> destinations =
      step.getVectorDestinations();
  if (!destinations || destinations->size() != sources.size() ||
      sources.empty())
    return step.emitOpError("vector moves need one destination per source");
  if (transfers != 0 || step.getVectors())
    return step.emitOpError("vector moves exclude transfers and range moves");
  if (!program.getGroup())
    return step.emitOpError("vector moves need a `group` on their "
                            "coll.program");
  if (slots % ranks != 0)
    return step.emitOpError("vector moves need num_parts to be a multiple of "
                            "num_ranks, got ")
           << slots << " and " << ranks;
  if (static_cast<int64_t>(program.getNumScratchParts().value_or(0)) !=
      slots - ranks)
    return step.emitOpError("vector moves need num_scratch_parts = ")
           << slots - ranks << " (every copy but the first is scratch)";
  for (auto [src, dst] : llvm::zip(sources, *destinations)) {
    if (src < 0 || src >= slots || dst < 0 || dst >= slots)
      return step.emitOpError("vector move ")
             << src << " -> " << dst << " names a slot outside [0, " << slots
             << ")";
    if (src == dst)
      return step.emitOpError("vector move ")
             << src << " -> " << dst << " keeps the vector where it is";
    if (src % ranks == dst % ranks &&
        step.getStepKind() != StepKind::copy)
      return step.emitOpError("vector move ")
             << src << " -> " << dst
             << " stays on its placement; only a copy step moves locally";
  }
  return success();
}

LogicalResult StepOp::verify() {
  auto program = (*this)->getParentOfType<ProgramOp>();
  int64_t ranks = program.getNumRanks();
  int64_t numParts = program.getNumParts();
  size_t n = getSources().size();
  if (getDestinations().size() != n || getParts().size() != n)
    return emitOpError("needs one destination and one part list per source");
  if (std::optional<ArrayAttr> received = getReceivedParts();
      received && received->size() != n)
    return emitOpError("needs one received-part list per transfer");
  auto checkParts = [&](size_t i, ArrayRef<int64_t> parts) -> LogicalResult {
    for (int64_t part : parts)
      if (part < 0 || part >= numParts)
        return emitOpError("transfer ")
               << getSources()[i] << " -> " << getDestinations()[i]
               << " names part " << part << " outside [0, " << numParts << ")";
    return success();
  };
  for (size_t i = 0; i < n; ++i) {
    int64_t src = getSources()[i], dst = getDestinations()[i];
    if (src < 0 || src >= ranks || dst < 0 || dst >= ranks)
      return emitOpError("transfer ")
             << src << " -> " << dst << " names a rank outside [0, " << ranks
             << ")";
    // A transfer to itself is a local copy or merge between two parts;
    // keeping a part where it is would be a message to itself.
    if (src == dst &&
        llvm::any_of(llvm::zip(getTransferParts(i), getReceivedParts(i)),
                     [](auto pair) {
                       return std::get<0>(pair) == std::get<1>(pair);
                     }))
      return emitOpError("transfer ")
             << src << " -> " << dst << " sends to itself";
    if (failed(checkParts(i, getTransferParts(i))) ||
        failed(checkParts(i, getReceivedParts(i))))
      return failure();
  }

  if (hasVectorMoves())
    return verifyVectorMoves(*this, program, n);
  bool hasMove = getFrom() || getTo() || getVectors();
  if (hasMove && !(getFrom() && getTo() && getVectors()))
    return emitOpError("a group move needs from, to and vectors");
  if (!hasMove)
    return success();
  int64_t from = *getFrom(), to = *getTo(), vectors = *getVectors();
  if (vectors < 1 || from < 0 || to < 0 || from + vectors > ranks ||
      to + vectors > ranks)
    return emitOpError("move [")
           << from << ", " << from + vectors << ") -> [" << to << ", "
           << to + vectors << ") leaves the placements [0, " << ranks << ")";
  if (from == to)
    return emitOpError("move [")
           << from << ", " << from + vectors << ") -> [" << to << ", "
           << to + vectors << ") keeps every vector where it is";
  if (n == 0 && !program.getGroup())
    return emitOpError("a move without transfers needs a `group` on its "
                       "coll.program");
  if (n == 0 && numParts != ranks)
    return emitOpError("a move without transfers needs num_parts == "
                       "num_ranks");
  return success();
}

//===----------------------------------------------------------------------===//
// Custom directive: the step kind as a bare keyword (combine | copy)
//===----------------------------------------------------------------------===//

static ParseResult parseStepKindKeyword(OpAsmParser &parser,
                                        StepKindAttr &kind) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  llvm::StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  std::optional<StepKind> parsed = symbolizeStepKind(word);
  if (!parsed)
    return parser.emitError(loc, "expected 'combine', 'copy' or 'fold', got '")
           << word << "'";
  kind = StepKindAttr::get(parser.getContext(), *parsed);
  return success();
}

static void printStepKindKeyword(OpAsmPrinter &printer, StepOp,
                                 StepKindAttr kind) {
  printer << stringifyStepKind(kind.getValue());
}

//===----------------------------------------------------------------------===//
// Custom directive: {src -> dst [parts] (into [parts])?, ...}
//                   (move [f, f+v) -> [t, t+v))?
//===----------------------------------------------------------------------===//

static ParseResult parseHalfOpenRange(OpAsmParser &parser, int64_t &lo,
                                      int64_t &hi) {
  return failure(parser.parseLSquare() || parser.parseInteger(lo) ||
                 parser.parseComma() || parser.parseInteger(hi) ||
                 parser.parseRParen());
}

static ParseResult parseTransfers(OpAsmParser &parser,
                                  DenseI64ArrayAttr &sources,
                                  DenseI64ArrayAttr &destinations,
                                  ArrayAttr &parts, ArrayAttr &receivedParts,
                                  IntegerAttr &from, IntegerAttr &to,
                                  IntegerAttr &vectors,
                                  DenseI64ArrayAttr &vectorSources,
                                  DenseI64ArrayAttr &vectorDestinations) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<int64_t> srcs, dsts;
  SmallVector<Attribute> partLists, receivedLists;
  bool anyInto = false;
  auto parseList = [&](SmallVector<int64_t> &list) {
    return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
      return parser.parseInteger(list.emplace_back());
    });
  };
  auto parseOne = [&]() -> ParseResult {
    int64_t src, dst;
    SmallVector<int64_t> sent, received;
    if (parser.parseInteger(src) || parser.parseArrow() ||
        parser.parseInteger(dst) || parseList(sent))
      return failure();
    if (succeeded(parser.parseOptionalKeyword("into"))) {
      if (parseList(received))
        return failure();
      anyInto = true;
    } else {
      received = sent;
    }
    srcs.push_back(src);
    dsts.push_back(dst);
    partLists.push_back(DenseI64ArrayAttr::get(ctx, sent));
    receivedLists.push_back(DenseI64ArrayAttr::get(ctx, received));
    return success();
  };
  if (succeeded(parser.parseOptionalKeyword("vectors"))) {
    SmallVector<int64_t> from, to;
    if (parser.parseLBrace() ||
        parser.parseCommaSeparatedList([&]() -> ParseResult {
          return failure(parser.parseInteger(from.emplace_back()) ||
                         parser.parseArrow() ||
                         parser.parseInteger(to.emplace_back()));
        }) ||
        parser.parseRBrace())
      return failure();
    sources = DenseI64ArrayAttr::get(ctx, {});
    destinations = DenseI64ArrayAttr::get(ctx, {});
    parts = ArrayAttr::get(ctx, {});
    vectorSources = DenseI64ArrayAttr::get(ctx, from);
    vectorDestinations = DenseI64ArrayAttr::get(ctx, to);
    return success();
  }
  bool hasTransfers = false;
  if (succeeded(parser.parseOptionalLBrace())) {
    hasTransfers = true;
    if (failed(parser.parseOptionalRBrace()))
      if (parser.parseCommaSeparatedList(parseOne) || parser.parseRBrace())
        return failure();
  }
  sources = DenseI64ArrayAttr::get(ctx, srcs);
  destinations = DenseI64ArrayAttr::get(ctx, dsts);
  parts = ArrayAttr::get(ctx, partLists);
  if (anyInto)
    receivedParts = ArrayAttr::get(ctx, receivedLists);
  if (succeeded(parser.parseOptionalKeyword("move"))) {
    int64_t fromLo, fromHi, toLo, toHi;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parseHalfOpenRange(parser, fromLo, fromHi) || parser.parseArrow() ||
        parseHalfOpenRange(parser, toLo, toHi))
      return failure();
    if (fromHi - fromLo != toHi - toLo)
      return parser.emitError(loc, "a move needs ranges of equal length, got ")
             << fromHi - fromLo << " and " << toHi - toLo;
    auto i64 = IntegerType::get(ctx, 64);
    from = IntegerAttr::get(i64, fromLo);
    to = IntegerAttr::get(i64, toLo);
    vectors = IntegerAttr::get(i64, fromHi - fromLo);
  } else if (!hasTransfers) {
    return parser.emitError(parser.getCurrentLocation(),
                            "expected '{' with transfers or 'move'");
  }
  return success();
}

static void printTransfers(OpAsmPrinter &printer, StepOp op,
                           DenseI64ArrayAttr sources,
                           DenseI64ArrayAttr destinations, ArrayAttr parts,
                           ArrayAttr receivedParts, IntegerAttr from,
                           IntegerAttr to, IntegerAttr vectors,
                           DenseI64ArrayAttr vectorSources,
                           DenseI64ArrayAttr vectorDestinations) {
  if (vectorSources) {
    printer << "vectors {";
    for (size_t i = 0, e = vectorSources.size(); i < e; ++i)
      printer << (i ? ", " : "") << vectorSources[i] << " -> "
              << (vectorDestinations && i < vectorDestinations.size()
                      ? vectorDestinations[i]
                      : -1);
    printer << "}";
    return;
  }
  bool implicit = sources.empty() && vectors;
  if (!implicit) {
    printer << "{";
    for (size_t i = 0, e = sources.size(); i < e; ++i) {
      if (i)
        printer << ", ";
      printer << sources[i] << " -> " << destinations[i] << " [";
      llvm::interleaveComma(op.getTransferParts(i), printer);
      printer << "]";
      if (op.getReceivedParts(i) != op.getTransferParts(i)) {
        printer << " into [";
        llvm::interleaveComma(op.getReceivedParts(i), printer);
        printer << "]";
      }
    }
    printer << "}";
  }
  if (vectors) {
    int64_t f = from.getInt(), t = to.getInt(), v = vectors.getInt();
    printer << (implicit ? "" : " ") << "move [" << f << ", " << f + v
            << ") -> [" << t << ", " << t + v << ")";
  }
}

//===----------------------------------------------------------------------===//
// Selection level
//===----------------------------------------------------------------------===//

/// Size ranges as a priced rank count or a switch plan holds them: bounds
/// ascending and positive, one fewer than the ranges.
static LogicalResult
verifyRanges(function_ref<InFlightDiagnostic()> emitError, int64_t ranks,
             ArrayRef<int64_t> bounds, size_t ranges) {
  if (ranks < 1)
    return emitError() << "needs a positive rank count, got " << ranks;
  if (ranges != bounds.size() + 1)
    return emitError() << "needs one bound fewer than its " << ranges
                       << " size ranges, got " << bounds.size();
  for (size_t i = 0; i < bounds.size(); ++i)
    if (bounds[i] < 1 || (i && bounds[i] < bounds[i - 1]))
      return emitError() << "needs positive bounds in ascending order, got "
                         << bounds[i] << " at " << i;
  return success();
}

LogicalResult
PricedRankCountAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            int64_t ranks, DenseI64ArrayAttr bounds,
                            DenseI64ArrayAttr picks, ArrayAttr costs) {
  if (picks.empty())
    return emitError() << "needs a candidate for at least one size range";
  if (failed(verifyRanges(emitError, ranks, bounds.asArrayRef(), picks.size())))
    return failure();
  if (costs.size() % 2 != 0)
    return emitError() << "needs (fixed, per byte) cost pairs, got "
                       << costs.size() << " numbers";
  for (Attribute cost : costs) {
    auto number = llvm::dyn_cast<FloatAttr>(cost);
    if (!number || !number.getType().isF64())
      return emitError() << "needs f64 costs, got " << cost;
  }
  for (size_t i = 0; i < picks.size(); ++i) {
    const int64_t pick = picks[i];
    if (pick < 0 || 2 * pick >= static_cast<int64_t>(costs.size()) ||
        llvm::cast<FloatAttr>(costs[2 * pick]).getValueAsDouble() < 0)
      return emitError() << "picks candidate " << pick
                         << ", which is not priced at P = " << ranks;
  }
  return success();
}

LogicalResult
SwitchPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t ranks, DenseI64ArrayAttr bounds,
                       ArrayAttr settings) {
  if (settings.empty())
    return bounds.empty() && ranks >= 1
               ? success()
               : emitError() << "without settings has no size ranges";
  if (failed(verifyRanges(emitError, ranks, bounds.asArrayRef(),
                          settings.size())))
    return failure();
  for (Attribute setting : settings) {
    auto phases = llvm::dyn_cast<DenseI64ArrayAttr>(setting);
    if (!phases || phases.empty() || phases[0] != 0)
      return emitError() << "needs settings that are phase lists starting "
                            "with phase 0";
    for (size_t i = 1; i < phases.size(); ++i)
      if (phases[i] <= phases[i - 1])
        return emitError() << "needs phases in ascending order";
  }
  return success();
}

LogicalResult ChoiceOp::verify() {
  const int64_t candidates = static_cast<int64_t>(getCandidates().size());
  if (candidates == 0)
    return emitOpError("needs at least one candidate");
  int64_t previous = 0;
  llvm::SmallDenseSet<int64_t> priced;
  for (Attribute attr : getPriced()) {
    auto rankCount = cast<PricedRankCountAttr>(attr);
    if (static_cast<int64_t>(rankCount.getCosts().size()) != 2 * candidates)
      return emitOpError("prices ")
             << candidates << " candidates, but P = " << rankCount.getRanks()
             << " has " << rankCount.getCosts().size() << " cost numbers";
    if (rankCount.getRanks() <= previous)
      return emitOpError("needs its priced rank counts in ascending order");
    previous = rankCount.getRanks();
    priced.insert(previous);
  }
  if (getPricedUpTo() < previous)
    return emitOpError("priced_up_to ")
           << getPricedUpTo() << " is below the priced P = " << previous;
  for (int64_t P : getEstimates())
    if (!priced.contains(P))
      return emitOpError("estimates from P = ") << P << ", which is not priced";
  return success();
}

LogicalResult
ChoiceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  for (Attribute attr : getCandidates()) {
    auto name = cast<FlatSymbolRefAttr>(attr);
    auto candidate =
        symbolTable.lookupNearestSymbolFrom<CollectiveOp>(*this, name);
    if (!candidate)
      return emitOpError("candidate ") << name << " is not a coll.collective";
    if (candidate.getChoiceOf() != getSymName())
      return emitOpError("candidate ")
             << name << " is not a candidate of '" << getSymName() << "'";
  }
  return success();
}

LogicalResult SwitchSettingsOp::verify() {
  if (getConstants().has_value() == getTable().has_value())
    return emitOpError("needs either the model's constants or a table");
  if (getConstants() && getConstants()->size() != 4)
    return emitOpError("needs four constants (alpha, hop latency, beta, "
                       "delta), got ")
           << getConstants()->size();
  return success();
}

LogicalResult
SwitchSettingsOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto spec = symbolTable.lookupNearestSymbolFrom<CollectiveOp>(
      *this, getCollectiveAttr());
  if (!spec)
    return emitOpError("names ")
           << getCollectiveAttr() << ", which is not a coll.collective";
  if (!spec.getReconfigure())
    return emitOpError("names ") << getCollectiveAttr()
                                 << ", which does not reconfigure a switch";
  return success();
}

#define GET_OP_CLASSES
#include "coll/Dialect/CollOps.cpp.inc"
