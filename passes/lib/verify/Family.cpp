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
//  - the binomial tree of every kind (reduce, gather, broadcast, scatter
//    and the two-pass allreduce, allgather, reduce-scatter and barrier)
//    keeps runs of virtual ranks per live rank, by induction over levels;
//  - the hierarchical tree of seed 000 partitions each node into smaller
//    balanced groups, deeper levels first, by induction over node size;
//  - the digit routings (Bruck, ReTri) on P = base^s route every block by
//    its digits, one query per s.
// The per-P check that a program is an instance of these closed forms is
// familyCovers(); the closed forms it compares against are written here,
// from the same formulas the queries state, not taken from the runtime's
// generators.
//
//===----------------------------------------------------------------------===//
#include "FamilyForms.h"
#include "Queries.h"

#include "coll/Dialect/Catalogue.h"
#include "coll/Passes/GroupSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>

using namespace coll;
using namespace coll::verify;

namespace {
using Clock = std::chrono::steady_clock;

/// The hierarchical tree's family proof enumerates a node's members: past
/// this many it leaves the tree to the per-P proofs.
constexpr int64_t kMaxFamilyArity = 64;

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

/// An induction whose ownership invariant includes what its coverage
/// query shows (the runs kept level to level): ownership counts only with
/// coverage proven too.
void ownershipNeedsCoverage(std::vector<PropertyResult> &results) {
  auto find = [&](Property p) {
    return llvm::find_if(results, [&](const PropertyResult &r) {
      return r.property == p;
    });
  };
  auto ownership = find(Property::ownership), coverage = find(Property::coverage);
  if (ownership == results.end() || coverage == results.end() ||
      coverage->verdict == Verdict::proven ||
      ownership->verdict != Verdict::proven)
    return;
  ownership->verdict = Verdict::notProven;
  ownership->note = "the induction's invariant needs its coverage query, "
                    "which is " +
                    std::string(verdictName(coverage->verdict));
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

/// What a tree of each kind runs: an up pass (reduction order,
/// children to parents) that combines or gathers, and a down pass
/// (broadcast order) that copies every part or scatters the children's
/// subtrees' blocks.
struct TreePasses {
  bool up = false, upCombines = false, down = false, downScatters = false;
};

static std::optional<TreePasses> treePasses(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::reduce:
    return TreePasses{true, true, false, false};
  case CollectiveKind::gather:
    return TreePasses{true, false, false, false};
  case CollectiveKind::broadcast:
    return TreePasses{false, false, true, false};
  case CollectiveKind::scatter:
    return TreePasses{false, false, true, true};
  case CollectiveKind::allreduce:
  case CollectiveKind::barrier:
    return TreePasses{true, true, true, false};
  case CollectiveKind::allgather:
    return TreePasses{true, false, true, false};
  case CollectiveKind::reduce_scatter:
    return TreePasses{true, true, true, true};
  default:
    return std::nullopt;
  }
}

/// A tree's legality, from its coverage induction.
static PropertyResult treeLegality(const std::string &scope,
                                   const TreePasses &passes) {
  if (!passes.upCombines)
    return legalityFromCoverage(
        scope, "nothing is combined: the tree only copies", true);
  return legalityFromCoverage(scope,
                              "the operator is commutative; the coverage "
                              "induction shows each contribution is combined "
                              "once, at the root",
                              /*copiesOnly=*/false);
}

/// The binomial tree, P symbolic, on virtual ranks v = (r - root) mod P.
/// The run of v at mask m is the virtual ranks [v, min(v + m, P)): the
/// contributions of v's partial result, the blocks it has gathered, or the
/// blocks it still has to scatter.
///  - Up pass, level k = 0 .. L-1 (L = ceil(log2 P)), mask m = 2^k: every
///    v = m (mod 2m) sends its run to v - m, which combines or files it.
///    Invariant: before the level exactly the multiples of m are live, each
///    with its run at mask m; senders and receivers are live, a receiver's
///    run and its sender's are disjoint (each contribution is combined
///    once, no gathered block is overwritten) and together are the
///    receiver's run at mask 2m; afterwards exactly the multiples of 2m are
///    live. At level 0 every rank is live with itself; after the last
///    (2m >= P) only the root is, with [0, P).
///  - Down pass, level distance d = 2^(L-1-k): every multiple v of 2d with
///    v + d < P sends to v + d -- every part (broadcast), or the run of
///    v + d at mask d (scatter). Invariant: before the level exactly the
///    multiples of 2d hold, each its run at mask 2d; a sender holds what it
///    sends, no receiver holds anything yet (nothing is overwritten);
///    afterwards exactly the multiples of d hold, each its run at mask d.
///    At the first level (2d >= P) only the root holds, everything; after
///    the last (d = 1) every v holds its run [v, v + 1): its own block, or
///    for a broadcast the one value there is.
/// The up pass ends in the state the down pass starts from (the root holds
/// everything), so the allreduce, allgather, reduce-scatter and barrier
/// are the two inductions in turn. Bit-vectors, P in [2, maxRanks], m = 2^j
/// < P symbolic, v and a run member u symbolic: ownership and coverage for
/// every P at once. Matching: each level's receivers lie within the ranks
/// and no rank both sends and receives in one level (one receiver per
/// sender is the closed form's, compared message by message per P).
/// `form` states the closed form; anything but the default is wrong, for
/// the tests.
std::vector<PropertyResult>
coll::proveBinomialTree(CollectiveKind kind, int64_t maxRanks,
                        const VerifyOptions &options, BinomialForm form) {
  std::vector<PropertyResult> results;
  std::optional<TreePasses> passes = treePasses(kind);
  if (!passes)
    return results;
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  unsigned width =
      llvm::Log2_64_Ceil(static_cast<uint64_t>(maxRanks)) + 3; // 4m fits
  // The breach of one pass's invariant at the level of mask m (symbolic
  // P, m, v and u); `coverage` adds what coverage needs beyond ownership.
  using Breach = std::function<z3::expr(const z3::expr &, const z3::expr &,
                                        const z3::expr &, const z3::expr &,
                                        bool)>;
  auto induction = [&](Property property, const Breach &breach) {
    return addInduction(
        results, property,
        "Z3 (bit-vectors): induction over the levels of the binomial tree, "
        "symbolic P, mask 2^j, virtual ranks and blocks",
        scope, options, "QF_BV", [&](z3::context &ctx, z3::solver &solver) {
          auto num = [&](int64_t v) {
            return ctx.bv_val(static_cast<uint64_t>(v), width);
          };
          z3::expr P = ctx.bv_const("P", width), j = ctx.bv_const("j", width),
                   v = ctx.bv_const("v", width), u = ctx.bv_const("u", width);
          z3::expr m = z3::shl(num(1), j);
          solver.add(z3::uge(P, num(2)) && z3::ule(P, num(maxRanks)));
          solver.add(z3::ult(j, num(width - 3)) && z3::ult(m, P));
          solver.add(z3::ult(v, P) && z3::ult(u, P));
          return breach(P, m, v, u, property == Property::coverage);
        });
  };
  auto multipleOf = [](const z3::expr &x, const z3::expr &m) {
    return (x & (m - 1)) == 0;
  };
  auto run = [](const z3::expr &x, const z3::expr &m, const z3::expr &u) {
    return z3::uge(u, x) && z3::ult(u, x + m); // u < P is a range fact
  };
  auto lagged = [&](const z3::expr &m) {
    return m + m.ctx().bv_val(static_cast<uint64_t>(form.distanceLag),
                              m.get_sort().bv_size());
  };
  auto isZero = [](const z3::expr &x) {
    return x == x.ctx().bv_val(0, x.get_sort().bv_size());
  };
  auto isOne = [](const z3::expr &x) {
    return x == x.ctx().bv_val(1, x.get_sort().bv_size());
  };
  bool upCopies = !passes->upCombines;
  Breach up = [&](const z3::expr &P, const z3::expr &m, const z3::expr &v,
                  const z3::expr &u, bool coverage) {
    z3::expr step = lagged(m);
    auto live = [&](const z3::expr &x) { return multipleOf(x, m); };
    auto sends = [&](const z3::expr &x) {
      return live(x) && !multipleOf(x, 2 * m);
    };
    // v receives from v + step (a sender's parent is x - step).
    z3::expr sender = v + step;
    z3::expr receives = z3::ult(sender, P) && sends(sender);
    z3::expr overlap = run(v, m, u) && run(sender, m, u);
    z3::expr breach =
        (sends(v) && z3::ult(v, step)) || (receives && !live(v)) ||
        ((live(v) && !sends(v)) != multipleOf(v, 2 * m)) ||
        (isOne(m) && !live(v)) ||
        (z3::uge(2 * m, P) && multipleOf(v, 2 * m) != isZero(v));
    if (upCopies || coverage)
      reassign(breach, breach || (receives && overlap));
    if (coverage) {
      z3::expr after = z3::ite(receives, run(v, m, u) || run(sender, m, u),
                               run(v, m, u));
      reassign(breach, breach || (isOne(m) && run(v, m, u) != (u == v)) ||
               (multipleOf(v, 2 * m) && after != run(v, 2 * m, u)) ||
               (z3::uge(2 * m, P) && !run(P - P, 2 * m, u)));
    }
    return breach;
  };
  bool scatters = passes->downScatters;
  Breach down = [&](const z3::expr &P, const z3::expr &m, const z3::expr &v,
                    const z3::expr &u, bool coverage) {
    z3::expr step = lagged(m);
    auto held = [&](const z3::expr &x) { return multipleOf(x, 2 * m); };
    auto sends = [&](const z3::expr &x) {
      return held(x) && z3::ult(x + step, P);
    };
    z3::expr receives = z3::uge(v, step) && sends(v - step);
    // What the level sends v's receiver: the receiver's run at mask m.
    z3::expr sentToNext = scatters ? run(v + step, m, u) : u.ctx().bool_val(true);
    z3::expr breach =
        (receives && held(v)) || ((held(v) || receives) != multipleOf(v, m)) ||
        (z3::uge(2 * m, P) && held(v) != isZero(v));
    if (scatters)
      reassign(breach, breach || (sends(v) && sentToNext && !run(v, 2 * m, u)));
    if (coverage) {
      // The run a rank is left with: a receiver its sender's message, a
      // sender its run less what it sent.
      z3::expr got = scatters ? run(v, m, u) : u.ctx().bool_val(true);
      z3::expr kept = scatters ? run(v, 2 * m, u) &&
                                     !(sends(v) && sentToNext)
                               : u.ctx().bool_val(true);
      z3::expr after = z3::ite(receives, got, kept);
      z3::expr finalRun = scatters ? u == v : u.ctx().bool_val(true);
      reassign(breach, breach ||
               (multipleOf(v, m) && scatters && after != run(v, m, u)) ||
               (z3::uge(2 * m, P) && isZero(v) && !run(v, 2 * m, u)) ||
               (isOne(m) && scatters && run(v, m, u) != finalRun));
    }
    return breach;
  };
  auto both = [&](const z3::expr &P, const z3::expr &m, const z3::expr &v,
                  const z3::expr &u, bool coverage) {
    z3::expr breach = v.ctx().bool_val(false);
    if (passes->up)
      reassign(breach, breach || up(P, m, v, u, coverage));
    if (passes->down)
      reassign(breach, breach || down(P, m, v, u, coverage));
    return breach;
  };
  // Matching: a level's receivers lie within the ranks, and no rank both
  // sends and receives in it. (One receiver per sender and one sender per
  // receiver is the closed form's: each edge's own parent, v -+ m, which
  // the instance check compares message by message.)
  auto matching = [&](const z3::expr &P, const z3::expr &m, const z3::expr &x,
                      const z3::expr &, bool) {
    z3::expr step = lagged(m);
    z3::expr breach = x.ctx().bool_val(false);
    if (passes->up) {
      auto sends = [&](const z3::expr &r) {
        return multipleOf(r, m) && !multipleOf(r, 2 * m);
      };
      z3::expr receives = z3::ult(x + step, P) && sends(x + step);
      reassign(breach, breach || (sends(x) && z3::ult(x, step)) ||
                           (sends(x) && receives));
    }
    if (passes->down) {
      auto sends = [&](const z3::expr &r) {
        return multipleOf(r, 2 * m) && z3::ult(r + step, P);
      };
      z3::expr receives = z3::uge(x, step) && sends(x - step);
      reassign(breach, breach || (sends(x) && receives));
    }
    return breach;
  };
  induction(Property::matching, matching);
  induction(Property::ownership, both);
  Verdict coverage = induction(Property::coverage, both);
  ownershipNeedsCoverage(results);
  if (coverage == Verdict::proven)
    results.push_back(treeLegality(scope, *passes));
  return results;
}

/// The hierarchical tree of seed 000 (`tree arity(a) flat_below(b)`),
/// P symbolic. A node is the virtual ranks [lo, lo + n) at some depth; its
/// arity is n at depth 0 when n < b, else a. A node of n <= arity ranks is
/// a leaf whose members are the single ranks lo + i; otherwise its members
/// are a balanced groups, group i starting at
///   start(i) = lo + i q + min(i, r),  n = a q + r, 0 <= r < a,
/// each a node one depth deeper. Member i >= 1 sends its group to lo in
/// step first(depth) + i - 1, where the levels of deeper nodes come first
/// (first(depth) is the sum of the deeper levels' widths, a level's width
/// its largest node's member count less one): a member's whole subtree
/// has run before it sends, and a node's members send in member order.
/// Induction over the node size n (the groups are smaller nodes):
///   the members partition the node -- start(0) = lo, start(count) =
///   lo + n, every member nonempty and, for a non-leaf, smaller than n --
///   so before member i's edge up the pass lo holds the run
///   [lo, start(i)), the member brings the disjoint [start(i),
///   start(i+1)), and after the last lo holds [lo, lo + n): each
///   contribution combined once, each block gathered once. Down the tree
///   the same intervals in reverse: lo holds [lo, start(i+1)), sends
///   member i its group [start(i), start(i+1)) and keeps [lo, start(i)),
///   down to its own group 0; each member then holds its group, the
///   induction's start for that node. A node of one rank holds itself.
/// One query per property (linear integer arithmetic; the member index is
/// concrete, up to the most members a node has, so i q is linear): n, q,
/// r, lo, a block u and whether the node is the top one symbolic, for
/// every P in [2, maxRanks], the step numbers symbolic too (deeper first,
/// member order within a node). Each P is checked to be the instance
/// (familyCovers), its edges to be run in that order (isValidTreeOrder),
/// and matching stays per P.
std::vector<PropertyResult>
coll::proveHierarchicalTree(CollectiveKind kind, int64_t arity,
                            int64_t flatBelow, int64_t maxRanks,
                            const VerifyOptions &options,
                            HierarchicalForm form) {
  std::vector<PropertyResult> results;
  std::optional<TreePasses> passes = treePasses(kind);
  int64_t most = std::max(arity, flatBelow - 1); // members of any node
  if (!passes || arity < 2 || most > kMaxFamilyArity)
    return results;
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  bool copiesUp = !passes->upCombines;
  auto breach = [&](z3::context &ctx, z3::solver &solver, bool coverage) {
    z3::expr n = ctx.int_const("n"), q = ctx.int_const("q"),
             r = ctx.int_const("r"), lo = ctx.int_const("lo"),
             u = ctx.int_const("u"), top = ctx.bool_const("top");
    z3::expr a = ctx.int_val(arity);
    solver.add(n >= 2 && n <= ctx.int_val(maxRanks) && lo >= 0 &&
               lo + n <= ctx.int_val(maxRanks));
    solver.add(n == a * q + r && r >= 0 && r < a);
    z3::expr nodeArity = z3::ite(top && n < ctx.int_val(flatBelow), n, a);
    z3::expr leaf = n <= nodeArity;
    z3::expr count = z3::ite(leaf, n, a);
    auto start = [&](int64_t i) {
      z3::expr I = ctx.int_val(i);
      z3::expr balanced =
          form.dropRemainder ? lo + I * q
                             : lo + I * q + z3::ite(I < r, I, r);
      return z3::ite(leaf, lo + I, balanced);
    };
    auto in = [&](const z3::expr &lo, const z3::expr &hi) {
      return u >= lo && u < hi;
    };
    // The steps: this node's level starts at `first` and is `width` wide
    // (at least count - 1); its children's level, `childFirst` and
    // `childWidth`, comes directly before it (deeper first), and by the
    // induction every step of a child's subtree is before childFirst +
    // childWidth. Member i sends in first + i - 1.
    z3::expr first = ctx.int_const("first"), width = ctx.int_const("width"),
             childFirst = ctx.int_const("childFirst"),
             childWidth = ctx.int_const("childWidth");
    solver.add(width >= count - 1 && childFirst >= 0 && childWidth >= 0);
    solver.add(form.shallowerFirst ? first + width == childFirst
                                   : first == childFirst + childWidth);
    z3::expr b = start(0) != lo;
    for (int64_t i = 0; i <= most; ++i) {
      z3::expr I = ctx.int_val(i);
      z3::expr member = I < count;
      z3::expr size = start(i + 1) - start(i);
      reassign(b, b || (I == count && start(i) != lo + n) ||
                      (member && size < 1) || (member && !leaf && size >= n));
      if (i == 0)
        continue;
      // Member i has its whole group when it sends (and, down the tree,
      // gets it before its group's own level forwards it), and the node's
      // level ends within its width, as its parent's induction needs.
      z3::expr sent = first + I - 1;
      reassign(b, b || (member && !leaf && sent < childFirst + childWidth) ||
                      (member && sent >= first + width));
      z3::expr held = in(lo, start(i)), brought = in(start(i), start(i + 1));
      if (copiesUp || coverage)
        reassign(b, b || (member && held && brought));
      if (coverage)
        reassign(b, b || (member && (held || brought) != in(lo, start(i + 1))));
    }
    return b;
  };
  const char *method = "Z3 (linear integer arithmetic): induction over the "
                       "node size of the hierarchical tree, symbolic P, "
                       "node, group sizes and blocks";
  addInduction(results, Property::ownership, method, scope, options,
               "QF_LIA", [&](z3::context &ctx, z3::solver &solver) {
                 return breach(ctx, solver, false);
               });
  Verdict coverage = addInduction(
      results, Property::coverage, method, scope, options, "QF_LIA",
      [&](z3::context &ctx, z3::solver &solver) {
        return breach(ctx, solver, true);
      });
  ownershipNeedsCoverage(results);
  if (coverage == Verdict::proven)
    results.push_back(treeLegality(scope, *passes));
  return results;
}

/// The digit routings on P = base^s ranks (seeds/002; coll/digits.hpp):
/// block j of every rank (the block for offset j) has s digits d_k(j),
/// and in phase k every rank sends the blocks of digit value v to
/// rank + v base^k. Closed forms of the digits:
///   radix b:           d_k(j) = floor(j / b^k) mod b;
///   balanced ternary:  d_k(j) = floor((c + H) / 3^k) mod 3 - 1, with c the
///                      centered offset (j - P when j > H) and
///                      H = (P - 1) / 2 = 1 + 3 + ... + 3^(s-1): the
///                      ternary digits of c + H in [0, P), less one.
/// Every step sends the same blocks from every rank to rank + offset and
/// receives them from rank - offset, so it moves whole columns one
/// rotation: the token that starts as block j of rank x sits, before phase
/// k, in column j of rank x + sum_{i<k} d_i(j) base^i (mod P).
///   matching: a step's offset is nonzero and below P in size, so every
///     rank sends one message to another and receives one (the same
///     blocks), from rank - offset;
///   ownership: no two tokens of one column ever share a rank (each slot
///     holds exactly one token, so every send reads a defined block and
///     nothing still needed is overwritten);
///   coverage: after the last phase the token sits at x + j (mod P): the
///     digits' values sum to the offset, sum_k d_k(j) base^k = j (mod P).
/// One query per s (linear integer arithmetic), j, x, y and the digits
/// symbolic, the digits bound by their positional value (j, or c + H):
/// all P = base^s in [base, maxRanks].
std::vector<PropertyResult>
coll::proveDigitRouting(ScheduleKind schedule, int64_t radix,
                        int64_t maxRanks, const VerifyOptions &options,
                        DigitForm form) {
  std::vector<PropertyResult> results;
  bool ternary = schedule == ScheduleKind::balanced_ternary;
  if (!ternary && schedule != ScheduleKind::radix)
    return results;
  int64_t base = ternary ? 3 : radix;
  if (base < 2 || maxRanks < base)
    return results;
  int64_t largest = base;
  while (largest <= maxRanks / base)
    largest *= base;
  std::string scope = "all P = " + std::to_string(base) + "^s in [" +
                      std::to_string(base) + ", " + std::to_string(largest) +
                      "]";
  const char *method =
      ternary ? "Z3 (linear integer arithmetic): for each P = 3^s, symbolic "
                "block, ranks and balanced-ternary digits; every step "
                "rotates whole columns (each P is checked to)"
              : "Z3 (linear integer arithmetic): for each P = b^s, symbolic "
                "block, ranks and base-b digits; every step rotates whole "
                "columns (each P is checked to)";
  auto prove = [&](Property property) {
    PropertyResult r{property};
    r.method = method;
    r.verdict = Verdict::proven;
    r.scope = scope;
    for (int64_t P = base, s = 1; P <= largest && r.verdict == Verdict::proven;
         P *= base, ++s) {
      z3::context ctx;
      z3::solver solver = makeSolver(ctx, options, "QF_LIA");
      z3::expr j = ctx.int_const("block"), x = ctx.int_const("x"),
               y = ctx.int_const("y");
      z3::expr n = ctx.int_val(P), H = ctx.int_val((P - 1) / 2);
      solver.add(j >= 0 && j < n && x >= 0 && x < n && y >= 0 && y < n);
      // Each phase's move of block j: the digits as unknowns bound to j by
      // their one equation (the positional value, linear), not by
      // division, which Z3 finds slow. The proof holds for every digit
      // vector that satisfies the equation, so for the closed form's.
      std::vector<z3::expr> moves;
      z3::expr c = z3::ite(j > H, j - n, j);
      z3::expr value = ctx.int_val(0);
      int64_t power = 1;
      for (int64_t k = 0; k < s; ++k, power *= base) {
        z3::expr t = ctx.int_const(("t" + std::to_string(k)).c_str());
        solver.add(t >= 0 && t < ctx.int_val(base));
        reassign(value, value + t * ctx.int_val(power));
        z3::expr digit = ternary ? t - 1 : t;
        moves.push_back((form.reversed ? -1 : 1) * digit *
                        ctx.int_val(power));
      }
      solver.add(value == (ternary ? c + H : j));
      // Ranks are mod P; every difference here lies within (-3P, 3P).
      auto sameRank = [&](const z3::expr &a, const z3::expr &b) {
        z3::expr same = ctx.bool_val(false);
        for (int w = -2; w <= 2; ++w)
          reassign(same, same || a - b == w * n);
        return same;
      };
      z3::expr breach = ctx.bool_val(false);
      if (property == Property::matching) {
        // Each step's offset v base^k (k < s, v a digit value) sends every
        // rank's one message to another rank, and no two to the same.
        int64_t scale = 1;
        for (int64_t k = 0; k < s; ++k, scale *= base)
          for (int64_t v = ternary ? -1 : 1; v < (ternary ? 2 : base); ++v) {
            if (v == 0)
              continue;
            z3::expr o = ctx.int_val(v * scale);
            reassign(breach, breach || sameRank(x + o, x) ||
                                 (x != y && sameRank(x + o, y + o)));
          }
      } else if (property == Property::ownership) {
        z3::expr px = x, py = y;
        for (const z3::expr &move : moves) {
          reassign(breach, breach || (x != y && sameRank(px, py)));
          reassign(px, px + move);
          reassign(py, py + move);
        }
        reassign(breach, breach || (x != y && sameRank(px, py)));
      } else {
        z3::expr at = x;
        for (const z3::expr &move : moves)
          reassign(at, at + move);
        reassign(breach, !sameRank(at, x + j));
      }
      solver.add(breach);
      settle(solver, r);
    }
    results.push_back(r);
    return r.verdict;
  };
  prove(Property::matching);
  prove(Property::ownership);
  Verdict coverage = prove(Property::coverage);
  ownershipNeedsCoverage(results);
  if (coverage == Verdict::proven)
    results.push_back(legalityFromCoverage(
        scope, "nothing is combined: the all-to-all only copies",
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

/// One edge of a tree's closed form, on virtual ranks: in up step `step`
/// the subtree [child, child + span) goes from child to parent.
struct FormEdge {
  int64_t step, child, parent, span;
};

/// proveBinomialTree's closed form: at level k, mask m = 2^k, every
/// v = m (mod 2m) sends [v, min(v + m, P)) to v - m.
std::vector<FormEdge> binomialForm(int64_t P) {
  std::vector<FormEdge> edges;
  for (int64_t k = 0, m = 1; m < P; ++k, m *= 2)
    for (int64_t v = m; v < P; v += 2 * m)
      edges.push_back({k, v, v - m, std::min(m, P - v)});
  return edges;
}

/// proveHierarchicalTree's closed form (see there), its edges by depth
/// first and then ordered by step.
std::vector<FormEdge> hierarchicalForm(int64_t P, int64_t arity,
                                       int64_t flatBelow) {
  struct Member {
    int64_t depth, index, child, parent, span;
  };
  std::vector<Member> members;
  std::vector<int64_t> width; // by depth: most members of a node, less one
  std::function<void(int64_t, int64_t, int64_t)> node =
      [&](int64_t lo, int64_t n, int64_t depth) {
        if (n <= 1)
          return;
        int64_t a = depth == 0 && n < flatBelow ? n : arity;
        bool leaf = n <= a;
        int64_t count = leaf ? n : a, q = n / a, r = n % a;
        auto start = [&](int64_t i) {
          return leaf ? lo + i : lo + i * q + std::min(i, r);
        };
        if (static_cast<int64_t>(width.size()) <= depth)
          width.resize(depth + 1, 0);
        width[depth] = std::max(width[depth], count - 1);
        for (int64_t i = 1; i < count; ++i)
          members.push_back({depth, i, start(i), lo, start(i + 1) - start(i)});
        if (!leaf)
          for (int64_t i = 0; i < count; ++i)
            node(start(i), start(i + 1) - start(i), depth + 1);
      };
  node(0, P, 0);
  std::vector<FormEdge> edges;
  for (const Member &m : members) {
    int64_t first = 0; // deeper levels run first
    for (size_t d = m.depth + 1; d < width.size(); ++d)
      first += width[d];
    edges.push_back({first + m.index - 1, m.child, m.parent, m.span});
  }
  return edges;
}

/// Whether `edges` on P virtual ranks are a tree run in an order the
/// inductions rely on, checked on the edges themselves (O(P log P)) so that
/// the closed forms' step order is not only their definition: every rank
/// but 0 is the child of exactly one edge; the subtrees of a rank's
/// children tile the rest of its own subtree, in order; and every edge into
/// a rank comes in an earlier step than the rank's own edge out, one per
/// step (so it has its whole subtree when it sends, and in a down pass it
/// has the blocks before it forwards them).
bool isValidTreeOrder(const std::vector<FormEdge> &edges, int64_t P) {
  std::vector<const FormEdge *> up(P, nullptr);
  std::vector<std::vector<const FormEdge *>> into(P);
  for (const FormEdge &e : edges) {
    if (e.child <= 0 || e.child >= P || e.parent < 0 || e.parent >= P ||
        e.span < 1 || up[e.child])
      return false;
    up[e.child] = &e;
    into[e.parent].push_back(&e);
  }
  for (int64_t v = 0; v < P; ++v) {
    if (v > 0 && !up[v])
      return false;
    int64_t end = v == 0 ? P : v + up[v]->span;
    llvm::sort(into[v], [](const FormEdge *a, const FormEdge *b) {
      return a->child < b->child;
    });
    int64_t next = v + 1;
    for (const FormEdge *e : into[v]) {
      if (e->child != next || (v > 0 && e->step >= up[v]->step))
        return false;
      next = e->child + e->span;
    }
    if (next != end)
      return false;
    std::vector<int64_t> steps;
    for (const FormEdge *e : into[v])
      steps.push_back(e->step);
    llvm::sort(steps);
    if (std::adjacent_find(steps.begin(), steps.end()) != steps.end())
      return false;
  }
  return true;
}

/// Whether `program` is the closed form `edges` for its P and kind: the up
/// pass's steps in order, each sending every edge of that step from child
/// to parent, then the down pass's in reverse, parent to child; a message
/// carries every part (combining up, broadcasting down) or the subtree's
/// blocks, each filed under its own index; and nothing else.
bool isTreeInstance(ProgramOp program, int64_t root,
                    const std::vector<FormEdge> &edges) {
  int64_t P = program.getNumRanks();
  std::optional<TreePasses> passes = treePasses(program.getKind());
  if (!passes || P < 2 || program.getNumScratchParts().value_or(0) ||
      program.getRoot().value_or(0) != static_cast<uint64_t>(root) ||
      !isValidTreeOrder(edges, P))
    return false;
  CollectiveKind kind = program.getKind();
  bool blocks = kind == CollectiveKind::gather ||
                kind == CollectiveKind::scatter ||
                kind == CollectiveKind::allgather ||
                kind == CollectiveKind::reduce_scatter;
  int64_t parts = program.getNumParts();
  if (parts != (blocks ? P : 1))
    return false;
  auto absolute = [&](int64_t v) { return (root + v) % P; };
  auto subtree = [&](const FormEdge &e) {
    std::vector<int64_t> run;
    for (int64_t u = e.child; u < e.child + e.span; ++u)
      run.push_back(absolute(u));
    llvm::sort(run);
    return run;
  };
  std::vector<int64_t> everyPart(parts);
  for (int64_t b = 0; b < parts; ++b)
    everyPart[b] = b;
  // The up steps' (src, dst, parts), in step order.
  using Message = std::tuple<int64_t, int64_t, std::vector<int64_t>>;
  std::map<int64_t, std::vector<Message>> up, down;
  for (const FormEdge &e : edges) {
    up[e.step].push_back({absolute(e.child), absolute(e.parent),
                          passes->upCombines ? everyPart : subtree(e)});
    down[e.step].push_back({absolute(e.parent), absolute(e.child),
                            passes->downScatters ? subtree(e) : everyPart});
  }
  std::vector<std::pair<StepKind, std::vector<Message>>> levels;
  if (passes->up)
    for (auto &[step, messages] : up)
      levels.push_back({passes->upCombines ? StepKind::combine
                                           : StepKind::copy,
                        messages});
  if (passes->down)
    for (auto it = down.rbegin(); it != down.rend(); ++it)
      levels.push_back({StepKind::copy, it->second});
  auto steps = llvm::to_vector(program.getBody().getOps<StepOp>());
  if (steps.size() != levels.size())
    return false;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (steps[k].getStepKind() != levels[k].first)
      return false;
    std::vector<Message> found;
    for (const Transfer &t : transfersOfStep(steps[k])) {
      if (t.sent != t.received)
        return false;
      std::vector<int64_t> sent = t.sent;
      llvm::sort(sent);
      found.push_back({t.src, t.dst, sent});
    }
    std::vector<Message> expected = levels[k].second;
    llvm::sort(expected);
    llvm::sort(found);
    if (expected != found)
      return false;
  }
  return true;
}

/// Whether `program` is proveDigitRouting's closed form: P = base^s, and
/// for k = 0 .. s-1 and each digit value v (+1, -1 for balanced ternary;
/// 1 .. b-1 for radix b) whose block list is not empty, one copy step in
/// which every rank i sends exactly the blocks j with d_k(j) = v to
/// i + v base^k (mod P), each filed under its own index.
bool isDigitRouting(ProgramOp program, bool ternary, int64_t base) {
  int64_t P = program.getNumRanks();
  int64_t s = 0, power = 1;
  while (power < P && power <= P / base) {
    power *= base;
    ++s;
  }
  if (power != P || P < base ||
      program.getKind() != CollectiveKind::alltoall ||
      program.getNumParts() != P || program.getNumScratchParts().value_or(0))
    return false;
  auto digit = [&](int64_t j, int64_t scale) {
    if (!ternary)
      return (j / scale) % base;
    int64_t H = (P - 1) / 2, c = j > H ? j - P : j;
    return (c + H) / scale % 3 - 1;
  };
  std::vector<std::pair<int64_t, std::vector<int64_t>>> expected; // offset
  int64_t scale = 1;
  for (int64_t k = 0; k < s; ++k, scale *= base) {
    std::vector<int64_t> values;
    if (ternary)
      values = {+1, -1};
    else
      for (int64_t v = 1; v < base; ++v)
        values.push_back(v);
    for (int64_t v : values) {
      std::vector<int64_t> blocks;
      for (int64_t j = 0; j < P; ++j)
        if (digit(j, scale) == v)
          blocks.push_back(j);
      if (!blocks.empty())
        expected.push_back({((v * scale) % P + P) % P, blocks});
    }
  }
  auto steps = llvm::to_vector(program.getBody().getOps<StepOp>());
  if (steps.size() != expected.size())
    return false;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (steps[k].getStepKind() != StepKind::copy)
      return false;
    auto [offset, blocks] = expected[k];
    std::vector<Transfer> transfers = transfersOfStep(steps[k]);
    if (static_cast<int64_t>(transfers.size()) != P)
      return false;
    std::vector<bool> seen(P, false);
    for (const Transfer &t : transfers) {
      if (t.src < 0 || t.src >= P || seen[t.src] ||
          t.dst != (t.src + offset) % P || t.sent != blocks ||
          t.received != blocks)
        return false;
      seen[t.src] = true;
    }
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
  auto append = [&](std::vector<PropertyResult> more) {
    for (PropertyResult &r : more)
      results.push_back(std::move(r));
  };
  // The families with closed forms in P; the others (the flat and chain
  // trees, the shifted butterfly, recursive doubling, the direct routing,
  // Trivance and the scans) are proven per P.
  const Family family = familyOf(spec);
  switch (family) {
  case Family::binomialTree:
    append(proveBinomialTree(spec.getKind(), maxRanks, options));
    break;
  case Family::hierarchicalTree:
    append(proveHierarchicalTree(
        spec.getKind(), static_cast<int64_t>(*spec.getArity()),
        static_cast<int64_t>(*spec.getFlatBelow()), maxRanks, options));
    break;
  case Family::bruck:
  case Family::retri:
    return proveDigitRouting(spec.getSchedule(), spec.getRadix().value_or(3),
                             maxRanks, options);
  case Family::ring:
  case Family::halving: {
    const bool ring = family == Family::ring;
    results.push_back(spec.getGroup() == GroupKind::cyclic
                          ? cyclicMoves(maxRanks, options)
                          : xorMoves(maxRanks, options));
    // The inductions are about the allreduce's (and the ring allgather's)
    // moves on these groups.
    if (ring && spec.getKind() == CollectiveKind::allreduce)
      append(linearSchedule(maxRanks, options));
    if (ring && spec.getKind() == CollectiveKind::allgather)
      append(proveLinearAllgather(maxRanks, options));
    if (!ring && spec.getGroup() == GroupKind::cyclic &&
        spec.getKind() == CollectiveKind::allreduce)
      append(proveHalvingButterfly(maxRanks, options));
    break;
  }
  default:
    return results;
  }
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
  // The family proofs' scope starts at P = 2.
  if (spec.getNumRanks() || program.getNumRanks() < 2)
    return false;
  const Family family = familyOf(spec);
  switch (family) {
  case Family::binomialTree:
  case Family::hierarchicalTree: {
    int64_t P = program.getNumRanks();
    bool binomial = family == Family::binomialTree;
    return (property != Property::matching || binomial) &&
           !(property == Property::operatorLegality &&
             program.getNoncommutative()) &&
           isTreeInstance(program, spec.getRoot().value_or(0),
                          binomial ? binomialForm(P)
                                   : hierarchicalForm(
                                         P,
                                         static_cast<int64_t>(*spec.getArity()),
                                         static_cast<int64_t>(
                                             *spec.getFlatBelow())));
  }
  case Family::bruck:
  case Family::retri: {
    bool ternary = family == Family::retri;
    return isDigitRouting(program, ternary,
                          ternary ? 3 : spec.getRadix().value_or(0));
  }
  case Family::ring:
  case Family::halving:
    break;
  default:
    return false;
  }
  if (program.getGroup() != spec.getGroup())
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
  if (property != Property::matching && family == Family::halving)
    return spec.getGroup() == GroupKind::cyclic &&
           program.getKind() == CollectiveKind::allreduce &&
           program.getNumScratchParts().value_or(0) == 0 &&
           static_cast<int64_t>(program.getNumParts()) == P &&
           isHalvingButterfly(steps, P);
  if (property == Property::matching)
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

// The schedules' own forms: what the verifier proves (coll/Passes/Verify.h).
std::vector<PropertyResult>
coll::proveLinearAllgather(int64_t maxRanks, const VerifyOptions &options) {
  return proveLinearAllgather(maxRanks, options, LinearAllgatherForm{});
}

std::vector<PropertyResult>
coll::proveHalvingButterfly(int64_t maxRanks, const VerifyOptions &options) {
  return proveHalvingButterfly(maxRanks, options, HalvingForm{});
}

std::vector<PropertyResult>
coll::proveBinomialTree(CollectiveKind kind, int64_t maxRanks,
                        const VerifyOptions &options) {
  return proveBinomialTree(kind, maxRanks, options, BinomialForm{});
}

std::vector<PropertyResult>
coll::proveHierarchicalTree(CollectiveKind kind, int64_t arity,
                            int64_t flatBelow, int64_t maxRanks,
                            const VerifyOptions &options) {
  return proveHierarchicalTree(kind, arity, flatBelow, maxRanks, options,
                               HierarchicalForm{});
}

std::vector<PropertyResult>
coll::proveDigitRouting(ScheduleKind schedule, int64_t radix,
                        int64_t maxRanks, const VerifyOptions &options) {
  return proveDigitRouting(schedule, radix, maxRanks, options, DigitForm{});
}
