//===- ExpandDigits.cpp - digit routings to coll.step ---------------------===//
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ErrorHandling.h"

namespace coll {
#define GEN_PASS_DEF_EXPANDDIGITS
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

Digits coll::digitsOf(CollectiveOp spec) {
  switch (spec.getSchedule()) {
  case ScheduleKind::direct:
    return Digits{DigitSystem::direct, 2};
  case ScheduleKind::radix:
    return Digits{DigitSystem::radix, static_cast<int>(*spec.getRadix())};
  case ScheduleKind::balanced_ternary:
    return Digits{DigitSystem::balancedTernary, 3};
  default:
    break;
  }
  llvm_unreachable("digitsOf needs a digit routing");
}

/// Trivance allreduce (Juerss, Addanki, Schmid 2026; seeds/002): in phase
/// k every rank combines its value with those of r - 3^k and r + 3^k, so
/// after phase k it holds the sum of the 3^(k+1) ranks around it; s phases
/// for n = 3^s. Other n first fold the ranks beyond the largest power of
/// three m into the core (rank m + j into j, in bands of m) and copy the
/// result back at the end. Each phase is written as three steps of one
/// message per rank: the value to r + 3^k (kept in scratch part 1), the
/// value to r - 3^k (folded into part 0; both read the pre-phase value), and
/// the local fold of part 1 into part 0. The runtime sends both at once.
static ProgramOp expandTrivance(CollectiveOp spec, int64_t P,
                                OpBuilder &builder) {
  ProgramOp program = createProgram(spec, P, 2, builder, {}, {}, {},
                                    /*scratchParts=*/1);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  TrivanceShape shape = trivanceShape(static_cast<int>(P));
  auto step = [&](StringRef phase, StepKind kind, int64_t count,
                  llvm::function_ref<int64_t(int64_t)> source,
                  llvm::function_ref<int64_t(int64_t)> destination,
                  int64_t sent, int64_t received) {
    SmallVector<int64_t> sources, destinations;
    SmallVector<Attribute> parts, into;
    for (int64_t i = 0; i < count; ++i) {
      sources.push_back(source(i));
      destinations.push_back(destination(i));
      parts.push_back(builder.getDenseI64ArrayAttr({sent}));
      into.push_back(builder.getDenseI64ArrayAttr({received}));
    }
    if (!sources.empty())
      appendTransferStep(builder, spec.getLoc(), phase, kind, sources,
                         destinations, parts,
                         sent == received ? ArrayRef<Attribute>() : into);
  };
  int64_t m = shape.core;
  for (int64_t band = 1; band * m < P; ++band) // the extras fold in
    step("fold in", StepKind::combine, std::min(m, P - band * m),
         [&](int64_t i) { return band * m + i; }, [](int64_t i) { return i; },
         0, 0);
  for (int64_t d = 1, k = 0; d < m; d *= 3, ++k) {
    std::string phase = "phase " + std::to_string(k);
    step(phase, StepKind::copy, m, [](int64_t x) { return x; },
         [&](int64_t x) { return (x + d) % m; }, 0, 1);
    step(phase, StepKind::fold, m, [](int64_t x) { return x; },
         [&](int64_t x) { return (x + m - d) % m; }, 0, 0);
    step(phase, StepKind::fold, m, [](int64_t x) { return x; },
         [](int64_t x) { return x; }, 1, 0);
  }
  for (int64_t band = 1; band * m < P; ++band) // the result goes back out
    step("copy out", StepKind::copy, std::min(m, P - band * m),
         [](int64_t i) { return i; }, [&](int64_t i) { return band * m + i; },
         0, 0);
  return program;
}

ProgramOp coll::expandDigitCollective(CollectiveOp spec, int64_t P,
                                      OpBuilder &builder) {
  if (spec.getKind() == CollectiveKind::allreduce)
    return expandTrivance(spec, P, builder);
  ProgramOp program = createProgram(spec, P, P, builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (const DigitStep &step : digitSteps(digitsOf(spec), static_cast<int>(P))) {
    SmallVector<int64_t> sources, destinations;
    SmallVector<Attribute> parts;
    SmallVector<int64_t> blocks(step.blocks.begin(), step.blocks.end());
    for (int64_t i = 0; i < P; ++i) {
      sources.push_back(i);
      destinations.push_back((i + step.offset) % P);
      parts.push_back(builder.getDenseI64ArrayAttr(blocks));
    }
    appendTransferStep(builder, spec.getLoc(),
                       "phase " + std::to_string(step.phase), StepKind::copy,
                       sources, destinations, parts);
  }
  return program;
}

namespace {
struct ExpandDigitsPass
    : public coll::impl::ExpandDigitsBase<ExpandDigitsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(expandAllCollectives(
            getOperation(), ranks, "ranks=N", /*withTransfers=*/true,
            [](CollectiveOp spec) { return spec.isDigitRouting(); })))
      signalPassFailure();
  }
};
} // namespace
