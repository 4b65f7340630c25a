//===- LegalityQuery.cpp - operator legality, one Z3 query ----------------===//
//
// Operator legality: the identical-results note, and for a
// non-commutative operator the rank order of every combine.
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

/// Whether every final slot of one part copies its value from the same
/// reduction: then all ranks get bitwise-identical results.
std::string coll::verify::identicalResultsNote(z3::context &ctx,
                                              const SlotProgram &sp,
                                              const VerifyOptions &options) {
  if (!const_cast<ProgramOp &>(sp.program).reduces())
    return "bitwise-identical results: yes (data is only copied)";
  if (isScan(sp.rules.kind))
    return "bitwise-identical results: not applicable (each rank gets its "
           "own prefix)";
  if (!sp.reduceThenCopy) {
    // An exchange (a slot sends and receives in one combine step) reduces
    // the same part on two ranks, each in its own order. (A
    // reduce-then-copy program has none.)
    for (size_t i = 0; i < sp.steps.size(); ++i) {
      const SlotStep &step = sp.steps[i];
      if (!step.combines())
        continue;
      std::vector<int64_t> sentTo(sp.numSlots, -1);
      step.forEachMove([&](int64_t src, int64_t dst) { sentTo[src] = dst; });
      for (int64_t src = 0; src < sp.numSlots; ++src)
        if (int64_t dst = sentTo[src]; dst >= 0 && sentTo[dst] >= 0)
          return "bitwise-identical results: no (" + sp.describeSlot(src) +
                 " and " + sp.describeSlot(dst) +
                 " reduce in their own order from step " + std::to_string(i) +
                 " on)";
    }
    return "bitwise-identical results: not determined (combines after "
           "copies or exchanges)";
  }
  if (decidedByReplay(sp, options)) {
    // Where each slot's final value is copied from, for all slots at once.
    std::vector<int64_t> origin(sp.numSlots);
    for (int64_t q = 0; q < sp.numSlots; ++q)
      origin[q] = q;
    for (size_t s = sp.firstCopyStep(); s < sp.steps.size(); ++s) {
      std::vector<std::pair<int64_t, int64_t>> arriving;
      sp.steps[s].forEachMove([&](int64_t src, int64_t dst) {
        arriving.push_back({dst, origin[src]});
      });
      for (auto [dst, from] : arriving)
        origin[dst] = from;
    }
    std::vector<int64_t> first(sp.parts, -1);
    for (int64_t q = 0; q < sp.numSlots; ++q) {
      if (!sp.delivered[q])
        continue;
      int64_t &seen = first[sp.partOf(q)];
      if (seen < 0)
        seen = q;
      else if (origin[seen] != origin[q])
        return "bitwise-identical results: no (" + sp.describeSlot(seen) +
               " and " + sp.describeSlot(q) +
               " come from different reductions; by replay)";
    }
    return "bitwise-identical results: yes (each part is reduced once, "
           "then copied; by replay)";
  }
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr y1 = e.slotVar("y1"), y2 = e.slotVar("y2");
  solver.add(e.inDomain(y1) && e.inDomain(y2));
  solver.add(e.isDelivered(y1) && e.isDelivered(y2));
  if (!sp.groupLevel)
    solver.add(e.partOf(y1) == e.partOf(y2));
  z3::expr b1 = backThroughCopies(e, solver, y1, "b1");
  z3::expr b2 = backThroughCopies(e, solver, y2, "b2");
  solver.add(b1 != b2);
  std::string reason;
  switch (check(solver, reason)) {
  case Outcome::unsat:
    return "bitwise-identical results: yes (each part is reduced once, "
           "then copied)";
  case Outcome::unknown:
    return "bitwise-identical results: not determined (" + reason + ")";
  case Outcome::sat:
    break;
  }
  minimize(solver, {y1, y2});
  z3::model model = solver.get_model();
  return "bitwise-identical results: no (" +
         sp.describeSlot(e.slotValue(model, y1)) + " and " +
         sp.describeSlot(e.slotValue(model, y2)) +
         " come from different reductions)";
}

/// With a non-commutative operator every combine must join two runs of
/// consecutive ranks, one right after the other, so that the result is the
/// rank-ordered fold. Z3 looks for a combine step, a receiving slot and
/// three ranks c1 < c2 < c3 that interleave the two operands or leave a gap.
/// Operator legality of any program by an exact replay of its merges:
/// both operands are runs of consecutive ranks, adjacent, and the run of
/// the lower-ranked holder is the lower one (the runtime puts it first).
static void rankOrderByReplay(const SlotProgram &sp, PropertyResult &result,
                              const std::string &why) {
  result.method = "exact replay of every merge (" + why + ")";
  result.byReplay = true;
  // Each slot's value as the run of ranks [lo, hi] it holds the
  // contributions of (lo > hi: none). Until the first bad merge every value
  // is such a run: a copy moves one, and a good merge joins two adjacent
  // ones. Matching is proven first, so a slot receives once per step.
  struct Run {
    int64_t lo = 1, hi = 0;
    bool empty() const { return lo > hi; }
  };
  auto text = [](Run r) {
    std::vector<int64_t> ranks;
    for (int64_t k = r.lo; k <= r.hi; ++k)
      ranks.push_back(k);
    return setText(ranks);
  };
  std::vector<Run> value(sp.numSlots);
  std::vector<char> held(sp.initial.begin(), sp.initial.end());
  for (int64_t slot = 0; slot < sp.numSlots; ++slot)
    if (sp.initial[slot])
      value[slot] = {sp.rankOf(slot), sp.rankOf(slot)};
  size_t merges = 0; // steps up to the last merge: later ones only copy
  for (size_t s = 0; s < sp.steps.size(); ++s)
    if (sp.steps[s].merges())
      merges = s + 1;
  std::vector<char> receivedNow(sp.numSlots, 0);
  for (size_t s = 0; s < merges; ++s) {
    const SlotStep &step = sp.steps[s];
    struct Arrival {
      int64_t src, dst;
      Run value;
    };
    std::vector<Arrival> arriving;
    step.forEachMove([&](int64_t src, int64_t dst) {
      arriving.push_back({src, dst, held[src] ? value[src] : Run{}});
    });
    for (const Arrival &a : arriving) {
      if (receivedNow[a.dst]) {
        notProven(result, sp.describeSlot(a.dst) + " receives twice in step " +
                              std::to_string(s));
        return;
      }
      receivedNow[a.dst] = 1;
    }
    for (const Arrival &a : arriving) {
      if (!step.merges()) {
        value[a.dst] = a.value;
        held[a.dst] = 1;
        continue;
      }
      Run kept = value[a.dst], received = a.value;
      bool receivedFirst = sp.rankOf(a.src) < sp.rankOf(a.dst);
      Run low = receivedFirst ? received : kept;
      Run high = receivedFirst ? kept : received;
      if (kept.empty() || received.empty() || low.hi + 1 == high.lo) {
        value[a.dst] = kept.empty() ? received
                       : received.empty() ? kept
                                          : Run{low.lo, high.hi};
        continue;
      }
      Counterexample c = makeCounterexample(
          sp, static_cast<int64_t>(s), sp.rankOf(a.dst), sp.partOf(a.dst),
          sp.describeSlot(a.dst) + " combines " + text(kept) + " with " +
              text(received) + " from rank " + std::to_string(sp.rankOf(a.src)) +
              ", which are not adjacent runs of ranks in the holders' order");
      c.expected = "operands that are consecutive rank ranges, the lower "
                   "holder's first";
      c.found = text(kept) + " and " + text(received);
      result.verdict = Verdict::violated;
      result.counterexample = c;
      return;
    }
    // A combine hands the sender's value on, unless it received one too.
    if (step.combines())
      for (const Arrival &a : arriving)
        if (!receivedNow[a.src] && held[a.src]) {
          value[a.src] = Run{};
          held[a.src] = 0;
        }
    for (const Arrival &a : arriving)
      receivedNow[a.dst] = 0;
  }
  result.verdict = Verdict::proven;
}

static void rankOrder(z3::context &ctx, const SlotProgram &sp,
                      const VerifyOptions &options, PropertyResult &result) {
  if (!sp.reduceThenCopy)
    return rankOrderByReplay(sp, result,
                             "the program copies tokens, so they have no "
                             "single path for Z3 to follow");
  if (sp.numSlots > options.replayRankOrderAboveSlots)
    return rankOrderByReplay(sp, result,
                             "over " +
                                 std::to_string(
                                     options.replayRankOrderAboveSlots) +
                                 " slots the replay is faster than Z3");
  result.method = "Z3: symbolic step, slot and five contributions";
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr y = e.slotVar("y");
  solver.add(e.inDomain(y));
  z3::expr c[3] = {e.slotVar("c1"), e.slotVar("c2"), e.slotVar("c3")};
  for (z3::expr &ci : c) {
    solver.add(e.inDomain(ci));
    solver.add(e.partOf(ci) == e.partOf(y)); // y's part
    solver.add(e.initiallyHeld(ci));
  }
  // Rank level only (verifyProgram builds one): a token's rank.
  auto rankKey = [&](const z3::expr &token) { return e.rankOf(token); };
  solver.add(z3::ult(rankKey(c[0]), rankKey(c[1])) &&
             z3::ult(rankKey(c[1]), rankKey(c[2])));
  // Two more, d0 below d1, for the order of the operands: the runtime puts
  // the lower-ranked holder's value first, so that value must be the lower
  // run.
  z3::expr d[2] = {e.slotVar("d1"), e.slotVar("d2")};
  for (z3::expr &di : d) {
    solver.add(e.inDomain(di));
    solver.add(e.partOf(di) == e.partOf(y));
    solver.add(e.initiallyHeld(di));
  }
  solver.add(z3::ult(rankKey(d[0]), rankKey(d[1])));
  z3::expr place[3] = {c[0], c[1], c[2]};
  z3::expr dPlace[2] = {d[0], d[1]};
  std::vector<z3::expr> badAt;
  size_t firstCopy = sp.firstCopyStep();
  for (size_t s = 0; s < firstCopy; ++s) {
    const SlotStep &step = sp.steps[s];
    z3::expr src = e.sourceOf(step, y);
    auto inA = [&](int k) { return place[k] == y; };
    auto inB = [&](int k) { return place[k] == src; };
    auto inU = [&](int k) { return inA(k) || inB(k); };
    z3::expr receivedFirst = z3::ult(rankKey(src), rankKey(y));
    z3::expr wrongOrder =
        z3::ite(receivedFirst, dPlace[0] == y && dPlace[1] == src,
                dPlace[0] == src && dPlace[1] == y);
    z3::expr violation = e.received(step, y) && ((inA(0) && inB(1) && inA(2)) ||
                                                 (inB(0) && inA(1) && inB(2)) ||
                                                 (inU(0) && !inU(1) && inU(2)) ||
                                                 wrongOrder);
    badAt.push_back(e.name(solver, "bad", violation));
    for (z3::expr &p : place)
      reassign(p, e.name(solver, "at",
                 z3::ite(e.sent(step, p), e.destinationOf(step, p), p)));
    for (z3::expr &p : dPlace)
      reassign(p, e.name(solver, "at",
                 z3::ite(e.sent(step, p), e.destinationOf(step, p), p)));
  }
  std::optional<size_t> breach = firstBreach(solver, badAt, result);
  if (!breach && result.verdict == Verdict::notProven) {
    // Z3 gave up: the exact replay decides.
    std::string why = result.note;
    result.note.clear();
    rankOrderByReplay(sp, result, why);
    return;
  }
  if (!breach)
    return;
  size_t s = *breach;
  minimize(solver, {y, c[0], c[1], c[2], d[0], d[1]});
  z3::model model = solver.get_model();
  int64_t slot = e.slotValue(model, y);
  // The two operands, replayed for the message.
  Replay replay(sp, s);
  auto tokens = [&](int64_t q) { return replay.tokens(q); };
  int64_t src = -1;
  sp.steps[s].forEachMove([&](int64_t from, int64_t to) {
    if (to == slot)
      src = from;
  });
  auto ranksOf = [&](const std::vector<int64_t> &ts) {
    std::vector<int64_t> out;
    for (int64_t t : ts)
      out.push_back(sp.groupLevel ? t : sp.rankOf(t));
    return setText(out);
  };
  result.verdict = Verdict::violated;
  Counterexample cex = makeCounterexample(
      sp, s, sp.rankOf(slot), sp.partOf(slot),
      sp.describeSlot(slot) + " combines " + ranksOf(tokens(slot)) + " with " +
          ranksOf(src >= 0 ? tokens(src) : std::vector<int64_t>{}) +
          (src >= 0 ? " from rank " + std::to_string(sp.rankOf(src)) : "") +
          ", which are not adjacent runs of ranks in the holders' order");
  cex.expected = "operands that are consecutive rank ranges, the lower "
                 "holder's first";
  cex.found = ranksOf(tokens(slot)) + " and " +
              ranksOf(src >= 0 ? tokens(src) : std::vector<int64_t>{});
  result.counterexample = cex;
}

void coll::verify::proveOperatorLegality(z3::context &ctx,
                                         const SlotProgram &sp,
                                         const VerifyOptions &options,
                                         PropertyResult &result) {
  if (!sp.noncommutative) {
    result.verdict = Verdict::proven;
    result.method = "the operator is commutative and associative";
    return;
  }
  rankOrder(ctx, sp, options, result);
}
