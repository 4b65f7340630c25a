//===- StepTraffic.h - steps as messages, for the cost library --*- C++ -*-===//
//
// Private to passes/lib/cost: the messages of each step, and their pricing,
// shared by the cost model and the optical switch.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_LIB_COST_STEPTRAFFIC_H
#define COLL_PASSES_LIB_COST_STEPTRAFFIC_H

#include "coll/Passes/CostModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace coll::detail {

/// One message of a step (or a local move when src == dst).
struct Message {
  int64_t src, dst;
  double size; // bytes
  std::vector<int64_t> sent, received;
  bool merges;
};
using Traffic = std::vector<Message>;

/// Affine costs take their slope from this size: from one byte the slope
/// would carry the rounding of the fixed part (1e-16 relative).
constexpr double kSlopeProbeBytes = 1 << 30;

/// Bytes of one part: a share of the vector, or a whole block.
double partBytes(ProgramOp program, double bytes);

/// The messages of every step, each part `part` bytes.
std::vector<Traffic> trafficOfSteps(ProgramOp program, double part);

/// Prices steps given as their messages (see costOfSteps). On a topology
/// without a path for some message the step costs infinity.
std::vector<StepCost> priceSteps(llvm::ArrayRef<Traffic> steps,
                                 const MachineModel &model,
                                 const Topology *topology);

/// The time of `steps`, given at kSlopeProbeBytes, as fixed + per-byte:
/// priced as given and with every message emptied (sizes scale with the
/// call's bytes, so one expansion of the steps serves both). {infinity, 0}
/// when a message has no path.
AffineCost affineOfTraffic(llvm::ArrayRef<Traffic> atProbe,
                           const MachineModel &model,
                           const Topology *topology);

} // namespace coll::detail

#endif
