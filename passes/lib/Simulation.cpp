//===- Simulation.cpp - exact dataflow of a step program ------------------===//
#include "coll/Passes/Simulation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace coll;

Simulation::Simulation(ProgramOp program)
    : program(program), ranks(program.getNumRanks()),
      parts(program.getNumParts()) {
  // All-reduce: every rank starts with its own contribution to every part.
  slots.resize(ranks * parts);
  for (int64_t r = 0; r < ranks; ++r)
    for (int64_t b = 0; b < parts; ++b) {
      Slot &s = slot(r, b);
      s.contributions.resize(ranks);
      s.contributions.set(r);
    }
}

std::string Simulation::describe(const llvm::BitVector &set) {
  std::string text = "{";
  bool first = true;
  for (unsigned r : set.set_bits()) {
    text += (first ? "" : ", ") + std::to_string(r);
    first = false;
  }
  return text + "}";
}

std::optional<Violation> Simulation::apply(StepOp step, int64_t index) {
  auto violation = [&](const char *property, int64_t rank, int64_t part,
                       std::string message) {
    return Violation{property, index, rank, part, std::move(message), step};
  };

  // Matching: one permutation per step, so each rank sends at most one
  // message and receives at most one.
  llvm::DenseMap<int64_t, int64_t> sendTo, receiveFrom;
  for (size_t t = 0; t < step.getNumTransfers(); ++t) {
    int64_t src = step.getSources()[t], dst = step.getDestinations()[t];
    if (auto [it, fresh] = sendTo.try_emplace(src, dst); !fresh)
      return violation("matching", src, -1,
                       "rank " + std::to_string(src) +
                           " sends two messages in one step (to " +
                           std::to_string(it->second) + " and " +
                           std::to_string(dst) + ")");
    if (auto [it, fresh] = receiveFrom.try_emplace(dst, src); !fresh)
      return violation("matching", dst, -1,
                       "rank " + std::to_string(dst) +
                           " receives two messages in one step (from " +
                           std::to_string(it->second) + " and " +
                           std::to_string(src) + ")");
  }

  // Ownership of what is sent, against the state before the step.
  bool combine = step.getStepKind() == StepKind::combine;
  std::vector<std::pair<int64_t, int64_t>> sent; // (rank, part)
  for (size_t t = 0; t < step.getNumTransfers(); ++t) {
    int64_t src = step.getSources()[t];
    for (int64_t b : step.getTransferParts(t)) {
      const Slot &s = slot(src, b);
      if (!s.held)
        return violation("ownership", src, b,
                         "rank " + std::to_string(src) + " sends part " +
                             std::to_string(b) +
                             ", which it gave away at step " +
                             std::to_string(s.givenAwayAt));
      sent.push_back({src, b});
    }
  }
  std::vector<Slot> before = slots;
  auto old = [&](int64_t r, int64_t b) -> const Slot & {
    return before[r * parts + b];
  };

  for (size_t t = 0; t < step.getNumTransfers(); ++t) {
    int64_t src = step.getSources()[t], dst = step.getDestinations()[t];
    for (int64_t b : step.getTransferParts(t)) {
      const llvm::BitVector &incoming = old(src, b).contributions;
      Slot &target = slot(dst, b);
      if (combine) {
        if (!old(dst, b).held)
          return violation("ownership", dst, b,
                           "rank " + std::to_string(dst) +
                               " combines into part " + std::to_string(b) +
                               ", which it gave away at step " +
                               std::to_string(old(dst, b).givenAwayAt));
        llvm::BitVector twice = target.contributions;
        twice &= incoming;
        if (twice.any())
          return violation(
              "coverage", dst, b,
              "the contribution of rank " +
                  std::to_string(twice.find_first()) + " to part " +
                  std::to_string(b) + " reaches rank " + std::to_string(dst) +
                  " twice (it holds " + describe(target.contributions) +
                  " and receives " + describe(incoming) + " from rank " +
                  std::to_string(src) + ")");
        target.contributions |= incoming;
      } else {
        const Slot &previous = old(dst, b);
        if (previous.held && !previous.contributions.all() &&
            previous.contributions != incoming)
          return violation("ownership", dst, b,
                           "rank " + std::to_string(dst) + " overwrites part " +
                               std::to_string(b) + ", whose partial result " +
                               describe(previous.contributions) +
                               " exists nowhere else, with " +
                               describe(incoming) + " from rank " +
                               std::to_string(src));
        target.contributions = incoming;
        target.held = true;
        target.givenAwayAt = -1;
      }
    }
  }
  // A combined partial now lives at the receiver only, unless the sender
  // received the same part back in this step.
  if (combine) {
    std::vector<bool> receivedNow(ranks * parts, false);
    for (size_t t = 0; t < step.getNumTransfers(); ++t)
      for (int64_t b : step.getTransferParts(t))
        receivedNow[step.getDestinations()[t] * parts + b] = true;
    for (auto [r, b] : sent) {
      if (receivedNow[r * parts + b])
        continue;
      Slot &s = slot(r, b);
      s.held = false;
      s.givenAwayAt = index;
      s.contributions.reset();
    }
  }
  return std::nullopt;
}

std::optional<Violation> Simulation::finish(int64_t numSteps) const {
  for (int64_t r = 0; r < ranks; ++r)
    for (int64_t b = 0; b < parts; ++b) {
      const Slot &s = slot(r, b);
      if (!s.held)
        return Violation{"coverage", numSteps, r, b,
                         "rank " + std::to_string(r) + " ends without part " +
                             std::to_string(b) + " (given away at step " +
                             std::to_string(s.givenAwayAt) + ")",
                         program};
      if (!s.contributions.all()) {
        llvm::BitVector missing = s.contributions;
        missing.flip();
        return Violation{"coverage", numSteps, r, b,
                         "rank " + std::to_string(r) + " ends with part " +
                             std::to_string(b) + " = " +
                             describe(s.contributions) + ", missing " +
                             describe(missing),
                         program};
      }
    }
  return std::nullopt;
}

bool Simulation::holdsResult(int64_t rank, int64_t part) const {
  const Slot &s = slot(rank, part);
  return s.held && s.contributions.all();
}

std::optional<Violation> Simulation::run(ProgramOp program) {
  Simulation sim(program);
  int64_t index = 0;
  for (StepOp step : program.getBody().getOps<StepOp>()) {
    if (std::optional<Violation> v = sim.apply(step, index))
      return v;
    ++index;
  }
  return sim.finish(index);
}
