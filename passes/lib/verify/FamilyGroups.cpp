//===- FamilyGroups.cpp - the ring and the halving butterfly for all P ----===//
//
// The group schedules' family proofs (Family.cpp lists them all): every
// move of the cyclic group and every aligned move of the xor group, the
// ring's induction over the step index, the linear allgather's, and the
// halving butterfly's over the live count; and the per-P check that a
// program is their instance.
//
//===----------------------------------------------------------------------===//

#include "FamilyForms.h"
#include "FamilyProof.h"

#include "coll/Dialect/Catalogue.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace coll;
using namespace coll::verify;

namespace {

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

bool isAligned(int64_t from, int64_t to, int64_t vectors) {
  for (int64_t block = 1;; block *= 2) {
    if (from % block || to % block)
      return false;
    if (vectors <= block)
      return true;
  }
}

} // namespace

std::vector<PropertyResult>
coll::verify::proveGroupFamily(CollectiveOp spec, int64_t maxRanks,
                               const VerifyOptions &options) {
  std::vector<PropertyResult> results;
  auto append = [&](std::vector<PropertyResult> more) {
    for (PropertyResult &r : more)
      results.push_back(std::move(r));
  };
  const bool ring = familyOf(spec) == Family::ring;
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
  return results;
}

bool coll::verify::groupFamilyCovers(CollectiveOp spec, ProgramOp program,
                                     Property property) {
  const Family family = familyOf(spec);
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

std::vector<PropertyResult>
coll::proveLinearAllgather(int64_t maxRanks, const VerifyOptions &options) {
  return proveLinearAllgather(maxRanks, options, LinearAllgatherForm{});
}

std::vector<PropertyResult>
coll::proveHalvingButterfly(int64_t maxRanks, const VerifyOptions &options) {
  return proveHalvingButterfly(maxRanks, options, HalvingForm{});
}
