//===- Simulation.cpp - exact dataflow of a step program ------------------===//
#include "coll/Passes/Simulation.h"
#include "coll/Passes/GroupSchedule.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace coll;

Simulation::Simulation(ProgramOp program)
    : program(program), rules(program.partRules()),
      ranks(program.getNumRanks()),
      parts(program.getNumParts()) {
  // A rank starts with its own contribution to each part it starts with
  // (every part for the reductions, its own block for allgather, the
  // root's data for broadcast); other slots hold nothing yet.
  slots.resize(ranks * parts);
  holders.assign(ranks * parts, 0);
  for (int64_t r = 0; r < ranks; ++r)
    for (int64_t b = 0; b < parts; ++b) {
      Slot &s = slot(r, b);
      s.tokens.resize(ranks * parts);
      s.held = rules.startsWith(r, b);
      if (s.held) {
        s.tokens.set(b * ranks + r);
        holders[b * ranks + r] = 1;
      }
    }
}

std::optional<std::string> Simulation::tooLarge(ProgramOp program) {
  double slots = static_cast<double>(program.getNumRanks()) *
                 static_cast<double>(program.getNumParts());
  if (slots * slots <= double(1 << 30))
    return std::nullopt;
  return "program '" + program.getSymName().str() +
         "' (P = " + std::to_string(program.getNumRanks()) +
         ") is too large to simulate contribution by contribution; prove it "
         "with the coll-verify-* passes or `collc verify` instead";
}

std::string Simulation::describe(const llvm::BitVector &set,
                                 int64_t part) const {
  std::string text = "{";
  bool first = true;
  for (unsigned t : set.set_bits()) {
    int64_t rank = t % ranks, tokenPart = t / ranks;
    text += first ? "" : ", ";
    text += tokenPart == part ? std::to_string(rank)
                              : "rank " + std::to_string(rank) + "'s part " +
                                    std::to_string(tokenPart);
    first = false;
  }
  return text + "}";
}

llvm::BitVector Simulation::expected(int64_t rank, int64_t part) const {
  llvm::BitVector want(ranks * parts);
  // Only contributions to one part can be expected (PartRules::sourcePart).
  const int64_t p = rules.sourcePart(part);
  for (int64_t c = 0; c < ranks; ++c)
    if (rules.expects(rank, part, c, p))
      want.set(p * ranks + c);
  return want;
}

bool Simulation::complete(const Slot &s, int64_t rank, int64_t part) const {
  return s.held && s.tokens == expected(rank, part);
}

void Simulation::assign(Slot &s, const llvm::BitVector &tokens, bool held) {
  if (s.held)
    for (unsigned t : s.tokens.set_bits())
      --holders[t];
  s.tokens = tokens;
  s.held = held;
  if (held)
    for (unsigned t : s.tokens.set_bits())
      ++holders[t];
}

bool Simulation::needed(int64_t token) const {
  int64_t rank = token % ranks, part = token / ranks;
  for (int64_t r = 0; r < ranks; ++r)
    for (int64_t b = 0; b < parts; ++b)
      if (rules.sourcePart(b) == part && rules.delivers(r, b) &&
          rules.expects(r, b, rank, part))
        return true;
  return false;
}

std::string Simulation::lostWhen(const Slot &s) {
  if (s.givenAwayAt < 0)
    return "does not hold (it never received it)";
  return "gave away at step " + std::to_string(s.givenAwayAt);
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
    if (t.src == t.dst) {
      // A local copy (vector moves within a placement), no message; it may
      // read a part twice, but write one only once, and writes as many
      // parts as it reads.
      if (std::optional<int64_t> part = repeatedPart(t.received))
        return violation("matching", t.dst, *part,
                         "rank " + std::to_string(t.dst) + " writes its part " +
                             std::to_string(*part) +
                             " twice in one local copy");
      if (t.sent.size() != t.received.size())
        return violation("matching", t.dst, -1,
                         "rank " + std::to_string(t.src) + " copies " +
                             std::to_string(t.sent.size()) +
                             " parts into " +
                             std::to_string(t.received.size()));
      continue;
    }
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
    if (std::optional<int64_t> part = repeatedPart(t.sent))
      return violation("matching", t.src, *part,
                       "rank " + std::to_string(t.src) + " sends part " +
                           std::to_string(*part) +
                           " twice in one message to rank " +
                           std::to_string(t.dst));
    if (std::optional<int64_t> part = repeatedPart(t.received))
      return violation("matching", t.dst, *part,
                       "rank " + std::to_string(t.dst) +
                           " takes two parts of rank " + std::to_string(t.src) +
                           "'s message as its part " + std::to_string(*part));
    if (t.sent.size() != t.received.size())
      return violation("matching", t.dst, -1,
                       "rank " + std::to_string(t.src) + " sends " +
                           std::to_string(t.sent.size()) + " parts to rank " +
                           std::to_string(t.dst) + ", which receives " +
                           std::to_string(t.received.size()));
  }

  // Everything a step reads is read before it writes: take the incoming
  // values first, checking that their senders hold them.
  struct Arrival {
    int64_t src, dst, part, into;
    llvm::BitVector value;
    std::optional<Twice> twice;
  };
  std::vector<Arrival> arrivals;
  // A fold merges like a combine but the sender keeps its value (scans).
  bool combine = step.getStepKind() != StepKind::copy;
  bool handsOn = step.getStepKind() == StepKind::combine;
  for (const Transfer &t : transfers)
    for (auto [b, into] : llvm::zip(t.sent, t.received)) {
      const Slot &s = slot(t.src, b);
      if (!s.held)
        return violation("ownership", t.src, b,
                         "rank " + std::to_string(t.src) + " sends part " +
                             std::to_string(b) + ", which it " + lostWhen(s));
      arrivals.push_back({t.src, t.dst, b, into, s.tokens, s.twice});
    }
  std::vector<bool> receivedNow(ranks * parts, false);
  for (const Arrival &a : arrivals)
    receivedNow[a.dst * parts + a.into] = true;
  // A slot written by two transfers of one step: the value it keeps would
  // depend on the order they are applied (the verifier's
  // writtenByTwoTransfers states the same rule).
  {
    llvm::DenseMap<int64_t, const Transfer *> writer;
    for (const Transfer &t : transfers)
      for (int64_t into : t.received) {
        auto [it, fresh] = writer.try_emplace(t.dst * parts + into, &t);
        if (!fresh && it->second != &t)
          return violation("matching", t.dst, into,
                           "rank " + std::to_string(t.dst) + "'s part " +
                               std::to_string(into) +
                               " is written by two transfers in one step "
                               "(from ranks " +
                               std::to_string(std::min(it->second->src, t.src)) +
                               " and " +
                               std::to_string(std::max(it->second->src, t.src)) +
                               ")");
      }
  }

  // Copies that replace a value, to find contributions lost with them.
  struct Replaced {
    int64_t rank, part, src;
    llvm::BitVector old, incoming;
  };
  std::vector<Replaced> replaced;
  for (const Arrival &a : arrivals) {
    Slot &target = slot(a.dst, a.into);
    if (combine) {
      if (!target.held)
        return violation("ownership", a.dst, a.into,
                         "rank " + std::to_string(a.dst) +
                             " combines into part " + std::to_string(a.into) +
                             ", which it " + lostWhen(target));
      llvm::BitVector twice = target.tokens;
      twice &= a.value;
      std::optional<Twice> doubled = target.twice ? target.twice : a.twice;
      if (twice.any() && !doubled) {
        int64_t token = twice.find_first();
        doubled = Twice{index, a.dst, a.into,
                        "the contribution of rank " +
                            std::to_string(token % ranks) + " to part " +
                            std::to_string(token / ranks) + " reaches rank " +
                            std::to_string(a.dst) + " twice (it holds " +
                            describe(target.tokens, a.into) +
                            " and receives " + describe(a.value, a.into) +
                            " from rank " + std::to_string(a.src) + ")",
                        step.getOperation()};
      }
      // Coverage is about final values: a slot may count something twice
      // for a while, a result slot too, if a later copy replaces the value
      // before the end (finish() judges what is left, as Z3 does).
      target.twice = doubled;
      llvm::BitVector sum = target.tokens;
      sum |= a.value;
      assign(target, sum, true);
    } else {
      if (target.held && target.tokens != a.value)
        replaced.push_back({a.dst, a.into, a.src, target.tokens, a.value});
      assign(target, a.value, true);
      target.givenAwayAt = -1;
      target.twice = a.twice;
    }
  }
  // A combined partial now lives at the receiver only, unless the sender
  // received the same part back in this step.
  if (handsOn)
    for (const Arrival &a : arrivals) {
      Slot &s = slot(a.src, a.part);
      if (receivedNow[a.src * parts + a.part] || !s.held)
        continue;
      assign(s, llvm::BitVector(ranks * parts), false);
      s.givenAwayAt = index;
    }
  // Ownership: a copy may replace a value only if every contribution in it
  // still exists somewhere (a block that is still needed survives).
  for (const Replaced &r : replaced)
    for (unsigned t : r.old.set_bits())
      if (holders[t] == 0 && needed(t))
        return violation("ownership", r.rank, r.part,
                         "rank " + std::to_string(r.rank) +
                             " overwrites part " + std::to_string(r.part) +
                             " = " + describe(r.old, r.part) + " with " +
                             describe(r.incoming, r.part) + " from rank " +
                             std::to_string(r.src) +
                             ", losing the only copy of the contribution of "
                             "rank " +
                             std::to_string(t % ranks) +
                             (static_cast<int64_t>(t / ranks) == r.part
                                  ? ""
                                  : " to part " + std::to_string(t / ranks)));
  return std::nullopt;
}

std::optional<Violation> Simulation::finish(int64_t numSteps) const {
  // A result that counts something twice, named where that first happened
  // (the earliest such step over all results).
  const Twice *first = nullptr;
  for (int64_t r = 0; r < ranks; ++r)
    for (int64_t b = 0; b < parts; ++b) {
      const Slot &s = slot(r, b);
      if (rules.delivers(r, b) && s.held && s.twice &&
          (!first || s.twice->step < first->step))
        first = &*s.twice;
    }
  if (first)
    return Violation{"coverage", first->step, first->rank, first->part,
                     first->message, first->at};
  for (int64_t r = 0; r < ranks; ++r)
    for (int64_t b = 0; b < parts; ++b) {
      if (!rules.delivers(r, b))
        continue;
      const Slot &s = slot(r, b);
      if (!s.held) {
        std::string why =
            s.givenAwayAt < 0
                ? " (it never received it)"
                : " (given away at step " + std::to_string(s.givenAwayAt) + ")";
        return Violation{"coverage",
                         numSteps,
                         r,
                         b,
                         "rank " + std::to_string(r) + " ends without part " +
                             std::to_string(b) + why,
                         program};
      }
      if (complete(s, r, b))
        continue;
      llvm::BitVector missing = expected(r, b);
      missing.reset(s.tokens);
      std::string text = "rank " + std::to_string(r) + " ends with part " +
                         std::to_string(b) + " = " + describe(s.tokens, b);
      llvm::BitVector extra = s.tokens;
      extra.reset(expected(r, b));
      if (missing.any())
        text += ", missing " + describe(missing, b);
      if (extra.any())
        text += std::string(missing.any() ? " and" : ",") +
                " with contributions it should not have: " +
                describe(extra, b);
      return Violation{"coverage", numSteps, r, b, text, program};
    }
  return std::nullopt;
}

bool Simulation::holdsResult(int64_t rank, int64_t part) const {
  return rules.delivers(rank, part) && complete(slot(rank, part), rank, part);
}

std::optional<Violation> Simulation::run(ProgramOp program) {
  assert(!tooLarge(program) && "check Simulation::tooLarge first");
  Simulation sim(program);
  int64_t index = 0;
  for (StepOp step : program.getBody().getOps<StepOp>()) {
    if (std::optional<Violation> v = sim.apply(step, index))
      return v;
    ++index;
  }
  return sim.finish(index);
}
