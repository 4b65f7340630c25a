//===- FamilyDigits.cpp - Bruck and ReTri for all P = base^s --------------===//
//
// The digit routings' family proof (Family.cpp lists them all): one query
// per s for P = base^s, and the per-P check that a program is the closed
// form it proves.
//
//===----------------------------------------------------------------------===//

#include "FamilyForms.h"
#include "FamilyProof.h"

#include "coll/Dialect/Catalogue.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

using namespace coll;
using namespace coll::verify;

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

} // namespace

std::vector<PropertyResult>
coll::verify::proveDigitFamily(CollectiveOp spec, int64_t maxRanks,
                               const VerifyOptions &options) {
  return proveDigitRouting(spec.getSchedule(), spec.getRadix().value_or(3),
                           maxRanks, options);
}

bool coll::verify::digitFamilyCovers(CollectiveOp spec, ProgramOp program,
                                     Property) {
  bool ternary = familyOf(spec) == Family::retri;
  return isDigitRouting(program, ternary,
                        ternary ? 3 : spec.getRadix().value_or(0));
}

std::vector<PropertyResult>
coll::proveDigitRouting(ScheduleKind schedule, int64_t radix,
                        int64_t maxRanks, const VerifyOptions &options) {
  return proveDigitRouting(schedule, radix, maxRanks, options, DigitForm{});
}
