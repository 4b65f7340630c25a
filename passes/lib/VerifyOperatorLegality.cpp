//===- VerifyOperatorLegality.cpp - the operator-legality pass ------------===//
#include "coll/Passes/Verify.h"
#include "coll/Passes/VerifyPasses.h"

namespace coll {
#define GEN_PASS_DEF_VERIFYOPERATORLEGALITY
#include "coll/Passes/VerifyPasses.h.inc"
} // namespace coll

namespace {
struct VerifyOperatorLegalityPass
    : public coll::impl::VerifyOperatorLegalityBase<
          VerifyOperatorLegalityPass> {
  using Base::Base;
  void runOnOperation() override {
    coll::VerifyOptions options;
    options.timeoutMs = timeoutMs;
    if (replay)
      options.replayEverywhere();
    if (mlir::failed(coll::reportProperty(
            getOperation(), coll::Property::operatorLegality, options)))
      signalPassFailure();
  }
};
} // namespace
