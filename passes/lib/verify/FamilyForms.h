//===- FamilyForms.h - the family proofs' closed forms, for tests -*- C++ -*-===//
//
// Each family proof states a closed form of its schedule and proves it by
// induction; these overloads take a different form than the schedule's, so
// that the tests (test/unit/VerifyTest.cpp) show each proof rejects a wrong
// one. Not part of the verifier's interface (coll/Passes/Verify.h), whose
// functions prove the schedule's own form.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_VERIFY_FAMILYFORMS_H
#define COLL_PASSES_VERIFY_FAMILYFORMS_H

#include "coll/Passes/Verify.h"

namespace coll {

/// The closed form the halving butterfly's induction states; the defaults
/// are the schedule's, anything else a wrong form (for the tests that the
/// induction rejects one).
struct HalvingForm {
  /// h = ceil(n/2) instead of floor(n/2) placements move per step.
  bool ceilHalf = false;
  /// The moved placements land on [offset, offset + h) instead of [0, h).
  int64_t destinationOffset = 0;
};

/// As coll/Passes/Verify.h's, proving `form` in place of the schedule's.
std::vector<PropertyResult> proveHalvingButterfly(int64_t maxRanks,
                                                  const VerifyOptions &options,
                                                  HalvingForm form);

/// The closed form the linear allgather's induction states: copy step i
/// copies placement i + sourceOffset onto i + 1 (0 is the schedule's;
/// anything else a wrong form, for the tests).
struct LinearAllgatherForm {
  int64_t sourceOffset = 0;
};

/// As coll/Passes/Verify.h's, proving `form` in place of the schedule's.
std::vector<PropertyResult>
proveLinearAllgather(int64_t maxRanks, const VerifyOptions &options,
                     LinearAllgatherForm form);

/// The closed form the binomial tree's induction states: a level of mask
/// (or distance) m sends between v and v -+ (m + distanceLag) (0 is the
/// schedule's; anything else a wrong form, for the tests).
struct BinomialForm {
  int64_t distanceLag = 0;
};

/// As coll/Passes/Verify.h's, proving `form` in place of the schedule's.
std::vector<PropertyResult> proveBinomialTree(CollectiveKind kind,
                                              int64_t maxRanks,
                                              const VerifyOptions &options,
                                              BinomialForm form);

/// The closed form the hierarchical tree's induction states; the default
/// is the schedule's, anything else a wrong form (for the tests).
struct HierarchicalForm {
  /// Groups start at lo + i q, dropping the remainder's extra ranks.
  bool dropRemainder = false;
  /// A node's level runs before its children's instead of after.
  bool shallowerFirst = false;
};

/// As coll/Passes/Verify.h's, proving `form` in place of the schedule's.
std::vector<PropertyResult>
proveHierarchicalTree(CollectiveKind kind, int64_t arity, int64_t flatBelow,
                      int64_t maxRanks, const VerifyOptions &options,
                      HierarchicalForm form);

/// The closed form the digit routings' proof states; the default is the
/// schedule's, anything else a wrong form (for the tests).
struct DigitForm {
  /// Blocks of digit value v move by -v base^k instead of +v base^k.
  bool reversed = false;
};

/// As coll/Passes/Verify.h's, proving `form` in place of the schedule's.
std::vector<PropertyResult> proveDigitRouting(ScheduleKind schedule,
                                              int64_t radix, int64_t maxRanks,
                                              const VerifyOptions &options,
                                              DigitForm form);

} // namespace coll

#endif
