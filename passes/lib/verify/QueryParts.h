//===- QueryParts.h - what the property queries share -----------*- C++ -*-===//
//
// Internal to the verifier: the helpers every query file uses
// (Queries.cpp), the concrete replay (Replay.cpp), and the few pieces one
// property's query borrows from another's file.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_VERIFY_QUERYPARTS_H
#define COLL_PASSES_VERIFY_QUERYPARTS_H

#include "Queries.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coll::verify {

// Queries.cpp

/// "{1, 2, 3}": the values, sorted.
std::string setText(std::vector<int64_t> values);
/// Leaves `result` not proven, for `reason`.
void notProven(PropertyResult &result, std::string reason);
/// Runs a query for a violation. Unsat proves the property and unknown
/// leaves it not proven: both settle `result`. Sat returns false, and the
/// solver's model is the counterexample.
bool settled(z3::solver &solver, PropertyResult &result);
/// Makes a satisfiable query's counterexample canonical, whatever Z3's
/// internals: each bit-vector in `keys`, in order, is fixed to its smallest
/// value that keeps the query satisfiable (a binary search by incremental
/// checks). So the earliest step, then the smallest rank or slot, is shown.
void minimize(z3::solver &solver, std::initializer_list<z3::expr> keys);
/// The query "some step breaks the property", with each step's breach named
/// by an indicator constant in `breachAt`. Returns the first breaching step
/// of Z3's model (then solver.get_model() is the counterexample), or nullopt
/// when the query settled `result`.
std::optional<size_t> firstBreach(z3::solver &solver,
                                  const std::vector<z3::expr> &breachAt,
                                  PropertyResult &result);
/// A counterexample at `step` (-1: the program as a whole), `rank` and
/// `part` (-1: none), pointing at the step's op.
Counterexample makeCounterexample(const SlotProgram &sp, int64_t step,
                                  int64_t rank, int64_t part,
                                  std::string message);

// Replay.cpp

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

  explicit Replay(const SlotProgram &sp, size_t steps = SIZE_MAX);
};

/// Fills a coverage (and maybe ownership) counterexample for final slot
/// `slot` and token `token` that Z3 found.
void explainCoverage(const SlotProgram &sp, int64_t slot, int64_t token,
                     PropertyResult &coverage, PropertyResult &ownership);
/// Rank-level programs of many steps whose parts' paths do not compose
/// (chains and pipelines of single transfers): Z3's chain over one
/// symbolic slot is thousands of steps deep and takes minutes at P =
/// 4096, so ownership, coverage and the identical-results note are
/// decided by an exact replay, and reported as such.
bool decidedByReplay(const SlotProgram &sp, const VerifyOptions &options);

// MatchingQuery.cpp

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

/// Vector moves: a step whose moves name two different permutations, found
/// move by move (each is fixed by the rank it sends rank 0's part to). A
/// range that is not one permutation already arrives here as the moves
/// its vectors really make (SlotProgram::build), all along one.
std::optional<Counterexample> twoPermutations(const SlotProgram &sp);

// CoverageQuery.cpp

/// Where the final value of `slot` comes from at the end of the reduction:
/// followed backwards through the copy steps, one fresh constant per step.
z3::expr backThroughCopies(Encoder &e, z3::solver &solver, const z3::expr &slot,
                           const std::string &tag);

} // namespace coll::verify

#endif
