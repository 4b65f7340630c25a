//===- VerifyOwnership.cpp - the ownership pass ---------------------------===//
#include "coll/Passes/Verify.h"
#include "coll/Passes/VerifyPasses.h"

namespace coll {
#define GEN_PASS_DEF_VERIFYOWNERSHIP
#include "coll/Passes/VerifyPasses.h.inc"
} // namespace coll

namespace {
struct VerifyOwnershipPass
    : public coll::impl::VerifyOwnershipBase<VerifyOwnershipPass> {
  using Base::Base;
  void runOnOperation() override {
    coll::VerifyOptions options;
    options.timeoutMs = timeoutMs;
    if (replay)
      options.replayEverywhere();
    if (mlir::failed(coll::reportProperty(getOperation(),
                                          coll::Property::ownership, options)))
      signalPassFailure();
  }
};
} // namespace
