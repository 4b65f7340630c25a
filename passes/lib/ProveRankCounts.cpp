//===- ProveRankCounts.cpp - every admitted P proven before code -----------===//
//
// The proof step of `collc compile` and `collc policy`, as a pass: a spec
// is compiled only once its schedule is proven for every rank count its
// header will run (the fixed one, or each admitted P in 1..64, the family
// proof covering all P where there is one).
//
//===----------------------------------------------------------------------===//
#include "coll/Dialect/CollOps.h"
#include "coll/Passes/ProofCache.h"
#include "coll/Passes/Verify.h"
#include "coll/Passes/VerifyPasses.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

namespace coll {
#define GEN_PASS_DEF_PROVERANKCOUNTS
#include "coll/Passes/VerifyPasses.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

namespace {

/// The largest P a symbolic schedule is proven for before it is compiled.
constexpr int64_t kMaxCompiledRanks = 64;

/// Proves `spec` for every rank count it is compiled for; on the first
/// property not proven, an error at the spec and its verdict.
ProofOutcome proveRankCounts(CollectiveOp spec, ProvenSchedules &proven) {
  const std::string key = proofKey(spec);
  SmallVector<int64_t> counts;
  auto admit = [&](int64_t P) {
    if (!proven.contains(key, P))
      counts.push_back(P);
  };
  if (std::optional<uint64_t> fixed = spec.getNumRanks())
    admit(static_cast<int64_t>(*fixed));
  else
    for (int64_t P = 1; P <= kMaxCompiledRanks; ++P)
      if (spec.acceptsRanks(P))
        admit(P);
  if (counts.empty())
    return ProofOutcome::proven;
  VerifyOptions base;
  std::vector<PropertyResult> family =
      spec.getNumRanks() ? std::vector<PropertyResult>{}
                         : proveFamily(spec, kMaxCompiledRanks, base);
  for (int64_t P : counts) {
    for (const PropertyResult &r : verifyRankCount(spec, P, family, base)) {
      if (r.verdict == Verdict::proven)
        continue;
      InFlightDiagnostic diag = spec.emitError()
                                << "the schedule of '" << spec.getSymName()
                                << "' is not proven for P = " << P << ": "
                                << propertyName(r.property) << " "
                                << verdictName(r.verdict) << ": ";
      if (r.counterexample)
        diag << describeCounterexample(*r.counterexample);
      else
        diag << r.note;
      if (r.property == Property::operatorLegality)
        diag.attachNote()
            << "a noncommutative operator needs a schedule whose every merge "
               "joins adjacent runs of ranks, the lower rank's first: a tree "
               "rooted at rank 0, a scan, or recursive halving on xor(P)";
      proven.save(key); // what was proven stays proven
      return r.verdict == Verdict::violated ? ProofOutcome::violated
                                            : ProofOutcome::notProven;
    }
    proven.insert(key, P);
  }
  proven.save(key);
  return ProofOutcome::proven;
}

struct ProveRankCountsPass
    : public coll::impl::ProveRankCountsBase<ProveRankCountsPass> {
  using Base::Base;
  ProveRankCountsPass(const ProveRankCountsOptions &options,
                      ProofOutcome *outcome)
      : Base(options), outcome(outcome) {}

  void runOnOperation() override {
    ProofOutcome result = run();
    if (outcome)
      *outcome = result;
    if (result != ProofOutcome::proven)
      signalPassFailure();
  }

  ProofOutcome run() {
    ProvenSchedules proven;
    if (!proofCache.empty())
      if (std::optional<std::string> error = proven.useDirectory(proofCache)) {
        if (outcome)
          *outcome = ProofOutcome::unusableCache;
        getOperation().emitError(*error);
        return ProofOutcome::unusableCache;
      }
    for (CollectiveOp spec : getOperation().getOps<CollectiveOp>())
      if (ProofOutcome result = proveRankCounts(spec, proven);
          result != ProofOutcome::proven)
        return result;
    return ProofOutcome::proven;
  }

  ProofOutcome *outcome = nullptr;
};

} // namespace

std::unique_ptr<Pass>
coll::createProveRankCounts(const ProveRankCountsOptions &options,
                            ProofOutcome *outcome) {
  return std::make_unique<ProveRankCountsPass>(options, outcome);
}
