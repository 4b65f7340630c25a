//===- GroupSchedule.h - closed forms of group schedules --------*- C++ -*-===//
//
// The group algebra of design.md 3.1 (seeds/003): an abelian group of
// permutations acting regularly on the ranks, and the schedules on it as
// sequences of group-level moves (the runtime's coll/group_moves.hpp). A
// move's per-rank transfers are every rank's coll::vectorStep, the step
// generated code runs (coll::groupPlan, coll::butterflyRankPlan).
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_GROUPSCHEDULE_H
#define COLL_PASSES_GROUPSCHEDULE_H

#include "coll/Dialect/CollOps.h"
#include "coll/Passes/PlanProgram.h"
#include "coll/butterfly.hpp"
#include "coll/group_moves.hpp"
#include "coll/groups.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace coll {

/// t_k for k = 0..P-1. Indices are taken mod P. A generated group is a
/// table of its elements (row k = the images of t_k) in the order the
/// schedule uses.
class GroupAlgebra {
public:
  GroupAlgebra(GroupKind kind, int64_t order,
               llvm::ArrayRef<int64_t> elements = {});
  /// A generated group (coll::TableGroup::generatedBy, as the header makes it).
  explicit GroupAlgebra(TableGroup table);
  /// The group of a program (its kind, rank count and element table).
  static GroupAlgebra of(ProgramOp program);
  int64_t order() const { return P; }
  GroupKind groupKind() const { return kind; }
  /// The index of t_a t_b.
  int64_t compose(int64_t a, int64_t b) const {
    return visit([&](const auto &g) { return g.compose(wrap(a), wrap(b)); });
  }
  /// t_k(x).
  int64_t act(int64_t k, int64_t x) const {
    return visit([&](const auto &g) { return g.act(wrap(k), wrap(x)); });
  }
  /// t_k^{-1}(x): the part that placement k puts on rank x.
  int64_t inverse(int64_t k, int64_t x) const {
    return visit([&](const auto &g) { return g.inverse(wrap(k), wrap(x)); });
  }
  /// The index of t_to t_from^{-1}, the permutation that moves the vector
  /// at placement `from` onto placement `to`.
  int64_t quotient(int64_t to, int64_t from) const {
    return visit([&](const auto &g) { return g.quotient(wrap(to), wrap(from)); });
  }
  /// Where a move from placement `from` to `to` takes rank x's part
  /// (coll::movePeer).
  int64_t movePeer(int64_t from, int64_t to, int64_t x) const {
    return visit([&](const auto &g) {
      return coll::movePeer(g, wrap(from), wrap(to), wrap(x));
    });
  }
  /// Rank x's part of vector slot `slot` (coll::slotPart).
  int64_t slotPart(int64_t slot, int64_t x) const {
    return visit([&](const auto &g) {
      return coll::slotPart(g, static_cast<int>(slot), wrap(x));
    });
  }
  /// The vector-slot moves of a range move (coll::rangeMoves: where the
  /// range's permutation really takes each vector).
  std::vector<VectorMove> rangeMoves(int64_t from, int64_t to,
                                     int64_t vectors) const {
    GroupMove move{static_cast<int>(from), static_cast<int>(to),
                   static_cast<int>(vectors), Action::copy, ""};
    return std::visit([&](const auto &g) { return coll::rangeMoves(g, move); },
                      group);
  }
  /// The memory chunk that holds `part` (the xor group bit-reverses, so
  /// that every message of recursive halving is one contiguous range).
  int64_t chunkOfPart(int64_t part) const { return position(part); }
  /// The same, as the runtime's groups spell it (coll/group_moves.hpp).
  int64_t position(int64_t part) const {
    return visit([&](const auto &g) { return g.position(wrap(part)); });
  }

  /// The runtime's group this algebra is (what the header constructs).
  const std::variant<CyclicGroup, XorGroup, TableGroup> &runtime() const {
    return group;
  }

private:
  /// Indices mod P, as ints (P <= 2^20, the verifier's bound).
  int wrap(int64_t k) const { return static_cast<int>(((k % P) + P) % P); }
  template <class F>
  int64_t visit(F &&f) const {
    return std::visit(std::forward<F>(f), group);
  }
  GroupKind kind;
  int64_t P;
  /// The runtime's group: the algebra the plans and the header use.
  std::variant<CyclicGroup, XorGroup, TableGroup> group;
};

/// A generated group as its header states it: the spec's generators (row
/// by row, P images each) and the enumeration the schedule needs: order[i]
/// is the element (by where it sends rank 0) at position i. Linear takes
/// the elements as they are (order empty: i at i); the butterfly needs one
/// where every halving moves by one element. coll::generatedTable turns
/// this into the element table, in the compiler and in the header alike.
struct GroupEnumeration {
  std::vector<int> generators;
  int count = 0;
  std::vector<int> order;
  TableGroup table(int64_t P) const {
    return TableGroup::generatedBy(static_cast<int>(P), generators.data(),
                                   count, order.empty() ? nullptr : order.data());
  }
};

/// `spec`'s generated group and enumeration. Fails with the reason.
mlir::FailureOr<GroupEnumeration> enumerateGroup(CollectiveOp spec,
                                                 std::string &why);
/// The same for a verified spec (whose verifier ruled failure out).
GroupEnumeration enumerationOfSpec(CollectiveOp spec);

/// A part named twice in one list of a transfer (a malformed message).
std::optional<int64_t> repeatedPart(const std::vector<int64_t> &parts);

/// The per-rank transfers of one group-level move: every rank's
/// coll::vectorStep of its coll::rangeMoves (rank x sends the parts of
/// placements from+i to t_to(t_from^-1(x))), as coll::groupPlan runs it.
std::vector<Transfer> transfersOfMove(const GroupAlgebra &group, int64_t from,
                                      int64_t to, int64_t vectors);

/// The per-rank transfers of group-level moves of vector slots (copy * P +
/// placement): every rank's coll::vectorStep of them (rank x sends its
/// part of slot s to t_q t_p^-1 (x) for the placements p, q of s and its
/// destination; a move within a placement is a local copy, a transfer to
/// itself), as coll::butterflyRankPlan runs them.
std::vector<Transfer>
transfersOfVectorMoves(const GroupAlgebra &group,
                       llvm::ArrayRef<int64_t> sources,
                       llvm::ArrayRef<int64_t> destinations);

/// The transfers of `step`: its own, or those its group move implies.
std::vector<Transfer> transfersOfStep(StepOp step);

/// The moves of `schedule` for P ranks and a collective `kind`: the
/// runtime's coll::groupMoves (coll/group_moves.hpp), which generated code
/// runs.
std::vector<GroupMove>
expandGroupSchedule(ScheduleKind schedule, int64_t P,
                    CollectiveKind kind = CollectiveKind::allreduce);

/// The group of `spec` for P ranks (a generated group enumerated for its
/// schedule; the op verifier has checked that this succeeds).
GroupAlgebra groupOfSpec(CollectiveOp spec, int64_t P);

/// The r that `spec`'s butterfly(r) passes to the runtime's plan
/// functions: r itself, or coll::kLatencyOptimal for r = max and any r
/// beyond it (clamped before narrowing).
int butterflyRuntimeR(CollectiveOp spec);

/// The shifted-butterfly plan of `spec` (butterfly(r) with r > 0, or
/// r = max on cyclic(P)) for P ranks on `group`.
ButterflyPlan shiftedButterflyPlan(CollectiveOp spec,
                                   const GroupAlgebra &group);

} // namespace coll

#endif
