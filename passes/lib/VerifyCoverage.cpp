//===- VerifyCoverage.cpp - the coverage pass -----------------------------===//
#include "coll/Passes/Verify.h"
#include "coll/Passes/VerifyPasses.h"

namespace coll {
#define GEN_PASS_DEF_VERIFYCOVERAGE
#include "coll/Passes/VerifyPasses.h.inc"
} // namespace coll

namespace {
struct VerifyCoveragePass
    : public coll::impl::VerifyCoverageBase<VerifyCoveragePass> {
  using Base::Base;
  void runOnOperation() override {
    coll::VerifyOptions options;
    options.timeoutMs = timeoutMs;
    if (replay)
      options.replayEverywhere();
    if (mlir::failed(coll::reportProperty(getOperation(),
                                          coll::Property::coverage, options)))
      signalPassFailure();
  }
};
} // namespace
