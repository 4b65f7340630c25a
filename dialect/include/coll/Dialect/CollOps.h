//===- CollOps.h - coll ops, attributes and enums ---------------*- C++ -*-===//
#ifndef COLL_DIALECT_COLLOPS_H
#define COLL_DIALECT_COLLOPS_H

#include "coll/Dialect/CollDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "coll/Dialect/CollEnums.h.inc"

namespace coll {
/// `butterfly(r = max)`: the latency-optimal butterfly (recursive doubling
/// on xor(P)); stored as this value of `butterfly_r`.
constexpr int64_t kButterflyMax = -1;
/// Broadcast, reduce, gather and scatter have a root rank.
inline bool isRooted(CollectiveKind kind) {
  return kind == CollectiveKind::broadcast || kind == CollectiveKind::reduce ||
         kind == CollectiveKind::gather || kind == CollectiveKind::scatter;
}
/// Flat, binomial, chain and hierarchical are trees; the others act on a group.
inline bool isTreeSchedule(ScheduleKind schedule) {
  return schedule == ScheduleKind::flat || schedule == ScheduleKind::binomial ||
         schedule == ScheduleKind::chain ||
         schedule == ScheduleKind::hierarchical;
}
/// `segments = S` takes S in 1..kMaxSegments.
constexpr int64_t kMaxSegments = 4096;
/// Inclusive and exclusive scans.
inline bool isScan(CollectiveKind kind) {
  return kind == CollectiveKind::inclusive_scan ||
         kind == CollectiveKind::exclusive_scan;
}
/// The kinds that reduce with the caller's operator (`<T, op>` in a .coll
/// file, an `Op op` parameter in the header): the others move data only.
inline bool takesOperator(CollectiveKind kind) {
  return kind == CollectiveKind::allreduce ||
         kind == CollectiveKind::reduce_scatter ||
         kind == CollectiveKind::reduce || isScan(kind);
}
/// The communicator sizes a spec admits: its fixed count, or every P >=
/// atLeast (a root k needs k + 1 ranks), only powers of two if so
/// constrained. acceptsRanks, describeRanks and the header's NAME_accepts
/// all read it.
struct RankRule {
  std::optional<int64_t> fixed;
  int64_t atLeast = 1;
  bool powerOfTwo = false;
};
/// Direct, radix and balanced_ternary route all-to-all blocks by digits.
inline bool isDigitSchedule(ScheduleKind schedule) {
  return schedule == ScheduleKind::direct || schedule == ScheduleKind::radix ||
         schedule == ScheduleKind::balanced_ternary;
}
/// What a program's kind, root, rank count and scratch parts say of its
/// slots: which start with a value, which are results, and which
/// contributions each result holds. ProgramOp's startsWith, delivers,
/// reduces and expects read it; the simulation and the verifier's loops
/// over every slot take it once (ProgramOp::partRules), since each of
/// ProgramOp's reads looks its attributes up again.
struct PartRules {
  CollectiveKind kind;
  int64_t ranks = 1, parts = 1, scratch = 0;
  int64_t root = 0;

  /// The last `scratch` parts start empty and are no result.
  bool isScratch(int64_t part) const { return part >= parts - scratch; }
  /// Whether `rank` starts with a defined value of `part`.
  bool startsWith(int64_t rank, int64_t part) const {
    if (isScratch(part))
      return false;
    switch (kind) {
    case CollectiveKind::exclusive_scan: // part 0 the rank's value, 1 the result
      return part == 0;
    case CollectiveKind::allgather:
    case CollectiveKind::gather: // each rank brings its own block
      return rank == part;
    case CollectiveKind::broadcast:
    case CollectiveKind::scatter: // the root brings every part
      return rank == root;
    default:
      return true;
    }
  }
  /// Whether `rank`'s `part` is a result the collective must deliver.
  bool delivers(int64_t rank, int64_t part) const {
    if (isScratch(part))
      return false;
    switch (kind) {
    case CollectiveKind::exclusive_scan: // rank 0's result is undefined (MPI)
      return part == 1 && rank >= 1;
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::scatter: // rank b keeps block b
      return rank == part;
    case CollectiveKind::reduce:
    case CollectiveKind::gather:
      return rank == root;
    default:
      return true;
    }
  }
  /// Whether that result is a reduction over contributions (else it is one
  /// rank's block).
  bool reduces() const {
    return kind == CollectiveKind::allreduce ||
           kind == CollectiveKind::reduce_scatter ||
           kind == CollectiveKind::reduce || kind == CollectiveKind::barrier ||
           isScan(kind);
  }
  /// Whether delivered slot (rank, part) must hold the contribution that
  /// starts at (fromRank, fromPart).
  bool expects(int64_t rank, int64_t part, int64_t fromRank,
               int64_t fromPart) const {
    switch (kind) {
    case CollectiveKind::allgather: // rank `part`'s own block
    case CollectiveKind::gather:
      return fromPart == part && fromRank == part;
    case CollectiveKind::broadcast:
    case CollectiveKind::scatter:
      return fromPart == part && fromRank == root;
    case CollectiveKind::inclusive_scan: // ranks 0 .. rank
      return fromPart == part && fromRank <= rank;
    case CollectiveKind::exclusive_scan: // ranks 0 .. rank - 1, in part 0
      return part == 1 && fromPart == 0 && fromRank < rank;
    case CollectiveKind::alltoall:
      // Part j is the block at offset j: rank r starts with its block for
      // r + j and must end with the block of r - j for it.
      return fromPart == part &&
             fromRank == ((rank - part) % ranks + ranks) % ranks;
    default: // a reduction: every contribution to this part
      return fromPart == part && startsWith(fromRank, fromPart);
    }
  }
  /// The one part whose contributions slot (., part) may expect: `part`
  /// itself, or in an exclusive scan part 0 (expects never holds for
  /// another fromPart), so a loop over contributions need not visit the
  /// others.
  int64_t sourcePart(int64_t part) const {
    return kind == CollectiveKind::exclusive_scan ? 0 : part;
  }
};
} // namespace coll

#define GET_ATTRDEF_CLASSES
#include "coll/Dialect/CollAttrs.h.inc"

#define GET_OP_CLASSES
#include "coll/Dialect/CollOps.h.inc"

#endif
