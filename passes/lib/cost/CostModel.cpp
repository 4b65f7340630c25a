//===- CostModel.cpp - alpha-beta-gamma cost of step programs -------------===//
#include "coll/Passes/CostModel.h"
#include "coll/Passes/GroupSchedule.h"
#include "coll/segments.hpp"
#include "StepTraffic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

using namespace coll;
using namespace coll::detail;

std::optional<MachineModel> MachineModel::load(llvm::StringRef spec,
                                               LoadError &loadError) {
  std::string error;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
          llvm::MemoryBuffer::getFile(spec)) {
    std::optional<MachineModel> model =
        MachineModel::parse((*file)->getBuffer(), error);
    if (!model) {
      // parse's "LINE:COL: message", at the file's name.
      loadError.where = spec.str() + ":" + error.substr(0, error.find(": "));
      loadError.message = error.substr(error.find(": ") + 2);
      return std::nullopt;
    }
    if (model->name == "model")
      model->name = spec.rsplit('/').second.empty() ? spec.str()
                                                    : spec.rsplit('/').second.str();
    // A topology file is named relative to the model file.
    if (!model->topologyFile.empty() &&
        !llvm::sys::path::is_absolute(model->topologyFile)) {
      llvm::SmallString<128> path(llvm::sys::path::parent_path(spec));
      llvm::sys::path::append(path, model->topologyFile);
      model->topologyFile = path.str().str();
    }
    return model;
  }
  if (!spec.contains('=')) {
    loadError.message =
        "neither a readable file nor 'alpha=...,beta=...'";
    return std::nullopt;
  }
  std::string lines = spec.str();
  std::replace(lines.begin(), lines.end(), ',', '\n');
  std::optional<MachineModel> model = MachineModel::parse(lines, error);
  if (!model) {
    // (The line and column of the inline text's lines mean nothing.)
    loadError.message = error.substr(error.find(": ") + 2);
    return std::nullopt;
  }
  if (model->name == "model")
    model->name = "inline";
  return model;
}

std::optional<MachineModel> MachineModel::load(llvm::StringRef spec,
                                               llvm::raw_ostream &errors) {
  LoadError error;
  std::optional<MachineModel> model = load(spec, error);
  if (model)
    return model;
  if (!error.where.empty())
    errors << error.where << ": error: " << error.message << "\n";
  else if (spec.contains('=')) // inline constants
    errors << "collc: error: --model: " << error.message << "\n";
  else
    errors << "collc: error: --model '" << spec << "' is " << error.message
           << "\n";
  return std::nullopt;
}

std::optional<MachineModel> MachineModel::parse(llvm::StringRef text,
                                                std::string &error) {
  MachineModel model;
  bool haveBeta = false;
  int lineNo = 0;
  for (llvm::StringRef rest = text; !rest.empty();) {
    // Not a structured binding: the lambda below captures `line`, which
    // clang before 16 does not allow of a binding.
    std::pair<llvm::StringRef, llvm::StringRef> split = rest.split('\n');
    llvm::StringRef line = split.first;
    rest = split.second;
    ++lineNo;
    llvm::StringRef content = line.split('#').first;
    llvm::StringRef trimmed = content.trim();
    if (trimmed.empty())
      continue;
    auto at = [&](llvm::StringRef piece) {
      return std::to_string(lineNo) + ":" +
             std::to_string(piece.data() - line.data() + 1) + ": ";
    };
    auto [keyPart, valuePart] = trimmed.split('=');
    llvm::StringRef key = keyPart.trim(), value = valuePart.trim();
    if (!trimmed.contains('=')) {
      error = at(trimmed) + "expected 'key = value', got '" + trimmed.str() + "'";
      return std::nullopt;
    }
    if (key == "name" || key == "topology" || key == "topology_file") {
      (key == "name"       ? model.name
       : key == "topology" ? model.topology
                           : model.topologyFile) = value.str();
      continue;
    }
    double number;
    // (getAsDouble also reads "inf" and "nan": neither prices anything.)
    if (value.empty() || value.getAsDouble(number) || !std::isfinite(number) ||
        number < 0) {
      error = at(value.empty() ? keyPart : value) +
              "expected a non-negative number for '" + key.str() + "', got '" +
              value.str() + "'";
      return std::nullopt;
    }
    if (key == "alpha") {
      model.alpha = number;
    } else if (key == "beta") {
      model.beta = number;
      haveBeta = true;
    } else if (key == "bandwidth") {
      if (number == 0) {
        error = at(value) + "bandwidth must be positive";
        return std::nullopt;
      }
      model.beta = 1e-3 / number; // GB/s = 1e3 bytes per microsecond
      haveBeta = true;
    } else if (key == "gamma") {
      model.gamma = number;
    } else if (key == "overhead") {
      model.overhead = number;
    } else if (key == "hop_latency") {
      model.hopLatency = number;
    } else if (key == "delta") {
      model.delta = number;
    } else if (key == "ports") {
      if (number < 1 || number > kMaxPorts || number != std::floor(number)) {
        error = at(value) + "ports must be a whole number in 1.." +
                std::to_string(kMaxPorts) + ", got '" + value.str() + "'";
        return std::nullopt;
      }
      model.ports = static_cast<int>(number);
    } else {
      error = at(keyPart) + "unknown key '" + key.str() +
              "'; expected name, alpha, beta, bandwidth, gamma, overhead, "
              "topology, topology_file, hop_latency, delta or ports";
      return std::nullopt;
    }
  }
  if (!haveBeta) {
    error = "1:1: the model needs beta (us per byte) or bandwidth (GB/s)";
    return std::nullopt;
  }
  return model;
}

std::optional<Topology> MachineModel::topologyFor(int64_t P,
                                                  std::string &error) const {
  error.clear();
  if (!topologyFile.empty()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(topologyFile);
    if (!file) {
      error = "cannot read topology file '" + topologyFile + "'";
      return std::nullopt;
    }
    std::string why;
    std::optional<Topology> t = Topology::parse((*file)->getBuffer(), why);
    if (!t) {
      error = topologyFile + ":" + why;
      return std::nullopt;
    }
    if (t->numRanks() < P) {
      error = topologyFile + " places " + std::to_string(t->numRanks()) +
              " ranks, fewer than P = " + std::to_string(P);
      return std::nullopt;
    }
    for (int64_t a = 0; a < P; ++a)
      for (int64_t b = 0; b < P; ++b)
        if (!t->route(a, b)) {
          error = topologyFile + " has no path from rank " +
                  std::to_string(a) + " to rank " + std::to_string(b);
          return std::nullopt;
        }
    return t;
  }
  if (topology.empty())
    return std::nullopt;
  if (isOpticalSwitch()) {
    error = "the optical_switch topology changes between phases: collc cost, "
            "explain and reconfigure auto price it phase by phase, a "
            "choose's thresholds do not";
    return std::nullopt;
  }
  if (beta <= 0) {
    error = "a topology needs beta > 0 for its links' bandwidth";
    return std::nullopt;
  }
  return Topology::builtin(topology, P, hopLatency, 1e-3 / beta, error);
}

std::string MachineModel::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "alpha = " << llvm::format("%g", alpha)
     << " us, beta = " << llvm::format("%.7g", beta) << " us/B";
  if (beta > 0)
    os << " (" << llvm::format("%.3f", 1e-3 / beta) << " GB/s)";
  os << ", gamma = " << llvm::format("%g", gamma) << " us/B";
  if (overhead > 0)
    os << ", overhead = " << llvm::format("%g", overhead) << " us per message";
  if (!topologyFile.empty())
    os << ", topology " << topologyFile;
  else if (isOpticalSwitch())
    os << ", optical switch: " << ports << " circuits per node, "
       << llvm::format("%g", hopLatency) << " us per hop, delta = "
       << llvm::format("%g", delta) << " us";
  else if (!topology.empty())
    os << ", topology " << topology << ", " << llvm::format("%g", hopLatency)
       << " us per hop";
  return text;
}

/// Bytes of one part: a share of the vector, or a whole block.
double coll::detail::partBytes(ProgramOp program, double bytes) {
  switch (program.getKind()) {
  case CollectiveKind::allreduce:
  case CollectiveKind::reduce:
  case CollectiveKind::broadcast:
  case CollectiveKind::barrier: {
    int64_t scratch =
        static_cast<int64_t>(program.getNumScratchParts().value_or(0));
    int64_t data = static_cast<int64_t>(program.getNumParts()) - scratch;
    return bytes / static_cast<double>(data);
  }
  default:
    return bytes;
  }
}

std::vector<detail::Traffic> coll::detail::trafficOfSteps(ProgramOp program, double part) {
  std::vector<Traffic> steps;
  for (StepOp step : program.getBody().getOps<StepOp>()) {
    bool merges = step.getStepKind() != StepKind::copy;
    Traffic traffic;
    for (Transfer &t : transfersOfStep(step)) {
      double size = part * static_cast<double>(t.sent.size());
      traffic.push_back({t.src, t.dst, size, std::move(t.sent),
                         std::move(t.received), merges});
    }
    steps.push_back(std::move(traffic));
  }
  return steps;
}

std::vector<StepCost>
coll::detail::priceSteps(llvm::ArrayRef<Traffic> steps,
                         const MachineModel &model, const Topology *topology) {
  std::vector<StepCost> costs;
  // For overlapping on several ports: what the open group of steps writes,
  // as (rank, part), and its largest transfer time so far.
  std::set<std::pair<int64_t, int64_t>> groupWrites;
  int groupSize = 0;
  double groupTransfer = 0;
  // What a step reads and writes matters only to overlapping steps; the
  // sets cost most of the pricing (a `choose` prices every candidate for
  // every P), so they are kept only when there are ports to overlap on.
  const bool overlapping = model.ports > 1;
  for (const Traffic &traffic : steps) {
    llvm::SmallDenseMap<int64_t, double> sent, received, merged, linkLoad;
    llvm::SmallDenseMap<int64_t, int> sends, receives; // messages per rank
    std::set<std::pair<int64_t, int64_t>> reads, writes;
    StepCost cost;
    double longestPath = 0;
    bool unreachable = false;
    for (const Message &t : traffic) {
      if (overlapping) {
        for (int64_t b : t.sent)
          reads.insert({t.src, b});
        for (int64_t b : t.received) {
          writes.insert({t.dst, b});
          if (t.merges)
            reads.insert({t.dst, b});
        }
      }
      if (t.merges)
        merged[t.dst] += t.size;
      if (t.src == t.dst)
        continue; // a local copy or merge moves no message
      cost.communicates = true;
      sent[t.src] += t.size;
      received[t.dst] += t.size;
      ++sends[t.src];
      ++receives[t.dst];
      if (!topology) {
        cost.hops = 1;
        continue;
      }
      std::optional<std::vector<int64_t>> path = topology->route(t.src, t.dst);
      if (!path) { // e.g. an optical switch set for another phase
        unreachable = true;
        continue;
      }
      double latency = 0;
      for (int64_t link : *path) {
        latency += topology->getLinks()[link].latency;
        linkLoad[link] += t.size;
      }
      longestPath = std::max(longestPath, latency);
      cost.hops = std::max<int64_t>(cost.hops, path->size());
    }
    for (auto *side : {&sent, &received})
      for (auto [rank, size] : *side)
        cost.bytes = std::max(cost.bytes, size);
    for (auto [rank, size] : merged)
      cost.mergedBytes = std::max(cost.mergedBytes, size);
    double transfer = model.beta * cost.bytes;
    if (topology) {
      transfer = 0; // the most loaded link at its own bandwidth
      for (auto [link, load] : linkLoad)
        transfer = std::max(
            transfer, load / (topology->getLinks()[link].bandwidth * 1e3));
    }
    double moving = unreachable ? std::numeric_limits<double>::infinity()
                                : longestPath + transfer;
    // The per-message CPU time: the busiest sender's messages leave one
    // after another, the busiest receiver's are taken in one after another.
    int mostSends = 0, mostReceives = 0;
    for (auto [rank, n] : sends)
      mostSends = std::max(mostSends, n);
    for (auto [rank, n] : receives)
      mostReceives = std::max(mostReceives, n);
    double perMessage = model.overhead * (mostSends + mostReceives);
    cost.time = (cost.communicates ? model.alpha : 0) + perMessage + moving +
                model.gamma * cost.mergedBytes;
    // Several ports: a communication step that reads nothing the open group
    // writes, and writes nothing it writes, runs beside it (all its sends
    // read values from before the group, all merges land after the group's
    // messages, as the runtime's exchangeAll does); it adds only the part
    // of its transfer beyond the group's, and its merges.
    auto disjoint = [](const auto &a, const auto &b) {
      for (const auto &x : a)
        if (b.count(x))
          return false;
      return true;
    };
    bool joins = overlapping && cost.communicates && groupSize > 0 &&
                 groupSize < model.ports && disjoint(reads, groupWrites) &&
                 disjoint(writes, groupWrites);
    if (joins) {
      cost.overlapped = true;
      cost.time = std::max(0.0, moving - groupTransfer) + perMessage +
                  model.gamma * cost.mergedBytes;
      groupTransfer = std::max(groupTransfer, moving);
      ++groupSize;
    } else if (cost.communicates) {
      groupSize = 1;
      groupTransfer = moving;
      groupWrites.clear();
    } else {
      groupSize = 0; // a local step waits for what came before
    }
    if (overlapping && cost.communicates)
      groupWrites.insert(writes.begin(), writes.end());
    costs.push_back(cost);
  }
  return costs;
}

/// Segments: the buffer's S segments run the same steps, segment j step
/// t - j in super-step t; a super-step carries all of them at 1/S of the
/// bytes, each segment's parts its own.
static int64_t segmentsOf(ProgramOp program) {
  return static_cast<int64_t>(program.getSegments().value_or(1));
}

std::vector<StepCost> coll::costOfSteps(ProgramOp program,
                                        const MachineModel &model,
                                        double bytes,
                                        const Topology *topology) {
  double part = partBytes(program, bytes) /
                static_cast<double>(segmentsOf(program));
  return priceSteps(trafficOfSteps(program, part), model, topology);
}

/// The messages of each super-step of a call of `bytes` bytes (the steps
/// themselves without segments), staggered and renamed as the runtime's
/// coll::pipelinePlan does.
static std::vector<Traffic> superStepTraffic(ProgramOp program, double bytes) {
  int S = static_cast<int>(segmentsOf(program));
  double part = partBytes(program, bytes) / static_cast<double>(S);
  std::vector<Traffic> steps = trafficOfSteps(program, part);
  if (S == 1)
    return steps;
  int n = static_cast<int>(steps.size());
  int scratch = static_cast<int>(program.getNumScratchParts().value_or(0));
  int data = static_cast<int>(program.getNumParts()) - scratch;
  std::vector<Traffic> staggered;
  for (int t = 0; t < coll::superSteps(n, S); ++t) {
    Traffic traffic;
    auto [first, last] = superStep(t, n, S);
    for (int j = first; j <= last; ++j)
      for (Message m : steps[t - j]) {
        for (auto *list : {&m.sent, &m.received})
          for (int64_t &b : *list)
            b = pipelinedPart(static_cast<int>(b), j, data, scratch, S);
        traffic.push_back(std::move(m));
      }
    staggered.push_back(std::move(traffic));
  }
  return staggered;
}

std::vector<StepCost> coll::costOfSuperSteps(ProgramOp program,
                                             const MachineModel &model,
                                             double bytes,
                                             const Topology *topology) {
  return priceSteps(superStepTraffic(program, bytes), model, topology);
}

double coll::predictedTime(ProgramOp program, const MachineModel &model,
                           double bytes, const Topology *topology) {
  double total = 0;
  for (const StepCost &c : costOfSuperSteps(program, model, bytes, topology))
    total += c.time;
  return total;
}

AffineCost coll::detail::affineOfTraffic(llvm::ArrayRef<Traffic> atProbe,
                                         const MachineModel &model,
                                         const Topology *topology) {
  auto total = [&](llvm::ArrayRef<Traffic> steps) {
    double time = 0;
    for (const StepCost &c : priceSteps(steps, model, topology))
      time += c.time;
    return time;
  };
  std::vector<Traffic> empty(atProbe.begin(), atProbe.end());
  for (Traffic &traffic : empty)
    for (Message &m : traffic)
      m.size = 0;
  double atZero = total(empty), atLarge = total(atProbe);
  if (std::isinf(atZero) || std::isinf(atLarge))
    return {std::numeric_limits<double>::infinity(), 0};
  return {atZero, (atLarge - atZero) / kSlopeProbeBytes};
}

AffineCost coll::affineCost(ProgramOp program, const MachineModel &model,
                            const Topology *topology) {
  // Every byte count in a step is proportional to the size.
  return affineOfTraffic(superStepTraffic(program, kSlopeProbeBytes), model,
                         topology);
}

std::optional<double> coll::crossover(const AffineCost &a,
                                      const AffineCost &b) {
  double slope = b.perByte - a.perByte;
  // Equal per-byte costs up to rounding (halving and ring at P = 2^k) are
  // parallel: no crossover at an absurd size.
  if (std::abs(slope) <=
      1e-9 * std::max(std::abs(a.perByte), std::abs(b.perByte)))
    return std::nullopt;
  double at = (a.fixed - b.fixed) / slope;
  if (!(at > 0))
    return std::nullopt;
  return at;
}

std::vector<std::pair<double, size_t>>
coll::cheapestBySize(const std::vector<std::optional<AffineCost>> &costs) {
  auto cheapestAt = [&](double bytes) {
    std::optional<size_t> best;
    for (size_t i = 0; i < costs.size(); ++i)
      if (costs[i] && (!best || costs[i]->at(bytes) < costs[*best]->at(bytes)))
        best = i;
    return best;
  };
  std::vector<double> breaks;
  for (size_t i = 0; i < costs.size(); ++i)
    for (size_t j = i + 1; j < costs.size(); ++j)
      if (costs[i] && costs[j])
        if (std::optional<double> at = crossover(*costs[i], *costs[j]))
          if (*at < 4.6e18)
            breaks.push_back(*at);
  llvm::sort(breaks);
  // Sizes are whole bytes: crossovers less than a byte apart (three costs
  // meeting at one size, up to rounding) are one threshold.
  breaks.erase(std::unique(breaks.begin(), breaks.end(),
                           [](double a, double b) { return b - a < 1; }),
               breaks.end());
  std::vector<std::pair<double, size_t>> ranges;
  std::optional<size_t> current =
      cheapestAt(breaks.empty() ? 1 : breaks.front() / 2);
  if (!current)
    return ranges;
  // The cheapest is one candidate between two neighbouring crossovers:
  // probe the middle.
  for (size_t b = 0; b < breaks.size(); ++b) {
    double probe = b + 1 < breaks.size() ? (breaks[b] + breaks[b + 1]) / 2
                                         : breaks[b] * 2 + 1;
    std::optional<size_t> next = cheapestAt(probe);
    if (next && *next != *current) {
      ranges.push_back({breaks[b], *current});
      current = next;
    }
  }
  ranges.push_back({std::numeric_limits<double>::infinity(), *current});
  return ranges;
}
