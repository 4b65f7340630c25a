//===- Queries.h - one Z3 query per property --------------------*- C++ -*-===//
#ifndef COLL_PASSES_VERIFY_QUERIES_H
#define COLL_PASSES_VERIFY_QUERIES_H

#include "SlotProgram.h"
#include "coll/Passes/Verify.h"

namespace coll::verify {

/// Each query fills verdict, method, note and counterexample; the caller
/// times it and sets the scope. One file each: MatchingQuery.cpp,
/// OwnershipQuery.cpp, CoverageQuery.cpp, LegalityQuery.cpp (with
/// identicalResultsNote); makeSolver and reverseBits are in Queries.cpp.
void proveMatching(z3::context &ctx, const SlotProgram &sp,
                   const VerifyOptions &options, PropertyResult &result);
void proveOwnership(z3::context &ctx, const SlotProgram &sp,
                    const VerifyOptions &options, PropertyResult &result);
/// May also turn `ownership` into a violation: a contribution that never
/// arrives because a copy destroyed its last holder is an ownership error.
void proveCoverage(z3::context &ctx, const SlotProgram &sp,
                   const VerifyOptions &options, PropertyResult &result,
                   PropertyResult &ownership);
/// Rank order for a non-commutative operator: `sp` is on the rank level
/// then (rank order is a property of ranks, not placements).
void proveOperatorLegality(z3::context &ctx, const SlotProgram &sp,
                           const VerifyOptions &options,
                           PropertyResult &result);
/// "bitwise-identical results: yes (...)", "no (...)" or "not determined
/// (...)": whether every delivered slot of a part copies one reduction.
std::string identicalResultsNote(z3::context &ctx, const SlotProgram &sp,
                                 const VerifyOptions &options);

/// The low `bits` (>= 1) bits of `k` in reverse order, zero-extended to
/// `width`: the xor group's bitreverse.
z3::expr reverseBits(const z3::expr &k, unsigned bits, unsigned width);

/// z3::solver for one query, with the options' timeout.
z3::solver makeSolver(z3::context &ctx, const VerifyOptions &options,
                      const char *logic = "QF_BV");

} // namespace coll::verify

#endif
