//===- OwnershipQuery.cpp - ownership, one Z3 query -----------------------===//
//
// Ownership: nothing is sent or combined into after it was handed on, by
// a chain over one symbolic slot, or by the replay past its threshold.
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

/// Fills an ownership counterexample: `slot` is sent (or, `sends` false,
/// combined into) at step s while released.
static void explainOwnership(const SlotProgram &sp, size_t s, int64_t slot,
                             bool sends, PropertyResult &result) {
  // When was it released? The last combine before s that sent it.
  int64_t givenAway = -1;
  for (size_t k = 0; k < s; ++k) {
    bool sent = false, receives = false;
    sp.steps[k].forEachMove([&](int64_t src, int64_t dst) {
      sent |= src == slot;
      receives |= dst == slot;
    });
    if (receives)
      givenAway = -1;
    else if (sent && sp.steps[k].combines())
      givenAway = static_cast<int64_t>(k);
  }
  result.verdict = Verdict::violated;
  std::string when =
      givenAway >= 0 ? "it was handed on at step " + std::to_string(givenAway)
                     : std::string("the rank never received it");
  std::string message = sp.describeSlot(slot) +
                        (sends ? " is sent" : " is combined into") +
                        " at step " + std::to_string(s) + ", but " + when;
  Counterexample c =
      makeCounterexample(sp, s, sp.rankOf(slot), sp.partOf(slot), message);
  c.expected = "a block the rank holds";
  c.found = givenAway >= 0
                ? "a block given away at step " + std::to_string(givenAway)
                : "a block the rank never received";
  result.counterexample = c;
}

/// The same chain run concretely on every slot at once: the first step
/// that breaks it, and there the smallest slot (the order Z3's
/// counterexample is minimized in).
static void ownershipByReplay(const SlotProgram &sp, PropertyResult &result) {
  result.method = "exact replay of every slot's released state (" +
                  std::to_string(sp.steps.size()) +
                  " steps: too deep a chain for Z3's symbolic slot)";
  result.byReplay = true;
  std::vector<char> released(sp.numSlots), sends(sp.numSlots),
      receives(sp.numSlots);
  for (int64_t q = 0; q < sp.numSlots; ++q)
    released[q] = !sp.initial[q];
  for (size_t s = 0; s < sp.steps.size(); ++s) {
    const SlotStep &step = sp.steps[s];
    std::vector<int64_t> touched;
    step.forEachMove([&](int64_t src, int64_t dst) {
      sends[src] = receives[dst] = 1;
      touched.push_back(src);
      touched.push_back(dst);
    });
    llvm::sort(touched);
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (int64_t q : touched)
      if (released[q] && (sends[q] || (step.merges() && receives[q])))
        return explainOwnership(sp, s, q, sends[q], result);
    for (int64_t q : touched) {
      released[q] = receives[q] ? 0
                    : step.combines() ? (sends[q] || released[q])
                                      : released[q];
    }
    for (int64_t q : touched)
      sends[q] = receives[q] = 0;
  }
  result.verdict = Verdict::proven;
}

/// released(q) after each step, as a chain on one symbolic slot q: a slot
/// is released when a combine hands its value on and it receives nothing
/// back, and held again when it receives. A violation is a step that sends
/// a released slot, or combines into one.
void coll::verify::proveOwnership(z3::context &ctx, const SlotProgram &sp,
                                  const VerifyOptions &options,
                                  PropertyResult &result) {
  if (decidedByReplay(sp, options))
    return ownershipByReplay(sp, result);
  result.method = "Z3: symbolic slot, released-state chain over the steps";
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr q = e.slotVar("q");
  solver.add(e.inDomain(q));
  z3::expr released = !e.initiallyHeld(q);
  std::vector<z3::expr> badAt;
  for (const SlotStep &step : sp.steps) {
    z3::expr sends = e.sent(step, q), receives = e.received(step, q);
    z3::expr violation =
        released &&
        (sends || (step.merges() ? receives : ctx.bool_val(false)));
    badAt.push_back(e.name(solver, "bad", violation));
    z3::expr next = z3::ite(receives, ctx.bool_val(false),
                            step.combines() ? (sends || released) : released);
    reassign(released, e.name(solver, "released", next));
  }
  std::optional<size_t> breach = firstBreach(solver, badAt, result);
  if (!breach)
    return;
  size_t s = *breach;
  minimize(solver, {q});
  z3::model model = solver.get_model();
  int64_t slot = e.slotValue(model, q);
  bool sends = model.eval(e.sent(sp.steps[s], q), true).is_true();
  explainOwnership(sp, s, slot, sends, result);
}
