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


/// The runtime's group of `kind` on `order` ranks; a generated one reads
/// `table`.
static std::variant<CyclicGroup, XorGroup, TableGroup>
runtimeGroup(GroupKind kind, int64_t order, const std::vector<int> *table) {
  int P = static_cast<int>(order);
  if (kind == GroupKind::generated &&
      static_cast<int64_t>(table->size()) != order * order)
    llvm::report_fatal_error("generated group without its element table");
  switch (kind) {
  case GroupKind::cyclic:
    return CyclicGroup(P);
  case GroupKind::xor_:
    return XorGroup(P);
  case GroupKind::generated:
    break;
  }
  return TableGroup(P, table->data());
}

GroupAlgebra::GroupAlgebra(GroupKind kind, int64_t order,
                           ArrayRef<int64_t> elements)
    : kind(kind), P(order),
      elements(std::make_shared<const std::vector<int>>(elements.begin(),
                                                        elements.end())),
      group(runtimeGroup(kind, order, this->elements.get())) {
  if (!std::visit([](const auto &g) { return g.valid(); }, group))
    llvm::report_fatal_error(kind == GroupKind::xor_
                                 ? "xor group of a non-power-of-two order"
                                 : "a group of no ranks");
}

GroupAlgebra GroupAlgebra::of(ProgramOp program) {
  std::optional<ArrayRef<int64_t>> elements = program.getGroupElements();
  return GroupAlgebra(*program.getGroup(), program.getNumRanks(),
                      elements ? *elements : ArrayRef<int64_t>());
}

FailureOr<std::vector<int64_t>> coll::enumerateGroup(CollectiveOp spec,
                                                     std::string &why) {
  int64_t P = static_cast<int64_t>(*spec.getNumRanks());
  std::vector<Permutation> generators;
  ArrayAttr generatorList = *spec.getGroupGenerators();
  for (Attribute g : generatorList) {
    ArrayRef<int64_t> images = cast<DenseI64ArrayAttr>(g).asArrayRef();
    generators.emplace_back(images.begin(), images.end());
  }
  std::vector<Permutation> elements = elementsOf(generators, P);
  std::vector<int64_t> order(static_cast<size_t>(P));
  for (int64_t k = 0; k < P; ++k)
    order[static_cast<size_t>(k)] = k; // element k sends rank 0 to k
  if (spec.getSchedule() == ScheduleKind::butterfly) {
    bool gaveUp = false;
    std::optional<std::vector<int64_t>> found =
        butterflyEnumeration(elements, &gaveUp);
    if (!found) {
      why = std::string("the butterfly needs an enumeration of the group in "
                        "which every halving moves its vectors by one "
                        "element, and ") +
            (gaveUp ? "the search for one gave up after a million candidates"
                    : "this group has none (searched exhaustively)") +
            "; use schedule linear, which works on any such group";
      return failure();
    }
    order = *found;
  }
  std::vector<int64_t> table;
  for (int64_t k : order)
    llvm::append_range(table, elements[static_cast<size_t>(k)]);
  return table;
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

std::vector<Transfer> coll::transfersOfMove(const GroupAlgebra &group,
                                            int64_t from, int64_t to,
                                            int64_t vectors) {
  std::vector<Transfer> transfers;
  GroupMove move{static_cast<int>(from), static_cast<int>(to),
                 static_cast<int>(vectors), Action::copy, ""};
  for (int64_t x = 0; x < group.order(); ++x) {
    PlanMessage m = moveSend(group, move, static_cast<int>(x));
    std::vector<int64_t> parts(m.parts.begin(), m.parts.end());
    transfers.push_back({x, m.peer, parts, parts});
  }
  return transfers;
}

std::vector<Transfer> coll::transfersOfVectorMoves(const GroupAlgebra &group,
                                                  ArrayRef<int64_t> sources,
                                                  ArrayRef<int64_t> destinations) {
  int64_t P = group.order();
  std::vector<Transfer> transfers;
  for (int64_t x = 0; x < P; ++x) {
    // Each move has its own permutation; moves that agree share a message.
    size_t first = transfers.size();
    for (auto [src, dst] : llvm::zip(sources, destinations)) {
      int64_t from = src % P, to = dst % P;
      int64_t peer = group.act(to, group.inverse(from, x));
      auto it = std::find_if(transfers.begin() + first, transfers.end(),
                             [&](const Transfer &t) { return t.dst == peer; });
      if (it == transfers.end())
        it = transfers.insert(transfers.end(), Transfer{x, peer, {}, {}});
      it->sent.push_back(src - from + group.inverse(from, x));
      it->received.push_back(dst - to + group.inverse(to, peer));
    }
  }
  return transfers;
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
