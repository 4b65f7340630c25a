//===- CostCommand.cpp - collc cost and collc explain ---------------------===//
//
// Both expand every collective of the file for one rank count and price its
// step program on an alpha-beta-gamma machine (passes/lib/cost): the table
// of seed 000 (design.md 5), and why one candidate wins where.
//
//===----------------------------------------------------------------------===//
#include "ExitCode.h"
#include "CostCommand.h"

#include "coll/Dialect/CollOps.h"
#include "coll/Passes/CostModel.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/OpticalSwitch.h"
#include "coll/Passes/Selection.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace coll;

std::optional<std::string>
collc::parseSizeList(llvm::StringRef text, std::vector<double> &sizes) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  for (llvm::StringRef item : items) {
    llvm::StringRef rest = item.trim();
    rest.consume_back("B");
    rest.consume_back("i");
    double scale = 1;
    if (rest.consume_back("K") || rest.consume_back("k"))
      scale = 1024;
    else if (rest.consume_back("M"))
      scale = 1024.0 * 1024;
    else if (rest.consume_back("G"))
      scale = 1024.0 * 1024 * 1024;
    uint64_t value;
    if (rest.empty() || rest.getAsInteger(10, value))
      return "--sizes needs sizes like 64,8K,128K,1M, got '" + item.str() + "'";
    sizes.push_back(static_cast<double>(value) * scale);
  }
  return std::nullopt;
}

/// "64 B", "8 KiB", "1 MiB", or "7,124 B".
static std::string sizeText(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  double value = bytes;
  while (unit < 3 && value >= 1024 && std::fmod(value, 1024) == 0) {
    value /= 1024;
    ++unit;
  }
  uint64_t whole = static_cast<uint64_t>(std::llround(value));
  std::string digits = std::to_string(whole), grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      grouped += ',';
    grouped += digits[i];
  }
  return grouped + " " + units[unit];
}

/// A table with a row per size (default 64 B, 8 KiB, 128 KiB, 1 MiB) and a
/// column per name; `cell(column, size)` fills it.
static void printTable(llvm::raw_ostream &os, llvm::StringRef title,
                       const std::vector<std::string> &names,
                       std::vector<double> sizes,
                       llvm::function_ref<std::string(size_t, double)> cell) {
  if (sizes.empty())
    sizes = {64, 8192, 131072, 1048576};
  size_t width = 10;
  for (const std::string &name : names)
    width = std::max(width, name.size() + 2);
  os << title << "\n" << llvm::left_justify("payload", 10);
  for (const std::string &name : names)
    os << llvm::right_justify(name, width);
  os << "\n";
  for (double size : sizes) {
    os << llvm::left_justify(sizeText(size), 10);
    for (size_t column = 0; column < names.size(); ++column)
      os << llvm::right_justify(cell(column, size), width);
    os << "\n";
  }
}

/// "M < 7,124 B", "7,124 B <= M < 9,083 B", "9,083 B <= M" or "any M"
/// for the sizes [from, until) (from = 0: no lower end; until infinite:
/// no upper end), its bounds rounded as the header's dispatcher tests them
/// (coll::thresholdBytes).
static std::string rangeText(double from, double until) {
  std::string upper =
      thresholdBytes(until) == UINT64_MAX
          ? ""
          : " < " + sizeText(static_cast<double>(thresholdBytes(until)));
  if (from == 0)
    return upper.empty() ? "any M" : "M" + upper;
  return sizeText(static_cast<double>(thresholdBytes(from))) + " <= M" + upper;
}

/// cost and explain on an optical circuit switch: each candidate's cheapest
/// switch settings per size (coll/Passes/OpticalSwitch.h).
static int runSwitchCost(
    const std::vector<std::pair<std::string, ProgramOp>> &programs,
    const MachineModel &model, const collc::CostCommandOptions &options,
    int64_t P) {
  std::vector<OpticalSwitch> switches;
  for (auto &[name, program] : programs) {
    std::string error;
    std::optional<OpticalSwitch> ocs =
        OpticalSwitch::build(program, model, error);
    if (!ocs) {
      llvm::errs() << "collc: error: " << name << ": " << error << "\n";
      return collc::kInputError;
    }
    switches.push_back(std::move(*ocs));
  }
  llvm::raw_ostream &os = llvm::outs();
  os << "P = " << P << ", model " << model.name << ": " << model.describe()
     << "\n";
  if (!options.explain) {
    std::vector<std::string> names;
    for (auto &[name, program] : programs)
      names.push_back(name);
    for (bool times : {true, false})
      printTable(os,
                 times ? "predicted time (us), with the cheapest switch settings"
                       : "the switch is set before phases",
                 names, options.sizes, [&](size_t column, double size) {
                   SwitchPlan plan = switches[column].best(size);
                   return times ? llvm::formatv("{0:F3}", plan.cost.at(size)).str()
                                : listText(plan.settings);
                 });
    return 0;
  }
  for (size_t i = 0; i < programs.size(); ++i) {
    const OpticalSwitch &ocs = switches[i];
    int64_t K = ocs.numPhases();
    os << programs[i].first << ": " << K << " phases (first steps "
       << listText(ocs.phaseStarts())
       << "); the switch is set for phase 0 before the call, and before a "
          "later phase\nfor " << llvm::format("%g", model.delta)
       << " us to exactly that phase's circuits\n";
    std::vector<int64_t> all;
    for (int64_t p = 0; p < K; ++p)
      if (ocs.settable(p))
        all.push_back(p);
    for (auto [label, plan] :
         {std::pair{"never reconfigure", ocs.plan({0})},
          std::pair{"reconfigure before every phase", ocs.plan(all)}})
      os << "  " << llvm::left_justify(label, 32)
         << llvm::format("%12.3f us + %.6e us/B * M", plan.cost.fixed,
                         plan.cost.perByte)
         << "\n";
    os << "cheapest settings by size (exact over all subsets of phases):\n";
    double from = 0;
    for (auto &[until, plan] : ocs.plansBySize()) {
      os << "  " << llvm::left_justify(rangeText(from, until) + ":", 34)
         << "phases "
         << llvm::left_justify(listText(plan.settings), 12) << "(R = "
         << plan.reconfigurations() << ")"
         << llvm::format("%12.3f us + %.6e us/B * M", plan.cost.fixed,
                         plan.cost.perByte)
         << "\n";
      from = until;
    }
  }
  return 0;
}

/// "doubling < 9,083 B <= halving": the fastest by size as one line.
template <class Name>
static std::string rangesLine(const std::vector<std::pair<double, size_t>> &ranges,
                              Name name) {
  std::string line;
  for (auto [until, i] : ranges) {
    line += name(i);
    if (thresholdBytes(until) != UINT64_MAX)
      line += " < " + sizeText(static_cast<double>(thresholdBytes(until))) +
              " <= ";
  }
  return line;
}

/// Whether `--collective NAME` selects `spec`: its own name, or the
/// `choose` it is a candidate of (then explain prices exactly the
/// dispatcher's candidates). No name selects every collective.
static bool selects(const collc::CostCommandOptions &options,
                    CollectiveOp spec) {
  if (options.collective.empty() || spec.getSymName() == options.collective)
    return true;
  std::optional<StringRef> choice = spec.getChoiceOf();
  return choice && *choice == options.collective;
}

/// explain over several communicator sizes: one line per P.
static int runExplainSummary(ModuleOp module,
                             const collc::CostCommandOptions &options,
                             const MachineModel &model,
                             std::vector<int64_t> counts) {
  std::vector<CollectiveOp> specs;
  for (CollectiveOp spec : module.getOps<CollectiveOp>())
    if (selects(options, spec))
      specs.push_back(spec);
  if (specs.empty()) {
    emitError(module.getLoc(), "no collective named '" + options.collective +
                                   "'");
    return collc::kInputError;
  }
  if (counts.empty()) // a symbolic count: the sizes a dispatcher prices
    for (CollectiveOp spec : specs)
      if (!spec.getNumRanks()) {
        counts = pricedRankCounts(spec);
        break;
      }
  llvm::raw_ostream &os = llvm::outs();
  // A P that cannot be priced is said on stderr; none at all is an error.
  int priced = 0;
  auto cannot = [&](int64_t P, const std::string &why) {
    llvm::errs() << "collc: P = " << P << ": " << why << "\n";
  };
  os << "model " << model.name << ": " << model.describe() << "\n";
  os << (model.isOpticalSwitch()
             ? "per communicator size, each collective's cheapest switch "
               "settings by size (M = count * sizeof(T)):\n"
             : "per communicator size, the fastest by size (M = count * "
               "sizeof(T)):\n");
  for (int64_t P : counts) {
    std::vector<CollectiveOp> here;
    for (CollectiveOp spec : specs)
      if ((!spec.getNumRanks() ||
           static_cast<int64_t>(*spec.getNumRanks()) == P) &&
          spec.acceptsRanks(P))
        here.push_back(spec);
    if (here.empty())
      continue;
    std::string label = "  P = " + std::to_string(P);
    if (model.isOpticalSwitch()) {
      for (CollectiveOp spec : here) {
        std::string error;
        std::optional<PricedSwitch> onSwitch =
            priceOnSwitch(spec, P, model, error);
        if (!onSwitch) {
          cannot(P, spec.getSymName().str() + ": " + error);
          continue;
        }
        ++priced;
        os << llvm::left_justify(label, 10) << spec.getSymName() << ": ";
        const std::vector<std::pair<double, SwitchPlan>> &plans =
            onSwitch->plans;
        std::vector<std::pair<double, size_t>> ranges;
        for (size_t i = 0; i < plans.size(); ++i)
          ranges.push_back({plans[i].first, i});
        os << rangesLine(ranges, [&](size_t i) {
          return "phases {" + listText(plans[i].second.settings) + "}";
        }) << "\n";
      }
      continue;
    }
    std::string topologyError;
    std::optional<PricedCandidates> costs =
        priceCandidates(here, P, model, topologyError);
    if (!costs) {
      cannot(P, topologyError);
      continue;
    }
    ++priced;
    os << llvm::left_justify(label, 10)
       << rangesLine(costs->cheapest,
                     [&](size_t i) { return here[i].getSymName().str(); })
       << "\n";
  }
  os << "(collc explain --ranks P shows the costs and crossovers behind one "
        "line)\n";
  if (priced == 0) {
    llvm::errs() << "collc: error: no rank count could be priced\n";
    return collc::kInputError;
  }
  return 0;
}

int collc::runCost(ModuleOp module, const CostCommandOptions &options) {
  if (options.model.empty()) {
    llvm::errs() << "collc: error: " << (options.explain ? "explain" : "cost")
                 << " needs --model FILE or --model alpha=...,beta=...\n";
    return collc::kInputError;
  }
  std::optional<MachineModel> model = MachineModel::load(options.model, llvm::errs());
  if (!model)
    return collc::kInputError;
  // explain over several P: a list, or no --ranks on a symbolic count.
  std::vector<CollectiveOp> specs;
  for (CollectiveOp spec : module.getOps<CollectiveOp>())
    if (selects(options, spec))
      specs.push_back(spec);
  bool symbolic = llvm::any_of(
      specs, [](CollectiveOp spec) { return !spec.getNumRanks(); });
  std::vector<std::string> specNames; // they outlive the specs' expansion
  for (CollectiveOp spec : specs)
    specNames.push_back(spec.getSymName().str());
  if (options.explain &&
      (!options.rankList.empty() || (options.ranks == 0 && symbolic)))
    return runExplainSummary(module, options, *model, options.rankList);
  if (failed(expandAllCollectives(module, options.ranks, "--ranks N",
                                  /*withTransfers=*/false,
                                  [&](CollectiveOp spec) {
                                    return selects(options, spec);
                                  })))
    return collc::kInputError;
  struct Candidate {
    std::string name;
    ProgramOp program;
    AffineCost cost;
  };
  std::vector<Candidate> candidates;
  int64_t P = 0;
  for (ProgramOp program : module.getOps<ProgramOp>()) {
    // The selected specs' programs, and step programs of the input by name.
    if (!options.collective.empty() &&
        program.getSymName() != options.collective &&
        llvm::none_of(specNames, [&](const std::string &name) {
          return program.getSymName() == name;
        }))
      continue;
    candidates.push_back({program.getSymName().str(), program, {}});
    P = static_cast<int64_t>(program.getNumRanks());
  }
  if (candidates.empty()) {
    emitError(module.getLoc(), options.collective.empty()
                                   ? "no collective to price"
                                   : "no collective named '" +
                                         options.collective + "'");
    return collc::kInputError;
  }
  for (Candidate &c : candidates)
    if (static_cast<int64_t>(c.program.getNumRanks()) != P) {
      llvm::errs() << "collc: error: " << (options.explain ? "explain" : "cost")
                   << " compares its candidates at one P, and '" << c.name
                   << "' is for P = " << c.program.getNumRanks() << ", '"
                   << candidates.back().name << "' for P = " << P
                   << "; name one with --collective\n";
      return collc::kInputError;
    }
  if (model->isOpticalSwitch()) {
    std::vector<std::pair<std::string, ProgramOp>> programs;
    for (const Candidate &c : candidates)
      programs.push_back({c.name, c.program});
    return runSwitchCost(programs, *model, options, P);
  }
  std::string topologyError;
  std::optional<Topology> topology = model->topologyFor(P, topologyError);
  if (!topologyError.empty()) {
    llvm::errs() << "collc: error: " << topologyError << "\n";
    return collc::kInputError;
  }
  const Topology *machine = topology ? &*topology : nullptr;
  llvm::raw_ostream &os = llvm::outs();
  os << "P = " << P << ", model " << model->name << ": " << model->describe()
     << "\n";

  if (!options.explain) {
    std::vector<std::string> names;
    for (const Candidate &c : candidates)
      names.push_back(c.name);
    printTable(os, "predicted time (us)", names, options.sizes,
               [&](size_t column, double size) {
                 return llvm::formatv("{0:F3}",
                                      predictedTime(candidates[column].program,
                                                    *model, size, machine))
                     .str();
               });
    return 0;
  }

  // explain: the affine costs, the lower envelope, the pairwise crossovers.
  // The dispatcher's own pricing (coll::pricePrograms): explain's costs
  // and ranges are the thresholds a `choose` compiles to.
  std::vector<ProgramOp> programs;
  for (const Candidate &c : candidates)
    programs.push_back(c.program);
  PricedCandidates priced = pricePrograms(programs, *model, machine);
  for (size_t i = 0; i < candidates.size(); ++i)
    candidates[i].cost = *priced.costs[i];
  os << "each candidate costs fixed + per-byte * M (M = count * sizeof(T)):\n";
  size_t nameWidth = 18;
  for (const Candidate &c : candidates)
    nameWidth = std::max(nameWidth, c.name.size() + 2);
  for (const Candidate &c : candidates) {
    size_t steps = llvm::count_if(
        costOfSteps(c.program, *model, 1, machine),
        [](const StepCost &s) { return s.communicates; });
    os << "  " << llvm::left_justify(c.name, nameWidth)
       << llvm::format("%10.3f us + %.6e us/B * M", c.cost.fixed,
                       c.cost.perByte)
       << "   (" << steps << " communication steps";
    ProgramOp program = c.program;
    if (int64_t S = static_cast<int64_t>(program.getSegments().value_or(1));
        S > 1) // every step of every segment, staggered by one
      os << "; " << S << " segments pipelined in "
         << llvm::range_size(program.getBody().getOps<StepOp>()) + S - 1
         << " super-steps";
    os << ")\n";
  }
  os << "fastest by size:\n";
  std::vector<size_t> winners; // in the order of the size ranges
  double from = 0;
  for (auto [until, i] : priced.cheapest) {
    os << "  " << rangeText(from, until) << ": " << candidates[i].name
       << "\n";
    winners.push_back(i);
    from = until;
  }
  // Many candidates (segments = auto has nine): only the thresholds, the
  // crossovers of the winners of neighbouring size ranges.
  bool winnersOnly = candidates.size() > 6;
  os << (winnersOnly ? "crossovers at the thresholds (winners of neighbouring "
                       "size ranges):\n"
                     : "crossovers (where two candidates cost the same):\n");
  size_t pairWidth = 28;
  for (const Candidate &a : candidates)
    for (const Candidate &b : candidates)
      pairWidth = std::max(pairWidth, a.name.size() + b.name.size() + 6);
  for (size_t i = 0; i < candidates.size(); ++i)
    for (size_t j = i + 1; j < candidates.size(); ++j) {
      if (winnersOnly &&
          llvm::none_of(llvm::seq<size_t>(1, winners.size()), [&](size_t w) {
            return std::minmax(winners[w - 1], winners[w]) ==
                   std::minmax(i, j);
          }))
        continue;
      const Candidate &a = candidates[i], &b = candidates[j];
      os << "  " << llvm::left_justify(a.name + " vs " + b.name, pairWidth);
      if (std::optional<double> at = crossover(a.cost, b.cost)) {
        bool aFirst = a.cost.at(*at / 2) < b.cost.at(*at / 2);
        os << "about " << sizeText(std::round(*at)) << " ("
           << (aFirst ? a.name : b.name) << " below, "
           << (aFirst ? b.name : a.name) << " above)\n";
      } else {
        bool aBetter = a.cost.at(1) <= b.cost.at(1);
        os << "none (" << (aBetter ? a.name : b.name)
           << " is as fast or faster at every size)\n";
      }
    }
  return 0;
}
