//===- TranslateToCpp.cpp - a selected module to a C++ header -------------===//
//
// The C++ target, registered as the translation `coll-to-cpp`: it prints
// and decides nothing. The header holds, per collective, its signature,
// doc comment, `_accepts` check and argument checks, and one call into the
// runtime, which runs the family's plan -- the function the expansion
// proves -- through the one executor (coll/collectives.hpp); no schedule
// grows the header with P. Printed as data: a coll.choice's thresholds and
// a coll.switch_settings' constants or table, as coll-select-schedules
// wrote them, and a generated group (its P is fixed): the spec's
// generators and the enumeration the schedule was proven with, from which
// the runtime builds the element table (coll::generatedTable, as the
// compiler did), so the header holds O(generators P) numbers, not P^2.
//===----------------------------------------------------------------------===//
#include "coll/Dialect/Catalogue.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/PlanProgram.h"
#include "coll/Passes/TreeSchedule.h"
#include "coll/buffers.hpp"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

using namespace mlir;
using namespace coll;

static const char *cppOperator(ReduceOp op) {
  switch (op) {
  case ReduceOp::sum:
    return "coll::Sum";
  case ReduceOp::prod:
    return "coll::Prod";
  case ReduceOp::min:
    return "coll::Min";
  case ReduceOp::max:
    return "coll::Max";
  case ReduceOp::custom:
    return nullptr; // the caller passes it
  }
  return "coll::Sum";
}

static std::string cppType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  auto integer = cast<IntegerType>(type);
  return (integer.isUnsigned() ? "std::uint" : "std::int") +
         std::to_string(integer.getWidth()) + "_t";
}

/// The coll::Tree initializer of a tree-scheduled spec.
static std::string treeInitializer(CollectiveOp spec) {
  Tree tree = treeOf(spec);
  const char *shape = tree.shape == TreeShape::flat       ? "flat"
                      : tree.shape == TreeShape::binomial ? "binomial"
                      : tree.shape == TreeShape::chain    ? "chain"
                                                          : "hierarchical";
  return std::string("coll::Tree{coll::TreeShape::") + shape + ", " +
         std::to_string(tree.arity) + ", " + std::to_string(tree.flatBelow) +
         "}";
}

/// The C++ spelling of a collective kind's coll::Kind.
static std::string runtimeKindName(CollectiveKind kind) {
  return std::string("coll::Kind::") + kindName(runtimeKind(kind));
}

/// The coll::Digits initializer of a digit-routed spec.
static std::string digitsInitializer(CollectiveOp spec) {
  Digits digits = digitsOf(spec);
  const char *system = digits.system == DigitSystem::direct  ? "direct"
                       : digits.system == DigitSystem::radix ? "radix"
                                                             : "balancedTernary";
  return std::string("coll::Digits{coll::DigitSystem::") + system + ", " +
         std::to_string(digits.radix) + "}";
}

/// A generated group (fixed P): the spec's generators and the enumeration
/// the schedule was proven with, from which coll::TableGroup::generatedBy
/// builds the element table once (coll::generatedTable, the function that
/// built the compiler's), so the header holds O(generators P) numbers.
static void emitGroupTable(CollectiveOp spec, llvm::raw_ostream &os) {
  int64_t P = static_cast<int64_t>(*spec.getNumRanks());
  GroupEnumeration group = enumerationOfSpec(spec);
  auto list = [&](const std::vector<int> &numbers) {
    for (size_t i = 0; i < numbers.size(); ++i)
      os << (i ? (i % 16 ? ", " : ",\n      ") : "") << numbers[i];
  };
  os << "  // The group's generators (row by row: the images of 0.." << P - 1
     << ")";
  if (!group.order.empty())
    os << " and the\n  // enumeration of its elements the schedule was proven "
          "with";
  os << ".\n  static constexpr int kGenerators[" << group.generators.size()
     << "] = {\n      ";
  list(group.generators);
  os << "};\n";
  if (!group.order.empty()) {
    os << "  static constexpr int kEnumeration[" << P << "] = {\n      ";
    list(group.order);
    os << "};\n";
  }
  os << "  static const coll::TableGroup group = coll::TableGroup::generatedBy("
     << P << ", kGenerators, " << group.count << ", "
     << (group.order.empty() ? "nullptr" : "kEnumeration") << ");\n";
}

/// The r argument of coll::runButterfly, as C++.
static std::string butterflyRuntimeRArgument(CollectiveOp spec) {
  int runtimeR = butterflyRuntimeR(spec);
  return runtimeR == kLatencyOptimal ? std::string("coll::kLatencyOptimal")
                                     : std::to_string(runtimeR);
}

/// The group a group schedule acts on, as C++ (`group`: the table of a
/// generated group, emitGroupTable).
static std::string groupArgument(CollectiveOp spec) {
  switch (*spec.getGroup()) {
  case GroupKind::cyclic:
    return "coll::CyclicGroup(P)";
  case GroupKind::xor_:
    return "coll::XorGroup(P)";
  case GroupKind::generated:
    return "group";
  }
  return "group";
}

/// One argument of the family's run function (the catalogue's RunArg), as
/// C++ from the spec; empty where there is none (segments = 1).
static std::string runArgument(RunArg arg, CollectiveOp spec, StringRef type) {
  const CollectiveKind kind = spec.getKind();
  switch (arg) {
  case RunArg::kind:
    return runtimeKindName(kind);
  case RunArg::tree:
    return treeInitializer(spec);
  case RunArg::root:
    return isRooted(kind) ? "root" : "0";
  case RunArg::groupSchedule:
    return spec.getSchedule() == ScheduleKind::linear
               ? "coll::GroupSchedule::linear"
               : "coll::GroupSchedule::butterfly";
  case RunArg::scanSchedule:
    return spec.getSchedule() == ScheduleKind::linear
               ? "coll::ScanSchedule::linear"
               : "coll::ScanSchedule::doubling";
  case RunArg::butterflyR:
    return butterflyRuntimeRArgument(spec);
  case RunArg::group:
    return groupArgument(spec);
  case RunArg::digits:
    return digitsInitializer(spec);
  case RunArg::buffers:
    if (kind == CollectiveKind::barrier)
      return "static_cast<const char *>(nullptr), static_cast<char *>(nullptr), "
             "0";
    if (kind == CollectiveKind::broadcast)
      return ("static_cast<const " + type + " *>(buffer), buffer, count").str();
    return "send, recv, count";
  case RunArg::op:
    return takesOperator(kind) ? "op" : "coll::NoMerge{}";
  case RunArg::segments: {
    const uint64_t segments = spec.getSegments().value_or(1);
    return segments > 1 ? std::to_string(segments) : "";
  }
  }
  return "";
}

/// The body of a collective: its root, the argument checks (one rule per
/// kind, coll::checkArguments), a generated group's table, then the one
/// call the catalogue binds its family to, which runs the family's plan --
/// the function the expansion proves -- through the one executor.
static void emitBody(CollectiveOp spec, llvm::raw_ostream &os, StringRef type,
                     StringRef qualified) {
  const CollectiveKind kind = spec.getKind();
  const FamilyInfo &family = familyInfo(familyOf(spec));
  if (isRooted(kind) && spec.getAnyRoot())
    os << "  if (root < 0 || root >= P)\n"
       << "    throw coll::Error(\"" << qualified
       << ": root \" + std::to_string(root) +\n"
       << "                      \" is not a rank of the communicator (P = \" "
          "+ std::to_string(P) + \")\");\n";
  else if (isRooted(kind))
    os << "  const int root = " << *spec.getRoot() << ";\n";
  if (kind != CollectiveKind::barrier) {
    const bool oneBuffer = kind == CollectiveKind::broadcast;
    os << "  if (count == 0)\n    return;\n"
       << "  coll::checkArguments(\"" << qualified << "\", "
       << runtimeKindName(kind) << ", comm.rank(), P, "
       << (isRooted(kind) ? "root" : "-1") << ", "
       << (oneBuffer ? "buffer, buffer" : "send, recv") << ", count);\n";
  }
  if (spec.getGroup() == GroupKind::generated)
    emitGroupTable(spec, os);
  os << "  // " << describeSchedule(spec) << ": " << family.plan
     << ",\n  // the plan the verifier proved, run by the one executor.\n";
  if (std::optional<uint64_t> segments = spec.getSegments(); segments && *segments > 1)
    os << "  // segments = " << *segments
       << ": every segment of the buffer runs the plan; segment j runs\n"
          "  // step t - j in super-step t (coll::pipelinePlan).\n";
  os << "  " << family.run << "(comm";
  for (RunArg arg : family.runArgs)
    if (std::string text = runArgument(arg, spec, type); !text.empty())
      os << ", " << text;
  os << ");\n";
}

static void emitCollective(CollectiveOp spec, llvm::raw_ostream &os,
                           StringRef ns) {
  StringRef name = spec.getSymName();
  CollectiveKind kind = spec.getKind();
  std::optional<Type> elementType = spec.getElementType();
  std::string type = elementType ? cppType(*elementType) : "T";
  const char *opName = stringifyReduceOp(spec.getOp()).data();
  bool hasOp = takesOperator(kind);
  StringRef kindName = stringifyCollectiveKind(kind);
  std::string qualified = (ns + "::" + name).str();

  bool custom = spec.getOp() == ReduceOp::custom;
  os << "/// " << name << ": " << kindName;
  if (hasOp && custom)
    os << (spec.getNoncommutative()
               ? ", the caller's associative operator, folded in rank order "
                 "(noncommutative)"
               : ", the caller's associative, commutative operator");
  else if (hasOp)
    os << ", " << opName << " by default";
  if (kind != CollectiveKind::barrier)
    os << ", "
       << (elementType ? "element type " + type
                       : std::string("any element type"));
  os << ", " << spec.describeRanks() << ".\n";
  // What the call takes as buffers: the runtime's table, which its
  // argument checks read too (coll::bufferRule).
  for (StringRef rest = coll::bufferRule(runtimeKind(kind)).doc; !rest.empty();) {
    auto [line, next] = rest.split('\n');
    os << "/// " << line << "\n";
    rest = next;
  }
  if (spec.getAnyRoot())
    os << "/// root: the caller's, any rank in [0, P) (MPI's root argument); "
          "the schedule\n/// is proven for every root.\n";
  os << "/// Schedule: " << describeSchedule(spec) << ".\n";
  os << "constexpr bool " << name << "_accepts(int ranks) noexcept { return "
     << spec.acceptsCondition("ranks") << "; }\n";
  if (std::optional<uint64_t> root = spec.getRoot())
    os << "constexpr int " << name << "_root = " << *root << ";\n";
  os << "\n";

  std::string head = elementType ? (hasOp ? "template <class Op>\n" : "inline ")
                                 : (hasOp ? "template <class T, class Op>\n"
                                          : "template <class T>\n");
  // `root = any`: the root follows the count, as in MPI's argument lists.
  const char *rootParameter = spec.getAnyRoot() ? ", int root" : "";
  if (kind == CollectiveKind::barrier)
    os << "inline void " << name << "(coll::Comm &comm) {\n";
  else if (kind == CollectiveKind::broadcast)
    os << head << "void " << name << "(coll::Comm &comm, " << type
       << " *buffer, std::size_t count" << rootParameter << ") {\n";
  else
    os << head << "void " << name << "(coll::Comm &comm, const " << type
       << " *send, " << type << " *recv, std::size_t count" << rootParameter
       << (hasOp ? (spec.getNoncommutative() ? ", Op callerOp" : ", Op op")
                 : "")
       << ") {\n";
  if (hasOp && spec.getNoncommutative())
    os << "  // A noncommutative operator: merged in rank order, as recordings "
          "say.\n"
          "  const coll::InRankOrder<Op> op{callerOp};\n";
  os << "  const int P = comm.size();\n";
  os << "  if (!" << name << "_accepts(P))\n";
  os << "    throw coll::Error(\"" << ns << "::" << name
     << ": communicator size \" + std::to_string(P) +\n"
     << "                      \" is not allowed (requires "
     << spec.describeRanks() << ")\");\n";
  emitBody(spec, os, type, qualified);
  os << "}\n\n";

  if (kind == CollectiveKind::exclusive_scan) {
    os << "/// With an init value: rank 0 gets init, rank r op(init, x_0, ..., "
          "x_{r-1}).\n";
    os << (elementType ? "template <class Op>\n"
                       : "template <class T, class Op>\n")
       << "void " << name << "(coll::Comm &comm, const " << type << " *send, "
       << type << " *recv, std::size_t count, Op op, const " << type
       << " &init) {\n"
       << "  " << name << "(comm, send, recv, count, op);\n"
       << "  coll::applyScanInit(comm, recv, count, op, init);\n"
       << "}\n\n";
  }
  if (!hasOp || custom)
    return; // no default operator to call with
  if (!elementType)
    os << "template <class T>\n";
  else
    os << "inline ";
  os << "void " << name << "(coll::Comm &comm, const " << type << " *send, "
     << type << " *recv, std::size_t count" << rootParameter << ") {\n";
  os << "  " << name << "(comm, send, recv, count, "
     << (spec.getAnyRoot() ? "root, " : "") << cppOperator(spec.getOp())
     << "{});\n";
  os << "}\n\n";
}

/// The size ranges of one priced P as `if (bytes < bound) return pick;`
/// lines, the last range unbounded.
static void emitRanges(PricedRankCountAttr priced, StringRef indent,
                       llvm::raw_ostream &os) {
  ArrayRef<int64_t> bounds = priced.getBounds().asArrayRef();
  ArrayRef<int64_t> picks = priced.getPicks().asArrayRef();
  for (size_t i = 0; i < picks.size(); ++i) {
    if (i == bounds.size())
      os << indent << "return " << picks[i] << ";\n";
    else
      os << indent << "if (bytes < " << bounds[i] << ")\n"
         << indent << "  return " << picks[i] << ";\n";
  }
}

/// Number i of a priced rank count's costs.
static double costAt(PricedRankCountAttr priced, size_t i) {
  return cast<FloatAttr>(priced.getCosts()[i]).getValueAsDouble();
}

/// The dispatcher of `choose`: calls the candidate the cost model found
/// cheapest for the communicator size and count * sizeof(T), as
/// coll-select-schedules priced it in `choice`.
static void emitDispatcher(ChoiceOp choice, CollectiveOp first,
                           llvm::raw_ostream &os) {
  StringRef name = choice.getSymName();
  SmallVector<StringRef> all;
  for (Attribute candidate : choice.getCandidates())
    all.push_back(cast<FlatSymbolRefAttr>(candidate).getValue());
  auto priced = llvm::to_vector(
      choice.getPriced().getAsRange<PricedRankCountAttr>());
  auto pricedAt = [&](int64_t P) {
    return *llvm::find_if(
        priced, [&](PricedRankCountAttr p) { return p.getRanks() == P; });
  };
  os << "/// " << name << ": the cheapest of";
  for (StringRef c : all)
    os << " " << c;
  os << " for the\n/// communicator size and count * sizeof(T), on model "
     << choice.getModel() << " (" << choice.getDescription()
     << ");\n/// `collc explain` shows the costs behind each threshold.\n";
  if (std::optional<uint64_t> root = first.getRoot())
    os << "constexpr int " << name << "_root = " << *root << ";\n";
  os << "constexpr bool " << name << "_accepts(int ranks) noexcept {\n"
     << "  return ";
  for (size_t i = 0; i < all.size(); ++i)
    os << (i ? " || " : "") << all[i] << "_accepts(ranks)";
  os << ";\n}\n\n";
  // NAME_choice: the candidate's index, from the thresholds per P; the
  // dispatcher switches on it, so what a caller asks NAME_choice (the
  // preload library's COLLC_MPI_VERBOSE) is what runs.
  os << "/// The index into " << name << "_candidates of the candidate "
     << name << " calls at `ranks` and `bytes`.\n"
     << "constexpr int " << name
     << "_choice(int ranks, std::size_t bytes) noexcept {\n"
     << "  (void)bytes;\n"
     << "  switch (ranks) {\n";
  for (PricedRankCountAttr p : priced) {
    os << "  case " << p.getRanks() << ":\n";
    emitRanges(p, "    ", os);
  }
  os << "  default:\n";
  if (!choice.getEstimates().empty()) {
    // Beyond the priced sizes the crossovers move with P; the thresholds of
    // the largest priced P whose candidates are the same are an estimate
    // (`collc explain --ranks P` prices any P exactly).
    os << "    if (ranks > " << choice.getPricedUpTo() << ") {\n";
    for (int64_t P : choice.getEstimates()) {
      PricedRankCountAttr estimate = pricedAt(P);
      os << "      if (";
      for (size_t i = 0; i < all.size(); ++i)
        os << (i ? " && " : "") << (costAt(estimate, 2 * i) < 0 ? "!" : "")
           << all[i] << "_accepts(ranks)";
      os << ") {  // as at P = " << P << "\n";
      emitRanges(estimate, "        ", os);
      os << "      }\n";
    }
    os << "    }\n";
  }
  // Otherwise the first candidate that admits the communicator (it reports
  // a size it does not admit).
  for (size_t i = 0; i + 1 < all.size(); ++i)
    os << "    if (" << all[i] << "_accepts(ranks))\n"
       << "      return " << i << ";\n";
  os << "    return " << all.size() - 1 << ";\n";
  os << "  }\n}\n\n";

  os << "/// " << name << "'s candidates, as " << name
     << "_choice numbers them.\n"
     << "inline constexpr const char *" << name << "_candidates[] = {";
  for (size_t i = 0; i < all.size(); ++i)
    os << (i ? ", " : "") << "\"" << all[i] << "\"";
  os << "};\n\n";

  // The model's predictions behind the thresholds, for a caller that
  // explains a choice at run time: per priced P, (fixed us, us per byte)
  // of each candidate, -1 where it does not admit P.
  os << "/// The model's time for candidate `candidate` at `ranks` and "
        "`bytes`, in\n"
     << "/// microseconds; negative where it does not admit `ranks` or "
        "`ranks` was\n"
     << "/// not priced (beyond P = " << choice.getPricedUpTo() << ").\n"
     << "inline double " << name
     << "_predicted_us(int ranks, std::size_t bytes, int candidate) "
        "noexcept {\n"
     << "  static constexpr double costs[][" << 1 + 2 * all.size()
     << "] = {\n";
  for (PricedRankCountAttr p : priced) {
    os << "    {" << p.getRanks();
    for (size_t i = 0; i < p.getCosts().size(); ++i) {
      const double c = costAt(p, i);
      if (c < 0)
        os << ", -1";
      else
        os << ", " << llvm::format("%.9g", c);
    }
    os << "},\n";
  }
  os << "  };\n"
     << "  if (candidate < 0 || candidate >= " << all.size() << ")\n"
     << "    return -1;\n"
     << "  for (const auto &row : costs)\n"
     << "    if (row[0] == ranks)\n"
     << "      return row[1 + 2 * candidate] < 0 ? -1 : row[1 + 2 * "
        "candidate] + row[2 + 2 * candidate] * static_cast<double>(bytes);\n"
     << "  return -1;\n"
     << "}\n\n";

  // broadcast works in one buffer; every other kind takes send and recv.
  bool inOneBuffer = first.getKind() == CollectiveKind::broadcast;
  os << "template <class T, class... Rest>\n"
     << "void " << name << "(coll::Comm &comm, "
     << (inOneBuffer ? "T *buffer" : "const T *send, T *recv")
     << ", std::size_t count, Rest &&...rest) {\n"
     << "  switch (" << name << "_choice(comm.size(), count * sizeof(T))) {\n";
  std::string arguments =
      inOneBuffer ? "(comm, buffer, count, " : "(comm, send, recv, count, ";
  for (size_t i = 0; i < all.size(); ++i)
    os << "  "
       << (i + 1 < all.size() ? "case " + std::to_string(i) + ":"
                              : std::string("default:"))
       << "\n    return " << all[i] << arguments
       << "std::forward<Rest>(rest)...);\n";
  os << "  }\n}\n\n";
}

/// `reconfigure auto` on an optical switch model: the cheapest settings per
/// P and size, as coll-select-schedules found them on the switch's graphs.
static void emitSwitchTable(SwitchSettingsOp settings, llvm::raw_ostream &os) {
  StringRef name = settings.getCollective();
  os << "/// " << name
     << "_switch_settings(P, bytes): the phases before which the optical "
        "circuit switch is\n/// set to the circuits of that phase (phase 0 "
        "before the call), the cheapest\n/// for `bytes` per node (P * count "
        "* sizeof(T)), found by collc at compile time\n/// on model "
     << settings.getModel() << " (" << settings.getDescription()
     << "),\n/// routing each phase over the circuits last set "
        "(`collc explain` shows why).\n"
     << "inline std::vector<int> " << name
     << "_switch_settings(int P, std::size_t bytes) {\n"
     << "  const std::size_t block = P > 0 ? bytes / "
        "static_cast<std::size_t>(P) : 0;\n"
     << "  (void)block;\n"
     << "  switch (P) {\n";
  for (SwitchPlanAttr plan : settings.getTable()->getAsRange<SwitchPlanAttr>()) {
    os << "  case " << plan.getRanks() << ":\n";
    if (plan.getSettings().empty()) {
      os << "    return {};\n";
      continue;
    }
    ArrayRef<int64_t> bounds = plan.getBounds().asArrayRef();
    for (auto [i, setting] : llvm::enumerate(plan.getSettings())) {
      std::string list;
      llvm::raw_string_ostream text(list);
      llvm::interleaveComma(cast<DenseI64ArrayAttr>(setting).asArrayRef(),
                            text);
      if (i == bounds.size())
        os << "    return {" << list << "};\n";
      else
        os << "    if (block < " << bounds[i] << "u)\n      return {" << list
           << "};\n";
    }
  }
  os << "  default:\n"
     << "    throw coll::Error(\"" << name
     << "_switch_settings: P = \" + std::to_string(P) + \" was not priced at "
        "compile time\");\n"
     << "  }\n}\n\n";
}

/// `reconfigure auto`: where to set an optical circuit switch for the
/// routing (R* = argmin C(R) in balanced segments, seed 002), with the
/// model's constants, computed by coll/reconfiguration.hpp at run time; or
/// the compile-time table of an optical switch model.
static void emitSwitchSettings(SwitchSettingsOp settings, CollectiveOp spec,
                               llvm::raw_ostream &os) {
  if (settings.getTable())
    return emitSwitchTable(settings, os);
  StringRef name = spec.getSymName();
  ArrayRef<double> constants = *settings.getConstants();
  const double alpha = constants[0], hop = constants[1], beta = constants[2],
               delta = constants[3];
  os << "/// " << name
     << "_switch_settings(P, bytes): the phases of the routing before which "
        "an optical\n/// circuit switch is set to the edges {i, i +- d_k} "
        "(phase 0 always is; R* = argmin C(R)\n/// in balanced segments, "
        "seeds/002), for `bytes` per node (P * count * sizeof(T)),\n/// on "
        "model "
     << settings.getModel() << ": alpha_phase " << llvm::format("%g", alpha)
     << " us, hop " << llvm::format("%g", hop) << " us, beta "
     << llvm::format("%g", beta) << " us/B, delta "
     << llvm::format("%g", delta) << " us.\n";
  os << "inline std::vector<int> " << name
     << "_switch_settings(int P, std::size_t bytes) {\n"
     << "  const coll::SwitchModel model{" << llvm::format("%.17g", alpha)
     << ", " << llvm::format("%.17g", hop) << ", "
     << llvm::format("%.17g", beta) << ", " << llvm::format("%.17g", delta)
     << "};\n"
     << "  const std::vector<coll::RoutingPhase> phases = "
        "coll::routingPhases("
     << digitsInitializer(spec) << ", P);\n"
     << "  const double m = static_cast<double>(bytes);\n"
     << "  return coll::reconfigurationPhases(static_cast<int>(phases."
        "size()),\n"
     << "                                     coll::bestReconfigurations("
        "phases, model, m));\n}\n\n";
}

LogicalResult coll::translateToCpp(ModuleOp module, llvm::raw_ostream &os,
                                   StringRef cppNamespace, StringRef source) {
  // What coll-select-schedules writes must be there: the translation
  // prices nothing itself. A choice is a symbol; switch settings name
  // their collective.
  SymbolTable symbols(module);
  llvm::StringMap<SwitchSettingsOp> switchSettings;
  for (SwitchSettingsOp settings : module.getOps<SwitchSettingsOp>())
    switchSettings[settings.getCollective()] = settings;
  for (CollectiveOp spec : module.getOps<CollectiveOp>()) {
    if (std::optional<StringRef> of = spec.getChoiceOf();
        of && !symbols.lookup<ChoiceOp>(*of))
      return spec.emitError("collective '")
             << spec.getSymName() << "' is a candidate of '" << *of
             << "', which no coll.choice prices: run coll-select-schedules "
                "first";
    if (spec.getReconfigure() && !switchSettings.count(spec.getSymName()))
      return spec.emitError("collective '")
             << spec.getSymName()
             << "' reconfigures a switch, but no coll.switch_settings says "
                "where: run coll-select-schedules first";
  }
  os << "// Generated by collc from " << source << ". Do not edit.\n";
  os << "#pragma once\n\n";
  os << "#include \"coll/generated.hpp\"\n\n";
  os << "#include <algorithm>\n#include <cstddef>\n#include <cstdint>\n"
        "#include <string>\n#include <utility>\n#include <vector>\n\n";
  os << "namespace " << cppNamespace << " {\n\n";
  for (CollectiveOp spec : module.getOps<CollectiveOp>()) {
    emitCollective(spec, os, cppNamespace);
    if (spec.getReconfigure())
      emitSwitchSettings(switchSettings[spec.getSymName()], spec, os);
  }
  // The dispatchers last: they call their candidates.
  for (ChoiceOp choice : module.getOps<ChoiceOp>())
    emitDispatcher(choice,
                   symbols.lookup<CollectiveOp>(
                       cast<FlatSymbolRefAttr>(choice.getCandidates()[0])
                           .getValue()),
                   os);
  os << "} // namespace " << cppNamespace << "\n";
  return success();
}

void coll::registerToCppTranslation() {
  static llvm::cl::opt<std::string> cppNamespace(
      "coll-namespace", llvm::cl::desc("The header's C++ namespace"),
      llvm::cl::init("collc"));
  static llvm::cl::opt<std::string> source(
      "coll-source",
      llvm::cl::desc("The .coll file the header's first comment names"),
      llvm::cl::init("<stdin>"));
  mlir::TranslateFromMLIRRegistration registration(
      "coll-to-cpp", "print a selected coll module as a C++ header",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("coll-to-cpp translates a module");
        return translateToCpp(module, os, cppNamespace, source);
      },
      [](DialectRegistry &registry) { registry.insert<CollDialect>(); });
}
