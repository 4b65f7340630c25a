//===- Trace.cpp - per-step values of a step program ----------------------===//
//
// `collc trace` output: rank r starts with `count` copies of r+1 (in the
// parts its collective starts it with; "_" elsewhere), and the
// values of every rank are printed after every step, as in the 4-rank
// traces of seeds/000 ("r0 [1 1 1 5]   r1 [3 2 2 2] ...").
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
  }
  return a;
}
} // namespace

/// An element no rank has a value for yet (allgather's and broadcast's
/// other slots): printed as "_".
constexpr int64_t kNoValue = std::numeric_limits<int64_t>::min();

static void printValues(const std::vector<std::vector<int64_t>> &values,
                        llvm::raw_ostream &os) {
  for (size_t r = 0; r < values.size(); ++r) {
    if (r)
      os << "   ";
    os << "r" << r << " [";
    for (size_t i = 0; i < values[r].size(); ++i) {
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
  ChunkLayout layout{count, parts};
  auto chunkOf = [&](int64_t part) {
    if (std::optional<ArrayRef<int64_t>> chunks = program.getChunkOfPart())
      return (*chunks)[part];
    return part;
  };

  std::vector<std::vector<int64_t>> values(ranks);
  for (int64_t r = 0; r < ranks; ++r) {
    values[r].assign(count, r + 1);
    for (int64_t b = 0; b < parts; ++b)
      if (!program.startsWith(r, b))
        for (int64_t e = layout.offset(chunkOf(b)),
                     end = e + layout.size(chunkOf(b));
             e < end; ++e)
          values[r][e] = kNoValue;
  }
  os << "initial\n";
  printValues(values, os);

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
    bool combine = step.getStepKind() == StepKind::combine;
    for (const Transfer &t : transfersOfStep(step)) {
      int64_t src = t.src, dst = t.dst;
      for (int64_t b : t.sent) {
        int64_t chunk = chunkOf(b);
        for (int64_t e = layout.offset(chunk),
                     end = e + layout.size(chunk);
             e < end; ++e)
          values[dst][e] = combine ? combineValues(program.getOp(),
                                                   values[dst][e],
                                                   before[src][e])
                                   : before[src][e];
      }
    }
    os << "\n" << phase << " step " << inPhase << "\n";
    printValues(values, os);
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
  return success();
}
