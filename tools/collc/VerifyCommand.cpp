//===- VerifyCommand.cpp - collc verify -----------------------------------===//
//
// Proves the four properties (docs/verification.md) for every collective of
// a .coll file or spec-level MLIR, per rank count and, where the schedule is
// a closed form in P, for all P at once; or for the step programs of a
// step-level MLIR file as they are written.
//
//===----------------------------------------------------------------------===//
#include "ExitCode.h"
#include "VerifyCommand.h"

#include "coll/Dialect/CollOps.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/ProofCache.h"
#include "coll/Passes/Verify.h"
#include "coll/Passes/VerifyPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>

using namespace mlir;
using namespace coll;

namespace {

constexpr int64_t kDefaultMaxRanks = 64;
/// The range the family proofs cover; larger communicators are rare and
/// the proofs stay fast (docs/verification.md).
constexpr int64_t kFamilyMaxRanks = 65536;
/// The method of a result an earlier run proved (--proof-cache).
constexpr const char *kCachedProof = "proof cache";

struct Row {
  std::string collective;
  int64_t ranks = 0; // 0: a family proof
  PropertyResult result;
};

std::string compressCounts(const std::vector<int64_t> &counts) {
  std::string text;
  for (size_t i = 0; i < counts.size();) {
    size_t j = i;
    while (j + 1 < counts.size() && counts[j + 1] == counts[j] + 1)
      ++j;
    if (!text.empty())
      text += ", ";
    text += std::to_string(counts[i]);
    if (j > i + 1)
      text += ".." + std::to_string(counts[j]);
    else if (j == i + 1)
      text += ", " + std::to_string(counts[j]);
    i = j + 1;
  }
  return text;
}

class Reporter {
public:
  explicit Reporter(const collc::VerifyCommandOptions &opts)
      : opts(opts),
        progress(!opts.json && llvm::sys::Process::StandardErrIsDisplayed()) {}

  void family(const std::string &name, const std::vector<PropertyResult> &rs) {
    for (const PropertyResult &r : rs)
      rows.push_back({name, 0, r});
    if (opts.json || rs.empty())
      return;
    clearProgress();
    llvm::outs() << name << ": proofs for every P at once (P symbolic)\n";
    for (const PropertyResult &r : rs) {
      llvm::outs() << "  " << llvm::left_justify(propertyName(r.property), 18)
                   << llvm::left_justify(verdictName(r.verdict), 11)
                   << llvm::format("%8.3f s  ", r.seconds) << r.scope << "  "
                   << r.method << "\n";
      detail(r);
    }
  }

  void instance(const std::string &name, int64_t P,
                const std::vector<PropertyResult> &rs) {
    for (const PropertyResult &r : rs)
      rows.push_back({name, P, r});
    if (opts.json)
      return;
    clearProgress();
    llvm::outs() << "  " << llvm::left_justify("P = " + std::to_string(P), 9);
    for (size_t i = 0; i < rs.size(); ++i) {
      const PropertyResult &r = rs[i];
      llvm::outs() << (i ? " | " : "") << propertyName(r.property) << " "
                   << (r.skipped ? "not checked" : verdictName(r.verdict));
      if (r.skipped)
        continue;
      if (r.byReplay)
        llvm::outs() << " by replay";
      if (r.method == "family proof")
        llvm::outs() << " (all P)";
      else if (r.method == kCachedProof)
        llvm::outs() << " (cached)";
      else
        llvm::outs() << llvm::format(" %.3fs", r.seconds);
    }
    llvm::outs() << "\n";
    for (const PropertyResult &r : rs)
      detail(r);
  }

  /// The simulation's verdict on the program just reported for P.
  void cross(const std::string &name, int64_t P, const CrossCheck &check) {
    if (!opts.crossCheck)
      return;
    if (!check.compared) {
      uncompared[name].push_back(P);
      return;
    }
    if (check.agrees) {
      agreed[name].push_back(P);
      return;
    }
    disagreements.push_back(name + " at P = " + std::to_string(P) +
                            ": the simulation finds " + check.simulation);
    clearProgress();
    llvm::errs() << "collc: error: cross-check failed: Z3 and the simulation "
                    "disagree on '"
                 << name << "' at P = " << P << " (simulation: "
                 << check.simulation << ")\n";
  }

  void showProgress(const std::string &name, int64_t P, size_t done,
                    size_t total) {
    if (!progress || total < 2)
      return;
    llvm::errs() << "\r\033[Kverifying " << name << ": P = " << P << " ("
                 << done + 1 << "/" << total << ")";
    llvm::errs().flush();
    shown = true;
  }

  void summary(const std::string &name, const std::vector<int64_t> &counts,
               size_t skipped, const std::string &constraint, double seconds,
               bool everyRoot = false) {
    if (opts.json)
      return;
    clearProgress();
    int violated = 0, unproven = 0;
    std::set<std::string> notes;
    for (const Row &row : rows) {
      if (row.collective != name)
        continue;
      violated += row.result.verdict == Verdict::violated;
      unproven += row.result.verdict == Verdict::notProven;
      if (row.result.property == Property::operatorLegality &&
          row.result.verdict == Verdict::proven && !row.result.note.empty())
        notes.insert(row.result.note);
    }
    llvm::outs() << name << ": ";
    if (violated)
      llvm::outs() << "VIOLATED";
    else if (unproven)
      llvm::outs() << "NOT PROVEN";
    else
      llvm::outs() << "all properties proven";
    llvm::outs() << " for P in {" << compressCounts(counts) << "}"
                 << (everyRoot && !violated && !unproven ? " and every root" : "")
                 << llvm::format(" (%.3f s)", seconds);
    if (skipped)
      llvm::outs() << "; skipped " << skipped
                   << " rank counts the spec does not admit (" << constraint
                   << ")";
    llvm::outs() << "\n";
    for (const std::string &note : notes)
      llvm::outs() << "  " << note << "\n";
    if (!opts.crossCheck)
      return;
    if (!agreed[name].empty())
      llvm::outs() << "  cross-check: the simulation agrees for P in {"
                   << compressCounts(agreed[name]) << "}\n";
    if (!uncompared[name].empty())
      llvm::outs() << "  cross-check: not compared for P in {"
                   << compressCounts(uncompared[name])
                   << "} (too large to simulate, or not proven)\n";
  }

  int finish() {
    clearProgress();
    bool violated = false, unproven = false;
    for (const Row &row : rows) {
      violated |= row.result.verdict == Verdict::violated;
      unproven |= row.result.verdict == Verdict::notProven;
    }
    if (opts.json)
      printJson();
    for (const std::string &d : disagreements)
      llvm::outs() << "cross-check FAILED: " << d << "\n";
    if (!disagreements.empty())
      return collc::kDisagreement;
    return violated   ? collc::kViolated
           : unproven ? collc::kNotProven
                      : collc::kSuccess;
  }

private:
  void detail(const PropertyResult &r) {
    if (r.verdict == Verdict::violated && r.counterexample)
      llvm::outs() << "    " << propertyName(r.property)
                   << " violated: " << describeCounterexample(*r.counterexample)
                   << "\n";
    else if (r.verdict == Verdict::notProven && !r.skipped)
      llvm::outs() << "    " << propertyName(r.property)
                   << " not proven: " << r.note << "\n";
  }

  void clearProgress() {
    if (shown)
      llvm::errs() << "\r\033[K";
    shown = false;
  }

  void printJson() {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", opts.input);
      json.attributeArray("results", [&] {
        for (const Row &row : rows) {
          const PropertyResult &r = row.result;
          json.object([&] {
            json.attribute("collective", row.collective);
            if (row.ranks)
              json.attribute("P", row.ranks);
            else
              json.attribute("P", nullptr);
            json.attribute("scope", r.scope);
            json.attribute("property", propertyName(r.property));
            json.attribute("verdict", verdictName(r.verdict));
            json.attribute("seconds", r.seconds);
            json.attribute("method", r.method);
            json.attribute("by_replay", r.byReplay);
            json.attribute("note", r.note);
            if (!r.counterexample)
              return;
            const Counterexample &c = *r.counterexample;
            json.attributeObject("counterexample", [&] {
              json.attribute("P", c.ranks);
              if (c.root >= 0) // a `root = any` spec's instance
                json.attribute("root", c.root);
              json.attribute("step", c.step);
              json.attribute("rank", c.rank);
              json.attribute("part", c.part);
              json.attribute("expected", c.expected);
              json.attribute("found", c.found);
              json.attribute("message", c.message);
            });
          });
        }
      });
    });
    llvm::outs() << "\n";
  }

  const collc::VerifyCommandOptions &opts;
  bool progress, shown = false;
  std::vector<Row> rows;
  std::map<std::string, std::vector<int64_t>> agreed, uncompared;
  std::vector<std::string> disagreements;
};

double secondsOf(const std::vector<PropertyResult> &rs) {
  double total = 0;
  for (const PropertyResult &r : rs)
    total += r.seconds;
  return total;
}

} // namespace

std::optional<std::string> collc::parseRankList(llvm::StringRef text,
                                                std::vector<int64_t> &ranks) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  std::set<int64_t> counts;
  for (llvm::StringRef item : items) {
    item = item.trim();
    auto [lo, hi] = item.split("..");
    int64_t first, last;
    if (lo.getAsInteger(10, first) ||
        (item.contains("..") ? hi.getAsInteger(10, last)
                             : (last = first, false)))
      return "--ranks needs counts like 2..64 or 3,7,127, got '" + text.str() +
             "'";
    if (first < 1 || last < first)
      return "--ranks: '" + item.str() +
             "' is not a range of positive rank counts";
    if (last > (int64_t(1) << 20))
      return "--ranks: " + std::to_string(last) +
             " ranks is too many (at most 1048576, as a program's num_ranks)";
    for (int64_t P = first; P <= last; ++P)
      counts.insert(P);
  }
  ranks.assign(counts.begin(), counts.end());
  return std::nullopt;
}

int collc::runVerify(ModuleOp module, const VerifyCommandOptions &opts) {
  auto specs = llvm::to_vector(module.getOps<CollectiveOp>());
  auto programs = llvm::to_vector(module.getOps<ProgramOp>());
  if (!opts.collective.empty()) {
    llvm::erase_if(specs, [&](CollectiveOp s) {
      return s.getSymName() != opts.collective;
    });
    llvm::erase_if(programs, [&](ProgramOp p) {
      return p.getSymName() != opts.collective;
    });
    if (specs.empty() && programs.empty()) {
      emitError(module.getLoc(), "no collective named '")
          << opts.collective << "'";
      return collc::kInputError;
    }
  }
  if (specs.empty() && programs.empty()) {
    emitError(module.getLoc(), "nothing to verify");
    return collc::kInputError;
  }
  if (!programs.empty() && !opts.ranks.empty()) {
    emitError(programs.front().getLoc(), "--ranks does not apply to step "
                                         "programs: '")
        << programs.front().getSymName()
        << "' is written for P = " << programs.front().getNumRanks();
    return collc::kInputError;
  }

  ProvenSchedules proven;
  if (!opts.proofCache.empty())
    if (std::optional<std::string> error =
            proven.useDirectory(opts.proofCache)) {
      // A command-line error, as compile reports it: no location.
      llvm::errs() << "collc: error: " << *error << "\n";
      return collc::kInputError;
    }

  Reporter report(opts);
  VerifyOptions base;
  base.timeoutMs = opts.timeoutMs;
  if (opts.replay)
    base.replayEverywhere();

  for (CollectiveOp spec : specs) {
    std::string name = spec.getSymName().str();
    std::vector<int64_t> asked = opts.ranks;
    if (std::optional<uint64_t> fixed = spec.getNumRanks()) {
      int64_t P = static_cast<int64_t>(*fixed);
      if (!asked.empty() && !llvm::is_contained(asked, P)) {
        spec.emitError("collective '")
            << name << "' is fixed at P = " << P << "; --ranks does not "
            << "include it";
        return collc::kInputError;
      }
      asked = {P};
    } else if (asked.empty()) {
      for (int64_t P = 2; P <= kDefaultMaxRanks; ++P)
        asked.push_back(P);
    }
    std::vector<int64_t> counts;
    for (int64_t P : asked)
      if (spec.acceptsRanks(P))
        counts.push_back(P);
    size_t skipped = asked.size() - counts.size();
    if (counts.empty()) {
      std::string list;
      for (size_t i = 0; i < asked.size() && i < 8; ++i)
        list += (i ? ", " : "") + std::to_string(asked[i]);
      if (asked.size() > 8)
        list += ", ... (" + std::to_string(asked.size()) + " in all)";
      spec.emitError("collective '")
          << name << "' admits none of the rank counts asked (" << list
          << "): it requires " << spec.describeRanks();
      return collc::kInputError;
    }

    std::vector<PropertyResult> family;
    if (opts.family)
      family = proveFamily(spec, kFamilyMaxRanks, base);
    report.family(name, family);
    double seconds = secondsOf(family);

    const std::string key = proofKey(spec);
    VerifyOptions cached = base;
    cached.alreadyProven.assign(std::begin(kAllProperties),
                                std::end(kAllProperties));
    cached.alreadyProvenBy = kCachedProof;
    bool provedMore = false;
    for (size_t i = 0; i < counts.size(); ++i) {
      int64_t P = counts[i];
      report.showProgress(name, P, i, counts.size());
      CrossCheck cross;
      bool known = proven.contains(key, P);
      std::vector<PropertyResult> results = verifyRankCount(
          spec, P,
          P <= kFamilyMaxRanks ? family : std::vector<PropertyResult>{},
          known ? cached : base, opts.crossCheck ? &cross : nullptr);
      if (!known && llvm::all_of(results, [](const PropertyResult &r) {
            return r.verdict == Verdict::proven;
          })) {
        proven.insert(key, P);
        provedMore = true;
      }
      seconds += secondsOf(results);
      report.instance(name, P, results);
      report.cross(name, P, cross);
    }
    if (provedMore)
      proven.save(key);
    report.summary(name, counts, skipped, spec.describeRanks(), seconds,
                   spec.getAnyRoot());
  }

  for (ProgramOp program : programs) {
    std::string name = program.getSymName().str();
    std::vector<PropertyResult> results = verifyProgram(program, base);
    report.instance(name, program.getNumRanks(), results);
    if (opts.crossCheck)
      report.cross(name, program.getNumRanks(), crossCheck(program, results));
    report.summary(name, {static_cast<int64_t>(program.getNumRanks())}, 0, "",
                   secondsOf(results));
  }
  return report.finish();
}
