//===- Verify.cpp - the four properties of one step program ---------------===//
#include "Queries.h"

#include "coll/Passes/Lowering.h"
#include "coll/Passes/Simulation.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLExtras.h"

#include <chrono>

#include <malloc.h>

using namespace coll;
using namespace coll::verify;

const char *coll::propertyName(Property property) {
  switch (property) {
  case Property::matching:
    return "matching";
  case Property::ownership:
    return "ownership";
  case Property::coverage:
    return "coverage";
  case Property::operatorLegality:
    return "operator-legality";
  }
  return "?";
}

const char *coll::verdictName(Verdict verdict) {
  switch (verdict) {
  case Verdict::proven:
    return "proven";
  case Verdict::violated:
    return "violated";
  case Verdict::notProven:
    return "not proven";
  }
  return "?";
}

std::vector<PropertyResult> coll::verifyProgram(ProgramOp program,
                                                const VerifyOptions &options) {
  using Clock = std::chrono::steady_clock;
  std::string scope = "P = " + std::to_string(program.getNumRanks());
  std::vector<PropertyResult> results;
  for (Property p : kAllProperties) {
    PropertyResult r{p};
    r.scope = scope;
    results.push_back(r);
  }
  auto given = [&](Property p) {
    return llvm::is_contained(options.alreadyProven, p);
  };
  if (llvm::all_of(kAllProperties, given)) {
    for (PropertyResult &r : results) {
      r.verdict = Verdict::proven;
      r.method = options.alreadyProvenBy;
    }
    return results;
  }
  // The rank level holds a slot per (rank, part): past 2^26 of them the
  // encodings would not fit in memory, so say so instead of running out.
  constexpr double kMaxRankLevelSlots = double(1 << 26);
  if (!provenOnGroupLevel(program) &&
      double(program.getNumRanks()) * double(program.getNumParts()) >
          kMaxRankLevelSlots) {
    for (PropertyResult &r : results)
      r.note = "too large for the rank-level encoding (" +
               std::to_string(program.getNumRanks()) + " ranks x " +
               std::to_string(program.getNumParts()) +
               " parts is over 2^26 slots)";
    return results;
  }
  SlotProgram sp = SlotProgram::build(program, /*perRank=*/false);
  z3::context ctx; // one per program: creating a context costs milliseconds
  PropertyResult &matching = results[0], &ownership = results[1],
                 &coverage = results[2], &legality = results[3];
  auto timed = [&](PropertyResult &r, auto &&prove) {
    if (given(r.property)) {
      r.verdict = Verdict::proven;
      r.method = options.alreadyProvenBy;
      return;
    }
    auto start = Clock::now();
    prove();
    r.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  };
  auto skip = [](PropertyResult &r, const char *because) {
    r.verdict = Verdict::notProven;
    r.skipped = true;
    r.note = std::string("not checked: ") + because + " is violated";
  };

  timed(matching, [&] { proveMatching(ctx, sp, options, matching); });
  if (matching.verdict == Verdict::violated) {
    skip(ownership, "matching");
    skip(coverage, "matching");
    skip(legality, "matching");
    return results;
  }
  timed(ownership, [&] { proveOwnership(ctx, sp, options, ownership); });
  if (ownership.verdict == Verdict::violated) {
    skip(coverage, "ownership");
    skip(legality, "ownership");
    return results;
  }
  timed(coverage,
        [&] { proveCoverage(ctx, sp, options, coverage, ownership); });
  timed(legality, [&] {
    // Rank order is a property of ranks, not placements; where values are
    // copied from is read off the placements, as for any operator.
    if (sp.noncommutative && sp.groupLevel) {
      SlotProgram perRank = SlotProgram::build(program, /*perRank=*/true);
      proveOperatorLegality(ctx, perRank, options, legality);
    } else {
      proveOperatorLegality(ctx, sp, options, legality);
    }
    std::string identical = identicalResultsNote(ctx, sp, options);
    legality.note = legality.note.empty() ? identical
                                          : legality.note + "; " + identical;
  });
  return results;
}

std::string coll::describeCounterexample(const Counterexample &c) {
  if (c.ranks == 0) // a family counterexample: the message names P
    return c.message;
  std::string text = "P = " + std::to_string(c.ranks);
  if (c.root >= 0)
    text += ", root " + std::to_string(c.root);
  text +=
      c.step < 0 ? ", after the last step" : ", step " + std::to_string(c.step);
  if (c.rank >= 0)
    text += ", rank " + std::to_string(c.rank);
  if (c.part >= 0)
    text += ", part " + std::to_string(c.part);
  text += ": " + c.message;
  if (!c.expected.empty())
    text += " (expected " + c.expected + ", found " + c.found + ")";
  return text;
}

mlir::LogicalResult coll::reportProperty(mlir::ModuleOp module,
                                         Property property,
                                         const VerifyOptions &options) {
  bool failed = false;
  for (ProgramOp program : module.getOps<ProgramOp>()) {
    std::vector<PropertyResult> results = verifyProgram(program, options);
    const PropertyResult &r = results[static_cast<size_t>(property)];
    if (r.verdict == Verdict::proven)
      continue;
    failed = true;
    mlir::Operation *at = r.counterexample && r.counterexample->at
                              ? r.counterexample->at
                              : program.getOperation();
    mlir::InFlightDiagnostic diag = at->emitError();
    diag << propertyName(property) << " " << verdictName(r.verdict) << " in '"
         << program.getSymName() << "': ";
    if (r.counterexample)
      diag << describeCounterexample(*r.counterexample);
    else
      diag << r.scope << ": " << r.note;
  }
  return mlir::failure(failed);
}

CrossCheck coll::crossCheck(ProgramOp program,
                            const std::vector<PropertyResult> &results) {
  CrossCheck check;
  if (Simulation::tooLarge(program))
    return check;
  bool violated = false, proven = true;
  for (const PropertyResult &r : results) {
    if (r.property == Property::operatorLegality)
      continue;
    violated |= r.verdict == Verdict::violated;
    proven &= r.verdict == Verdict::proven;
  }
  if (!violated && !proven)
    return check;
  std::optional<Violation> v = Simulation::run(program);
  check.compared = true;
  check.agrees = v ? violated : proven;
  check.simulation =
      v ? v->property + " violated: step " + std::to_string(v->step) +
              ": " + v->message
        : "no violation";
  return check;
}

mlir::OwningOpRef<CollectiveOp> coll::rootInstance(CollectiveOp spec,
                                                   int64_t root) {
  auto instance = llvm::cast<CollectiveOp>(spec->clone());
  mlir::Builder builder(spec.getContext());
  instance.setRootAttr(builder.getI64IntegerAttr(root));
  instance.removeAnyRootAttr();
  return instance;
}

namespace {

/// A spec's plan for P ranks, in a scratch module of its own.
struct ExpandedPlan {
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
  ProgramOp program;
};

ExpandedPlan expandPlan(CollectiveOp spec, int64_t P) {
  ExpandedPlan plan;
  plan.scratch = mlir::ModuleOp::create(spec.getLoc());
  mlir::OpBuilder builder(plan.scratch->getBody(),
                          plan.scratch->getBody()->end());
  plan.program = expandCollective(spec, P, builder, /*withTransfers=*/false);
  return plan;
}

/// Proves one plan of `spec` (one root's, for `root = any`).
std::vector<PropertyResult> provePlan(CollectiveOp spec, ProgramOp program,
                                      const std::vector<PropertyResult> &family,
                                      const VerifyOptions &options,
                                      CrossCheck *cross) {
  VerifyOptions withFamily = options;
  for (const PropertyResult &r : family)
    if (r.verdict == Verdict::proven &&
        familyCovers(spec, program, r.property)) {
      withFamily.alreadyProven.push_back(r.property);
      // A group's family matching is its moves' proof (cyclicMoves,
      // xorMoves), which states the part indices too.
      if (r.property == Property::matching && spec.getGroup())
        withFamily.moveIndicesProven = true;
    }
  std::vector<PropertyResult> results = verifyProgram(program, withFamily);
  if (cross)
    *cross = crossCheck(program, results);
  for (PropertyResult &r : results)
    if (r.counterexample)
      r.counterexample->at = nullptr; // the scratch module goes now
  return results;
}

bool allProven(const std::vector<PropertyResult> &results) {
  return llvm::all_of(results, [](const PropertyResult &r) {
    return r.verdict == Verdict::proven;
  });
}

} // namespace

std::vector<PropertyResult>
coll::verifyRankCount(CollectiveOp spec, int64_t P,
                      const std::vector<PropertyResult> &family,
                      const VerifyOptions &options, CrossCheck *cross) {
  if (!spec.getAnyRoot()) {
    ExpandedPlan plan = expandPlan(spec, P);
    return provePlan(spec, plan.program, family, options, cross);
  }
  // `root = any`: the runtime runs the plan of the root the caller passes,
  // so every root's plan is proven: by Z3 (or a family proof), or, when it
  // is root 0's proven plan renamed (isRootRotation), by root 0's proof.
  std::vector<PropertyResult> merged, firstResults;
  ExpandedPlan first;
  bool firstProven = false;
  int64_t renamed = 0;
  for (int64_t root = 0; root < P; ++root) {
    mlir::OwningOpRef<CollectiveOp> instance = rootInstance(spec, root);
    ExpandedPlan plan = expandPlan(*instance, P);
    CrossCheck rootCross;
    std::vector<PropertyResult> results;
    if (root > 0 && firstProven &&
        isRootRotation(first.program, plan.program, root)) {
      results = firstResults; // all proven
      for (PropertyResult &r : results)
        r.seconds = 0;
      ++renamed;
      // The simulation still runs this root's own plan.
      if (cross)
        rootCross = crossCheck(plan.program, results);
    } else {
      results = provePlan(*instance, plan.program, family, options,
                          cross ? &rootCross : nullptr);
    }
    for (PropertyResult &r : results)
      if (r.counterexample)
        r.counterexample->root = root;
    // The first root's comparison, or the first that disagrees.
    if (cross && (root == 0 || (rootCross.compared && !rootCross.agrees &&
                                (!cross->compared || cross->agrees)))) {
      *cross = rootCross;
      if (root > 0)
        cross->simulation = "root " + std::to_string(root) + ": " +
                            cross->simulation;
    }
    if (root == 0) {
      merged = firstResults = std::move(results);
      firstProven = allProven(firstResults);
      first = std::move(plan);
    } else {
      for (size_t i = 0; i < merged.size() && i < results.size(); ++i) {
        double seconds = merged[i].seconds + results[i].seconds;
        // A violation at any root outranks "not proven" at another.
        if ((merged[i].verdict == Verdict::proven &&
             results[i].verdict != Verdict::proven) ||
            (merged[i].verdict == Verdict::notProven &&
             results[i].verdict == Verdict::violated))
          merged[i] = results[i];
        merged[i].seconds = seconds;
      }
    }
  }
  for (PropertyResult &r : merged)
    if (r.verdict == Verdict::proven) {
      r.scope += ", every root in [0, " + std::to_string(P) + ")";
      if (renamed > 0)
        r.scope += " (" + std::to_string(renamed) + " of them as root 0's "
                   "plan renamed)";
    }
  return merged;
}

void coll::keepHeapForProofs() {
#ifdef M_TOP_PAD
  mallopt(M_TOP_PAD, 64 << 20);
#endif
}
