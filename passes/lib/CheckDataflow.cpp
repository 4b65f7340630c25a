//===- CheckDataflow.cpp - exact dataflow check of step programs ----------===//
#include "coll/Passes/Passes.h"
#include "coll/Passes/Simulation.h"

namespace coll {
#define GEN_PASS_DEF_CHECKDATAFLOW
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

namespace {
struct CheckDataflowPass
    : public coll::impl::CheckDataflowBase<CheckDataflowPass> {
  void runOnOperation() override {
    bool failed = false;
    for (ProgramOp program : getOperation().getOps<ProgramOp>()) {
      if (std::optional<std::string> message = Simulation::tooLarge(program)) {
        program.emitError() << *message;
        failed = true;
        continue;
      }
      std::optional<Violation> v = Simulation::run(program);
      if (!v)
        continue;
      InFlightDiagnostic diag = v->at->emitError();
      diag << v->property << " violated in '" << program.getSymName()
           << "' for P = " << program.getNumRanks() << ": ";
      if (v->at == program.getOperation())
        diag << "after the last step, ";
      else
        diag << "step " << v->step << ", ";
      diag << v->message;
      failed = true;
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
