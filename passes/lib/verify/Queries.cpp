//===- Queries.cpp - one Z3 query per property over a SlotProgram ---------===//
//
// Every query asks Z3 for a symbolic slot (and token, and step where one is
// needed) that breaks the property; unsat is the proof. Long programs stay
// linear in size because each step's value is named by a fresh constant.
// The concrete replay (`Replay`) explains a counterexample Z3 found, and it
// also decides a property where a query would not finish (VerifyOptions'
// replay thresholds, decidedByReplay): matching, ownership and coverage of
// rank-level programs of more than replayAboveSteps steps whose paths do
// not compose (chains, pipelines), or of every rank-level program with
// replayRankLevel; general coverage above replayGeneralCoverageAboveSlots
// slots; rank order above replayRankOrderAboveSlots. Such a result says so
// (PropertyResult::byReplay and method).
//
//===----------------------------------------------------------------------===//
#include "Queries.h"

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

static std::string setText(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "}";
}

static void notProven(PropertyResult &result, std::string reason) {
  result.verdict = Verdict::notProven;
  result.note = std::move(reason);
}

/// Runs a query for a violation. Unsat proves the property and unknown
/// leaves it not proven: both settle `result`. Sat returns false, and the
/// solver's model is the counterexample.
static bool settled(z3::solver &solver, PropertyResult &result) {
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

/// Makes a satisfiable query's counterexample canonical, whatever Z3's
/// internals: each bit-vector in `keys`, in order, is fixed to its smallest
/// value that keeps the query satisfiable (a binary search by incremental
/// checks). So the earliest step, then the smallest rank or slot, is shown.
static void minimize(z3::solver &solver, std::initializer_list<z3::expr> keys) {
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

/// The query "some step breaks the property", with each step's breach named
/// by an indicator constant in `breachAt`. Returns the first breaching step
/// of Z3's model (then solver.get_model() is the counterexample), or nullopt
/// when the query settled `result`.
static std::optional<size_t> firstBreach(z3::solver &solver,
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

static Counterexample makeCounterexample(const SlotProgram &sp, int64_t step,
                                         int64_t rank, int64_t part,
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

//===----------------------------------------------------------------------===//
// Concrete replay: explanations, and the decisions past the thresholds
//===----------------------------------------------------------------------===//

namespace {
/// A copy that destroyed the last copy of some token: a block that was
/// still needed (every token is needed by every result of its part).
struct Loss {
  int64_t step, slot, from, token;
  std::vector<int64_t> value, replacement;
};

/// The program run concretely on token lists, for explanations and for the
/// decisions by replay (and the exact path count of the general coverage
/// proof): the tokens of each slot
/// after the first `steps` steps, whether it is held (a combine hands the
/// value on), and the first copy that lost a token altogether. Only the
/// values a step moves are copied, so a replay costs about the number of
/// tokens moved. Slots share a token list until one merges into it (a copy
/// shares its source's list), so an allreduce's final values, P tokens on
/// each of P^2 slots at the rank level, are held once per part, not once
/// per slot.
struct Replay {
  using TokenList = std::shared_ptr<std::vector<int64_t>>;
  std::vector<TokenList> lists; // null: no tokens
  std::vector<bool> held;
  std::optional<Loss> loss;

  /// The tokens slot `slot` holds, in the order they arrived.
  const std::vector<int64_t> &tokens(int64_t slot) const {
    static const std::vector<int64_t> none;
    return lists[slot] ? *lists[slot] : none;
  }
  /// Slot `slot`'s token list, shared with the slots that copied it.
  const std::vector<int64_t> *listOf(int64_t slot) const {
    return lists[slot].get();
  }

  explicit Replay(const SlotProgram &sp, size_t steps = SIZE_MAX) {
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
};
} // namespace

/// Fills a coverage (and maybe ownership) counterexample for final slot
/// `slot` and token `token` that Z3 found.
static void explainCoverage(const SlotProgram &sp, int64_t slot, int64_t token,
                            PropertyResult &coverage,
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

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// Rank level: a slot that two transfers of one step write (a local copy
/// and a message, say): which value it keeps would depend on the order the
/// runtime happens to apply them. Checked concretely, one pass per step
/// (Simulation::apply states the same rule).
static std::optional<Counterexample>
writtenByTwoTransfers(const SlotProgram &sp) {
  // writer[slot]: the transfer of the current step that wrote it.
  std::vector<const Transfer *> writer(sp.numSlots, nullptr);
  for (size_t s = 0; s < sp.transfers.size(); ++s) {
    for (const Transfer &t : sp.transfers[s])
      for (int64_t part : t.received) {
        const Transfer *&w = writer[part * sp.ranks + t.dst];
        if (!w || w == &t) {
          w = &t;
          continue;
        }
        Counterexample c = makeCounterexample(
            sp, static_cast<int64_t>(s), t.dst, part,
            "rank " + std::to_string(t.dst) + "'s part " +
                std::to_string(part) +
                " is written by two transfers in one step (from ranks " +
                std::to_string(std::min(w->src, t.src)) + " and " +
                std::to_string(std::max(w->src, t.src)) + ")");
        c.expected = "every part written at most once per step";
        c.found = "part " + std::to_string(part) + " written twice";
        return c;
      }
    for (const Transfer &t : sp.transfers[s])
      for (int64_t part : t.received)
        writer[part * sp.ranks + t.dst] = nullptr;
  }
  return std::nullopt;
}

static void explainMatching(const SlotProgram &sp, size_t s, int64_t rank,
                            PropertyResult &result);
static void matchingByReplay(const SlotProgram &sp, PropertyResult &result);
static bool decidedByReplay(const SlotProgram &sp,
                            const VerifyOptions &options);

/// Rank level: for a symbolic rank x and each step, Z3 decides whether x
/// sends in two blocks of the step's transfers, or receives in two (a
/// block is transfers of distinct senders, so two messages are two
/// blocks), or receives a different number of parts than its sender sends.
/// A block's senders (receivers) are a cyclic range, i.e. one or two
/// intervals; sorted by their start, two intervals share a rank only if
/// two adjacent ones do (if I_i and I_k, i < k, overlap, I_{i+1} starts
/// inside I_i), so a step is one term per interval: whatever P is for
/// cyclic ranges, one per sender for a strided block (strided sets
/// interleave without sharing ranks, so they are taken rank by rank).
static z3::expr twoIntervalsHold(const Encoder &e, const z3::expr &x,
                                 const std::vector<MoveBlock> &blocks,
                                 bool senders) {
  struct Interval {
    int64_t lo, hi;
  };
  int64_t P = e.program.ranks;
  std::vector<Interval> intervals;
  for (const MoveBlock &b : blocks) {
    if (b.shift == 0)
      continue; // a local copy between parts: no message
    int64_t lo = senders ? b.first : (b.first + b.shift) % P;
    if (b.stride > 1) {
      // A strided block is count runs: strided sets interleave without
      // sharing ranks, so they are taken run by run (none wraps: the
      // senders' do not, and a receiver run that does is split).
      for (int64_t i = 0; i < b.count; ++i) {
        int64_t r = (lo + i * b.stride) % P;
        if (r + b.width <= P) {
          intervals.push_back({r, r + b.width});
        } else {
          intervals.push_back({r, P});
          intervals.push_back({0, r + b.width - P});
        }
      }
      continue;
    }
    int64_t count = std::min(b.count, P);
    if (lo + count <= P) {
      intervals.push_back({lo, lo + count});
    } else {
      intervals.push_back({lo, P});
      intervals.push_back({0, lo + count - P});
    }
  }
  llvm::sort(intervals, [](const Interval &a, const Interval &b) {
    return std::tie(a.lo, a.hi) < std::tie(b.lo, b.hi);
  });
  z3::expr_vector any(e.ctx);
  for (size_t i = 0; i + 1 < intervals.size(); ++i) {
    const Interval &a = intervals[i], &b = intervals[i + 1];
    any.push_back(z3::uge(x, e.field(b.lo)) &&
                  z3::ult(x, e.field(std::min(a.hi, b.hi))));
  }
  return z3::mk_or(any);
}

static void matchingOfTransfers(z3::context &ctx, const SlotProgram &sp,
                                const VerifyOptions &options,
                                PropertyResult &result) {
  result.method = "Z3: symbolic rank, messages counted per step, one term "
                  "per block of transfers";
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr x = ctx.bv_const("x", e.fieldWidth);
  solver.add(z3::ult(x, e.field(sp.ranks)));
  std::vector<z3::expr> badAt;
  for (size_t s = 0; s < sp.steps.size(); ++s) {
    const std::vector<MoveBlock> &blocks = sp.steps[s].blocks;
    z3::expr sendsTwo = twoIntervalsHold(e, x, blocks, /*senders=*/true);
    z3::expr receivesTwo = twoIntervalsHold(e, x, blocks, /*senders=*/false);
    // A malformed message: sizes differ, or one names a part twice.
    z3::expr_vector malformed(ctx);
    for (const Transfer &t : sp.transfers[s]) {
      if (t.sent.size() != t.received.size() || repeatedPart(t.received))
        malformed.push_back(x == e.field(t.dst));
      // A local copy (t.src == t.dst) may read a part twice, as the
      // simulation allows: only a message must name each part once.
      if (t.src != t.dst && repeatedPart(t.sent))
        malformed.push_back(x == e.field(t.src));
    }
    badAt.push_back(e.name(solver, "bad",
                           sendsTwo || receivesTwo || z3::mk_or(malformed)));
  }
  std::optional<size_t> breach = firstBreach(solver, badAt, result);
  if (!breach) {
    if (result.verdict != Verdict::proven)
      return;
    if (std::optional<Counterexample> c = writtenByTwoTransfers(sp)) {
      result.verdict = Verdict::violated;
      result.counterexample = *c;
    }
    return;
  }
  size_t s = *breach;
  minimize(solver, {x});
  z3::model model = solver.get_model();
  int64_t rank = valueIn(model, x);
  explainMatching(sp, s, rank, result);
}

/// The same counts run concretely, rank by rank: for programs decided by
/// replay (long chains and pipelines, whose strided blocks would make Z3
/// solve congruences between tree levels).
static void matchingByReplay(const SlotProgram &sp, PropertyResult &result) {
  result.method = "exact replay of every step's messages, rank by rank";
  result.byReplay = true;
  std::vector<int64_t> sends(sp.ranks), receives(sp.ranks);
  for (size_t s = 0; s < sp.transfers.size(); ++s) {
    std::fill(sends.begin(), sends.end(), 0);
    std::fill(receives.begin(), receives.end(), 0);
    std::vector<char> bad(sp.ranks, 0);
    for (const Transfer &t : sp.transfers[s]) {
      if (t.src != t.dst) {
        bad[t.src] |= ++sends[t.src] > 1;
        bad[t.dst] |= ++receives[t.dst] > 1;
      }
      if (t.sent.size() != t.received.size() || repeatedPart(t.received))
        bad[t.dst] = 1;
      if (t.src != t.dst && repeatedPart(t.sent))
        bad[t.src] = 1;
    }
    for (int64_t x = 0; x < sp.ranks; ++x)
      if (bad[x])
        return explainMatching(sp, s, x, result);
  }
  result.verdict = Verdict::proven;
  if (std::optional<Counterexample> c = writtenByTwoTransfers(sp)) {
    result.verdict = Verdict::violated;
    result.counterexample = *c;
  }
}

/// Fills the matching counterexample of rank `rank` at step s.
static void explainMatching(const SlotProgram &sp, size_t s, int64_t rank,
                            PropertyResult &result) {
  std::vector<int64_t> to, from;
  const Transfer *uneven = nullptr, *sentTwice = nullptr, *filedTwice = nullptr;
  for (const Transfer &t : sp.transfers[s]) {
    if (t.src == rank && t.dst != rank) {
      to.push_back(t.dst);
      if (repeatedPart(t.sent))
        sentTwice = &t;
    }
    if (t.dst == rank) {
      if (t.src != rank)
        from.push_back(t.src);
      if (t.sent.size() != t.received.size())
        uneven = &t;
      else if (repeatedPart(t.received))
        filedTwice = &t;
    }
  }
  result.verdict = Verdict::violated;
  Counterexample c;
  auto two = [](std::vector<int64_t> v) {
    std::sort(v.begin(), v.end());
    return std::to_string(v[0]) + " and " + std::to_string(v[1]);
  };
  if (to.size() >= 2) {
    c = makeCounterexample(sp, s, rank, -1,
                           "rank " + std::to_string(rank) +
                               " sends two messages in one step (to " +
                               two(to) + ")");
    c.expected = "one message from rank " + std::to_string(rank);
    c.found = std::to_string(to.size());
  } else if (from.size() >= 2) {
    c = makeCounterexample(sp, s, rank, -1,
                           "rank " + std::to_string(rank) +
                               " receives two messages in one step (from " +
                               two(from) + ")");
    c.expected = "one message to rank " + std::to_string(rank);
    c.found = std::to_string(from.size());
  } else if (sentTwice) {
    int64_t part = *repeatedPart(sentTwice->sent);
    c = makeCounterexample(
        sp, s, rank, part,
        "rank " + std::to_string(rank) + " sends part " + std::to_string(part) +
            " twice in one message to rank " + std::to_string(sentTwice->dst));
    c.expected = "every part at most once per message";
    c.found = "part " + std::to_string(part) + " twice";
  } else if (filedTwice) {
    int64_t part = *repeatedPart(filedTwice->received);
    c = makeCounterexample(
        sp, s, rank, part,
        "rank " + std::to_string(rank) + " takes two parts of rank " +
            std::to_string(filedTwice->src) + "'s message as its part " +
            std::to_string(part));
    c.expected = "every part written at most once per step";
    c.found = "part " + std::to_string(part) + " written twice";
  } else if (!uneven) {
    // The queries flag only what the branches above explain; should they
    // ever disagree, say so rather than invent a culprit.
    c = makeCounterexample(sp, s, rank, -1,
                           "rank " + std::to_string(rank) +
                               " breaks matching in a way the verifier "
                               "cannot name (an internal inconsistency)");
    c.expected = "a matched step";
    c.found = "an unexplained breach";
  } else {
    c = makeCounterexample(sp, s, rank, -1,
                           "rank " + std::to_string(uneven->src) + " sends " +
                               std::to_string(uneven->sent.size()) +
                               " parts to rank " + std::to_string(rank) +
                               ", which receives " +
                               std::to_string(uneven->received.size()));
    c.expected =
        "a receive of " + std::to_string(uneven->sent.size()) + " parts";
    c.found =
        "a receive of " + std::to_string(uneven->received.size()) + " parts";
  }
  result.counterexample = c;
}

namespace {
/// The group's action on bit-vectors of a concrete order P, for the
/// rank-level reading of group moves. It restates cyclic and xor's act and
/// inverse in Z3 on purpose, apart from coll/groups.hpp: the proof checks
/// the runtime's groups against the group's definition, so it must not
/// read them (a wrong CyclicGroup::act would otherwise prove itself).
struct SymbolicGroup {
  z3::context &ctx;
  GroupKind kind;
  int64_t P;
  unsigned w, bits = 0;

  SymbolicGroup(z3::context &ctx, GroupKind kind, int64_t P)
      : ctx(ctx), kind(kind), P(P) {
    w = llvm::Log2_64_Ceil(static_cast<uint64_t>(P) + 1) + 2;
    if (kind == GroupKind::xor_)
      bits = llvm::Log2_64(static_cast<uint64_t>(P));
  }
  z3::expr num(int64_t v) const {
    return ctx.bv_val(static_cast<uint64_t>(v), w);
  }
  z3::expr reverse(const z3::expr &k) const {
    return bits == 0 ? num(0) : reverseBits(k, bits, w);
  }
  /// t_k(x) for k, x in [0, P).
  z3::expr act(const z3::expr &k, const z3::expr &x) const {
    if (kind == GroupKind::xor_)
      return x ^ reverse(k);
    z3::expr sum = x + k;
    return z3::ite(z3::uge(sum, num(P)), sum - num(P), sum);
  }
  /// t_k^-1(x).
  z3::expr inverse(const z3::expr &k, const z3::expr &x) const {
    if (kind == GroupKind::xor_)
      return x ^ reverse(k);
    return z3::ite(z3::uge(x, k), x - k, x + num(P) - k);
  }
};
} // namespace

/// The element t_k that a step of group moves applies (the quotient of
/// its range move, or of its first vector move: twoPermutations() checks
/// that the others agree), and whether the step is a local copy.
static std::pair<int64_t, bool> stepPermutation(const SlotProgram &sp,
                                                const SlotStep &st) {
  int64_t from = st.isRange ? st.from : st.moves.front().src % sp.ranks;
  int64_t to = st.isRange ? st.to : st.moves.front().dst % sp.ranks;
  int64_t k = sp.algebra->quotient(to, from);
  return {k, k == 0 && !st.merges() && !st.isRange};
}

/// Ties a symbolic (step, from, to, local) to one of the program's group
/// moves: one formula with the step symbolic instead of one per step. A
/// step of vector moves is one row (0, k) for its permutation t_k, once
/// twoPermutations() has found that its moves agree.
static z3::expr oneOfTheMoves(const SymbolicGroup &g, const SlotProgram &sp,
                              const z3::expr &step, const z3::expr &from,
                              const z3::expr &to, const z3::expr &local) {
  z3::expr_vector table(g.ctx);
  for (size_t s = 0; s < sp.steps.size(); ++s) {
    const SlotStep &st = sp.steps[s];
    z3::expr atStep = step == g.ctx.bv_val(static_cast<uint64_t>(s), 32);
    if (st.isRange) {
      table.push_back(atStep && from == g.num(st.from) &&
                      to == g.num(st.to) && !local);
      continue;
    }
    auto [k, isLocal] = stepPermutation(sp, st);
    table.push_back(atStep && from == g.num(0) && to == g.num(k) &&
                    local == g.ctx.bool_val(isLocal));
  }
  return z3::mk_or(table);
}

/// Vector moves: a step whose moves name two different permutations, found
/// move by move (each is fixed by the rank it sends rank 0's part to). A
/// range that is not one permutation already arrives here as the moves
/// its vectors really make (SlotProgram::build), all along one.
static std::optional<Counterexample> twoPermutations(const SlotProgram &sp) {
  const GroupAlgebra &group = *sp.algebra;
  for (size_t s = 0; s < sp.steps.size(); ++s) {
    const SlotStep &st = sp.steps[s];
    if (st.isRange)
      continue;
    auto peerOfZero = [&](const SlotMove &m) {
      return group.movePeer(m.src, m.dst, 0);
    };
    int64_t first = peerOfZero(st.moves.front());
    for (const SlotMove &m : st.moves)
      if (int64_t other = peerOfZero(m); other != first)
        return makeCounterexample(
            sp, static_cast<int64_t>(s), 0, -1,
            "rank 0 sends to ranks " + std::to_string(std::min(first, other)) +
                " and " + std::to_string(std::max(first, other)) +
                ": the step's moves are not one permutation");
  }
  return std::nullopt;
}

/// Vector moves: one slot feeding two destinations of a step that sends
/// (not a local copy): all moves share one permutation, so both copies of
/// the part travel in one message to the same peer, the part named twice.
static std::optional<Counterexample>
sentTwiceInOneMessage(const SlotProgram &sp) {
  const GroupAlgebra &group = *sp.algebra;
  for (size_t s = 0; s < sp.steps.size(); ++s) {
    const SlotStep &st = sp.steps[s];
    if (st.isRange || st.moves.empty() || stepPermutation(sp, st).second)
      continue;
    std::set<int64_t> seen;
    for (const SlotMove &m : st.moves) {
      if (seen.insert(m.src).second)
        continue;
      int64_t part = group.slotPart(m.src, 0);
      int64_t peer = group.movePeer(m.src, m.dst, 0);
      Counterexample c = makeCounterexample(
          sp, static_cast<int64_t>(s), 0, part,
          "rank 0 sends part " + std::to_string(part) +
              " twice in one message to rank " + std::to_string(peer) + " (" +
              sp.describeSlot(m.src) + " feeds two destinations)");
      c.expected = "every part at most once per message";
      c.found = "part " + std::to_string(part) + " twice";
      return c;
    }
  }
  return std::nullopt;
}

/// Vector moves: two values into one slot in one step.
static std::optional<std::pair<size_t, int64_t>>
twoIntoOneSlot(const SlotProgram &sp) {
  for (size_t s = 0; s < sp.steps.size(); ++s) {
    std::set<int64_t> seen;
    for (const SlotMove &m : sp.steps[s].moves)
      if (!seen.insert(m.dst).second)
        return std::make_pair(s, m.dst);
  }
  return std::nullopt;
}

/// A generated group is a table, not a formula: each step's permutation is
/// an element t_k, checked rank by rank (P per step) to move every rank
/// unless the step is a local copy. Elements are permutations, so no two
/// ranks send to one.
static void matchingOfTable(const SlotProgram &sp, PropertyResult &result) {
  result.method = "each step's permutation, an element of the generated "
                  "group's table, checked rank by rank";
  const GroupAlgebra &group = *sp.algebra;
  for (size_t s = 0; s < sp.steps.size(); ++s) {
    auto [k, local] = stepPermutation(sp, sp.steps[s]);
    for (int64_t x = 0; x < sp.ranks && !local; ++x)
      if (group.act(k, x) == x) {
        result.verdict = Verdict::violated;
        result.counterexample =
            makeCounterexample(sp, static_cast<int64_t>(s), x, -1,
                               "rank " + std::to_string(x) +
                                   " sends to itself");
        return;
      }
  }
  result.verdict = Verdict::proven;
}

/// Group level: each step is one permutation g = t_to t_from^-1 of the
/// ranks. With the step's moves symbolic over the program's table of moves
/// and rank x symbolic: g maps [0, P) into [0, P), never x to itself
/// (except in a local copy), never two ranks to one, and every move of the
/// step names the same g.
static void matchingOfMoves(z3::context &ctx, const SlotProgram &sp,
                            const VerifyOptions &options,
                            PropertyResult &result) {
  result.method = "Z3: symbolic rank and step over the group moves";
  if (llvm::any_of(sp.steps, [](const SlotStep &s) { return !s.isRange; }))
    result.method += " (vector moves: one permutation per step, checked move "
                     "by move)";
  if (sp.steps.empty()) {
    result.verdict = Verdict::proven;
    return;
  }
  if (std::optional<std::pair<size_t, int64_t>> twice = twoIntoOneSlot(sp)) {
    result.verdict = Verdict::violated;
    result.counterexample = makeCounterexample(
        sp, static_cast<int64_t>(twice->first), sp.rankOf(twice->second), -1,
        "two vectors arrive in " + sp.describeSlot(twice->second) +
            " in one step");
    return;
  }
  if (std::optional<Counterexample> split = twoPermutations(sp)) {
    result.verdict = Verdict::violated;
    result.counterexample = *split;
    return;
  }
  if (std::optional<Counterexample> twice = sentTwiceInOneMessage(sp)) {
    result.verdict = Verdict::violated;
    result.counterexample = *twice;
    return;
  }
  if (sp.group == GroupKind::generated)
    return matchingOfTable(sp, result);
  SymbolicGroup g(ctx, *sp.group, sp.ranks);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr from = ctx.bv_const("from", g.w), to = ctx.bv_const("to", g.w),
           step = ctx.bv_const("step", 32), local = ctx.bool_const("local");
  solver.add(oneOfTheMoves(g, sp, step, from, to, local));
  z3::expr x = ctx.bv_const("x", g.w), y = ctx.bv_const("y", g.w);
  solver.add(z3::ult(x, g.num(sp.ranks)) && z3::ult(y, g.num(sp.ranks)));
  auto dest = [&](const z3::expr &r) { return g.act(to, g.inverse(from, r)); };
  z3::expr self = !local && dest(x) == x;
  z3::expr twice = x != y && dest(x) == dest(y);
  z3::expr outside = z3::uge(dest(x), g.num(sp.ranks));
  solver.add(self || twice || outside);
  if (settled(solver, result))
    return;
  minimize(solver, {step, x, y});
  z3::model model = solver.get_model();
  auto val = [&](const z3::expr &e) { return valueIn(model, e); };
  int64_t s = val(step), xv = val(x), yv = val(y), dx = val(dest(x));
  result.verdict = Verdict::violated;
  std::string message =
      model.eval(self, true).is_true()
          ? "rank " + std::to_string(xv) + " sends to itself"
      : model.eval(twice, true).is_true()
          ? "ranks " + std::to_string(std::min(xv, yv)) + " and " +
                std::to_string(std::max(xv, yv)) + " both send to rank " +
                std::to_string(dx)
          : "rank " + std::to_string(xv) + " sends to rank " +
                std::to_string(dx) + ", outside [0, " +
                std::to_string(sp.ranks) + ")";
  result.counterexample = makeCounterexample(sp, s, xv, -1, message);
}

void coll::verify::proveMatching(z3::context &ctx, const SlotProgram &sp,
                                 const VerifyOptions &options,
                                 PropertyResult &result) {
  if (sp.groupLevel)
    matchingOfMoves(ctx, sp, options, result);
  else if (decidedByReplay(sp, options))
    matchingByReplay(sp, result);
  else
    matchingOfTransfers(ctx, sp, options, result);
}

//===----------------------------------------------------------------------===//
// Ownership
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Coverage
//===----------------------------------------------------------------------===//

/// Where the final value of `slot` comes from at the end of the reduction:
/// followed backwards through the copy steps, one fresh constant per step.
static z3::expr backThroughCopies(Encoder &e, z3::solver &solver,
                                  const z3::expr &slot,
                                  const std::string &tag) {
  const SlotProgram &sp = e.program;
  z3::expr p = slot;
  for (size_t s = sp.steps.size(); s-- > sp.firstCopyStep();) {
    const SlotStep &step = sp.steps[s];
    reassign(p, e.name(solver, tag,
               z3::ite(e.received(step, p), e.sourceOf(step, p), p)));
  }
  return p;
}

/// Reduce-then-copy programs: while combining, a token moves along one path
/// (a combine hands the whole value on), so its place after the reduction
/// is a function Fwd(t); while copying, a final slot's value comes from one
/// slot, Bwd(y). Each contribution then reaches y exactly once iff
/// Fwd(t) == Bwd(y) for every token y needs, and for no other token.
static void coverageReduceThenCopy(z3::context &ctx, const SlotProgram &sp,
                                   const VerifyOptions &options,
                                   PropertyResult &result,
                                   PropertyResult &ownership) {
  result.method =
      sp.groupLevel
          ? "Z3: symbolic slot and contribution, reduce path == copy path"
          : "Z3: symbolic part, rank and contribution, reduce path == copy "
            "path, one term per block of transfers";
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr y = e.slotVar("y"), t = e.slotVar("t");
  solver.add(e.inDomain(y) && e.inDomain(t));
  solver.add(e.isDelivered(y) && e.initiallyHeld(t)); // t exists
  size_t firstCopy = sp.firstCopyStep();
  z3::expr forward = t;
  for (size_t s = 0; s < firstCopy; ++s) {
    const SlotStep &step = sp.steps[s];
    reassign(forward, e.name(solver, "fwd",
                     z3::ite(e.sent(step, forward),
                             e.destinationOf(step, forward), forward)));
  }
  z3::expr backward = backThroughCopies(e, solver, y, "bwd");
  z3::expr needed = e.needs(y, t);
  solver.add((needed && forward != backward) ||
             (!needed && forward == backward));
  if (settled(solver, result))
    return;
  minimize(solver, {y, t});
  z3::model model = solver.get_model();
  explainCoverage(sp, e.slotValue(model, y), e.slotValue(model, t), result,
                  ownership);
}

/// Rank-level programs of many steps whose parts' paths do not compose
/// (chains and pipelines of single transfers): Z3's chain over one
/// symbolic slot is thousands of steps deep and takes minutes at P =
/// 4096, so ownership, coverage and the identical-results note are
/// decided by an exact replay, and reported as such.
static bool decidedByReplay(const SlotProgram &sp,
                            const VerifyOptions &options) {
  return !sp.groupLevel &&
         (options.replayRankLevel ||
          (sp.steps.size() > options.replayAboveSteps &&
           !(sp.keepsPartIndices && sp.pathsCompose)));
}

static void coverageByPart(z3::context &ctx, const SlotProgram &sp,
                           const VerifyOptions &options,
                           PropertyResult &result, PropertyResult &ownership) {
  result.method = "Z3: one query per part, symbolic rank and contribution, "
                  "reduce path == copy path, the part's moves composed";
  // movers[j]: (step, block) for every block that moves part j, in step
  // order.
  std::vector<std::vector<std::pair<size_t, const MoveBlock *>>> movers(
      sp.parts);
  for (size_t s = 0; s < sp.steps.size(); ++s)
    for (const MoveBlock &b : sp.steps[s].blocks)
      for (const PartRun &r : b.runs)
        for (int64_t j = r.sent; j < r.sent + r.length; ++j)
          movers[j].push_back({s, &b});
  Encoder e(ctx, sp);
  z3::solver solver = makeSolver(ctx, options);
  z3::expr x = ctx.bv_const("rank", e.fieldWidth),
           r = ctx.bv_const("from", e.fieldWidth);
  solver.add(z3::ult(x, e.field(sp.ranks)) && z3::ult(r, e.field(sp.ranks)));
  size_t firstCopy = sp.firstCopyStep();
  int64_t P = sp.ranks;
  for (int64_t j = 0; j < sp.parts; ++j) {
    z3::expr part = e.field(j);
    z3::expr delivered = e.deliveredAt(part, x), held = e.heldAt(part, r);
    if ((delivered && held).simplify().is_false())
      continue; // nothing of part j is delivered, or nothing starts there
    solver.push();
    solver.add(delivered && held);
    // The rank a contribution of part j is at, through the steps in one
    // direction. A step whose one block moves every rank adds its shift
    // (mod P), and consecutive such steps compose into one addition; a
    // step of partial blocks is an ite over them, each reading the rank
    // before the step.
    auto follow = [&](z3::expr at, bool forwards) {
      std::vector<std::pair<size_t, size_t>> bySteps; // [begin, end)
      for (size_t k = 0; k < movers[j].size(); ++k) {
        size_t s = movers[j][k].first;
        if (forwards != (s < firstCopy))
          continue;
        if (!bySteps.empty() && movers[j][bySteps.back().first].first == s)
          bySteps.back().second = k + 1;
        else
          bySteps.push_back({k, k + 1});
      }
      if (!forwards)
        std::reverse(bySteps.begin(), bySteps.end());
      int64_t pending = 0; // shift not yet applied
      auto by = [&](const MoveBlock &b) {
        return forwards ? b.shift : (P - b.shift) % P;
      };
      for (auto [begin, end] : bySteps) {
        const MoveBlock &only = *movers[j][begin].second;
        if (end == begin + 1 && only.senders() >= P) {
          pending = (pending + by(only)) % P;
          continue;
        }
        reassign(at, e.rankAfter(at, pending));
        pending = 0;
        z3::expr next = at;
        for (size_t k = end; k-- > begin;) {
          const MoveBlock &b = *movers[j][k].second;
          reassign(next, z3::ite(forwards ? e.sendsIn(b, at) : e.receivesIn(b, at),
                         e.rankThrough(b, at, forwards), next));
        }
        reassign(at, e.name(solver, "at", next));
      }
      return e.rankAfter(at, pending);
    };
    z3::expr forward = follow(r, /*forwards=*/true);
    z3::expr backward = follow(x, /*forwards=*/false);
    z3::expr needed = e.needsAt(part, x, part, r);
    solver.add((needed && forward != backward) ||
               (!needed && forward == backward));
    std::string reason;
    switch (check(solver, reason)) {
    case Outcome::unsat:
      solver.pop();
      continue;
    case Outcome::unknown:
      notProven(result, reason);
      return;
    case Outcome::sat:
      break;
    }
    minimize(solver, {x, r});
    z3::model model = solver.get_model();
    auto value = [&](const z3::expr &v) { return valueIn(model, v); };
    explainCoverage(sp, j * P + value(x), j * P + value(r), result, ownership);
    return;
  }
  result.verdict = Verdict::proven;
}

/// The program run on token lists: every delivered slot ends held, with
/// each token it needs once and no other (else the first culprit, in slot
/// and token order, is explained).
static void finalSlotsByReplay(const SlotProgram &sp, PropertyResult &result,
                               PropertyResult &ownership) {
  Replay replay(sp);
  // What a slot needs depends on its rank only for scans and alltoall
  // (ProgramOp::expects); elsewhere slots of one part that share a token
  // list share its verdict, checked once: the culprit token, or -1.
  bool byRank = sp.kind == CollectiveKind::inclusive_scan ||
                sp.kind == CollectiveKind::exclusive_scan ||
                sp.kind == CollectiveKind::alltoall;
  std::map<std::pair<const std::vector<int64_t> *, int64_t>, int64_t> verdictOf;
  for (int64_t slot = 0; slot < sp.numSlots; ++slot) {
    if (!sp.delivered[slot])
      continue;
    const std::vector<int64_t> *list = replay.listOf(slot);
    std::pair<const std::vector<int64_t> *, int64_t> key{list, sp.partOf(slot)};
    bool shared = !sp.groupLevel && !byRank && list;
    if (shared && replay.held[slot]) {
      auto it = verdictOf.find(key);
      if (it != verdictOf.end()) {
        if (it->second >= 0)
          return explainCoverage(sp, slot, it->second, result, ownership);
        continue;
      }
    }
    std::vector<int64_t> have = replay.tokens(slot);
    llvm::sort(have);
    auto twice = std::adjacent_find(have.begin(), have.end());
    if (twice != have.end())
      return explainCoverage(sp, slot, *twice, result, ownership);
    int64_t culprit = -1;
    if (sp.groupLevel) {
      for (int64_t t = 0; t < sp.numSlots && culprit < 0; ++t)
        if (sp.needsToken(slot, t) !=
            std::binary_search(have.begin(), have.end(), t))
          culprit = t;
    } else {
      // The first token (in token order) held and not needed, or needed
      // and not held. On the rank level a slot needs tokens of its own
      // part only, or, in an exclusive scan, of part 0 (ProgramOp::expects),
      // so only those parts' tokens can be missing: P per part instead of
      // every slot (O(slots^2) was 85 s for a ring at P = 256).
      for (int64_t t : have)
        if (!sp.needsToken(slot, t)) {
          culprit = t;
          break;
        }
      int64_t part = sp.partOf(slot);
      for (int64_t p : {int64_t(0), part}) {
        if (p != part && sp.kind != CollectiveKind::exclusive_scan)
          continue;
        for (int64_t t = p * sp.ranks; t < (p + 1) * sp.ranks; ++t)
          if ((culprit < 0 || t < culprit) && sp.needsToken(slot, t) &&
              !std::binary_search(have.begin(), have.end(), t)) {
            culprit = t;
            break;
          }
      }
    }
    if (shared && replay.held[slot])
      verdictOf[key] = culprit;
    if (culprit >= 0 || !replay.held[slot])
      return explainCoverage(sp, slot, culprit < 0 ? 0 : culprit, result,
                             ownership);
  }
  result.verdict = Verdict::proven;
}

/// Any other program: Z3 looks for two different backward paths from a
/// final slot to one token (a contribution counted twice); an exact count
/// of paths per final slot then shows that each has as many tokens as it
/// needs, so with no duplicate every needed token is there once.
static void coverageGeneral(z3::context &ctx, const SlotProgram &sp,
                            const VerifyOptions &options,
                            PropertyResult &result, PropertyResult &ownership) {
  result.method =
      "Z3: symbolic paths per final slot (no contribution twice, none of "
      "another part), exact path count (none missing)";
  Encoder e(ctx, sp);
  // A backward path from slot `y` to the token it ends at, in `solver`;
  // `choices` gets whether it jumps at each combine step.
  auto backwardPath = [&](z3::solver &solver, const z3::expr &y,
                          const std::string &tag,
                          std::vector<z3::expr> &choices) {
    z3::expr p = y;
    for (size_t s = sp.steps.size(); s-- > 0;) {
      const SlotStep &step = sp.steps[s];
      z3::expr receives = e.received(step, p);
      if (!step.merges()) {
        reassign(p, e.name(solver, tag, z3::ite(receives, e.sourceOf(step, p), p)));
        continue;
      }
      z3::expr jump =
          ctx.bool_const(("jump!" + tag + std::to_string(s)).c_str());
      solver.add(z3::implies(jump, receives));
      // Staying on a slot this combine handed on reads an empty slot (a
      // fold keeps it).
      if (step.combines())
        solver.add(z3::implies(!jump, receives || !e.sent(step, p)));
      choices.push_back(jump);
      reassign(p, e.name(solver, tag, z3::ite(jump, e.sourceOf(step, p), p)));
    }
    return p;
  };
  auto found = [&](z3::solver &solver, const z3::expr &y,
                   const z3::expr &token) -> std::optional<Outcome> {
    std::string reason;
    Outcome outcome = check(solver, reason);
    if (outcome == Outcome::unknown)
      notProven(result, reason);
    if (outcome != Outcome::sat)
      return outcome;
    minimize(solver, {y, token});
    z3::model model = solver.get_model();
    explainCoverage(sp, e.slotValue(model, y), e.slotValue(model, token), result,
                    ownership);
    return outcome;
  };

  { // Two different paths from a delivered slot to one token.
    z3::solver solver = makeSolver(ctx, options);
    z3::expr y = e.slotVar("y");
    std::vector<z3::expr> ja, jb;
    z3::expr a = backwardPath(solver, y, "a", ja);
    z3::expr b = backwardPath(solver, y, "b", jb);
    z3::expr_vector differ(ctx);
    for (size_t k = 0; k < ja.size(); ++k)
      differ.push_back(ja[k] != jb[k]);
    if (!differ.empty()) {
      solver.add(e.inDomain(y) && e.isDelivered(y) && e.initiallyHeld(a));
      solver.add(z3::mk_or(differ) && a == b);
      if (found(solver, y, a) != Outcome::unsat)
        return;
    }
  }
  { // A path from a delivered slot to a token of another part.
    z3::solver solver = makeSolver(ctx, options);
    z3::expr y = e.slotVar("y");
    std::vector<z3::expr> choices;
    z3::expr a = backwardPath(solver, y, "f", choices);
    solver.add(e.inDomain(y) && e.isDelivered(y) && e.initiallyHeld(a));
    solver.add(!e.needs(y, a));
    if (found(solver, y, a) != Outcome::unsat)
      return;
  }

  // No token twice and none foreign: the exact replay shows that each final
  // slot holds every token it needs.
  finalSlotsByReplay(sp, result, ownership);
}

/// Group-level programs of vector moves (the shifted butterfly): a few
/// P vector slots and P tokens, so the exact replay of every slot's
/// contributions is the proof; Z3's symbolic paths through the folds cost
/// seconds per P there.
static bool hasVectorMoves(const SlotProgram &sp) {
  return sp.groupLevel &&
         llvm::any_of(sp.steps, [](const SlotStep &s) { return !s.isRange; });
}

/// Coverage decided by the exact replay of every delivered slot, `method`
/// saying why.
static void coverageByReplay(const SlotProgram &sp, std::string method,
                             PropertyResult &result,
                             PropertyResult &ownership) {
  result.byReplay = true;
  result.method = std::move(method);
  finalSlotsByReplay(sp, result, ownership);
}

/// Group level: the part rank x sends for placement from+i is the part its
/// receiver g(x) files under placement to+i, for a symbolic step, rank and
/// vector index.
static void partIndicesOfMoves(z3::context &ctx, const SlotProgram &sp,
                               const VerifyOptions &options,
                               PropertyResult &result) {
  if (sp.group == GroupKind::generated) {
    // A table's moves are each read along their own permutation
    // t_q t_p^-1 (coll::vectorStep; a range that is not one permutation
    // arrives as the vector moves it really makes), so the receiver files
    // t_q^-1(t_q t_p^-1 x) = t_p^-1(x), the part sent, for every table the
    // op verifier accepts as a group: nothing to prove here. What can be
    // wrong is a step of two permutations, which twoPermutations finds.
    return;
  }
  SymbolicGroup g(ctx, *sp.group, sp.ranks);
  if (sp.steps.empty())
    return;
  size_t vectorMoves = 0;
  for (const SlotStep &st : sp.steps)
    vectorMoves += st.isRange ? 0 : st.moves.size();
  // Many vector moves (recursive doubling: P a step): first the claim for
  // every single-vector move of the group, of which the program's are
  // some; it holds for cyclic and xor groups alike, and is one row
  // instead of P a step. Only if it fails does the table of the
  // program's own moves decide (and name the step).
  for (bool generic : {true, false}) {
    if (generic && vectorMoves <= 256)
      continue;
    z3::solver solver = makeSolver(ctx, options);
    z3::expr from = ctx.bv_const("from", g.w), to = ctx.bv_const("to", g.w),
             v = ctx.bv_const("v", g.w), step = ctx.bv_const("step", 32);
    // Ranges with their length; a vector move is a range of one.
    z3::expr_vector table(ctx);
    if (generic)
      table.push_back(z3::ult(from, g.num(sp.ranks)) &&
                      z3::ult(to, g.num(sp.ranks)) && v == g.num(1));
    for (size_t s = 0; s < sp.steps.size(); ++s) {
      const SlotStep &st = sp.steps[s];
      z3::expr atStep = step == ctx.bv_val(static_cast<uint64_t>(s), 32);
      if (st.isRange)
        table.push_back(atStep && from == g.num(st.from) &&
                        to == g.num(st.to) && v == g.num(st.vectors));
      else if (!generic)
        for (const SlotMove &m : st.moves)
          table.push_back(atStep && from == g.num(m.src % sp.ranks) &&
                          to == g.num(m.dst % sp.ranks) && v == g.num(1));
    }
    solver.add(z3::mk_or(table));
    z3::expr x = ctx.bv_const("x", g.w), i = ctx.bv_const("i", g.w),
             j = ctx.bv_const("j", g.w);
    solver.add(z3::ult(x, g.num(sp.ranks)) && z3::ult(i, v) && z3::ult(j, v));
    z3::expr dest = g.act(to, g.inverse(from, x));
    z3::expr sentPart = g.inverse(from + i, x);
    z3::expr filedAs = g.inverse(to + i, dest);
    z3::expr wrong = sentPart != filedAs;
    z3::expr twice = i != j && sentPart == g.inverse(from + j, x);
    solver.add(wrong || twice);
    if (generic) {
      std::string reason;
      if (check(solver, reason) == Outcome::unsat) {
        result.verdict = Verdict::proven;
        return;
      }
      continue;
    }
    if (settled(solver, result))
      return;
    minimize(solver, {step, x, i});
    z3::model model = solver.get_model();
    auto val = [&](const z3::expr &e) { return valueIn(model, e); };
    result.verdict = Verdict::violated;
    int64_t s = val(step), xv = val(x);
    Counterexample c = makeCounterexample(
        sp, s, val(dest), val(filedAs),
        "rank " + std::to_string(xv) + " sends its part " +
            std::to_string(val(sentPart)) + " to rank " +
            std::to_string(val(dest)) + ", which files it as part " +
            std::to_string(val(filedAs)));
    c.expected = "part " + std::to_string(val(sentPart));
    c.found = "part " + std::to_string(val(filedAs));
    result.counterexample = c;
    return;
  }
}

void coll::verify::proveCoverage(z3::context &ctx, const SlotProgram &sp,
                                 const VerifyOptions &options,
                                 PropertyResult &result,
                                 PropertyResult &ownership) {
  if (hasVectorMoves(sp))
    coverageByReplay(sp,
                     "exact replay of every vector slot (group level: " +
                         std::to_string(sp.numSlots) + " slots, " +
                         std::to_string(sp.ranks) + " vectors)",
                     result, ownership);
  else if (decidedByReplay(sp, options))
    coverageByReplay(sp,
                     "exact replay of every slot's contributions (" +
                         std::to_string(sp.steps.size()) +
                         " steps: too deep a chain for Z3's symbolic slot)",
                     result, ownership);
  else if (sp.keepsPartIndices && (sp.parts == 1 || sp.pathsCompose))
    coverageByPart(ctx, sp, options, result, ownership);
  else if (sp.reduceThenCopy)
    coverageReduceThenCopy(ctx, sp, options, result, ownership);
  else if (!sp.groupLevel && !sp.movesKeepParts &&
           sp.numSlots > options.replayGeneralCoverageAboveSlots)
    coverageByReplay(sp,
                     "exact replay of every slot's contributions (" +
                         std::to_string(sp.numSlots) +
                         " slots: too many for Z3's symbolic paths through "
                         "folds between parts)",
                     result, ownership);
  else
    coverageGeneral(ctx, sp, options, result, ownership);
  if (sp.groupLevel && result.verdict == Verdict::proven &&
      !options.moveIndicesProven) {
    partIndicesOfMoves(ctx, sp, options, result);
    result.method += "; symbolic rank for the part indices of every move";
  }
}

//===----------------------------------------------------------------------===//
// Operator legality
//===----------------------------------------------------------------------===//

/// Whether every final slot of one part copies its value from the same
/// reduction: then all ranks get bitwise-identical results.
std::string coll::verify::identicalResultsNote(z3::context &ctx,
                                              const SlotProgram &sp,
                                              const VerifyOptions &options) {
  if (!const_cast<ProgramOp &>(sp.program).reduces())
    return "bitwise-identical results: yes (data is only copied)";
  if (isScan(sp.kind))
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
