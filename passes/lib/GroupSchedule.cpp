//===- GroupSchedule.cpp - closed forms of group schedules ----------------===//
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/PlanProgram.h"
#include "coll/Dialect/PermutationGroup.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>

using namespace coll;
using namespace mlir;
using llvm::ArrayRef;


/// The runtime's group of `kind` on `order` ranks; a generated one is the
/// table `elements` (P rows of P images).
static std::variant<CyclicGroup, XorGroup, TableGroup>
runtimeGroup(GroupKind kind, int64_t order, ArrayRef<int64_t> elements) {
  int P = static_cast<int>(order);
  switch (kind) {
  case GroupKind::cyclic:
    return CyclicGroup(P);
  case GroupKind::xor_:
    return XorGroup(P);
  case GroupKind::generated:
    break;
  }
  if (static_cast<int64_t>(elements.size()) != order * order)
    llvm::report_fatal_error("generated group without its element table");
  std::vector<int> table(elements.begin(), elements.end());
  return TableGroup(P, table.data());
}

static void checkValid(GroupKind kind,
                       const std::variant<CyclicGroup, XorGroup, TableGroup> &group) {
  if (!std::visit([](const auto &g) { return g.valid(); }, group))
    llvm::report_fatal_error(kind == GroupKind::xor_
                                 ? "xor group of a non-power-of-two order"
                             : kind == GroupKind::generated
                                 ? "a generated group that is not one"
                                 : "a group of no ranks");
}

GroupAlgebra::GroupAlgebra(GroupKind kind, int64_t order,
                           ArrayRef<int64_t> elements)
    : kind(kind), P(order), group(runtimeGroup(kind, order, elements)) {
  checkValid(kind, group);
}

GroupAlgebra::GroupAlgebra(TableGroup table)
    : kind(GroupKind::generated), P(table.size()), group(std::move(table)) {
  checkValid(kind, group);
}

GroupAlgebra GroupAlgebra::of(ProgramOp program) {
  std::optional<ArrayRef<int64_t>> elements = program.getGroupElements();
  return GroupAlgebra(*program.getGroup(), program.getNumRanks(),
                      elements ? *elements : ArrayRef<int64_t>());
}

FailureOr<GroupEnumeration> coll::enumerateGroup(CollectiveOp spec,
                                                 std::string &why) {
  int64_t P = static_cast<int64_t>(*spec.getNumRanks());
  GroupEnumeration group;
  std::vector<Permutation> generators;
  ArrayAttr generatorList = *spec.getGroupGenerators();
  for (Attribute g : generatorList) {
    ArrayRef<int64_t> images = cast<DenseI64ArrayAttr>(g).asArrayRef();
    generators.emplace_back(images.begin(), images.end());
    group.generators.insert(group.generators.end(), images.begin(), images.end());
    ++group.count;
  }
  if (spec.getSchedule() != ScheduleKind::butterfly)
    return group;
  bool gaveUp = false;
  std::optional<std::vector<int64_t>> found =
      butterflyEnumeration(elementsOf(generators, P), &gaveUp);
  if (!found) {
    why = std::string("the butterfly needs an enumeration of the group in "
                      "which every halving moves its vectors by one "
                      "element, and ") +
          (gaveUp ? "the search for one gave up after a million candidates"
                  : "this group has none (searched exhaustively)") +
          "; use schedule linear, which works on any such group";
    return failure();
  }
  for (size_t i = 0; i < found->size(); ++i)
    if ((*found)[i] != static_cast<int64_t>(i)) { // not the elements as they are
      group.order.assign(found->begin(), found->end());
      break;
    }
  return group;
}

std::optional<int64_t>
coll::repeatedPart(const std::vector<int64_t> &listed) {
  // Lists are almost always increasing: then no copy and no sort.
  if (std::adjacent_find(listed.begin(), listed.end(),
                         std::greater_equal<int64_t>()) == listed.end())
    return std::nullopt;
  std::vector<int64_t> parts = listed;
  std::sort(parts.begin(), parts.end());
  auto it = std::adjacent_find(parts.begin(), parts.end());
  if (it == parts.end())
    return std::nullopt;
  return *it;
}

/// Every rank's coll::vectorStep of `moves`, as transfers.
static std::vector<Transfer> transfersOfSlotMoves(const GroupAlgebra &group,
                                                  const std::vector<VectorMove> &moves) {
  return std::visit(
      [&](const auto &g) {
        return transfersOfRanks(group.order(), [&](int x) {
          return vectorStep(g, moves, Action::copy, x);
        });
      },
      group.runtime());
}

std::vector<Transfer> coll::transfersOfMove(const GroupAlgebra &group,
                                            int64_t from, int64_t to,
                                            int64_t vectors) {
  return transfersOfSlotMoves(group, group.rangeMoves(from, to, vectors));
}

std::vector<Transfer> coll::transfersOfVectorMoves(const GroupAlgebra &group,
                                                  ArrayRef<int64_t> sources,
                                                  ArrayRef<int64_t> destinations) {
  std::vector<VectorMove> moves;
  for (auto [src, dst] : llvm::zip(sources, destinations))
    moves.push_back({static_cast<int>(src), static_cast<int>(dst)});
  return transfersOfSlotMoves(group, moves);
}

std::vector<Transfer> coll::transfersOfStep(StepOp step) {
  if (step.hasVectorMoves()) {
    GroupAlgebra group = GroupAlgebra::of(step->getParentOfType<ProgramOp>());
    return transfersOfVectorMoves(group, *step.getVectorSources(),
                                  *step.getVectorDestinations());
  }
  if (step.isImplicitMove()) {
    GroupAlgebra group = GroupAlgebra::of(step->getParentOfType<ProgramOp>());
    return transfersOfMove(group, *step.getFrom(), *step.getTo(),
                           *step.getVectors());
  }
  std::vector<Transfer> transfers;
  for (size_t i = 0; i < step.getNumTransfers(); ++i) {
    ArrayRef<int64_t> sent = step.getTransferParts(i);
    ArrayRef<int64_t> received = step.getReceivedParts(i);
    transfers.push_back({step.getSources()[i], step.getDestinations()[i],
                         std::vector<int64_t>(sent.begin(), sent.end()),
                         std::vector<int64_t>(received.begin(), received.end())});
  }
  return transfers;
}

std::vector<GroupMove> coll::expandGroupSchedule(ScheduleKind schedule,
                                                 int64_t P,
                                                 CollectiveKind kind) {
  return groupMoves(schedule == ScheduleKind::linear ? GroupSchedule::linear
                                                     : GroupSchedule::butterfly,
                    runtimeKind(kind), static_cast<int>(P));
}
