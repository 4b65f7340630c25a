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

#endif // COLL_VERIFY_PASSES_TD
