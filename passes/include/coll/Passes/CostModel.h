//===- CostModel.h - alpha-beta-gamma cost of step programs -----*- C++ -*-===//
//
// The cost of a schedule computed from its step program (design.md 5): a
// step in which some rank sends costs alpha (startup), plus beta per byte
// of the largest message a rank sends or receives in it, plus gamma per
// byte of the largest merge a rank does in it. The closed forms of
// design.md 5 are test oracles for this, not its source.
//
// Bytes: `bytes` is the call's count * sizeof(T). Kinds over one vector
// (allreduce, reduce, broadcast, barrier) cut it into the program's data
// parts; the kinds of blocks (reduce_scatter, allgather, gather, scatter,
// alltoall) and the scans move parts of `bytes` each.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_COSTMODEL_H
#define COLL_PASSES_COSTMODEL_H

#include "coll/Dialect/CollOps.h"
#include "coll/Passes/Topology.h"

#include <optional>
#include <string>
#include <vector>

namespace coll {

/// A uniform, fully connected machine: every message one hop.
struct MachineModel {
  std::string name = "model";
  double alpha = 0; // microseconds per message
  double beta = 0;  // microseconds per byte
  double gamma = 0; // microseconds per merged byte
  /// Microseconds of a rank's CPU per message it sends or receives
  /// (LogGP's o): a step adds it once per message of the rank that sends
  /// the most and once per message of the rank that receives the most.
  double overhead = 0;
  /// A built-in topology (full, ring, torus(a, b), fat_tree(k),
  /// hierarchy(n, GB/s)) or a topology file; empty: the uniform machine.
  std::string topology, topologyFile;
  double hopLatency = 0; // microseconds per link of a built-in topology
  /// Microseconds to reconfigure an optical circuit switch (reconfigure
  /// auto; negative: not given).
  double delta = -1;
  /// Ports per node: up to this many consecutive communication steps that
  /// touch disjoint parts overlap (ReTri's + and - steps, a Trivance phase).
  int ports = 1;
  static constexpr int kMaxPorts = 4096;

  /// `topology = optical_switch`: each node has `ports` circuits on an
  /// optical circuit switch that is set, phase by phase, to the circuits a
  /// phase uses (coll/Passes/OpticalSwitch.h).
  bool isOpticalSwitch() const { return topology == "optical_switch"; }

  /// The topology for P ranks (nullopt with an empty `error` for the
  /// uniform machine); on error nullopt and `error` set.
  std::optional<Topology> topologyFor(int64_t P, std::string &error) const;

  /// `key = value` lines (`#` comments): name, alpha (us), beta (us/B) or
  /// bandwidth (GB/s), gamma (us/B). On error returns nullopt and sets
  /// `error` to "LINE:COL: message".
  static std::optional<MachineModel> parse(llvm::StringRef text,
                                           std::string &error);
  /// Why `load` failed: the model file's "FILE:LINE:COL" when a line of it
  /// is wrong (else empty), and what is wrong.
  struct LoadError {
    std::string where;
    std::string message;
  };
  /// A model file (its topology file named relative to it), or inline
  /// "alpha=...,beta=..."; on error nullopt and `error` set.
  static std::optional<MachineModel> load(llvm::StringRef spec,
                                          LoadError &error);
  /// `load` for the command line: errors go to `errors` as
  /// "FILE:LINE:COL: error: ..." or "collc: error: --model ...".
  static std::optional<MachineModel> load(llvm::StringRef spec,
                                          llvm::raw_ostream &errors);
  /// "alpha = 0.065 us, beta = 1.717528e-05 us/B (58.223 GB/s), gamma = 0 us/B"
  std::string describe() const;
};

struct StepCost {
  bool communicates = false; // some rank sends to another rank
  double bytes = 0;          // largest message a rank sends or receives
  double mergedBytes = 0;    // largest merge a rank does
  int64_t hops = 0;          // longest path a message takes
  double time = 0;           // microseconds
  /// On a machine with several ports: runs on another port, overlapped
  /// with the steps before it (its time is then only what it adds).
  bool overlapped = false;
};

/// The cost of every step of `program` for a call of `bytes` bytes (one
/// segment's share, bytes / S, when the program has segments), on the
/// uniform machine or on `topology` (messages on shortest paths; a step
/// costs alpha + its longest path's latency + its most loaded link's bytes
/// over that link's bandwidth + gamma * its largest merge).
std::vector<StepCost> costOfSteps(ProgramOp program, const MachineModel &model,
                                  double bytes,
                                  const Topology *topology = nullptr);

/// With `segments` = S on the program, costOfSteps prices one segment's
/// steps (bytes / S) and this the pipelined run: S + steps - 1 super-steps,
/// super-step t carrying step t - j of every segment j (as
/// coll::pipelinePlan runs them; the runtime uses count segments when
/// count < S, priced here as S). A rank's
/// messages in a super-step add up, so pipelining pays where a step keeps
/// most ranks idle (a chain: (P + S - 2)(alpha + beta M / S)), not where
/// every rank sends in every step (the ring). Without segments: costOfSteps.
std::vector<StepCost> costOfSuperSteps(ProgramOp program,
                                       const MachineModel &model, double bytes,
                                       const Topology *topology = nullptr);

/// The whole program's time: the sum over its (super-)steps.
double predictedTime(ProgramOp program, const MachineModel &model,
                     double bytes, const Topology *topology = nullptr);

/// On this model the time is affine in the size: time(M) = fixed + perByte M.
struct AffineCost {
  double fixed = 0, perByte = 0;
  double at(double bytes) const { return fixed + perByte * bytes; }
};
AffineCost affineCost(ProgramOp program, const MachineModel &model,
                      const Topology *topology = nullptr);

/// The size where two affine costs meet, if they cross at a positive size.
std::optional<double> crossover(const AffineCost &a, const AffineCost &b);

/// The cheapest of `costs` per size range (absent costs never win; on a
/// tie the lower index): ascending (size where the next range starts,
/// index), the last range ending at infinity. Empty when no cost is given.
/// Crossovers beyond 2^62 bytes (rounding between parallel costs) are no
/// thresholds, and crossovers less than a byte apart are one.
std::vector<std::pair<double, size_t>>
cheapestBySize(const std::vector<std::optional<AffineCost>> &costs);

} // namespace coll

#endif
