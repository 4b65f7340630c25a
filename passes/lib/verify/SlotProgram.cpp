//===- SlotProgram.cpp - a step program as moves between slots ------------===//
#include "SlotProgram.h"

#include "coll/Passes/Verify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace coll;
using namespace coll::verify;

void SlotStep::forEachMove(
    const std::function<void(int64_t, int64_t)> &fn) const {
  if (isRange) {
    for (int64_t i = 0; i < vectors; ++i)
      fn(from + i, to + i);
    return;
  }
  for (const SlotMove &m : moves)
    fn(m.src, m.dst);
}

std::vector<MoveBlock>
coll::verify::blocksOfTransfers(const std::vector<Transfer> &transfers,
                                int64_t ranks) {
  // Each transfer's moves as runs of consecutive parts filed under
  // consecutive indices; transfers with the same runs and the same
  // distance to their receiver (mod P) are one key.
  std::map<std::pair<int64_t, std::vector<PartRun>>, std::vector<int64_t>>
      sendersOf;
  for (const Transfer &t : transfers) {
    std::vector<PartRun> runs;
    size_t n = std::min(t.sent.size(), t.received.size());
    for (size_t i = 0; i < n; ++i) {
      if (!runs.empty() && t.sent[i] == t.sent[i - 1] + 1 &&
          t.received[i] == t.received[i - 1] + 1) {
        ++runs.back().length;
        continue;
      }
      runs.push_back({t.sent[i], t.received[i], 1});
    }
    int64_t shift = ((t.dst - t.src) % ranks + ranks) % ranks;
    sendersOf[{shift, std::move(runs)}].push_back(t.src);
  }
  std::vector<MoveBlock> blocks;
  for (auto &[key, senders] : sendersOf) {
    // The senders as cyclic ranges of consecutive ranks; a sender named m
    // times (m equal messages) is in m rounds, a block of each, so every
    // transfer is in exactly one block. Each round keeps only the senders
    // with copies left: linear in the transfers however often one repeats.
    llvm::sort(senders);
    std::vector<std::pair<int64_t, int64_t>> active; // (sender, copies left)
    for (int64_t sender : senders)
      if (!active.empty() && active.back().first == sender)
        ++active.back().second;
      else
        active.push_back({sender, 1});
    while (!active.empty()) {
      std::vector<MoveBlock> ranges;
      for (const std::pair<int64_t, int64_t> &entry : active) {
        int64_t sender = entry.first;
        if (!ranges.empty() &&
            sender == ranges.back().first + ranges.back().count) {
          ++ranges.back().count;
          continue;
        }
        ranges.push_back({sender, 1, key.first, key.second});
      }
      // [.., P-1] and [0, ..] are one cyclic range.
      if (ranges.size() > 1 && ranges.front().first == 0 &&
          ranges.back().first + ranges.back().count == ranks) {
        ranges.back().count += ranges.front().count;
        ranges.erase(ranges.begin());
      }
      // Equal runs of senders at equal distances (a tree level: every
      // other rank, every fourth; a butterfly level: runs of 2^k ranks
      // every 2^(k+1)) are one block with a stride.
      std::vector<MoveBlock> strided;
      for (size_t i = 0; i < ranges.size();) {
        size_t k = i + 1;
        auto gap = [&](size_t at) {
          return ranges[at + 1].first - ranges[at].first;
        };
        if (i + 1 < ranges.size() && gap(i) > ranges[i].count &&
            ranges[i + 1].count == ranges[i].count)
          while (k < ranges.size() && ranges[k].count == ranges[i].count &&
                 gap(k - 1) == gap(i))
            ++k;
        if (k - i < 2) {
          strided.push_back(ranges[i++]);
          continue;
        }
        MoveBlock b = ranges[i];
        b.width = ranges[i].count;
        b.count = static_cast<int64_t>(k - i);
        b.stride = gap(i);
        strided.push_back(b);
        i = k;
      }
      llvm::append_range(blocks, strided);
      llvm::erase_if(active, [](std::pair<int64_t, int64_t> &a) {
        return --a.second == 0;
      });
    }
  }
  return blocks;
}

bool coll::provenOnGroupLevel(ProgramOp program) {
  if (!program.getGroup())
    return false;
  // Placements carry the meaning of the symmetric reductions only: the sum
  // of every vector at every placement (allreduce; a barrier is one), at
  // placement 0 (reduce_scatter), or placement 0's blocks copied to all
  // (allgather). Rooted kinds are not regular under a group, and an
  // alltoall's or a scan's result differs from rank to rank in a way no
  // placement states: those are proven on the rank level, where the kind's
  // rules (ProgramOp::expects) apply to the transfers the moves imply.
  switch (program.getKind()) {
  case CollectiveKind::allreduce:
  case CollectiveKind::barrier:
  case CollectiveKind::reduce_scatter:
  case CollectiveKind::allgather:
    break;
  default:
    return false;
  }
  auto steps = program.getBody().getOps<StepOp>();
  if (!llvm::all_of(steps, [](StepOp s) {
        return s.isImplicitMove() || s.hasVectorMoves();
      }))
    return false;
  // A range move moves whole placements, each across all P parts: scratch
  // parts (the last parts of every rank) are no placement.
  bool ranges = llvm::any_of(steps, [](StepOp s) { return s.isImplicitMove(); });
  return !(ranges && program.getNumScratchParts().value_or(0) != 0);
}

static bool reducesThenCopies(const SlotProgram &sp) {
  if (llvm::any_of(sp.steps, [](const SlotStep &s) { return s.folds(); }))
    return false; // a fold keeps the sender's value: not one path per token
  size_t firstCopy = sp.firstCopyStep();
  for (size_t i = firstCopy; i < sp.steps.size(); ++i)
    if (sp.steps[i].combines())
      return false;
  for (size_t i = 0; i < firstCopy; ++i) {
    const SlotStep &s = sp.steps[i];
    if (s.isRange) {
      if (s.from < s.to + s.vectors && s.to < s.from + s.vectors)
        return false;
      continue;
    }
    std::vector<bool> sends(sp.numSlots, false);
    for (const SlotMove &m : s.moves) {
      if (sends[m.src])
        return false; // one value sent twice: it would be counted twice
      sends[m.src] = true;
    }
    for (const SlotMove &m : s.moves)
      if (sends[m.dst])
        return false;
  }
  return true;
}


static bool everyMoveKeepsItsPart(const SlotProgram &sp) {
  if (sp.groupLevel)
    return false;
  return llvm::all_of(sp.steps, [](const SlotStep &step) {
    return llvm::all_of(step.blocks, [](const MoveBlock &b) {
      return llvm::all_of(b.runs,
                          [](const PartRun &r) { return r.sent == r.received; });
    });
  });
}

static bool partPathsAreShort(const SlotProgram &sp) {
  int64_t partial = 0, limit = sp.parts * std::max<int64_t>(
                                              1, llvm::Log2_64(sp.ranks));
  std::vector<int64_t> lastStep(sp.parts, -1);
  for (size_t s = 0; s < sp.steps.size(); ++s)
    for (const MoveBlock &b : sp.steps[s].blocks)
      if (b.senders() < sp.ranks)
        for (const PartRun &r : b.runs)
          for (int64_t j = r.sent; j < r.sent + r.length; ++j)
            if (lastStep[j] != static_cast<int64_t>(s)) {
              lastStep[j] = static_cast<int64_t>(s);
              if (++partial > limit)
                return false;
            }
  return true;
}

SlotProgram SlotProgram::build(ProgramOp program, bool perRank) {
  SlotProgram sp;
  sp.program = program;
  sp.rules = program.partRules();
  sp.ranks = program.getNumRanks();
  sp.parts = program.getNumParts();
  sp.group = program.getGroup();
  if (std::optional<uint64_t> scratch = program.getNumScratchParts())
    sp.scratchParts = static_cast<int64_t>(*scratch);
  if (sp.group)
    sp.algebra = GroupAlgebra::of(program);
  sp.noncommutative = program.getNoncommutative();
  auto steps = program.getBody().getOps<StepOp>();
  sp.groupLevel = !perRank && provenOnGroupLevel(program);
  // Group level: slot = copy * P + placement (copies 1.. are scratch).
  sp.numSlots = sp.groupLevel ? sp.parts : sp.ranks * sp.parts;
  sp.initial.assign(sp.numSlots, 1);
  sp.delivered.assign(sp.numSlots, 1);
  if (sp.groupLevel) {
    // Placement 0 is the identity: part b on rank b, i.e. each rank's own
    // block (allgather's input, reduce_scatter's output).
    for (int64_t k = 1; k < sp.numSlots; ++k) {
      bool scratch = k >= sp.ranks;
      sp.initial[k] = !scratch && sp.rules.kind != CollectiveKind::allgather;
      sp.delivered[k] =
          !scratch && sp.rules.kind != CollectiveKind::reduce_scatter;
    }
  } else {
    for (int64_t slot = 0; slot < sp.numSlots; ++slot) {
      sp.initial[slot] = sp.rules.startsWith(slot % sp.ranks, slot / sp.ranks);
      sp.delivered[slot] = sp.rules.delivers(slot % sp.ranks, slot / sp.ranks);
    }
  }
  for (StepOp step : steps) {
    SlotStep s;
    s.kind = step.getStepKind();
    s.op = step;
    if (sp.groupLevel && step.hasVectorMoves()) {
      for (auto [src, dst] :
           llvm::zip(*step.getVectorSources(), *step.getVectorDestinations()))
        s.moves.push_back({src, dst});
    } else if (sp.groupLevel) {
      // What runs (coll::rangeMoves) sends every vector of the range along
      // the first one's permutation g = t_to t_from^-1, so vector from+i
      // lands on placement g t_{from+i}: to+i exactly when the range is
      // one permutation (always on cyclic(P), for aligned ranges on
      // xor(P)). Otherwise the slots name where the vectors really go.
      int64_t from = *step.getFrom(), to = *step.getTo(),
              vectors = *step.getVectors();
      std::vector<VectorMove> moves =
          sp.algebra->rangeMoves(from, to, vectors);
      bool uniform = true;
      for (int64_t i = 0; i < vectors && uniform; ++i)
        uniform = moves[i].destination == to + i;
      if (uniform) {
        s.isRange = true;
        s.from = from;
        s.to = to;
        s.vectors = vectors;
      } else {
        for (const VectorMove &m : moves)
          s.moves.push_back({m.source, m.destination});
      }
    } else {
      std::vector<Transfer> transfers = transfersOfStep(step);
      for (const Transfer &t : transfers)
        for (auto [sentPart, receivedPart] : llvm::zip(t.sent, t.received))
          s.moves.push_back(
              {sentPart * sp.ranks + t.src, receivedPart * sp.ranks + t.dst});
      s.blocks = blocksOfTransfers(transfers, sp.ranks);
      sp.transfers.push_back(std::move(transfers));
    }
    sp.steps.push_back(std::move(s));
  }
  sp.reduceThenCopy = reducesThenCopies(sp);
  sp.movesKeepParts = everyMoveKeepsItsPart(sp);
  sp.keepsPartIndices = sp.movesKeepParts && sp.reduceThenCopy &&
                        sp.rules.kind != CollectiveKind::exclusive_scan;
  sp.pathsCompose = !sp.groupLevel && partPathsAreShort(sp);
  return sp;
}

int64_t SlotProgram::rankOf(int64_t slot) const {
  if (groupLevel)
    return algebra->act(slot % ranks, 0);
  return slot % ranks;
}

int64_t SlotProgram::partOf(int64_t slot) const {
  return groupLevel ? 0 : slot / ranks;
}

std::string SlotProgram::describeSlot(int64_t slot) const {
  std::string rankPart = "rank " + std::to_string(rankOf(slot)) + "'s part " +
                         std::to_string(partOf(slot));
  if (groupLevel && slot >= ranks)
    return "placement " + std::to_string(slot % ranks) + " copy " +
           std::to_string(slot / ranks) + " (" + rankPart + " in scratch copy " +
           std::to_string(slot / ranks) + ")";
  if (groupLevel)
    return "placement " + std::to_string(slot) + " (" + rankPart + ")";
  return rankPart;
}

std::string SlotProgram::describeToken(int64_t token) const {
  if (groupLevel)
    return "vector q_" + std::to_string(token);
  return "rank " + std::to_string(rankOf(token));
}

size_t SlotProgram::firstCopyStep() const {
  for (size_t i = 0; i < steps.size(); ++i)
    if (!steps[i].combines())
      return i;
  return steps.size();
}

//===----------------------------------------------------------------------===//
// Encoder
//===----------------------------------------------------------------------===//

Encoder::Encoder(z3::context &ctx, const SlotProgram &program)
    : ctx(ctx), program(program) {
  if (program.groupLevel) {
    // Room for slot + range offsets without wrapping.
    width =
        llvm::Log2_64_Ceil(static_cast<uint64_t>(program.numSlots) + 1) + 2;
    return;
  }
  rankBits = std::max(1u, llvm::Log2_64_Ceil(
                              static_cast<uint64_t>(program.ranks)));
  partBits = std::max(
      1u, llvm::Log2_64_Ceil(static_cast<uint64_t>(program.parts)));
  width = partBits + rankBits;
  fieldWidth = std::max(partBits, rankBits) + 2;
}

z3::expr Encoder::num(int64_t value) const {
  return ctx.bv_val(static_cast<uint64_t>(value), width);
}

z3::expr Encoder::field(int64_t value) const {
  return ctx.bv_val(static_cast<uint64_t>(value), fieldWidth);
}

z3::expr Encoder::slotNum(int64_t slot) const {
  if (program.groupLevel)
    return num(slot);
  return pack(field(slot / program.ranks), field(slot % program.ranks));
}

z3::expr Encoder::slotVar(const std::string &name) const {
  return ctx.bv_const(name.c_str(), width);
}

z3::expr Encoder::partOf(const z3::expr &slot) const {
  return z3::zext(slot.extract(width - 1, rankBits), fieldWidth - partBits);
}

z3::expr Encoder::rankOf(const z3::expr &slot) const {
  return z3::zext(slot.extract(rankBits - 1, 0), fieldWidth - rankBits);
}

z3::expr Encoder::pack(const z3::expr &part, const z3::expr &rank) const {
  return z3::concat(part.extract(partBits - 1, 0),
                    rank.extract(rankBits - 1, 0));
}

z3::expr Encoder::inDomain(const z3::expr &slot) const {
  if (program.groupLevel)
    return z3::ult(slot, num(program.numSlots));
  return z3::ult(partOf(slot), field(program.parts)) &&
         z3::ult(rankOf(slot), field(program.ranks));
}

static z3::expr inRange(const Encoder &e, const z3::expr &x, int64_t lo,
                        int64_t n) {
  return z3::uge(x, e.num(lo)) && z3::ult(x, e.num(lo + n));
}

z3::expr Encoder::rankAfter(const z3::expr &x, int64_t by) const {
  if (by == 0)
    return x;
  z3::expr sum = x + field(by);
  z3::expr P = field(program.ranks);
  return z3::ite(z3::uge(sum, P), sum - P, sum);
}

z3::expr Encoder::inRankRange(const z3::expr &x, int64_t first,
                              int64_t count, int64_t stride,
                              int64_t width) const {
  int64_t P = program.ranks;
  if (count == 1 && width == 1)
    return x == field(first);
  if (stride > 1 && count <= 32) {
    // A few runs: their comparisons are easier on Z3 than a congruence.
    z3::expr_vector any(ctx);
    for (int64_t i = 0; i < count; ++i) {
      int64_t lo = (first + i * stride) % P;
      any.push_back(width == 1 ? x == field(lo)
                               : z3::uge(x, field(lo)) &&
                                     z3::ult(x, field(lo + width)));
    }
    return z3::mk_or(any);
  }
  if (stride > 1) {
    // d = (x - first) mod P is within `width` of a multiple of the stride,
    // and not past the last run.
    z3::expr d = z3::ite(z3::uge(x, field(first)), x - field(first),
                         x + field(P - first));
    z3::expr offset = llvm::isPowerOf2_64(static_cast<uint64_t>(stride))
                          ? d & field(stride - 1)
                          : z3::urem(d, field(stride));
    return z3::ult(d, field((count - 1) * stride + width)) &&
           z3::ult(offset, field(width));
  }
  if (count >= P)
    return ctx.bool_val(true);
  int64_t end = first + count;
  if (end <= P)
    return z3::uge(x, field(first)) && z3::ult(x, field(end));
  return z3::uge(x, field(first)) || z3::ult(x, field(end - P));
}

/// A block of one sender moving a few single parts: its moves as slot
/// constants are the smaller terms.
static bool isFewMoves(const MoveBlock &b) {
  return b.senders() == 1 && b.runs.size() <= 4 &&
         llvm::all_of(b.runs, [](const PartRun &r) { return r.length == 1; });
}

z3::expr Encoder::rankThrough(const MoveBlock &block, const z3::expr &x,
                              bool forwards) const {
  int64_t P = program.ranks;
  if (block.senders() == 1) // one sender: a constant peer
    return field(forwards ? (block.first + block.shift) % P : block.first);
  return rankAfter(x, forwards ? block.shift : (P - block.shift) % P);
}

z3::expr Encoder::sendsIn(const MoveBlock &block, const z3::expr &x) const {
  return inRankRange(x, block.first, block.count, block.stride, block.width);
}

z3::expr Encoder::receivesIn(const MoveBlock &block, const z3::expr &x) const {
  return inRankRange(x, (block.first + block.shift) % program.ranks,
                     block.count, block.stride, block.width);
}

z3::expr Encoder::inRuns(const MoveBlock &block, const z3::expr &part,
                         bool sendingSide) const {
  z3::expr_vector any(ctx);
  for (const PartRun &r : block.runs) {
    int64_t lo = sendingSide ? r.sent : r.received;
    any.push_back(r.length == 1 ? part == field(lo)
                                : z3::uge(part, field(lo)) &&
                                      z3::ult(part, field(lo + r.length)));
  }
  return z3::mk_or(any);
}

z3::expr Encoder::moveThrough(const SlotStep &step, const z3::expr &slot,
                              bool forwards) const {
  z3::expr part = partOf(slot), rank = rankOf(slot);
  int64_t P = program.ranks;
  z3::expr result = slot;
  for (const MoveBlock &b : llvm::reverse(step.blocks)) {
    if (isFewMoves(b)) {
      // Whole-slot constants, as Z3 handles long chains of them best.
      for (const PartRun &r : llvm::reverse(b.runs)) {
        int64_t src = r.sent * P + b.first,
                dst = r.received * P + (b.first + b.shift) % P;
        reassign(result, z3::ite(slot == slotNum(forwards ? src : dst),
                         slotNum(forwards ? dst : src), result));
      }
      continue;
    }
    z3::expr member = forwards ? sendsIn(b, rank) : receivesIn(b, rank);
    z3::expr movedRank = rankThrough(b, rank, forwards);
    // The runs grouped by how far they move a part index: one term each.
    std::map<int64_t, std::vector<PartRun>> byDelta;
    for (const PartRun &r : b.runs)
      byDelta[r.received - r.sent].push_back(r);
    for (auto &[delta, runs] : byDelta) {
      MoveBlock same = b;
      same.runs = runs;
      // One part moved: its destination is a constant, no addition.
      z3::expr movedPart =
          runs.size() == 1 && runs[0].length == 1
              ? field(forwards ? runs[0].received : runs[0].sent)
              : delta == 0 ? part : part + field(forwards ? delta : -delta);
      reassign(result, z3::ite(member && inRuns(same, part, forwards),
                       pack(movedPart, movedRank), result));
    }
  }
  return result;
}

z3::expr Encoder::inBlocks(const SlotStep &step, const z3::expr &slot,
                           bool sendingSide) const {
  int64_t P = program.ranks;
  z3::expr_vector any(ctx);
  z3::expr part = partOf(slot), rank = rankOf(slot);
  for (const MoveBlock &b : step.blocks) {
    if (!isFewMoves(b)) {
      any.push_back((sendingSide ? sendsIn(b, rank) : receivesIn(b, rank)) &&
                    inRuns(b, part, sendingSide));
      continue;
    }
    for (const PartRun &r : b.runs)
      any.push_back(slot == slotNum(sendingSide ? r.sent * P + b.first
                                                : r.received * P +
                                                      (b.first + b.shift) % P));
  }
  return z3::mk_or(any);
}

z3::expr Encoder::received(const SlotStep &step, const z3::expr &slot) const {
  if (step.isRange)
    return inRange(*this, slot, step.to, step.vectors);
  if (!program.groupLevel)
    return inBlocks(step, slot, /*sendingSide=*/false);
  z3::expr_vector any(ctx);
  for (const SlotMove &m : step.moves)
    any.push_back(slot == num(m.dst));
  return z3::mk_or(any);
}

z3::expr Encoder::sourceOf(const SlotStep &step, const z3::expr &slot) const {
  if (step.isRange)
    return slot - num(step.to) + num(step.from);
  if (!program.groupLevel)
    return moveThrough(step, slot, /*forwards=*/false);
  z3::expr result = slot;
  for (const SlotMove &m : llvm::reverse(step.moves))
    reassign(result, z3::ite(slot == num(m.dst), num(m.src), result));
  return result;
}

z3::expr Encoder::sent(const SlotStep &step, const z3::expr &slot) const {
  if (step.isRange)
    return inRange(*this, slot, step.from, step.vectors);
  if (!program.groupLevel)
    return inBlocks(step, slot, /*sendingSide=*/true);
  z3::expr_vector any(ctx);
  for (const SlotMove &m : step.moves)
    any.push_back(slot == num(m.src));
  return z3::mk_or(any);
}

z3::expr Encoder::destinationOf(const SlotStep &step,
                                const z3::expr &slot) const {
  if (step.isRange)
    return slot - num(step.from) + num(step.to);
  if (!program.groupLevel)
    return moveThrough(step, slot, /*forwards=*/true);
  z3::expr result = slot;
  for (const SlotMove &m : llvm::reverse(step.moves))
    reassign(result, z3::ite(slot == num(m.src), num(m.dst), result));
  return result;
}

/// A constant of `like`'s bit width.
static z3::expr numLike(const z3::expr &like, int64_t value) {
  return like.ctx().bv_val(static_cast<uint64_t>(value),
                           like.get_sort().bv_size());
}

/// Whether `part` carries data (the last scratchParts parts do not).
static z3::expr isDataPart(const SlotProgram &program, const z3::expr &part) {
  if (program.scratchParts == 0)
    return part.ctx().bool_val(true);
  return z3::ult(part, numLike(part, program.parts - program.scratchParts));
}

z3::expr Encoder::heldAt(const z3::expr &part, const z3::expr &rank) const {
  return isDataPart(program, part) && heldByKind(part, rank);
}

z3::expr Encoder::heldByKind(const z3::expr &part,
                             const z3::expr &rank) const {
  switch (program.rules.kind) {
  case CollectiveKind::exclusive_scan: // part 0 carries the prefix
    return part == numLike(part, 0);
  case CollectiveKind::allgather: // its own block
  case CollectiveKind::gather:
    return rank == part;
  case CollectiveKind::broadcast:
  case CollectiveKind::scatter:
    return rank == numLike(rank, program.rules.root);
  default:
    return ctx.bool_val(true);
  }
}

z3::expr Encoder::deliveredAt(const z3::expr &part,
                              const z3::expr &rank) const {
  return isDataPart(program, part) && deliveredByKind(part, rank);
}

z3::expr Encoder::deliveredByKind(const z3::expr &part,
                                  const z3::expr &rank) const {
  switch (program.rules.kind) {
  case CollectiveKind::exclusive_scan: // part 1, but rank 0's is undefined
    return part == numLike(part, 1) && rank != numLike(rank, 0);
  case CollectiveKind::reduce_scatter: // its own block
  case CollectiveKind::scatter:
    return rank == part;
  case CollectiveKind::reduce:
  case CollectiveKind::gather:
    return rank == numLike(rank, program.rules.root);
  default:
    return ctx.bool_val(true);
  }
}

z3::expr Encoder::needsAt(const z3::expr &part, const z3::expr &rank,
                          const z3::expr &tokenPart,
                          const z3::expr &tokenRank) const {
  z3::expr held = heldAt(tokenPart, tokenRank);
  switch (program.rules.kind) {
  case CollectiveKind::inclusive_scan: // ranks 0 .. rank
    return held && part == tokenPart && z3::ule(tokenRank, rank);
  case CollectiveKind::exclusive_scan: // ranks 0 .. rank - 1, from part 0
    return held && part == numLike(part, 1) && z3::ult(tokenRank, rank);
  case CollectiveKind::alltoall: { // offset j of rank r comes from r - j
    z3::expr P = numLike(rank, program.ranks);
    return held && tokenPart == part &&
           tokenRank == z3::ite(z3::uge(rank, part), rank - part,
                                rank + P - part);
  }
  default:
    return held && part == tokenPart;
  }
}

// The slot forms: group level (placements) or (part, rank) of the slot.
z3::expr Encoder::notScratch(const z3::expr &slot) const {
  if (program.scratchParts == 0)
    return ctx.bool_val(true);
  // Group level: slots are copy * P + placement, copies 1.. scratch.
  return program.groupLevel
             ? z3::ult(slot, num(program.ranks))
             : z3::ult(partOf(slot),
                       field(program.parts - program.scratchParts));
}

z3::expr Encoder::initiallyHeld(const z3::expr &slot) const {
  if (program.groupLevel) // placement 0: each rank's own block
    return program.rules.kind == CollectiveKind::allgather ? slot == num(0)
                                                           : notScratch(slot);
  return notScratch(slot) && heldAt(partOf(slot), rankOf(slot));
}

z3::expr Encoder::isDelivered(const z3::expr &slot) const {
  if (program.groupLevel)
    return program.rules.kind == CollectiveKind::reduce_scatter
               ? slot == num(0)
               : notScratch(slot);
  return notScratch(slot) && deliveredAt(partOf(slot), rankOf(slot));
}

z3::expr Encoder::needs(const z3::expr &slot, const z3::expr &token) const {
  if (program.groupLevel)
    return initiallyHeld(token);
  return needsAt(partOf(slot), rankOf(slot), partOf(token), rankOf(token));
}

z3::expr Encoder::name(z3::solver &solver, const std::string &prefix,
                       const z3::expr &value) {
  std::string id = prefix + "!" + std::to_string(fresh++);
  z3::expr c = value.is_bool() ? ctx.bool_const(id.c_str())
                               : ctx.constant(id.c_str(), value.get_sort());
  solver.add(c == value);
  return c;
}

int64_t Encoder::slotValue(const z3::model &model,
                           const z3::expr &slot) const {
  if (program.groupLevel)
    return valueIn(model, slot);
  return valueIn(model, partOf(slot)) * program.ranks +
         valueIn(model, rankOf(slot));
}

Outcome coll::verify::check(z3::solver &solver, std::string &reason) {
  switch (solver.check()) {
  case z3::unsat:
    return Outcome::unsat;
  case z3::sat:
    return Outcome::sat;
  case z3::unknown:
    reason = "Z3 answered unknown (" + solver.reason_unknown() + ")";
    return Outcome::unknown;
  }
  return Outcome::unknown;
}
