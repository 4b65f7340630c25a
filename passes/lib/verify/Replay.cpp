//===- Replay.cpp - the program run concretely on token lists -------------===//
//
// The concrete replay explains a counterexample Z3 found, and decides a
// property where a query would not finish (decidedByReplay and the
// thresholds in VerifyOptions; Queries.cpp's header lists them).
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

Replay::Replay(const SlotProgram &sp, size_t steps) {
  lists.resize(sp.numSlots);
  held.assign(sp.initial.begin(), sp.initial.end());
  std::vector<int64_t> holders(sp.initial.begin(), sp.initial.end());
  for (int64_t s = 0; s < sp.numSlots; ++s)
    if (sp.initial[s])
      lists[s] = std::make_shared<std::vector<int64_t>>(1, s);
  auto drop = [&](int64_t slot) {
    for (int64_t t : tokens(slot))
      --holders[t];
  };
  struct Arrival {
    int64_t src, dst;
    TokenList value; // the source's list before the step
  };
  std::vector<Arrival> arriving;
  std::vector<std::pair<const Arrival *, TokenList>> replaced;
  std::vector<char> receivedNow(sp.numSlots, 0); // reset after each step
  for (size_t i = 0; i < std::min(steps, sp.steps.size()); ++i) {
    const SlotStep &step = sp.steps[i];
    arriving.clear();
    replaced.clear();
    step.forEachMove([&](int64_t src, int64_t dst) {
      arriving.push_back({src, dst, held[src] ? lists[src] : nullptr});
      receivedNow[dst] = 1;
    });
    for (const Arrival &a : arriving) {
      if (a.value)
        for (int64_t t : *a.value)
          ++holders[t];
      if (step.merges()) {
        if (!a.value || a.value->empty())
          continue;
        TokenList &into = lists[a.dst];
        // Appended in place only where no other slot or arrival shares
        // the list (which must keep its value).
        if (!into)
          into = std::make_shared<std::vector<int64_t>>();
        else if (into.use_count() > 1)
          into = std::make_shared<std::vector<int64_t>>(*into);
        llvm::append_range(*into, *a.value);
        continue;
      }
      if (held[a.dst])
        drop(a.dst);
      replaced.push_back({&a, std::move(lists[a.dst])});
      lists[a.dst] = a.value;
      held[a.dst] = true;
    }
    if (step.combines())
      for (const Arrival &a : arriving)
        if (!receivedNow[a.src] && held[a.src]) {
          drop(a.src);
          lists[a.src] = nullptr;
          held[a.src] = false;
        }
    for (const Arrival &a : arriving)
      receivedNow[a.dst] = 0;
    // The smallest needed token a copy overwrote the last holder of.
    for (auto &[a, old] : replaced) {
      if (loss || !old)
        continue;
      int64_t lost = -1;
      for (int64_t t : *old)
        if (holders[t] == 0 && (lost < 0 || t < lost) && sp.tokenNeeded(t))
          lost = t;
      if (lost >= 0)
        loss = Loss{static_cast<int64_t>(i), a->dst, a->src, lost, *old,
                    a->value ? *a->value : std::vector<int64_t>{}};
    }
  }
}

void coll::verify::explainCoverage(const SlotProgram &sp, int64_t slot,
                                   int64_t token, PropertyResult &coverage,
                                   PropertyResult &ownership) {
  Replay replay(sp);
  int64_t rank = sp.rankOf(slot), part = sp.partOf(slot);
  // A contribution to the slot's own part is named by its rank; another
  // part's data in full.
  auto tokenText = [&](int64_t t) {
    if (sp.groupLevel)
      return std::to_string(t);
    if (sp.partOf(t) == part)
      return std::to_string(sp.rankOf(t));
    return "rank " + std::to_string(sp.rankOf(t)) + "'s part " +
           std::to_string(sp.partOf(t));
  };
  auto listText = [&](std::vector<int64_t> tokens) {
    // Own-part contributions in rank order first, as "{0, 1, 3}".
    llvm::sort(tokens, [&](int64_t a, int64_t b) {
      bool ownA = sp.groupLevel || sp.partOf(a) == part;
      bool ownB = sp.groupLevel || sp.partOf(b) == part;
      if (ownA != ownB)
        return ownA;
      return a < b;
    });
    std::string text = "{";
    for (size_t i = 0; i < tokens.size(); ++i)
      text += (i ? ", " : "") + tokenText(tokens[i]);
    return text + "}";
  };
  std::vector<int64_t> expected;
  for (int64_t t = 0; t < sp.numSlots; ++t)
    if (sp.needsToken(slot, t))
      expected.push_back(t);
  std::string what = sp.groupLevel ? "vectors " : "contributions of ranks ";
  coverage.verdict = Verdict::violated;
  int64_t count = llvm::count(replay.tokens(slot), token);
  std::string message;
  if (!replay.held[slot]) {
    message = sp.describeSlot(slot) + " is empty after the last step" +
              (sp.initial[slot] ? " (it was handed on by a combine and never "
                                  "received back)"
                                : " (it never receives a value)");
  } else if (!sp.groupLevel && !sp.needsToken(slot, token) && count > 0 &&
             sp.partOf(token) == part) {
    // Kinds whose result is not every contribution (alltoall, scans).
    message = sp.describeSlot(slot) + " ends with the " +
              sp.describeToken(token) + " contribution, which it should not "
              "have";
  } else if (!sp.groupLevel && !sp.needsToken(slot, token) && count > 0) {
    message = sp.describeSlot(slot) + " ends with data of part " +
              std::to_string(sp.partOf(token)) + " (from rank " +
              std::to_string(sp.rankOf(token)) + ")";
  } else if (count > 1) {
    message = "the " + sp.describeToken(token) +
              (sp.groupLevel ? "" : " contribution") + " reaches " +
              sp.describeSlot(slot) + " " + std::to_string(count) + " times";
  } else {
    message = sp.describeSlot(slot) + " ends without the " +
              sp.describeToken(token) + (sp.groupLevel ? "" : " contribution");
  }
  Counterexample c = makeCounterexample(sp, -1, rank, part, message);
  c.expected = what + listText(expected) + ", each once";
  c.found = what + listText(replay.tokens(slot));
  coverage.counterexample = c;

  const std::optional<Loss> &loss = replay.loss;
  if (loss && ownership.verdict == Verdict::proven) {
    std::vector<int64_t> lost, replacement;
    for (int64_t t : loss->value)
      lost.push_back(sp.groupLevel ? t : sp.rankOf(t));
    for (int64_t t : loss->replacement)
      replacement.push_back(sp.groupLevel ? t : sp.rankOf(t));
    ownership.verdict = Verdict::violated;
    ownership.method += "; the coverage counterexample traced back to a copy";
    Counterexample o = makeCounterexample(
        sp, loss->step, sp.rankOf(loss->slot), sp.partOf(loss->slot),
        sp.describeSlot(loss->slot) + " = " + setText(lost) +
            " is overwritten with " + setText(replacement) + " from " +
            sp.describeSlot(loss->from) + ", destroying the last copy of the " +
            sp.describeToken(loss->token) +
            (sp.groupLevel ? "" : " contribution"));
    o.expected = "a block still needed is not overwritten";
    o.found = "the last copy of " + setText(lost) + " overwritten";
    ownership.counterexample = o;
  }
}

bool coll::verify::decidedByReplay(const SlotProgram &sp,
                                   const VerifyOptions &options) {
  return !sp.groupLevel &&
         (options.replayRankLevel ||
          (sp.steps.size() > options.replayAboveSteps &&
           !(sp.keepsPartIndices && sp.pathsCompose)));
}
