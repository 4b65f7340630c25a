//===- Queries.cpp - one Z3 query per property over a SlotProgram ---------===//
//
// Each property's query is in its own file (MatchingQuery.cpp,
// OwnershipQuery.cpp, CoverageQuery.cpp, LegalityQuery.cpp); this one holds
// what they share. Every query asks Z3 for a symbolic slot (and token, and
// step where one is needed) that breaks the property; unsat is the proof.
// Long programs stay linear in size because each step's value is named by a
// fresh constant. The concrete replay (`Replay`, Replay.cpp) explains a
// counterexample Z3 found, and it also decides a property where a query
// would not finish (VerifyOptions' replay thresholds, decidedByReplay):
// matching, ownership and coverage of rank-level programs of more than
// replayAboveSteps steps whose paths do not compose (chains, pipelines), or
// of every rank-level program with replayRankLevel; general coverage above
// replayGeneralCoverageAboveSlots slots; rank order above
// replayRankOrderAboveSlots. Such a result says so (PropertyResult::byReplay
// and method).
//
//===----------------------------------------------------------------------===//

#include "QueryParts.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

using namespace coll;
using namespace coll::verify;

z3::solver coll::verify::makeSolver(z3::context &ctx,
                                    const VerifyOptions &options,
                                    const char *logic) {
  z3::solver solver(ctx, logic);
  z3::params params(ctx);
  params.set("timeout", options.timeoutMs);
  solver.set(params);
  return solver;
}

z3::expr coll::verify::reverseBits(const z3::expr &k, unsigned bits,
                                   unsigned width) {
  z3::expr r = k.extract(0, 0);
  for (unsigned b = 1; b < bits; ++b)
    reassign(r, z3::concat(r, k.extract(b, b)));
  return z3::zext(r, width - bits);
}

std::string coll::verify::setText(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "}";
}

void coll::verify::notProven(PropertyResult &result, std::string reason) {
  result.verdict = Verdict::notProven;
  result.note = std::move(reason);
}

bool coll::verify::settled(z3::solver &solver, PropertyResult &result) {
  std::string reason;
  switch (check(solver, reason)) {
  case Outcome::unsat:
    result.verdict = Verdict::proven;
    return true;
  case Outcome::unknown:
    notProven(result, reason);
    return true;
  case Outcome::sat:
    return false;
  }
  return true;
}

void coll::verify::minimize(z3::solver &solver,
                            std::initializer_list<z3::expr> keys) {
  for (const z3::expr &key : keys) {
    uint64_t hi = static_cast<uint64_t>(valueIn(solver.get_model(), key));
    uint64_t lo = 0;
    unsigned width = key.get_sort().bv_size();
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      solver.push();
      solver.add(z3::ule(key, solver.ctx().bv_val(mid, width)));
      if (solver.check() == z3::sat)
        hi = static_cast<uint64_t>(valueIn(solver.get_model(), key));
      else
        lo = mid + 1;
      solver.pop();
    }
    solver.add(key == solver.ctx().bv_val(lo, width));
    if (solver.check() != z3::sat) // cannot happen: lo was a model's value
      return;
  }
}

std::optional<size_t>
coll::verify::firstBreach(z3::solver &solver,
                          const std::vector<z3::expr> &breachAt,
                          PropertyResult &result) {
  if (breachAt.empty()) {
    result.verdict = Verdict::proven;
    return std::nullopt;
  }
  z3::context &ctx = solver.ctx();
  z3::expr step = ctx.bv_const("breach!step", 32);
  z3::expr_vector any(ctx);
  for (size_t s = 0; s < breachAt.size(); ++s)
    any.push_back(step == ctx.bv_val(static_cast<uint64_t>(s), 32) &&
                  breachAt[s]);
  solver.add(z3::mk_or(any));
  if (settled(solver, result))
    return std::nullopt;
  minimize(solver, {step});
  return static_cast<size_t>(valueIn(solver.get_model(), step));
}

Counterexample coll::verify::makeCounterexample(const SlotProgram &sp,
                                                int64_t step, int64_t rank,
                                                int64_t part,
                                                std::string message) {
  Counterexample c;
  c.ranks = sp.ranks;
  c.step = step;
  c.rank = rank;
  c.part = part;
  c.message = std::move(message);
  c.at = step >= 0 && step < static_cast<int64_t>(sp.steps.size())
             ? sp.steps[step].op
             : const_cast<ProgramOp &>(sp.program).getOperation();
  return c;
}
