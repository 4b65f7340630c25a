//===- Expansion.cpp - each family's expansion, bound by family -----------===//
//
// A collective becomes a coll.program for one P by its family's expansion:
// the plan the runtime runs, written as steps for the verifier. The table
// below binds each family of the catalogue (coll/Dialect/Catalogue.h) to
// its expansion, in one place; the expansions live with their schedules
// (ExpandGroupSchedules.cpp, ExpandTrees.cpp, ExpandDigits.cpp,
// ExpandScans.cpp).
//
//===----------------------------------------------------------------------===//

#include "coll/Dialect/Catalogue.h"
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/TreeSchedule.h"

#include "mlir/IR/Builders.h"


using namespace mlir;
using namespace coll;

namespace {

/// `withTransfers` matters to the group moves only: every other expansion
/// lists its transfers.
using Expansion = ProgramOp (*)(CollectiveOp spec, int64_t P,
                                OpBuilder &builder, bool withTransfers);

ProgramOp expandTree(CollectiveOp spec, int64_t P, OpBuilder &builder, bool) {
  return expandTreeCollective(spec, P, builder);
}
ProgramOp expandDigits(CollectiveOp spec, int64_t P, OpBuilder &builder, bool) {
  return expandDigitCollective(spec, P, builder);
}
ProgramOp expandScan(CollectiveOp spec, int64_t P, OpBuilder &builder, bool) {
  return expandScanCollective(spec, P, builder);
}
ProgramOp expandDoubling(CollectiveOp spec, int64_t P, OpBuilder &builder,
                         bool) {
  return expandRecursiveDoubling(spec, P, builder);
}

struct ExpansionEntry {
  Family family;
  Expansion expand;
};

constexpr ExpansionEntry kExpansions[] = {
    {Family::ring, expandGroupMoves},
    {Family::halving, expandGroupMoves},
    {Family::shiftedButterfly, expandShiftedButterfly},
    {Family::recursiveDoubling, expandDoubling},
    {Family::flatTree, expandTree},
    {Family::binomialTree, expandTree},
    {Family::chainTree, expandTree},
    {Family::hierarchicalTree, expandTree},
    {Family::chainScan, expandScan},
    {Family::doublingScan, expandScan},
    {Family::pairwise, expandDigits},
    {Family::bruck, expandDigits},
    {Family::retri, expandDigits},
    {Family::trivance, expandDigits},
};

static_assert(bindsEveryFamilyInOrder(kExpansions),
              "one entry per coll::Family, in its order");

} // namespace

ProgramOp coll::expandCollective(CollectiveOp spec, int64_t P,
                                 OpBuilder &builder, bool withTransfers) {
  return kExpansions[static_cast<size_t>(familyOf(spec))].expand(
      spec, P, builder, withTransfers);
}

LogicalResult
coll::expandAllCollectives(ModuleOp module, int64_t ranks, StringRef ranksHint,
                           bool withTransfers,
                           const std::function<bool(CollectiveOp)> &select) {
  SmallVector<CollectiveOp> specs(module.getOps<CollectiveOp>());
  for (CollectiveOp spec : specs) {
    if (select && !select(spec))
      continue;
    // A fixed rank count is part of the spec; `ranks` fills in a symbolic one.
    int64_t P = ranks;
    if (std::optional<uint64_t> fixed = spec.getNumRanks())
      P = static_cast<int64_t>(*fixed);
    else if (P == 0)
      return spec.emitError("collective '")
             << spec.getSymName()
             << "' has a symbolic rank count; give one with " << ranksHint;
    if (!spec.acceptsRanks(P))
      return spec.emitError("collective '")
             << spec.getSymName() << "' does not admit P = " << P
             << " (requires " << spec.describeRanks() << ")";
    OpBuilder builder(spec);
    expandCollective(spec, P, builder, withTransfers);
    spec.erase();
  }
  return success();
}
