//===- SlotProgram.h - a step program as moves between slots ----*- C++ -*-===//
//
// What the Z3 encodings see. A slot holds one part's partial value: on the
// rank level slot = part * ranks + rank; on the group level (a program of
// group moves, design.md 3.1) slot = placement, and a step moves the
// placements [from, from+vectors) onto [to, to+vectors) as one range, so
// its size does not depend on P. A token is a slot's initial value: the
// contribution of one rank to one part (rank level) or one input vector
// q_k (group level).
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_VERIFY_SLOTPROGRAM_H
#define COLL_PASSES_VERIFY_SLOTPROGRAM_H

#include "coll/Dialect/CollOps.h"
#include "coll/Passes/GroupSchedule.h"

#include <z3++.h>

#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace coll::verify {

/// The z3++.h of Z3 4.8.12 (Debian 12) drops the old value's reference in
/// ast's move assignment without releasing it, so every `e = <temporary>`
/// leaks the term e held; Z3_del_context then frees leaked terms in rounds,
/// one per level of depth, which took most of a verify at P = 4096. A
/// z3::expr is reassigned only through this copy: the build compiles
/// against a z3++.h whose move assignment is deleted
/// (cmake/Z3MoveGuard.cmake), so any other does not compile.
inline void reassign(z3::expr &target, const z3::expr &value) {
  target = value;
}

/// A bit-vector's value in a model (unconstrained bits as 0).
inline int64_t valueIn(const z3::model &model, const z3::expr &e) {
  return static_cast<int64_t>(
      model.eval(e, /*model_completion=*/true).get_numeral_uint64());
}

struct SlotMove {
  int64_t src, dst;
};

/// Rank level: the sender's parts [sent, sent+length) filed by the receiver
/// as [received, received+length).
struct PartRun {
  int64_t sent, received, length;
  bool operator==(const PartRun &o) const {
    return sent == o.sent && received == o.received && length == o.length;
  }
  bool operator<(const PartRun &o) const {
    return std::tie(sent, received, length) <
           std::tie(o.sent, o.received, o.length);
  }
};

/// Rank level: the transfers of one step that differ only in their sender.
/// Ranks first, first+1, ..., first+count-1 (mod P) each send the same part
/// runs to the rank `shift` further on (mod P); shift 0 is a local copy.
/// The Z3 terms are written per block, not per move, so a step in which
/// every rank does the same thing (a digit routing's phase, a doubling
/// scan's step, a tree level) costs a few terms whatever P is.
struct MoveBlock {
  /// `count` counts senders when stride is 1, runs of `width` senders
  /// otherwise; senders() is the number of senders either way.
  int64_t first = 0, count = 0, shift = 0;
  std::vector<PartRun> runs;
  /// Senders first + i * stride + w, i < count, w < width (stride > 1: a
  /// tree level's senders, or a butterfly level's runs of ranks, no wrap);
  /// stride 1 is the cyclic range above (width 1).
  int64_t stride = 1, width = 1;

  int64_t senders() const { return stride > 1 ? count * width : count; }
};

struct SlotStep {
  StepKind kind;
  /// Group level: [from, from+vectors) -> [to, to+vectors).
  bool isRange = false;
  int64_t from = 0, to = 0, vectors = 0;
  /// Rank level: every (source slot, destination slot), for the concrete
  /// replays; and the same moves as blocks, for the Z3 terms.
  std::vector<SlotMove> moves;
  std::vector<MoveBlock> blocks;
  mlir::Operation *op = nullptr;

  /// A combine hands the sender's value on; a fold keeps it (scans). Both
  /// merge the value into the receiver's.
  bool combines() const { return kind == StepKind::combine; }
  bool folds() const { return kind == StepKind::fold; }
  bool merges() const { return combines() || folds(); }
  void forEachMove(const std::function<void(int64_t, int64_t)> &fn) const;
};

/// The blocks of one step's transfers (exactly their moves, no more).
std::vector<MoveBlock> blocksOfTransfers(const std::vector<Transfer> &transfers,
                                         int64_t ranks);

struct SlotProgram {
  bool groupLevel = false;
  int64_t ranks = 0, parts = 0, numSlots = 0;
  /// The last parts, which start empty and are no result.
  int64_t scratchParts = 0;
  std::optional<GroupKind> group;
  /// The group of a program on one (its element table for generated ones).
  std::optional<GroupAlgebra> algebra;
  bool noncommutative = false;
  std::vector<SlotStep> steps;
  /// Per slot: whether it starts with a value (its token), and whether its
  /// final value is a result the collective delivers.
  std::vector<char> initial, delivered;
  /// Per step, the transfers (rank level only; for matching).
  std::vector<std::vector<Transfer>> transfers;
  ProgramOp program;
  PartRules rules; // the program's (ProgramOp::partRules), read once
  /// The program's shape, worked out once by build (the encodings choose
  /// by it). Combine steps never follow copy steps, and no slot both sends
  /// and receives in a combine step: then a contribution moves along one
  /// path while it is reduced and values are only copied afterwards, which
  /// is what the fast encodings rely on.
  bool reduceThenCopy = false;
  /// Rank level, reduce-then-copy, and every move keeps its part index
  /// (trees, digit routings, the direct alltoall): a contribution never
  /// changes part, and no kind but the exclusive scan needs another part's
  /// contributions, so coverage splits into one query per part.
  bool keepsPartIndices = false;
  /// Rank level: every move files a part under its own index (no scratch
  /// parts in between, as Trivance's folds have).
  bool movesKeepParts = false;
  /// The parts' paths compose: a part moves by a block of fewer than P
  /// senders about log2 P times or less in all (the alltoalls, not the
  /// trees), so the query per part, a term per such move, is small.
  bool pathsCompose = false;

  /// The group level for programs that have its meaning
  /// (provenOnGroupLevel); anything else, or `perRank`, gives the rank
  /// level.
  static SlotProgram build(ProgramOp program, bool perRank);

  int64_t rankOf(int64_t slot) const;
  int64_t partOf(int64_t slot) const;
  /// "rank 3's part 1", or "placement 2 (rank 2's part 0)".
  std::string describeSlot(int64_t slot) const;
  /// "rank 3" or "vector q_2".
  std::string describeToken(int64_t token) const;
  /// Whether delivered `slot` must end up holding `token`
  /// (ProgramOp::expects; on the group level every token that exists).
  bool needsToken(int64_t slot, int64_t token) const {
    if (groupLevel)
      return initial[token];
    return rules.expects(rankOf(slot), partOf(slot), rankOf(token),
                         partOf(token));
  }
  /// Whether some delivered slot needs `token` (else losing its last copy
  /// harms nobody: the last rank's own value in an exclusive scan).
  bool tokenNeeded(int64_t token) const {
    for (int64_t slot = 0; slot < numSlots; ++slot)
      if (delivered[slot] && needsToken(slot, token))
        return true;
    return false;
  }
  /// Index of the first copy step (steps.size() if none).
  size_t firstCopyStep() const;
};

/// Z3 terms over a SlotProgram. On the group level a slot is a bit-vector
/// wide enough that no range arithmetic wraps. On the rank level it is the
/// pair (part, rank) packed as one bit-vector, the rank in the low
/// `rankBits`: part and rank are bit fields, so no term divides by P.
class Encoder {
public:
  Encoder(z3::context &ctx, const SlotProgram &program);

  z3::context &ctx;
  const SlotProgram &program;
  /// The slot width; rank level: partBits + rankBits, and the width of the
  /// arithmetic on either field (fieldWidth, room for a sum of two).
  unsigned width, rankBits = 0, partBits = 0, fieldWidth = 0;

  z3::expr num(int64_t value) const;
  /// Slot number `slot` (part * P + rank on the rank level) as a term.
  z3::expr slotNum(int64_t slot) const;
  z3::expr slotVar(const std::string &name) const;
  z3::expr inDomain(const z3::expr &slot) const;
  /// Rank level: a slot's part and rank in fieldWidth bits, and back.
  z3::expr partOf(const z3::expr &slot) const;
  z3::expr rankOf(const z3::expr &slot) const;
  z3::expr pack(const z3::expr &part, const z3::expr &rank) const;
  z3::expr field(int64_t value) const;
  /// Whether `slot` is written in step s.
  z3::expr received(const SlotStep &step, const z3::expr &slot) const;
  /// The slot whose value arrives at `slot` (meaningful when received).
  z3::expr sourceOf(const SlotStep &step, const z3::expr &slot) const;
  /// Whether `slot`'s value is sent in step s.
  z3::expr sent(const SlotStep &step, const z3::expr &slot) const;
  /// Where `slot`'s value goes (meaningful when sent).
  z3::expr destinationOf(const SlotStep &step, const z3::expr &slot) const;
  /// Rank level: whether rank `x` (fieldWidth bits) sends in `block`, or
  /// receives in it.
  z3::expr sendsIn(const MoveBlock &block, const z3::expr &x) const;
  z3::expr receivesIn(const MoveBlock &block, const z3::expr &x) const;
  /// The kind's rules (ProgramOp::startsWith, delivers, expects) as terms
  /// on a rank-level (part, rank) pair, in the bit width of the arguments:
  /// the one Z3 statement of them, used by the slot forms below and by the
  /// queries that track (part, rank) pairs.
  /// Whether `slot` is one of the P parts rather than a scratch copy.
  z3::expr notScratch(const z3::expr &slot) const;
  z3::expr heldAt(const z3::expr &part, const z3::expr &rank) const;
  z3::expr heldByKind(const z3::expr &part, const z3::expr &rank) const;
  z3::expr deliveredByKind(const z3::expr &part, const z3::expr &rank) const;
  z3::expr deliveredAt(const z3::expr &part, const z3::expr &rank) const;
  z3::expr needsAt(const z3::expr &part, const z3::expr &rank,
                   const z3::expr &tokenPart,
                   const z3::expr &tokenRank) const;
  /// Whether `slot` starts with a value: SlotProgram::initial as a term.
  z3::expr initiallyHeld(const z3::expr &slot) const;
  /// Whether `slot`'s final value is delivered: SlotProgram::delivered.
  z3::expr isDelivered(const z3::expr &slot) const;
  /// Whether a delivered slot needs a token: every token that exists, of
  /// the same part on the rank level.
  z3::expr needs(const z3::expr &slot, const z3::expr &token) const;
  /// A fresh constant equal to `value`: keeps long chains flat.
  z3::expr name(z3::solver &solver, const std::string &prefix,
                const z3::expr &value);
  /// The slot number of a slot term in `model`.
  int64_t slotValue(const z3::model &model, const z3::expr &slot) const;

  /// Where rank x (a sender, or forwards == false a receiver, of `block`)
  /// sends to or receives from.
  z3::expr rankThrough(const MoveBlock &block, const z3::expr &x,
                       bool forwards) const;
  /// (x + by) mod P for a rank x in fieldWidth bits and 0 <= by < P.
  z3::expr rankAfter(const z3::expr &x, int64_t by) const;

private:
  /// Whether rank x is one of the cyclic range [first, first+count), or
  /// of first + i * stride + w (mod P), i < count, w < width.
  z3::expr inRankRange(const z3::expr &x, int64_t first, int64_t count,
                       int64_t stride, int64_t width) const;
  /// The block's parts on the sending (or receiving) side.
  z3::expr inRuns(const MoveBlock &block, const z3::expr &part,
                  bool sendingSide) const;
  /// Rank level: whether `slot` is sent (or received) in one of the
  /// step's blocks.
  z3::expr inBlocks(const SlotStep &step, const z3::expr &slot,
                    bool sendingSide) const;
  /// Where a block moves (part, rank), forwards or backwards.
  z3::expr moveThrough(const SlotStep &step, const z3::expr &slot,
                       bool forwards) const;
  unsigned fresh = 0;
};

/// Runs `solver` and maps Z3's answer to a verdict; fills `reason` on
/// unknown (timeout or incompleteness).
enum class Outcome { unsat, sat, unknown };
Outcome check(z3::solver &solver, std::string &reason);

} // namespace coll::verify

#endif
