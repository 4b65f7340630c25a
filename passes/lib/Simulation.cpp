//===- Simulation.cpp - exact dataflow of a step program ------------------===//
#include "coll/Passes/Simulation.h"
#include "coll/Passes/GroupSchedule.h"

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
  std::vector<Transfer> transfers = transfersOfStep(step);

  // Matching: one permutation per step, so each rank sends at most one
  // message and receives at most one, and the receiver takes as many parts
  // as were sent.
  llvm::DenseMap<int64_t, int64_t> sendTo, receiveFrom;
  for (const Transfer &t : transfers) {
    if (auto [it, fresh] = sendTo.try_emplace(t.src, t.dst); !fresh)
      return violation("matching", t.src, -1,
                       "rank " + std::to_string(t.src) +
                           " sends two messages in one step (to " +
                           std::to_string(it->second) + " and " +
                           std::to_string(t.dst) + ")");
    if (auto [it, fresh] = receiveFrom.try_emplace(t.dst, t.src); !fresh)
      return violation("matching", t.dst, -1,
                       "rank " + std::to_string(t.dst) +
                           " receives two messages in one step (from " +
                           std::to_string(it->second) + " and " +
                           std::to_string(t.src) + ")");
    if (t.sent.size() != t.received.size())
      return violation("matching", t.dst, -1,
                       "rank " + std::to_string(t.src) + " sends " +
                           std::to_string(t.sent.size()) + " parts to rank " +
                           std::to_string(t.dst) + ", which receives " +
                           std::to_string(t.received.size()));
  }

  // Ownership of what is sent, against the state before the step; a part
  // received as another part mixes different parts' data (coverage).
  bool combine = step.getStepKind() == StepKind::combine;
  std::vector<std::pair<int64_t, int64_t>> sent; // (rank, part)
  for (const Transfer &t : transfers)
    for (auto [b, into] : llvm::zip(t.sent, t.received)) {
      const Slot &s = slot(t.src, b);
      if (!s.held)
        return violation("ownership", t.src, b,
                         "rank " + std::to_string(t.src) + " sends part " +
                             std::to_string(b) +
                             ", which it gave away at step " +
                             std::to_string(s.givenAwayAt));
      if (b != into)
        return violation("coverage", t.dst, into,
                         "rank " + std::to_string(t.dst) + " takes part " +
                             std::to_string(b) + " from rank " +
                             std::to_string(t.src) + " as its part " +
                             std::to_string(into));
      sent.push_back({t.src, b});
    }
  std::vector<Slot> before = slots;
  auto old = [&](int64_t r, int64_t b) -> const Slot & {
    return before[r * parts + b];
  };
  // Slots whose value a copy replaced, to find contributions lost with them.
  std::vector<std::tuple<int64_t, int64_t, int64_t>> overwritten;

  for (const Transfer &t : transfers) {
    for (int64_t b : t.sent) {
      const llvm::BitVector &incoming = old(t.src, b).contributions;
      Slot &target = slot(t.dst, b);
      if (combine) {
        if (!old(t.dst, b).held)
          return violation("ownership", t.dst, b,
                           "rank " + std::to_string(t.dst) +
                               " combines into part " + std::to_string(b) +
                               ", which it gave away at step " +
                               std::to_string(old(t.dst, b).givenAwayAt));
        llvm::BitVector twice = target.contributions;
        twice &= incoming;
        if (twice.any())
          return violation(
              "coverage", t.dst, b,
              "the contribution of rank " +
                  std::to_string(twice.find_first()) + " to part " +
                  std::to_string(b) + " reaches rank " +
                  std::to_string(t.dst) + " twice (it holds " +
                  describe(target.contributions) + " and receives " +
                  describe(incoming) + " from rank " +
                  std::to_string(t.src) + ")");
        target.contributions |= incoming;
      } else {
        if (old(t.dst, b).held && old(t.dst, b).contributions != incoming)
          overwritten.push_back({t.dst, b, t.src});
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
    for (const Transfer &t : transfers)
      for (int64_t b : t.sent)
        receivedNow[t.dst * parts + b] = true;
    for (auto [r, b] : sent) {
      if (receivedNow[r * parts + b])
        continue;
      Slot &s = slot(r, b);
      s.held = false;
      s.givenAwayAt = index;
      s.contributions.reset();
    }
  }
  // Ownership: a copy may replace a value only if every contribution in it
  // still exists somewhere (a block that is still needed survives).
  for (auto [r, b, src] : overwritten) {
    llvm::BitVector lost = old(r, b).contributions;
    for (int64_t x = 0; x < ranks && lost.any(); ++x)
      if (slot(x, b).held)
        lost.reset(slot(x, b).contributions);
    if (lost.any())
      return violation("ownership", r, b,
                       "rank " + std::to_string(r) + " overwrites part " +
                           std::to_string(b) + " = " +
                           describe(old(r, b).contributions) + " with " +
                           describe(old(src, b).contributions) +
                           " from rank " + std::to_string(src) +
                           ", losing the only copy of the contribution of "
                           "rank " +
                           std::to_string(lost.find_first()));
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
