//===- Passes.td - coll passes -----------------------------*- tablegen -*-===//
#ifndef COLL_PASSES_TD
#define COLL_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExpandGroupSchedules : Pass<"coll-expand-group-schedules", "mlir::ModuleOp"> {
  let summary = "Expand group schedules (linear, butterfly) into coll.step ops";
  let description = [{
    Replaces every group-scheduled `coll.collective` by a `coll.program`
    holding its steps for one rank count: the spec's fixed count, or `ranks` when the count is
    symbolic. A step moves distributed vectors between placements of the
    group by one communication permutation (design.md 3.1): `linear` is the
    ring, `butterfly` (r = 0) takes 2*ceil(log2 P) steps for any P.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", /*default=*/"0",
           "Rank count for specs whose count is symbolic">,
    Option<"compact", "compact", "bool", /*default=*/"false",
           "Emit each step as its group move alone, without per-rank transfers">
  ];
  let dependentDialects = ["coll::CollDialect"];
}

def ExpandTrees : Pass<"coll-expand-trees", "mlir::ModuleOp"> {
  let summary = "Expand tree schedules (flat, binomial, hierarchical) into coll.step ops";
  let description = [{
    Replaces every tree-scheduled `coll.collective` by its `coll.program` for
    one rank count. The tree comes from the runtime's coll/trees.hpp, over
    ranks relative to the root: `flat` (the naive root, P - 1 steps),
    `binomial` (ceil(log2 P) steps), `hierarchical` (balanced groups of at
    most `arity`, leftmost member represents, one flat level below
    `flat_below` ranks). reduce combines up the tree, broadcast copies down,
    allreduce does both around rank 0; gather and scatter move each
    subtree's blocks.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", /*default=*/"0",
           "Rank count for specs whose count is symbolic">
  ];
  let dependentDialects = ["coll::CollDialect"];
}

def ExpandDigits : Pass<"coll-expand-digits", "mlir::ModuleOp"> {
  let summary = "Expand all-to-all digit routings (direct, radix, balanced_ternary) into coll.step ops";
  let description = [{
    Replaces every digit-routed `coll.collective` (alltoall) by its
    `coll.program` for one rank count, from the runtime's coll/digits.hpp.
    Part j of a rank is its block at offset j (its block for rank + j at the
    start, the block of rank - j at the end). `direct`: step k sends block k
    to rank + k. `radix` (Bruck): in phase k, blocks whose k-th digit is v go
    to rank + v b^k. `balanced_ternary` (ReTri, seeds/002): in phase k,
    blocks whose balanced-ternary digit of the centered offset is +1 go to
    rank + 3^k, those with -1 to rank - 3^k; ceil(log3 P) phases.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", /*default=*/"0",
           "Rank count for specs whose count is symbolic">
  ];
  let dependentDialects = ["coll::CollDialect"];
}

def ExpandScans : Pass<"coll-expand-scans", "mlir::ModuleOp"> {
  let summary = "Expand scan schedules (linear, doubling) into coll.step ops";
  let description = [{
    Replaces every inclusive_scan and exclusive_scan `coll.collective` by its
    `coll.program`: fold steps (the receiver merges a copy, the sender keeps
    its prefix) along the chain (`linear`, P - 1 steps) or by recursive
    doubling (`doubling`, ceil(log2 P) steps). An exclusive scan carries the
    inclusive prefix in part 0 and ends with a shift of part 0 into the next
    rank's part 1; rank 0's result is undefined, as in MPI_Exscan.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", /*default=*/"0",
           "Rank count for specs whose count is symbolic">
  ];
  let dependentDialects = ["coll::CollDialect"];
}

def CheckDataflow : Pass<"coll-check-dataflow", "mlir::ModuleOp"> {
  let summary = "Check a step program by exact dataflow simulation";
  let description = [{
    Runs every `coll.program` step by step on sets of contributions and
    reports the first violation, naming the property, the step, the rank and
    the part: every send reads a part its rank holds (ownership), no copy
    overwrites a partial result that exists nowhere else (ownership), each
    rank sends and receives at most one message per step (matching), and in
    the end every rank holds every part with each rank's contribution
    exactly once (coverage).
  }];
}

def AnnotateCost : Pass<"coll-annotate-cost", "mlir::ModuleOp"> {
  let summary = "Annotate every step with its alpha-beta-gamma cost";
  let description = [{
    For a call of `bytes` bytes (count * sizeof(T)) on a uniform, fully
    connected machine, sets on every `coll.step` a `cost` dictionary: the
    largest message a rank sends or receives (`bytes`), the largest merge a
    rank does (`merged_bytes`), the hops of its longest path and its
    predicted time `time_us` = alpha (if any rank sends) + beta * bytes +
    gamma * merged_bytes; and on every `coll.program` the total
    `cost_us`. design.md 5's closed forms are what these sums must give.
  }];
  let options = [
    Option<"alpha", "alpha", "double", /*default=*/"0.0",
           "Microseconds per message">,
    Option<"beta", "beta", "double", /*default=*/"0.0",
           "Microseconds per byte">,
    Option<"gamma", "gamma", "double", /*default=*/"0.0",
           "Microseconds per merged byte">,
    Option<"bytes", "bytes", "double", /*default=*/"0.0",
           "Bytes of the call (count * sizeof(T))">
  ];
}

def SelectSchedules : Pass<"coll-select-schedules", "mlir::ModuleOp"> {
  let summary = "Price choose candidates and switch settings with the cost model";
  let description = [{
    What `collc compile` decides with the cost model (design.md 5), as ops
    the C++ translation prints: for each `choose` block (the coll.collective
    ops sharing a `choice_of`), a `coll.choice` holding, per rank count
    priced (the fixed one, or 1..64), the cheapest candidate per message
    size and every candidate's predicted cost; for each `reconfigure auto`
    collective, a `coll.switch_settings` after it: the model's constants,
    or on an optical switch model the cheapest settings per P and size.
    The checks that need no proof come here too: a choice or a
    reconfiguration needs a model (with delta for the switch), and a
    choice's candidates share one root. Earlier selections are replaced.
  }];
  let options = [
    Option<"modelSpec", "model", "std::string", /*default=*/"\"\"",
           "A model file, or alpha=...,beta=... (docs/cost-model.md)">
  ];
  let dependentDialects = ["coll::CollDialect"];
}

#endif // COLL_PASSES_TD
