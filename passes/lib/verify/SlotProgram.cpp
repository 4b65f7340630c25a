//===- SlotProgram.cpp - a step program as moves between slots ------------===//
#include "SlotProgram.h"

#include "coll/Passes/Verify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

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

/// Marks `s` as a shift when its transfers are exactly x -> x + shift for
/// every rank x, all with the same parts, kept under the same indices.
static void detectShift(SlotStep &s, const std::vector<Transfer> &transfers,
                        int64_t ranks) {
  if (static_cast<int64_t>(transfers.size()) != ranks || ranks < 2)
    return;
  int64_t shift = ((transfers[0].dst - transfers[0].src) % ranks + ranks) % ranks;
  std::vector<bool> seen(ranks, false);
  for (const Transfer &t : transfers) {
    if (seen[t.src] || ((t.dst - t.src) % ranks + ranks) % ranks != shift ||
        t.sent != transfers[0].sent || t.received != t.sent)
      return;
    seen[t.src] = true;
  }
  std::vector<int64_t> parts = transfers[0].sent;
  llvm::sort(parts);
  if (std::adjacent_find(parts.begin(), parts.end()) != parts.end())
    return; // a part sent twice: leave it to the concrete moves
  s.isShift = true;
  s.shift = shift;
  s.shiftParts = parts;
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

SlotProgram SlotProgram::build(ProgramOp program, bool perRank) {
  SlotProgram sp;
  sp.program = program;
  sp.ranks = program.getNumRanks();
  sp.parts = program.getNumParts();
  sp.group = program.getGroup();
  if (std::optional<uint64_t> scratch = program.getNumScratchParts())
    sp.scratchParts = static_cast<int64_t>(*scratch);
  if (sp.group)
    sp.algebra = GroupAlgebra::of(program);
  sp.noncommutative = program.getNoncommutative();
  sp.kind = program.getKind();
  if (std::optional<uint64_t> root = program.getRoot())
    sp.root = static_cast<int64_t>(*root);
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
      sp.initial[k] = !scratch && sp.kind != CollectiveKind::allgather;
      sp.delivered[k] = !scratch && sp.kind != CollectiveKind::reduce_scatter;
    }
  } else {
    for (int64_t slot = 0; slot < sp.numSlots; ++slot) {
      sp.initial[slot] = program.startsWith(slot % sp.ranks, slot / sp.ranks);
      sp.delivered[slot] = program.delivers(slot % sp.ranks, slot / sp.ranks);
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
      // What runs (transfersOfMove) sends every vector of the range along
      // the first one's permutation g = t_to t_from^-1, so vector from+i
      // lands on placement g t_{from+i}: to+i exactly when the range is
      // one permutation (always on cyclic(P), for aligned ranges on
      // xor(P)). Otherwise the slots name where the vectors really go.
      int64_t from = *step.getFrom(), to = *step.getTo(),
              vectors = *step.getVectors();
      int64_t g = sp.algebra->quotient(to, from);
      bool uniform = true;
      for (int64_t i = 0; i < vectors && uniform; ++i)
        uniform = sp.algebra->compose(g, from + i) == to + i;
      if (uniform) {
        s.isRange = true;
        s.from = from;
        s.to = to;
        s.vectors = vectors;
      } else {
        for (int64_t i = 0; i < vectors; ++i)
          s.moves.push_back({from + i, sp.algebra->compose(g, from + i)});
      }
    } else {
      std::vector<Transfer> transfers = transfersOfStep(step);
      for (const Transfer &t : transfers)
        for (auto [sentPart, receivedPart] : llvm::zip(t.sent, t.received))
          s.moves.push_back(
              {sentPart * sp.ranks + t.src, receivedPart * sp.ranks + t.dst});
      detectShift(s, transfers, sp.ranks);
      sp.transfers.push_back(std::move(transfers));
    }
    sp.steps.push_back(std::move(s));
  }
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

bool SlotProgram::isReduceThenCopy() const {
  if (llvm::any_of(steps, [](const SlotStep &s) { return s.folds(); }))
    return false; // a fold keeps the sender's value: not one path per token
  size_t firstCopy = firstCopyStep();
  for (size_t i = firstCopy; i < steps.size(); ++i)
    if (steps[i].combines())
      return false;
  for (size_t i = 0; i < firstCopy; ++i) {
    const SlotStep &s = steps[i];
    if (s.isRange) {
      if (s.from < s.to + s.vectors && s.to < s.from + s.vectors)
        return false;
      continue;
    }
    std::vector<bool> sends(numSlots, false);
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

//===----------------------------------------------------------------------===//
// Encoder
//===----------------------------------------------------------------------===//

Encoder::Encoder(z3::context &ctx, const SlotProgram &program)
    : ctx(ctx), program(program) {
  // Room for slot + range offsets without wrapping.
  width = llvm::Log2_64_Ceil(static_cast<uint64_t>(program.numSlots) + 1) + 2;
}

z3::expr Encoder::num(int64_t value) const {
  return ctx.bv_val(static_cast<uint64_t>(value), width);
}

z3::expr Encoder::slotVar(const std::string &name) const {
  return ctx.bv_const(name.c_str(), width);
}

z3::expr Encoder::inDomain(const z3::expr &slot) const {
  return z3::ult(slot, num(program.numSlots));
}

static z3::expr inRange(const Encoder &e, const z3::expr &x, int64_t lo,
                        int64_t n) {
  return z3::uge(x, e.num(lo)) && z3::ult(x, e.num(lo + n));
}

/// Whether `slot`'s part is one of a shift step's parts.
static z3::expr inShiftParts(const Encoder &e, const SlotStep &step,
                             const z3::expr &slot) {
  z3::expr_vector any(e.ctx);
  for (int64_t part : step.shiftParts)
    any.push_back(inRange(e, slot, part * e.program.ranks, e.program.ranks));
  return z3::mk_or(any);
}

/// The slot of the same part on rank (rank of `slot`) + by (mod P).
static z3::expr shifted(const Encoder &e, const z3::expr &slot, int64_t by) {
  int64_t P = e.program.ranks;
  z3::expr rank = z3::urem(slot, e.num(P));
  return slot - rank + z3::urem(rank + e.num(((by % P) + P) % P), e.num(P));
}

z3::expr Encoder::received(const SlotStep &step, const z3::expr &slot) const {
  if (step.isRange)
    return inRange(*this, slot, step.to, step.vectors);
  if (step.isShift)
    return inShiftParts(*this, step, slot);
  z3::expr_vector any(ctx);
  for (const SlotMove &m : step.moves)
    any.push_back(slot == num(m.dst));
  return z3::mk_or(any);
}

z3::expr Encoder::sourceOf(const SlotStep &step, const z3::expr &slot) const {
  if (step.isRange)
    return slot - num(step.to) + num(step.from);
  if (step.isShift)
    return z3::ite(inShiftParts(*this, step, slot),
                   shifted(*this, slot, -step.shift), slot);
  z3::expr result = slot;
  for (const SlotMove &m : llvm::reverse(step.moves))
    result = z3::ite(slot == num(m.dst), num(m.src), result);
  return result;
}

z3::expr Encoder::sent(const SlotStep &step, const z3::expr &slot) const {
  if (step.isRange)
    return inRange(*this, slot, step.from, step.vectors);
  if (step.isShift)
    return inShiftParts(*this, step, slot);
  z3::expr_vector any(ctx);
  for (const SlotMove &m : step.moves)
    any.push_back(slot == num(m.src));
  return z3::mk_or(any);
}

z3::expr Encoder::destinationOf(const SlotStep &step,
                                const z3::expr &slot) const {
  if (step.isRange)
    return slot - num(step.from) + num(step.to);
  if (step.isShift)
    return z3::ite(inShiftParts(*this, step, slot),
                   shifted(*this, slot, step.shift), slot);
  z3::expr result = slot;
  for (const SlotMove &m : llvm::reverse(step.moves))
    result = z3::ite(slot == num(m.src), num(m.dst), result);
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
  switch (program.kind) {
  case CollectiveKind::exclusive_scan: // part 0 carries the prefix
    return part == numLike(part, 0);
  case CollectiveKind::allgather: // its own block
  case CollectiveKind::gather:
    return rank == part;
  case CollectiveKind::broadcast:
  case CollectiveKind::scatter:
    return rank == numLike(rank, *program.root);
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
  switch (program.kind) {
  case CollectiveKind::exclusive_scan: // part 1, but rank 0's is undefined
    return part == numLike(part, 1) && rank != numLike(rank, 0);
  case CollectiveKind::reduce_scatter: // its own block
  case CollectiveKind::scatter:
    return rank == part;
  case CollectiveKind::reduce:
  case CollectiveKind::gather:
    return rank == numLike(rank, *program.root);
  default:
    return ctx.bool_val(true);
  }
}

z3::expr Encoder::needsAt(const z3::expr &part, const z3::expr &rank,
                          const z3::expr &tokenPart,
                          const z3::expr &tokenRank) const {
  z3::expr held = heldAt(tokenPart, tokenRank);
  switch (program.kind) {
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
  z3::expr ranks = num(program.ranks);
  // Group level: slots are copy * P + placement, copies 1.. scratch.
  return program.groupLevel
             ? z3::ult(slot, ranks)
             : z3::ult(z3::udiv(slot, ranks),
                       num(program.parts - program.scratchParts));
}

z3::expr Encoder::initiallyHeld(const z3::expr &slot) const {
  if (program.groupLevel) // placement 0: each rank's own block
    return program.kind == CollectiveKind::allgather ? slot == num(0)
                                                     : notScratch(slot);
  z3::expr ranks = num(program.ranks);
  return notScratch(slot) &&
         heldAt(z3::udiv(slot, ranks), z3::urem(slot, ranks));
}

z3::expr Encoder::isDelivered(const z3::expr &slot) const {
  if (program.groupLevel)
    return program.kind == CollectiveKind::reduce_scatter ? slot == num(0)
                                                          : notScratch(slot);
  z3::expr ranks = num(program.ranks);
  return notScratch(slot) &&
         deliveredAt(z3::udiv(slot, ranks), z3::urem(slot, ranks));
}

z3::expr Encoder::needs(const z3::expr &slot, const z3::expr &token) const {
  if (program.groupLevel)
    return initiallyHeld(token);
  z3::expr ranks = num(program.ranks);
  return needsAt(z3::udiv(slot, ranks), z3::urem(slot, ranks),
                 z3::udiv(token, ranks), z3::urem(token, ranks));
}

z3::expr Encoder::name(z3::solver &solver, const std::string &prefix,
                       const z3::expr &value) {
  std::string id = prefix + "!" + std::to_string(fresh++);
  z3::expr c = value.is_bool() ? ctx.bool_const(id.c_str())
                               : ctx.constant(id.c_str(), value.get_sort());
  solver.add(c == value);
  return c;
}

int64_t Encoder::valueOf(const z3::model &model, const z3::expr &e) const {
  z3::expr v = model.eval(e, /*model_completion=*/true);
  return static_cast<int64_t>(v.get_numeral_uint64());
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
