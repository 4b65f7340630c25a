//===- VerifyPasses.td - Z3 proofs of step programs --------*- tablegen -*-===//
#ifndef COLL_VERIFY_PASSES_TD
#define COLL_VERIFY_PASSES_TD

include "mlir/Pass/PassBase.td"

class VerifyPass<string arg, string property, string what>
    : Pass<arg, "mlir::ModuleOp"> {
  let summary = "Prove " # property # " of every coll.program with Z3";
  let description = what # [{

    The proof is for the program's rank count; a violation is reported as an
    error at the step concerned with a counterexample naming P, the step, the
    rank and the part, and a query Z3 cannot settle (timeout, unknown) as
    "not proven" -- never as proven. See docs/verification.md.
  }];
  let options = [
    Option<"timeoutMs", "timeout-ms", "unsigned", /*default=*/"60000",
           "Z3 timeout per query in milliseconds">,
    Option<"replay", "replay", "bool", /*default=*/"false",
           "Decide by the exact replay wherever the verifier has one (as it "
           "does for long chains and large programs), to test the replays "
           "on small ones">
  ];
}

def VerifyMatching : VerifyPass<"coll-verify-matching", "matching", [{
    In every step each send has exactly one receive of the same size: no
    rank sends or receives two messages in one step, and the receiver takes
    as many parts as were sent. Group moves are checked on a symbolic rank.
  }]>;

def VerifyOwnership : VerifyPass<"coll-verify-ownership", "ownership", [{
    Every send and every combine reads a block its rank still holds (a
    combine hands the sender's block on), and no copy destroys the last copy
    of a contribution that is still needed.
  }]>;

def VerifyCoverage : VerifyPass<"coll-verify-coverage", "coverage", [{
    After the last step every rank holds every part with each rank's
    contribution to that part exactly once, and no data of another part.
  }]>;

def VerifyOperatorLegality : VerifyPass<"coll-verify-operator-legality",
                                        "operator legality", [{
    With a `noncommutative` operator every combine joins two adjacent runs of
    ranks, so the result is the rank-ordered fold.
  }]>;

def ProveRankCounts : Pass<"coll-prove-rank-counts", "mlir::ModuleOp"> {
  let summary = "Prove every collective spec for each rank count it admits";
  let description = [{
    What `collc compile` and `collc policy` do before they write code:
    every `coll.collective` is expanded and its matching, ownership,
    coverage and operator legality proven with Z3 for its fixed rank count,
    or for every rank count in 1..64 it admits (with its family's proof
    for all P where one applies). The first property not proven is an
    error at the spec naming P, the property and the counterexample or Z3's
    reason, and the pass fails; the module is not changed. With
    `proof-cache`, proofs this same executable made before are reused and
    new ones kept (docs/collc.md, "The proof cache"); a spec's proofs are
    keyed by what the verifier reads of it, so `segments = auto`'s
    candidates and a renamed collective share them.
  }];
  let options = [
    Option<"proofCache", "proof-cache", "std::string", /*default=*/"\"\"",
           "A directory of proofs kept across runs of this executable">
  ];
}

#endif // COLL_VERIFY_PASSES_TD
