//===- Trace.cpp - per-step values of a step program ----------------------===//
//
// `collc trace` output: every rank starts with the inputs of seeds/000's
// 4-rank catalogue (see initialValue; "_" in the parts its collective does
// not start it with), and the values of every rank are printed after every
// step, as in the seed's traces ("r0 [1 1 1 5]   r1 [3 2 2 2] ..."). Kinds
// that deliver only some parts end with a "result" line: the delivered
// parts, "?" for a rank with none (the seed's "reduce(sum, root=0): 10 ? ? ?").
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/Lowering.h"
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Simulation.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace coll;

namespace {
/// Chunk j of `count` elements over P chunks: the first count % P chunks
/// get one element more (the same layout the runtime uses).
struct ChunkLayout {
  int64_t count, chunks;
  int64_t offset(int64_t j) const {
    return j * (count / chunks) + std::min(j, count % chunks);
  }
  int64_t size(int64_t j) const {
    return count / chunks + (j < count % chunks ? 1 : 0);
  }
};

int64_t combineValues(ReduceOp op, int64_t a, int64_t b) {
  switch (op) {
  case ReduceOp::sum:
    return a + b;
  case ReduceOp::prod:
    return a * b;
  case ReduceOp::min:
    return std::min(a, b);
  case ReduceOp::max:
    return std::max(a, b);
  case ReduceOp::custom: // shown as a sum: the trace cannot run the caller's
    return a + b;
  }
  return a;
}
} // namespace

/// The seed's catalogue inputs: rank r holds r + 1, except that
/// reduce_scatter's rank r brings 10 (r + 1) + b for block b (sums 100, 104,
/// ... on 4 ranks), scatter's root brings 10 (b + 1) for block b, and
/// alltoall's rank r brings 10 r + d for rank d (its part j is the block
/// for d = r + j).
static int64_t initialValue(CollectiveKind kind, int64_t rank, int64_t part,
                            int64_t ranks) {
  switch (kind) {
  case CollectiveKind::reduce_scatter:
    return 10 * (rank + 1) + part;
  case CollectiveKind::scatter:
    return 10 * (part + 1);
  case CollectiveKind::alltoall:
    return 10 * rank + (rank + part) % ranks;
  default:
    return rank + 1;
  }
}

/// An element no rank has a value for yet (allgather's and broadcast's
/// other slots): printed as "_".
constexpr int64_t kNoValue = std::numeric_limits<int64_t>::min();

/// The user's buffer of every rank: the first `count` values.
static void printValues(const std::vector<std::vector<int64_t>> &values,
                        int64_t count, llvm::raw_ostream &os) {
  for (size_t r = 0; r < values.size(); ++r) {
    if (r)
      os << "   ";
    os << "r" << r << " [";
    for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
      os << (i ? " " : "");
      if (values[r][i] == kNoValue)
        os << "_";
      else
        os << values[r][i];
    }
    os << "]";
  }
  os << "\n";
}

LogicalResult coll::printTrace(ProgramOp program, int64_t count,
                               llvm::raw_ostream &os) {
  int64_t ranks = program.getNumRanks(), parts = program.getNumParts();
  // Scratch parts (copies c * P + b of the P parts, or Trivance's received
  // value) live after the user's buffer and are not printed.
  int64_t dataParts =
      parts - static_cast<int64_t>(program.getNumScratchParts().value_or(0));
  if (program.getGroup() && parts > ranks)
    dataParts = ranks;
  // Whole copies of the buffer, the last perhaps partly used (an exclusive
  // chain's one scratch part beside its two).
  int64_t copies = (parts + dataParts - 1) / dataParts;
  ChunkLayout layout{count, dataParts};
  auto chunkOf = [&](int64_t part) {
    if (std::optional<ArrayRef<int64_t>> chunks = program.getChunkOfPart())
      return (*chunks)[part];
    return part;
  };

  std::vector<std::vector<int64_t>> values(ranks);
  auto elementsOf = [&](int64_t part) {
    int64_t chunk = chunkOf(part);
    int64_t begin = (chunk / dataParts) * count +
                    layout.offset(chunk % dataParts);
    return std::make_pair(begin, begin + layout.size(chunk % dataParts));
  };
  for (int64_t r = 0; r < ranks; ++r) {
    values[r].assign(copies * count, kNoValue);
    for (int64_t b = 0; b < parts; ++b)
      if (program.startsWith(r, b))
        for (auto [e, end] = elementsOf(b); e < end; ++e)
          values[r][e] = initialValue(program.getKind(), r, b, ranks);
  }
  os << "initial\n";
  printValues(values, count, os);

  if (std::optional<std::string> message = Simulation::tooLarge(program))
    return program.emitError() << *message;
  Simulation sim(program);
  auto printOwners = [&](StringRef phase) {
    os << "\nowners after " << phase << "\n";
    for (int64_t r = 0; r < ranks; ++r) {
      if (r)
        os << "   ";
      SmallVector<int64_t> owned;
      for (int64_t b = 0; b < parts; ++b)
        if (sim.holdsResult(r, b))
          owned.push_back(chunkOf(b));
      llvm::sort(owned);
      os << "r" << r << (owned.size() == 1 ? " chunk " : " chunks ");
      if (owned.empty())
        os << "none";
      llvm::interleave(owned, os, ", ");
    }
    os << "\n";
  };

  StringRef phase;
  int64_t index = 0, inPhase = 0;
  for (StepOp step : program.getBody().getOps<StepOp>()) {
    if (step.getPhase() != phase) {
      if (phase == "reduce-scatter")
        printOwners(phase);
      phase = step.getPhase();
      inPhase = 0;
    }
    if (std::optional<Violation> v = sim.apply(step, index)) {
      v->at->emitError() << v->property << " violated at step " << index
                         << ": " << v->message;
      return failure();
    }
    std::vector<std::vector<int64_t>> before = values;
    bool combine = step.getStepKind() != StepKind::copy;
    for (const Transfer &t : transfersOfStep(step)) {
      for (auto [sent, received] : llvm::zip(t.sent, t.received)) {
        // Parts of a chunk layout have equal sizes or differ by one; a
        // transfer between parts of different sizes moves the common prefix.
        auto [from, fromEnd] = elementsOf(sent);
        auto [to, toEnd] = elementsOf(received);
        for (; from < fromEnd && to < toEnd; ++from, ++to)
          values[t.dst][to] =
              combine ? combineValues(program.getOp(), values[t.dst][to],
                                      before[t.src][from])
                      : before[t.src][from];
      }
    }
    os << "\n" << phase << " step " << inPhase << "\n";
    printValues(values, count, os);
    ++index;
    ++inPhase;
  }
  if (phase == "reduce-scatter")
    printOwners(phase);
  if (std::optional<Violation> v = sim.finish(index)) {
    v->at->emitError() << v->property << " violated after the last step: "
                       << v->message;
    return failure();
  }
  bool alltoall = program.getKind() == CollectiveKind::alltoall;
  bool partial = false;
  for (int64_t r = 0; r < ranks; ++r)
    for (int64_t b = 0; b < dataParts; ++b)
      partial |= !program.delivers(r, b);
  if (!partial && !alltoall)
    return success();
  // alltoall's result is in source order: the block of rank s is part r - s.
  os << "\nresult" << (alltoall ? " (by source rank)" : "") << "\n";
  for (int64_t r = 0; r < ranks; ++r) {
    os << (r ? "   " : "") << "r" << r;
    std::vector<int64_t> delivered;
    for (int64_t i = 0; i < dataParts; ++i) {
      int64_t b = alltoall ? ((r - i) % ranks + ranks) % ranks : i;
      if (program.delivers(r, b))
        for (auto [e, end] = elementsOf(b); e < end; ++e)
          delivered.push_back(values[r][e]);
    }
    if (delivered.empty()) {
      os << " ?";
      continue;
    }
    os << " [";
    llvm::interleave(delivered, os, " ");
    os << "]";
  }
  os << "\n";
  return success();
}
