//===- Family.cpp - proofs for every rank count at once -------------------===//
//
// A group schedule is a closed form in P, so some of its properties can be
// proven with P symbolic instead of once per P:
//  - every move of the cyclic group (any from, to, vectors in range) and
//    every aligned move of the xor group is one permutation of the ranks,
//    and the receiver files each part under the index it was sent as;
//  - the linear schedule (ring) hands every contribution along the ring
//    and back, proven by induction over the step index j: the closed-form
//    invariants below hold before step 0 and each step keeps them;
//  - the linear allgather copies placement 0 along the ring, by the same
//    kind of induction;
//  - the butterfly on cyclic(P) with r = 0 halves the live placements
//    down to one and doubles them back, by induction over the live count;
//  - the binomial broadcast doubles the ranks that hold the root's value,
//    by induction over the tree's levels.
// The per-P check that a program is an instance of these closed forms is
// familyCovers().
//
//===----------------------------------------------------------------------===//
#include "Queries.h"

#include "coll/Passes/GroupSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <functional>

using namespace coll;
using namespace coll::verify;

namespace {
using Clock = std::chrono::steady_clock;

/// Runs one family query ("is there a P and a step breaking it?") and adds
/// its time to the result.
void settle(z3::solver &solver, PropertyResult &result) {
  std::string reason;
  auto start = Clock::now();
  Outcome outcome = check(solver, reason);
  result.seconds += std::chrono::duration<double>(Clock::now() - start).count();
  switch (outcome) {
  case Outcome::unsat:
    result.verdict = Verdict::proven;
    return;
  case Outcome::unknown:
    result.verdict = Verdict::notProven;
    result.note = reason;
    return;
  case Outcome::sat: {
    result.verdict = Verdict::violated;
    z3::model model = solver.get_model();
    Counterexample c;
    std::vector<std::string> values;
    for (unsigned k = 0; k < model.num_consts(); ++k) {
      z3::func_decl d = model.get_const_decl(k);
      z3::expr v = model.get_const_interp(d);
      std::string text =
          v.is_numeral() ? v.get_decimal_string(0) : v.to_string();
      if (d.name().str() == "P")
        c.ranks = std::stoll(text);
      values.push_back(d.name().str() + " = " + text);
    }
    std::sort(values.begin(), values.end());
    c.message = "the closed form fails for";
    for (size_t k = 0; k < values.size(); ++k)
      c.message += (k ? ", " : " ") + values[k];
    result.counterexample = c;
    return;
  }
  }
}

/// One induction query of a family proof: `breach` declares the symbolic
/// state in `ctx`, adds its ranges to `solver` and returns the breach of
/// the invariants; unsat proves `property` in `scope`. The result is added
/// to `results`.
Verdict addInduction(
    std::vector<PropertyResult> &results, Property property,
    std::string method, const std::string &scope, const VerifyOptions &options,
    const char *logic,
    const std::function<z3::expr(z3::context &, z3::solver &)> &breach) {
  PropertyResult r{property};
  r.method = std::move(method);
  z3::context ctx;
  z3::solver solver = makeSolver(ctx, options, logic);
  solver.add(breach(ctx, solver));
  settle(solver, r);
  r.scope = scope;
  results.push_back(r);
  return r.verdict;
}

/// Operator legality that an induction's coverage gives: proven in the
/// induction's scope, for `why`, with the identical-results note.
PropertyResult legalityFromCoverage(const std::string &scope,
                                    const char *why, bool copiesOnly) {
  PropertyResult legality{Property::operatorLegality};
  legality.verdict = Verdict::proven;
  legality.scope = scope;
  legality.method = why;
  legality.note = copiesOnly ? "bitwise-identical results: yes (data is only "
                               "copied)"
                             : "bitwise-identical results: yes (each part is "
                               "reduced once, then copied)";
  return legality;
}

/// x mod P for x in (-P, 2P), without nonlinear arithmetic.
z3::expr wrap(const z3::expr &x, const z3::expr &P) {
  return z3::ite(x >= P, x - P, z3::ite(x < 0, x + P, x));
}

/// Cyclic group, P symbolic: t_k(x) = x + k, t_k^-1(x) = x - k (mod P).
PropertyResult cyclicMoves(int64_t maxRanks, const VerifyOptions &options) {
  PropertyResult result{Property::matching};
  result.method = "Z3 (linear integer arithmetic): symbolic P, move, rank "
                  "and vector index, for every move of the cyclic group";
  z3::context ctx;
  z3::solver solver = makeSolver(ctx, options, "QF_LIA");
  z3::expr P = ctx.int_const("P"), from = ctx.int_const("from"),
           to = ctx.int_const("to"), v = ctx.int_const("vectors"),
           x = ctx.int_const("x"), y = ctx.int_const("y"),
           i = ctx.int_const("i"), j = ctx.int_const("j");
  solver.add(P >= 2 && P <= ctx.int_val(maxRanks));
  solver.add(from >= 0 && to >= 0 && v >= 1 && from + v <= P && to + v <= P &&
             from != to);
  solver.add(x >= 0 && x < P && y >= 0 && y < P && i >= 0 && i < v && j >= 0 &&
             j < v);
  auto dest = [&](const z3::expr &r) { return wrap(r + to - from, P); };
  auto inverse = [&](const z3::expr &k, const z3::expr &r) {
    return wrap(r - k, P);
  };
  z3::expr sentPart = inverse(from + i, x);
  z3::expr filedAs = inverse(to + i, dest(x));
  solver.add(dest(x) == x || (x != y && dest(x) == dest(y)) || dest(x) < 0 ||
             dest(x) >= P || sentPart != filedAs ||
             (i != j && sentPart == inverse(from + j, x)));
  settle(solver, result);
  result.scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  return result;
}

/// Xor group, P = 2^n for each n: t_k(x) = x ^ bitreverse_n(k). A move is
/// aligned when from and to are multiples of 2^a and vectors <= 2^a; the
/// butterfly's moves (2^m -> 0, 0 -> 2^m, 2^m vectors) and the ring's
/// (one vector) are.
PropertyResult xorMoves(int64_t maxRanks, const VerifyOptions &options) {
  PropertyResult result{Property::matching};
  result.method = "Z3 (bit-vectors): for each P = 2^n, symbolic aligned "
                  "move, rank and vector index";
  result.verdict = Verdict::proven;
  unsigned maxBits = llvm::Log2_64(static_cast<uint64_t>(maxRanks));
  for (unsigned n = 1; n <= maxBits && result.verdict == Verdict::proven; ++n) {
    z3::context ctx;
    z3::solver solver = makeSolver(ctx, options, "QF_BV");
    unsigned w = n + 3; // from + vectors and to + vectors never wrap
    auto num = [&](uint64_t v) { return ctx.bv_val(v, w); };
    auto reverse = [&](const z3::expr &k) { return reverseBits(k, n, w); };
    z3::expr P = num(uint64_t(1) << n);
    z3::expr from = ctx.bv_const("from", w), to = ctx.bv_const("to", w),
             v = ctx.bv_const("vectors", w), a = ctx.bv_const("a", w),
             x = ctx.bv_const("x", w), y = ctx.bv_const("y", w),
             i = ctx.bv_const("i", w), j = ctx.bv_const("j", w);
    z3::expr block = z3::shl(num(1), a), mask = block - num(1);
    solver.add(z3::ule(a, num(n)) && (from & mask) == num(0) &&
               (to & mask) == num(0) && z3::ule(v, block));
    solver.add(z3::ult(from, P) && z3::ult(to, P) && z3::ult(a, num(w)));
    solver.add(z3::uge(v, num(1)) && z3::ule(from + v, P) &&
               z3::ule(to + v, P) && from != to);
    solver.add(z3::ult(x, P) && z3::ult(y, P) && z3::ult(i, v) &&
               z3::ult(j, v));
    auto dest = [&](const z3::expr &r) {
      return r ^ reverse(from) ^ reverse(to);
    };
    z3::expr sentPart = x ^ reverse(from + i);
    z3::expr filedAs = dest(x) ^ reverse(to + i);
    solver.add(dest(x) == x || (x != y && dest(x) == dest(y)) ||
               z3::uge(dest(x), P) || sentPart != filedAs ||
               (i != j && sentPart == (x ^ reverse(from + j))));
    settle(solver, result);
  }
  result.scope =
      "all P = 2^n in [2, " + std::to_string(int64_t(1) << maxBits) + "]";
  return result;
}

/// The ring on placements, P symbolic. Step j < P-1 combines placement j
/// into j+1; copy step i < P-1 copies placement i-1 (mod P) onto i.
/// Invariants (j steps done):
///   reduction: token c sits at max(c, j); slot q is handed on iff q < j;
///   copies:    slot q is handed on iff i <= q < P-1; the final value of
///              slot k comes, before copy step i, from i-1 (mod P) when
///              i <= k <= P-2, else from k.
struct Ring {
  z3::context &ctx;
  z3::expr P;
  explicit Ring(z3::context &ctx) : ctx(ctx), P(ctx.int_const("P")) {}
  z3::expr tokenAt(const z3::expr &j, const z3::expr &c) const {
    return z3::ite(c < j, j, c);
  }
  z3::expr reducedAway(const z3::expr &j, const z3::expr &q) const {
    return q < j;
  }
  z3::expr copySource(const z3::expr &i) const {
    return z3::ite(i == 0, P - 1, i - 1);
  }
  z3::expr copiedAway(const z3::expr &i, const z3::expr &q) const {
    return q >= i && q < P - 1;
  }
  z3::expr origin(const z3::expr &i, const z3::expr &k) const {
    return z3::ite(i <= k && k <= P - 2, copySource(i), k);
  }
};

void addRangeFacts(z3::solver &solver, const Ring &ring, int64_t maxRanks,
                   const z3::expr &j, std::initializer_list<z3::expr> slots) {
  solver.add(ring.P >= 2 && ring.P <= ring.ctx.int_val(maxRanks));
  solver.add(j >= 0 && j <= ring.P - 2);
  for (const z3::expr &s : slots)
    solver.add(s >= 0 && s < ring.P);
}

std::vector<PropertyResult> linearSchedule(int64_t maxRanks,
                                           const VerifyOptions &options) {
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  std::vector<PropertyResult> results;

  // Ownership: nothing handed on is sent or combined into.
  addInduction(
      results, Property::ownership,
      "Z3 (linear integer arithmetic): induction over the step index of the "
      "linear schedule, symbolic P and slot",
      scope, options, "QF_LIA", [&](z3::context &ctx, z3::solver &solver) {
        Ring ring(ctx);
        z3::expr j = ctx.int_const("j"), q = ctx.int_const("q");
        addRangeFacts(solver, ring, maxRanks, j, {q});
        z3::expr zero = ctx.int_val(0), last = ring.P - 1;
        // Reduction step j: sends j, receives j+1.
        z3::expr reduceNext = z3::ite(q == j + 1, ctx.bool_val(false),
                                      q == j || ring.reducedAway(j, q));
        // Copy step j: sends copySource(j), receives j.
        z3::expr copyNext =
            z3::ite(q == j, ctx.bool_val(false), ring.copiedAway(j, q));
        return ring.reducedAway(zero, q) ||
               reduceNext != ring.reducedAway(j + 1, q) ||
               (ring.reducedAway(j, q) && (q == j || q == j + 1)) ||
               ring.copiedAway(zero, q) != ring.reducedAway(last, q) ||
               copyNext != ring.copiedAway(j + 1, q) ||
               (ring.copiedAway(j, q) && q == ring.copySource(j));
      });
  // Coverage: every token ends where every final slot copies from.
  Verdict coverage = addInduction(
      results, Property::coverage,
      "Z3 (linear integer arithmetic): induction over the step index of the "
      "linear schedule, symbolic P, slot and contribution",
      scope, options, "QF_LIA", [&](z3::context &ctx, z3::solver &solver) {
        Ring ring(ctx);
        z3::expr j = ctx.int_const("j"), c = ctx.int_const("c"),
                 k = ctx.int_const("k");
        addRangeFacts(solver, ring, maxRanks, j, {c, k});
        z3::expr zero = ctx.int_val(0), last = ring.P - 1;
        z3::expr at = ring.tokenAt(j, c);
        z3::expr moved = z3::ite(at == j, j + 1, at);
        z3::expr before = ring.origin(j + 1, k);
        z3::expr stepped = z3::ite(before == j, ring.copySource(j), before);
        return ring.tokenAt(zero, c) != c ||
               moved != ring.tokenAt(j + 1, c) || ring.origin(last, k) != k ||
               stepped != ring.origin(j, k) ||
               ring.tokenAt(last, c) != ring.origin(zero, k) ||
               // every final slot copies the same placement
               ring.origin(zero, k) != ring.origin(zero, c);
      });
  if (coverage == Verdict::proven)
    results.push_back(legalityFromCoverage(
        scope,
        "the operator is commutative; the coverage induction shows every "
        "final slot copies placement P-1",
        /*copiesOnly=*/false));
  return results;
}

} // namespace

/// The linear allgather on placements, P symbolic: copy step i < P-1
/// copies placement i onto i+1, and only placement 0 (each rank's own
/// block) starts with a value. Invariants (i steps done):
///   ownership: slot q has never received a value iff q > i;
///   coverage:  before copy step i, the final value of slot k comes from
///              min(k, i), so every slot ends with placement 0's value.
/// `form` states the closed form; anything but the default is a wrong one,
/// for the tests that the induction rejects it.
std::vector<PropertyResult>
coll::proveLinearAllgather(int64_t maxRanks, const VerifyOptions &options,
                           LinearAllgatherForm form) {
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  std::vector<PropertyResult> results;
  // One induction query: P, the step index i and a slot symbolic, the
  // breach of the invariants as a term of them.
  auto induction = [&](Property property, const char *what,
                       const std::function<z3::expr(
                           const z3::expr &, const z3::expr &,
                           const z3::expr &)> &breach) {
    return addInduction(
        results, property,
        std::string("Z3 (linear integer arithmetic): induction over the step "
                    "index of the linear allgather, ") +
            what,
        scope, options, "QF_LIA", [&](z3::context &ctx, z3::solver &solver) {
          z3::expr P = ctx.int_const("P"), i = ctx.int_const("i"),
                   q = ctx.int_const("q");
          solver.add(P >= 2 && P <= ctx.int_val(maxRanks));
          solver.add(i >= 0 && i <= P - 2 && q >= 0 && q < P);
          return breach(P, i, q);
        });
  };
  // Ownership: a copy never sends a slot that has no value yet. Step i
  // sends i and fills i+1.
  induction(Property::ownership, "symbolic P and slot",
            [&](const z3::expr &, const z3::expr &i, const z3::expr &q) {
              auto empty = [](const z3::expr &done, const z3::expr &slot) {
                return slot > done;
              };
              z3::expr zero = q.ctx().int_val(0);
              z3::expr next =
                  z3::ite(q == i + 1, q.ctx().bool_val(false), empty(i, q));
              return empty(zero, q) != (q != zero) ||
                     next != empty(i + 1, q) ||
                     empty(i, i + int(form.sourceOffset));
            });
  // Coverage: every final slot copies placement 0, the one value.
  Verdict coverage = induction(
      Property::coverage, "symbolic P and slot",
      [&](const z3::expr &P, const z3::expr &i, const z3::expr &k) {
        auto origin = [](const z3::expr &before, const z3::expr &slot) {
          return z3::ite(slot < before, slot, before);
        };
        z3::expr later = origin(i + 1, k);
        z3::expr stepped =
            z3::ite(later == i + 1, i + int(form.sourceOffset), later);
        return origin(P - 1, k) != k || stepped != origin(i, k) ||
               origin(k.ctx().int_val(0), k) != 0;
      });
  if (coverage == Verdict::proven)
    results.push_back(legalityFromCoverage(
        scope, "nothing is combined: the allgather only copies",
        /*copiesOnly=*/true));
  return results;
}

/// The butterfly on cyclic(P), r = 0 (seeds/003), on placements: with n
/// placements live (n = P at first), a combine step moves [n-h, n) onto
/// [0, h), h = floor(n/2), and n becomes n - h = ceil(n/2), down to 1; the
/// all-gather copies [0, h) onto [n-h, n) for the same (n, h) in reverse
/// order. Invariants, n symbolic in [2, P], P in [2, maxRanks]:
///   ownership: before the reduce step of (n, h) exactly [0, n) is held; its
///     sources and destinations lie there and do not meet; afterwards
///     exactly [0, n-h) is held. Before the copy step of (n, h) exactly
///     [0, n-h) is held; its sources are held, its destinations are not
///     (nothing is overwritten); afterwards exactly [0, n) is held.
///   coverage: a contribution at a live placement p < n is at one below
///     n - h after the reduce step (a combine hands the whole value on, so
///     each contribution is at one placement); a final slot y < n copies,
///     through the copy step, one below n - h. Once n - h = 1 both are
///     placement 0: every contribution is reduced into placement 0 once,
///     and every final slot copies placement 0.
/// `form` states the closed form; anything but the default is a wrong one,
/// for the tests that the induction rejects it.
std::vector<PropertyResult>
coll::proveHalvingButterfly(int64_t maxRanks, const VerifyOptions &options,
                            HalvingForm form) {
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  std::vector<PropertyResult> results;
  auto induction = [&](Property property,
                       const std::function<z3::expr(
                           const z3::expr &, const z3::expr &,
                           const z3::expr &)> &breach) {
    return addInduction(
        results, property,
        "Z3 (linear integer arithmetic): induction over the live placement "
        "count n of the halving butterfly, symbolic P, n and slot",
        scope, options, "QF_LIA", [&](z3::context &ctx, z3::solver &solver) {
          z3::expr P = ctx.int_const("P"), n = ctx.int_const("n"),
                   h = ctx.int_const("h"), q = ctx.int_const("q");
          solver.add(P >= 2 && P <= ctx.int_val(maxRanks) && n >= 2 &&
                     n <= P);
          if (form.ceilHalf)
            solver.add(2 * h >= n && 2 * h <= n + 1);
          else
            solver.add(2 * h <= n && 2 * h >= n - 1);
          solver.add(q >= 0 && q < P);
          return breach(n, h, q);
        });
  };
  int64_t offset = form.destinationOffset;
  auto in = [](const z3::expr &q, const z3::expr &lo, const z3::expr &hi) {
    return q >= lo && q < hi;
  };
  induction(Property::ownership, [&](const z3::expr &n, const z3::expr &h,
                                     const z3::expr &q) {
    z3::expr o = q.ctx().int_val(offset);
    // Reduce step: combine [n-h, n) into [o, o+h).
    z3::expr held = q < n, src = in(q, n - h, n), dst = in(q, o, o + h);
    z3::expr reduce = (src && !held) || (dst && !held) || (src && dst) ||
                      ((held && !src) != (q < n - h));
    // Copy step: [o, o+h) onto [n-h, n).
    z3::expr heldBefore = q < n - h, from = in(q, o, o + h),
             onto = in(q, n - h, n);
    z3::expr copy = (from && !heldBefore) || (onto && heldBefore) ||
                    ((heldBefore || onto) != (q < n));
    return reduce || copy;
  });
  Verdict coverage = induction(
      Property::coverage,
      [&](const z3::expr &n, const z3::expr &h, const z3::expr &p) {
        z3::expr o = p.ctx().int_val(offset);
        // Forward through the reduce step, backward through the copy step:
        // both map [n-h, n) onto [o, o+h) and keep the rest.
        z3::expr moved = z3::ite(in(p, n - h, n), p - (n - h) + o, p);
        return p < n && !in(moved, p.ctx().int_val(0), n - h);
      });
  if (coverage == Verdict::proven)
    results.push_back(legalityFromCoverage(
        scope,
        "the operator is commutative; the coverage induction shows every "
        "final slot copies placement 0",
        /*copiesOnly=*/false));
  return results;
}

/// The binomial broadcast, P symbolic: with virtual ranks v = (r - root)
/// mod P and L = ceil(log2 P), level k = 0 .. L-1 has distance
/// d = 2^(L-1-k), and every v that is a multiple of 2d with v + d < P
/// copies its value to v + d. Invariant (bit-vectors, P in [2, maxRanks],
/// d = 2^j < P symbolic): before the level of distance d exactly the
/// multiples of 2d hold the root's value; the senders hold it, no receiver
/// does (nothing is overwritten); afterwards exactly the multiples of d
/// hold it. At the
/// first level (2d >= P) only v = 0 is a multiple of 2d, and after the
/// last (d = 1) every rank holds the root's value, the only value there
/// is: ownership and coverage for every P at once. (Matching is by
/// construction -- one receiver per sender, one sender v - d per
/// receiver -- and proven per P from the transfers.)
/// `form` states the closed form; anything but the default is wrong, for
/// the tests.
std::vector<PropertyResult>
coll::proveBinomialBroadcast(int64_t maxRanks, const VerifyOptions &options,
                             BinomialForm form) {
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  std::vector<PropertyResult> results;
  unsigned width =
      llvm::Log2_64_Ceil(static_cast<uint64_t>(maxRanks)) + 3; // 4d fits
  auto induction = [&](Property property,
                       const std::function<z3::expr(
                           const z3::expr &, const z3::expr &,
                           const z3::expr &)> &breach) {
    return addInduction(
        results, property,
        "Z3 (bit-vectors): induction over the levels of the binomial tree, "
        "symbolic P, distance 2^j and virtual ranks",
        scope, options, "QF_BV", [&](z3::context &ctx, z3::solver &solver) {
          auto num = [&](int64_t v) {
            return ctx.bv_val(static_cast<uint64_t>(v), width);
          };
          z3::expr P = ctx.bv_const("P", width), j = ctx.bv_const("j", width),
                   v = ctx.bv_const("v", width);
          z3::expr d = z3::shl(num(1), j);
          solver.add(z3::uge(P, num(2)) && z3::ule(P, num(maxRanks)));
          solver.add(z3::ult(j, num(width - 3)) && z3::ult(d, P));
          solver.add(z3::ult(v, P));
          return breach(P, d, v);
        });
  };
  auto multipleOf = [](const z3::expr &v, const z3::expr &m) {
    return (v & (m - 1)) == 0;
  };
  int64_t lag = form.distanceLag;
  // The level of distance d: who holds before and after, who sends, whom.
  auto level = [&](const z3::expr &P, const z3::expr &d) {
    z3::expr step =
        d + d.ctx().bv_val(static_cast<uint64_t>(lag), d.get_sort().bv_size());
    auto heldBefore = [=](const z3::expr &x) { return multipleOf(x, 2 * d); };
    auto sends = [=](const z3::expr &x) {
      return heldBefore(x) && z3::ult(x + step, P);
    };
    return std::make_tuple(heldBefore, sends, step);
  };
  // The invariant fails at a level: a receiver already holds (a copy
  // would overwrite it), the holders afterwards are not the multiples of
  // d, or the first level does not start from the root alone.
  auto invariantBreach = [&](const z3::expr &P, const z3::expr &d,
                             const z3::expr &v) {
    auto [heldBefore, sends, step] = level(P, d);
    z3::expr receives = z3::uge(v, step) && sends(v - step);
    z3::expr first = z3::uge(2 * d, P);
    return (receives && heldBefore(v)) ||
           (heldBefore(v) || receives) != multipleOf(v, d) ||
           (first && heldBefore(v) != (v == 0));
  };
  induction(Property::ownership, invariantBreach);
  // The root's value is the only one, and a copy replaces: a rank holds it
  // once iff it holds at all, which after the level of distance 1 every
  // rank does (every v is a multiple of 1).
  Verdict coverage = induction(
      Property::coverage,
      [&](const z3::expr &P, const z3::expr &d, const z3::expr &v) {
        z3::expr one = d.ctx().bv_val(1, d.get_sort().bv_size());
        return invariantBreach(P, d, v) || (d == one && !multipleOf(v, d));
      });
  if (coverage == Verdict::proven)
    results.push_back(legalityFromCoverage(
        scope, "nothing is combined: the broadcast only copies",
        /*copiesOnly=*/true));
  return results;
}

namespace {

/// Whether `steps` are the halving butterfly's closed form for P (see
/// proveHalvingButterfly): the reduce steps for n = P, ceil(P/2), ..., 2, then
/// their copies in reverse.
bool isHalvingButterfly(llvm::ArrayRef<StepOp> steps, int64_t P) {
  std::vector<std::pair<int64_t, int64_t>> halvings; // (n, h)
  for (int64_t n = P; n > 1; n -= n / 2)
    halvings.push_back({n, n / 2});
  if (steps.size() != 2 * halvings.size())
    return false;
  auto is = [](StepOp step, StepKind kind, int64_t from, int64_t to,
               int64_t vectors) {
    return step.getStepKind() == kind && *step.getFrom() == from &&
           *step.getTo() == to && *step.getVectors() == vectors;
  };
  size_t k = halvings.size();
  for (size_t i = 0; i < k; ++i) {
    auto [n, h] = halvings[i];
    auto [m, g] = halvings[k - 1 - i];
    if (!is(steps[i], StepKind::combine, n - h, 0, h) ||
        !is(steps[k + i], StepKind::copy, 0, m - g, g))
      return false;
  }
  return true;
}

/// Whether `program` is proveBinomialBroadcast's closed form for its P:
/// level k copies part 0 from virtual rank v to v + d, d = 2^(L-1-k), for
/// every multiple v of 2d with v + d < P, and nothing else.
bool isBinomialBroadcast(ProgramOp program, int64_t root) {
  int64_t P = program.getNumRanks();
  if (program.getKind() != CollectiveKind::broadcast || P < 2 ||
      program.getNumParts() != 1 || program.getNumScratchParts().value_or(0) ||
      program.getRoot().value_or(-1) != static_cast<uint64_t>(root))
    return false;
  auto steps = llvm::to_vector(program.getBody().getOps<StepOp>());
  int64_t levels = llvm::Log2_64_Ceil(static_cast<uint64_t>(P));
  if (static_cast<int64_t>(steps.size()) != levels)
    return false;
  for (int64_t k = 0; k < levels; ++k) {
    if (steps[k].getStepKind() != StepKind::copy)
      return false;
    int64_t d = int64_t(1) << (levels - 1 - k);
    std::vector<std::pair<int64_t, int64_t>> expected, found;
    for (int64_t v = 0; v + d < P; v += 2 * d)
      expected.push_back({(root + v) % P, (root + v + d) % P});
    for (const Transfer &t : transfersOfStep(steps[k])) {
      if (t.sent != std::vector<int64_t>{0} ||
          t.received != std::vector<int64_t>{0})
        return false;
      found.push_back({t.src, t.dst});
    }
    llvm::sort(expected);
    llvm::sort(found);
    if (expected != found)
      return false;
  }
  return true;
}

bool isAligned(int64_t from, int64_t to, int64_t vectors) {
  for (int64_t block = 1;; block *= 2) {
    if (from % block || to % block)
      return false;
    if (vectors <= block)
      return true;
  }
}

} // namespace

std::vector<PropertyResult> coll::proveFamily(CollectiveOp spec,
                                              int64_t maxRanks,
                                              const VerifyOptions &options) {
  std::vector<PropertyResult> results;
  if (maxRanks < 2 || spec.getNumRanks())
    return results;
  if (spec.getSchedule() == ScheduleKind::binomial &&
      spec.getKind() == CollectiveKind::broadcast)
    return proveBinomialBroadcast(maxRanks, options);
  // Otherwise only group schedules have closed forms in P; other trees,
  // digit routings and scans are proven per P.
  if (!spec.getGroup() || spec.getButterflyR() != 0)
    return results;
  results.push_back(spec.getGroup() == GroupKind::cyclic
                        ? cyclicMoves(maxRanks, options)
                        : xorMoves(maxRanks, options));
  // The ring's induction is about the allreduce's moves.
  if (spec.getSchedule() == ScheduleKind::linear &&
      spec.getKind() == CollectiveKind::allreduce)
    for (PropertyResult &r : linearSchedule(maxRanks, options))
      results.push_back(std::move(r));
  if (spec.getSchedule() == ScheduleKind::linear &&
      spec.getKind() == CollectiveKind::allgather)
    for (PropertyResult &r : proveLinearAllgather(maxRanks, options))
      results.push_back(std::move(r));
  if (spec.getSchedule() == ScheduleKind::butterfly &&
      spec.getGroup() == GroupKind::cyclic &&
      spec.getKind() == CollectiveKind::allreduce)
    for (PropertyResult &r : proveHalvingButterfly(maxRanks, options))
      results.push_back(std::move(r));
  // The inductions' legality is that of a commutative operator; rank order
  // is decided per P (familyCovers leaves it to the per-P query).
  if (spec.getNoncommutative())
    llvm::erase_if(results, [](const PropertyResult &r) {
      return r.property == Property::operatorLegality;
    });
  return results;
}

bool coll::familyCovers(CollectiveOp spec, ProgramOp program,
                        Property property) {
  if (spec.getNumRanks())
    return false;
  if (spec.getSchedule() == ScheduleKind::binomial &&
      spec.getKind() == CollectiveKind::broadcast)
    return property != Property::matching &&
           isBinomialBroadcast(program, spec.getRoot().value_or(0));
  if (!spec.getGroup() ||
      program.getGroup() != spec.getGroup())
    return false;
  int64_t P = program.getNumRanks();
  auto steps = llvm::to_vector(program.getBody().getOps<StepOp>());
  for (StepOp step : steps)
    if (!step.isImplicitMove())
      return false;
  if (property == Property::matching) {
    if (spec.getGroup() == GroupKind::cyclic)
      return true; // the op verifier keeps every move in range
    return llvm::all_of(steps, [](StepOp s) {
      return isAligned(*s.getFrom(), *s.getTo(), *s.getVectors());
    });
  }
  if (property == Property::operatorLegality && program.getNoncommutative())
    return false;
  if (property != Property::matching &&
      spec.getSchedule() == ScheduleKind::butterfly)
    return spec.getGroup() == GroupKind::cyclic &&
           program.getKind() == CollectiveKind::allreduce &&
           program.getNumScratchParts().value_or(0) == 0 &&
           static_cast<int64_t>(program.getNumParts()) == P &&
           isHalvingButterfly(steps, P);
  if (property == Property::matching ||
      spec.getSchedule() != ScheduleKind::linear)
    return false;
  if (program.getKind() == CollectiveKind::allgather) {
    // The allgather's induction: copy step i moves placement i onto i+1.
    if (static_cast<int64_t>(steps.size()) != P - 1 ||
        program.getNumScratchParts().value_or(0) != 0 ||
        program.getNumParts() != P)
      return false;
    for (int64_t i = 0; i + 1 < P; ++i) {
      StepOp copy = steps[i];
      if (copy.getStepKind() != StepKind::copy || *copy.getFrom() != i ||
          *copy.getTo() != i + 1 || *copy.getVectors() != 1)
        return false;
    }
    return true;
  }
  if (program.getKind() != CollectiveKind::allreduce ||
      static_cast<int64_t>(steps.size()) != 2 * (P - 1))
    return false;
  for (int64_t j = 0; j + 1 < P; ++j) {
    StepOp reduce = steps[j], copy = steps[P - 1 + j];
    if (reduce.getStepKind() != StepKind::combine || *reduce.getFrom() != j ||
        *reduce.getTo() != j + 1 || *reduce.getVectors() != 1)
      return false;
    if (copy.getStepKind() != StepKind::copy ||
        *copy.getFrom() != (j == 0 ? P - 1 : j - 1) || *copy.getTo() != j ||
        *copy.getVectors() != 1)
      return false;
  }
  return true;
}
