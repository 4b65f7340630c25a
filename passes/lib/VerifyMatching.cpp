//===- VerifyMatching.cpp - the matching pass -----------------------------===//
#include "coll/Passes/Verify.h"
#include "coll/Passes/VerifyPasses.h"

namespace coll {
#define GEN_PASS_DEF_VERIFYMATCHING
#include "coll/Passes/VerifyPasses.h.inc"
} // namespace coll

namespace {
struct VerifyMatchingPass
    : public coll::impl::VerifyMatchingBase<VerifyMatchingPass> {
  using Base::Base;
  void runOnOperation() override {
    coll::VerifyOptions options;
    options.timeoutMs = timeoutMs;
    if (replay)
      options.replayEverywhere();
    if (mlir::failed(coll::reportProperty(getOperation(),
                                          coll::Property::matching, options)))
      signalPassFailure();
  }
};
} // namespace
