//===- PlanProgram.cpp - coll.program from the runtime's plans ------------===//
#include "coll/Passes/PlanProgram.h"
#include "coll/Passes/Lowering.h"

#include "mlir/IR/Builders.h"

#include <algorithm>
#include <optional>
#include <tuple>

using namespace mlir;
using namespace coll;

// #coll.kind and coll::Kind list the same kinds by the same names and
// values (COLLC_KINDS): a kind added to one list and not the other, or
// moved, stops the build here.
#define COLLC_KIND_AGREES(name)                                                \
  static_assert(static_cast<int>(Kind::name) ==                                \
                    static_cast<int>(CollectiveKind::name),                    \
                "#coll.kind<" #name "> and coll::Kind::" #name " differ");
COLLC_KINDS(COLLC_KIND_AGREES)
#undef COLLC_KIND_AGREES
#define COLLC_KIND_ONE(name) +1
static_assert(getMaxEnumValForCollectiveKind() + 1 == 0 COLLC_KINDS(COLLC_KIND_ONE),
              "#coll.kind has a kind coll::Kind lacks");
#undef COLLC_KIND_ONE

Kind coll::runtimeKind(CollectiveKind kind) {
  return static_cast<Kind>(static_cast<int>(kind));
}

void StepAssembly::add(int rank, const PlanStep &step) {
  auto list = [](const std::vector<int> &parts) {
    return std::vector<int64_t>(parts.begin(), parts.end());
  };
  for (const PlanMessage &m : step.sends) {
    if (m.peer != rank)
      sends.push_back({rank, m.peer, list(m.parts), list(m.peerParts)});
    else if (selfSender < 0) // reported by mismatch()
      selfSender = rank;
  }
  for (const PlanMessage &m : step.receives) {
    if (m.peer == rank) // a local copy: read peerParts, write parts
      sends.push_back({rank, rank, list(m.peerParts), list(m.parts)});
    else
      receives.push_back({m.peer, rank, list(m.peerParts), list(m.parts)});
  }
}

static std::string partList(const std::vector<int64_t> &parts) {
  std::string text = "[";
  for (size_t i = 0; i < parts.size(); ++i)
    text += (i ? ", " : "") + std::to_string(parts[i]);
  return text + "]";
}

std::string StepAssembly::mismatch() const {
  if (selfSender >= 0)
    return "rank " + std::to_string(selfSender) +
           " sends to itself (a local copy is a receive from itself)";
  auto key = [](const Transfer &t) {
    return std::tie(t.src, t.dst, t.sent, t.received);
  };
  auto before = [&](const Transfer *a, const Transfer *b) {
    return key(*a) < key(*b);
  };
  std::vector<const Transfer *> sent, received;
  for (const Transfer &t : sends)
    if (t.src != t.dst)
      sent.push_back(&t);
  for (const Transfer &t : receives)
    received.push_back(&t);
  std::sort(sent.begin(), sent.end(), before);
  std::sort(received.begin(), received.end(), before);
  size_t i = 0;
  while (i < sent.size() && i < received.size() &&
         key(*sent[i]) == key(*received[i]))
    ++i;
  if (i == sent.size() && i == received.size())
    return "";
  // The first message one side lists and the other does not.
  bool sendMissing = i == received.size() ||
                     (i < sent.size() && before(sent[i], received[i]));
  const Transfer &t = sendMissing ? *sent[i] : *received[i];
  std::string text = "rank " + std::to_string(t.src) + " sends rank " +
                     std::to_string(t.dst) + " its parts " + partList(t.sent) +
                     " as " + partList(t.received);
  return text + (sendMissing ? ", which rank " + std::to_string(t.dst) +
                                   " does not receive so"
                             : " only in rank " + std::to_string(t.dst) +
                                   "'s plan, not in its own");
}

std::vector<Transfer>
coll::transfersOfRanks(int64_t P, llvm::function_ref<PlanStep(int rank)> stepOf) {
  StepAssembly step;
  for (int64_t x = 0; x < P; ++x)
    step.add(static_cast<int>(x), stepOf(static_cast<int>(x)));
  if (std::string why = step.mismatch(); !why.empty())
    llvm::report_fatal_error("coll::transfersOfRanks: P = " + Twine(P) + ": " +
                             why);
  return step.takeTransfers();
}

TransferAttrs coll::transferAttrs(OpBuilder &builder,
                                 llvm::ArrayRef<Transfer> transfers) {
  TransferAttrs attrs;
  for (const Transfer &t : transfers) {
    attrs.sources.push_back(t.src);
    attrs.destinations.push_back(t.dst);
    attrs.sent.push_back(builder.getDenseI64ArrayAttr(t.sent));
    attrs.received.push_back(builder.getDenseI64ArrayAttr(t.received));
    attrs.moved |= t.sent != t.received;
  }
  return attrs;
}

ProgramOp coll::expandPlans(CollectiveOp spec, int64_t P, OpBuilder &builder,
                            llvm::function_ref<Plan(int rank)> planOf,
                            GroupKindAttr group) {
  std::vector<StepAssembly> steps;
  std::vector<std::string> phases;
  std::vector<std::optional<Action>> actions;
  int parts = 1, scratchParts = 0;
  for (int r = 0; r < P; ++r) {
    Plan plan = planOf(r);
    if (r == 0) {
      steps.resize(plan.numSteps);
      phases.resize(plan.numSteps);
      actions.resize(plan.numSteps);
      parts = plan.parts;
      scratchParts = plan.scratchParts;
    }
    if (static_cast<size_t>(plan.numSteps) != steps.size() ||
        plan.parts != parts || plan.scratchParts != scratchParts)
      llvm::report_fatal_error("coll::expandPlans: rank " + Twine(r) +
                               "'s plan has another shape than rank 0's");
    for (const PlanStep &step : plan.steps) {
      if (step.step < 0 || step.step >= plan.numSteps)
        llvm::report_fatal_error("coll::expandPlans: rank " + Twine(r) +
                                 "'s plan has step " + Twine(step.step) +
                                 " of " + Twine(plan.numSteps));
      if (phases[step.step].empty()) // the same on every rank that has it
        phases[step.step] = phaseOf(plan, step);
      steps[step.step].add(r, step);
      if (actions[step.step] && *actions[step.step] != step.action)
        llvm::report_fatal_error("coll::expandPlans: P = " + Twine(P) +
                                 ", step " + Twine(step.step) + ": rank " +
                                 Twine(r) + " merges otherwise than a rank "
                                 "before it");
      actions[step.step] = step.action;
    }
  }
  ProgramOp program =
      createProgram(spec, P, parts + scratchParts, builder, {}, group, {},
                    scratchParts);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (size_t s = 0; s < steps.size(); ++s) {
    if (std::string why = steps[s].mismatch(); !why.empty())
      llvm::report_fatal_error("coll::expandPlans: P = " + Twine(P) +
                               ", step " + Twine(s) + ": " + why);
    const std::vector<Transfer> &transfers = steps[s].transfers();
    if (transfers.empty())
      continue;
    TransferAttrs attrs = transferAttrs(builder, transfers);
    StepKind kind = *actions[s] == Action::copy      ? StepKind::copy
                    : *actions[s] == Action::combine ? StepKind::combine
                                                     : StepKind::fold;
    appendTransferStep(builder, spec.getLoc(), phases[s], kind, attrs.sources,
                       attrs.destinations, attrs.sent,
                       attrs.moved ? ArrayRef<Attribute>(attrs.received)
                                   : ArrayRef<Attribute>());
  }
  return program;
}
