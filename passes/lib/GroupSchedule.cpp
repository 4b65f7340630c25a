//===- GroupSchedule.cpp - closed forms of group schedules ----------------===//
#include "coll/Passes/GroupSchedule.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace coll;
using llvm::ArrayRef;

static const char *const kReducePhase = "reduce-scatter";
static const char *const kGatherPhase = "all-gather";

GroupAlgebra::GroupAlgebra(GroupKind kind, int64_t order)
    : kind(kind), P(order) {
  if (kind == GroupKind::xor_) {
    if (!llvm::isPowerOf2_64(static_cast<uint64_t>(order)))
      llvm::report_fatal_error("xor group of a non-power-of-two order");
    bits = llvm::Log2_64(static_cast<uint64_t>(order));
  }
}

int64_t GroupAlgebra::reverseBits(int64_t k) const {
  int64_t reversed = 0;
  for (int i = 0; i < bits; ++i)
    if (k & (int64_t(1) << i))
      reversed |= int64_t(1) << (bits - 1 - i);
  return reversed;
}

int64_t GroupAlgebra::act(int64_t k, int64_t x) const {
  k = normalize(k);
  if (kind == GroupKind::cyclic)
    return (x + k) % P;
  return x ^ reverseBits(k);
}

int64_t GroupAlgebra::inverse(int64_t k, int64_t x) const {
  k = normalize(k);
  if (kind == GroupKind::cyclic)
    return (x - k + P) % P;
  return x ^ reverseBits(k);
}

int64_t GroupAlgebra::chunkOfPart(int64_t part) const {
  return kind == GroupKind::cyclic ? part : reverseBits(part);
}

std::optional<int64_t> coll::repeatedPart(std::vector<int64_t> parts) {
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
  for (int64_t x = 0; x < group.order(); ++x) {
    Transfer t{x, group.act(to, group.inverse(from, x)), {}, {}};
    for (int64_t i = 0; i < vectors; ++i)
      t.sent.push_back(group.inverse(from + i, x));
    t.received = t.sent;
    transfers.push_back(std::move(t));
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
    auto program = step->getParentOfType<ProgramOp>();
    GroupAlgebra group(*program.getGroup(), program.getNumRanks());
    return transfersOfVectorMoves(group, *step.getVectorSources(),
                                  *step.getVectorDestinations());
  }
  if (step.isImplicitMove()) {
    auto program = step->getParentOfType<ProgramOp>();
    GroupAlgebra group(*program.getGroup(), program.getNumRanks());
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
  bool reduces = kind != CollectiveKind::allgather;
  bool copies = kind != CollectiveKind::reduce_scatter;
  std::vector<GroupMove> moves;
  switch (schedule) {
  case ScheduleKind::linear:
    if (kind == CollectiveKind::allreduce) {
      // Ring: the vector at placement s moves to s+1 and is combined there,
      // until placement P-1 holds the sum; then it is copied around the
      // ring.
      for (int64_t s = 0; s + 1 < P; ++s)
        moves.push_back({s, s + 1, 1, StepKind::combine, kReducePhase});
      for (int64_t s = 0; s + 1 < P; ++s)
        moves.push_back({(s + P - 1) % P, s, 1, StepKind::copy, kGatherPhase});
      return moves;
    }
    // The ring around placement 0: reduce 1 -> 2 -> ... -> P-1 -> 0, or
    // copy 0 -> 1 -> ... -> P-1.
    if (reduces)
      for (int64_t s = 1; s < P; ++s)
        moves.push_back({s, (s + 1) % P, 1, StepKind::combine, kReducePhase});
    if (copies)
      for (int64_t s = 0; s + 1 < P; ++s)
        moves.push_back({s, s + 1, 1, StepKind::copy, kGatherPhase});
    return moves;
  case ScheduleKind::butterfly: {
    // Bandwidth-optimal butterfly (r = 0): with N vectors left, the upper
    // floor(N/2) move onto the lower ones and combine; an odd leftover
    // waits. The distribution replays the halvings in reverse.
    std::vector<std::pair<int64_t, int64_t>> halvings;
    for (int64_t n = P; n > 1; n = (n + 1) / 2) {
      int64_t c = (n + 1) / 2, h = n / 2;
      if (reduces)
        moves.push_back({c, 0, h, StepKind::combine, kReducePhase});
      halvings.push_back({c, h});
    }
    if (copies)
      for (auto it = halvings.rbegin(); it != halvings.rend(); ++it)
        moves.push_back(
            {0, it->first, it->second, StepKind::copy, kGatherPhase});
    return moves;
  }
  }
  llvm_unreachable("unknown schedule");
}
