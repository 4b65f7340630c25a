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
} // namespace coll

#define GET_ATTRDEF_CLASSES
#include "coll/Dialect/CollAttrs.h.inc"

#define GET_OP_CLASSES
#include "coll/Dialect/CollOps.h.inc"

#endif
