//===- FamilyProof.h - what the family proofs share ------------*- C++ -*-===//
//
// A family proof proves a schedule's closed form for every P at once
// (Family.cpp says which families have one and binds them); each family's
// proof and its per-P instance check live in the file of that family:
// FamilyGroups.cpp (the ring and the halving butterfly), FamilyTrees.cpp
// (the binomial and hierarchical trees), FamilyDigits.cpp (Bruck and
// ReTri). Internal to the verifier.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_VERIFY_FAMILYPROOF_H
#define COLL_PASSES_VERIFY_FAMILYPROOF_H

#include "Queries.h"

#include "coll/Dialect/CollOps.h"

#include <functional>
#include <string>
#include <vector>

namespace coll::verify {

/// One family's proof for every P at once, and the check that a program
/// at one P is the instance of the closed form that proof is about (so
/// that the per-P proof may take the family's results as its own).
struct FamilyProof {
  std::vector<PropertyResult> (*prove)(CollectiveOp spec, int64_t maxRanks,
                                       const VerifyOptions &options);
  bool (*covers)(CollectiveOp spec, ProgramOp program, Property property);
};

/// The ring and the halving butterfly (FamilyGroups.cpp).
std::vector<PropertyResult> proveGroupFamily(CollectiveOp spec,
                                             int64_t maxRanks,
                                             const VerifyOptions &options);
bool groupFamilyCovers(CollectiveOp spec, ProgramOp program,
                       Property property);
/// The binomial and hierarchical trees (FamilyTrees.cpp).
std::vector<PropertyResult> proveTreeFamily(CollectiveOp spec,
                                            int64_t maxRanks,
                                            const VerifyOptions &options);
bool treeFamilyCovers(CollectiveOp spec, ProgramOp program, Property property);
/// Bruck and ReTri (FamilyDigits.cpp).
std::vector<PropertyResult> proveDigitFamily(CollectiveOp spec,
                                             int64_t maxRanks,
                                             const VerifyOptions &options);
bool digitFamilyCovers(CollectiveOp spec, ProgramOp program,
                       Property property);

/// Runs one family query ("is there a P and a step breaking it?"), sets
/// the verdict (a model is the counterexample) and adds its time.
void settle(z3::solver &solver, PropertyResult &result);

/// One induction query of a family proof: `breach` declares the symbolic
/// state in `ctx`, adds its ranges to `solver` and returns the breach of
/// the invariants; unsat proves `property` in `scope`. The result is added
/// to `results`.
Verdict addInduction(
    std::vector<PropertyResult> &results, Property property,
    std::string method, const std::string &scope, const VerifyOptions &options,
    const char *logic,
    const std::function<z3::expr(z3::context &, z3::solver &)> &breach);

/// Operator legality that an induction's coverage gives: proven in the
/// induction's scope, for `why`, with the identical-results note.
PropertyResult legalityFromCoverage(const std::string &scope,
                                    const char *why, bool copiesOnly);

/// An induction whose ownership invariant includes what its coverage
/// query shows (the runs kept level to level): ownership counts only with
/// coverage proven too.
void ownershipNeedsCoverage(std::vector<PropertyResult> &results);

} // namespace coll::verify

#endif
