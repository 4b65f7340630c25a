//===- RootRotation.cpp - one root's plan as another's, turned -------------===//
//
// A `root = any` spec runs the plan of whichever root the caller passes, so
// every root's plan is proven (verifyRankCount). The four properties do not
// depend on what the ranks are called: renaming rank k as (k + r) mod P, and
// with it every part that belongs to a rank (gather's and scatter's block b
// is rank b's), turns root 0's broadcast, reduce, gather or scatter into
// root r's, and what PartRules says each slot starts with, must end with
// and must hold maps the same way. So a root whose plan is root 0's plan,
// renamed so, has root 0's verdicts. The one exception is rank order, which
// a renaming breaks at the wrap from P - 1 to 0: a non-commutative
// operator's plans are each proven on their own. This file decides
// "renamed so" on the plans themselves, step by step and transfer by
// transfer; any plan it does not recognize is proven on its own.
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Verify.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

using namespace coll;

namespace {

/// Whether the parts of `kind` are rank-indexed blocks (block b starts at,
/// or must end at, rank b) rather than segments of one buffer.
bool partsBelongToRanks(CollectiveKind kind) {
  return kind == CollectiveKind::gather || kind == CollectiveKind::scatter;
}

bool isRootedKind(CollectiveKind kind) {
  return kind == CollectiveKind::broadcast || kind == CollectiveKind::reduce ||
         partsBelongToRanks(kind);
}

/// A step's transfers, if the rotation check reads it: transfers only (no
/// group-level move or vector move), each destination slot written once.
std::optional<std::vector<Transfer>> transfersOf(StepOp step) {
  if (step.getFrom() || step.getTo() || step.getVectors() ||
      step.hasVectorMoves())
    return std::nullopt;
  std::vector<Transfer> transfers = transfersOfStep(step);
  // Two transfers into one slot in one step: whichever lands last
  // matters, and sorting would lose which. Not recognized.
  std::set<std::pair<int64_t, int64_t>> written;
  for (const Transfer &t : transfers)
    for (int64_t part : t.received)
      if (!written.insert({t.dst, part}).second)
        return std::nullopt;
  return transfers;
}

/// Transfers in one order, whatever order a step lists them in.
bool transferBefore(const Transfer &a, const Transfer &b) {
  return std::tie(a.src, a.dst, a.sent, a.received) <
         std::tie(b.src, b.dst, b.sent, b.received);
}

bool sameTransfer(const Transfer &a, const Transfer &b) {
  return std::tie(a.src, a.dst, a.sent, a.received) ==
         std::tie(b.src, b.dst, b.sent, b.received);
}

} // namespace

bool coll::isRootRotation(ProgramOp base, ProgramOp turned, int64_t r) {
  const int64_t P = static_cast<int64_t>(base.getNumRanks());
  const CollectiveKind kind = base.getKind();
  if (!isRootedKind(kind) || turned.getKind() != kind ||
      turned.getOp() != base.getOp() || turned.getNumRanks() != base.getNumRanks() ||
      turned.getNumParts() != base.getNumParts() ||
      turned.getNumScratchParts() != base.getNumScratchParts() ||
      turned.getSegments() != base.getSegments() || r < 0 || r >= P)
    return false;
  // Rank order is not kept by a rotation (docs/verification.md).
  if (base.getNoncommutative() || turned.getNoncommutative())
    return false;
  // Placements, chunks and group tables would need renaming too.
  for (ProgramOp program : {base, turned})
    if (program.getChunkOfPart() || program.getGroup() ||
        program.getGroupElements())
      return false;
  if (base.getRoot().value_or(0) != 0 ||
      turned.getRoot().value_or(0) != static_cast<uint64_t>(r))
    return false;

  const int64_t scratch =
      static_cast<int64_t>(base.getNumScratchParts().value_or(0));
  const int64_t blocks = static_cast<int64_t>(base.getNumParts()) - scratch;
  const bool blocksTurn = partsBelongToRanks(kind);
  if (blocksTurn && blocks != P)
    return false;
  auto rank = [&](int64_t k) { return (k + r) % P; };
  auto part = [&](int64_t b) { return blocksTurn && b < P ? rank(b) : b; };
  auto turn = [&](std::vector<int64_t> parts) {
    for (int64_t &b : parts)
      b = part(b);
    return parts;
  };

  // The body has no terminator: every op is a step (or not recognized).
  mlir::Block &baseOps = base.getBody().front();
  mlir::Block &turnedOps = turned.getBody().front();
  auto b = baseOps.begin(), t = turnedOps.begin();
  for (; b != baseOps.end() && t != turnedOps.end(); ++b, ++t) {
    auto baseStep = llvm::dyn_cast<StepOp>(&*b);
    auto turnedStep = llvm::dyn_cast<StepOp>(&*t);
    // (A step's phase is a name for messages: not compared.)
    if (!baseStep || !turnedStep ||
        baseStep.getStepKind() != turnedStep.getStepKind())
      return false;
    std::optional<std::vector<Transfer>> want = transfersOf(baseStep);
    std::optional<std::vector<Transfer>> have = transfersOf(turnedStep);
    if (!want || !have || want->size() != have->size())
      return false;
    for (Transfer &x : *want)
      x = Transfer{rank(x.src), rank(x.dst), turn(x.sent), turn(x.received)};
    // A step's transfers run together: their order is no part of it.
    std::sort(want->begin(), want->end(), transferBefore);
    std::sort(have->begin(), have->end(), transferBefore);
    if (!std::equal(want->begin(), want->end(), have->begin(), sameTransfer))
      return false;
  }
  return b == baseOps.end() && t == turnedOps.end();
}
