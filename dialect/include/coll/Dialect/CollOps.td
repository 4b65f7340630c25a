//===- CollOps.td - coll spec and step ops -----------------*- tablegen -*-===//
#ifndef COLL_OPS_TD
#define COLL_OPS_TD

include "coll/Dialect/CollAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Spec level
//===----------------------------------------------------------------------===//

def Coll_CollectiveOp : Coll_Op<"collective", [Symbol]> {
  let summary = "a collective as the user specified it";
  let description = [{
    One `collective` declaration of a `.coll` file. `num_ranks` is set for a
    fixed rank count; otherwise the rank count P is symbolic and
    `rank_constraint` restricts it. A missing `element_type` means the
    generated function is a template over the element type.

    The schedule is either one on a permutation group (`linear`,
    `butterfly`; `group` set) or a tree over the ranks relative to `root`
    (`flat`, `binomial`, `chain`, `hierarchical` with `arity` and
    `flat_below`; no group), or a scan chain (`linear` without a group,
    `doubling`). Rooted kinds (broadcast, reduce, gather, scatter) need `root`
    or `any_root` (`root = any;`: the generated function takes the root as
    an argument, and the verifier proves the schedule for every root of
    every rank count).
    alltoall routes blocks by the digits of their offsets: `direct` (one
    phase), `radix` (Bruck, with `radix`) or `balanced_ternary` (ReTri).
    `group = #coll.group<generated>` comes with `group_generators`, each
    the images of ranks 0..P-1 under one generator (products such as
    `cyclic(3) * cyclic(4)` are written this way), and a fixed `num_ranks`;
    the generators must make an abelian group acting regularly.
    `segments` (broadcast, reduce and allreduce on a tree; allreduce on the
    ring or the halving butterfly over cyclic or xor: the catalogue,
    coll/Dialect/Catalogue.h) cuts the buffer into that many segments whose
    steps the runtime pipelines; every segment runs the
    same step program on its own memory, so the program's proof covers it.
    `reconfigure` (a digit routing of alltoall) asks for the phases before
    which an optical circuit switch should be set (R* of seed 002).
    `choice_of` names the dispatcher a `choose { ... }` candidate belongs
    to: the header calls the cheapest candidate for the message size.
    `op = custom` means the caller passes the operator; `noncommutative`
    (custom only) requires every merge to join adjacent rank runs, which the
    operator-legality proof checks for each rank count.

    ```mlir
    coll.collective @ring {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>,
        op = #coll.op<sum>, rank_constraint = #coll.ranks<any>,
        schedule = #coll.schedule<linear>}
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    Coll_CollectiveKindAttr:$kind,
    OptionalAttr<TypeAttr>:$element_type,
    Coll_ReduceOpAttr:$op,
    OptionalAttr<I64Attr>:$num_ranks,
    Coll_RankConstraintAttr:$rank_constraint,
    OptionalAttr<Coll_GroupKindAttr>:$group,
    OptionalAttr<TypedArrayAttrBase<DenseI64ArrayAttr, "generators">>:$group_generators,
    Coll_ScheduleKindAttr:$schedule,
    DefaultValuedAttr<I64Attr, "0">:$butterfly_r,
    OptionalAttr<I64Attr>:$root,
    OptionalAttr<I64Attr>:$arity,
    OptionalAttr<I64Attr>:$flat_below,
    OptionalAttr<I64Attr>:$radix,
    OptionalAttr<I64Attr>:$segments,
    OptionalAttr<StrAttr>:$choice_of,
    UnitAttr:$reconfigure,
    UnitAttr:$noncommutative,
    UnitAttr:$any_root
  );
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The communicator sizes the spec admits (its rank count and root).
    RankRule rankRule();
    /// Whether the spec admits a communicator of `ranks` processes.
    bool acceptsRanks(int64_t ranks);
    /// The constraint in the words of the language, e.g. "P == 2^k".
    std::string describeRanks();
    /// The same as a C++ condition on the variable `ranks` (a header's
    /// NAME_accepts), e.g. "ranks >= 1 && (ranks & (ranks - 1)) == 0".
    std::string acceptsCondition(llvm::StringRef ranks);
    /// Whether the schedule is a tree (flat, binomial, chain, hierarchical).
    bool isTree();
    /// Whether the schedule routes by digits (direct, radix,
    /// balanced_ternary).
    bool isDigitRouting();
  }];
}

//===----------------------------------------------------------------------===//
// Step level
//===----------------------------------------------------------------------===//

def Coll_ProgramOp : Coll_Op<"program", [Symbol, NoTerminator, SingleBlock,
                                         IsolatedFromAbove]> {
  let summary = "a schedule expanded for one rank count";
  let description = [{
    The steps of one collective for `num_ranks` ranks. Every rank's buffer is
    cut into `num_parts` parts; the steps in the body run in order. A
    `generated` group lists its elements in `group_elements` (P rows of P
    images: row k is t_k, in the enumeration the schedule uses). The last
    `num_scratch_parts` parts are scratch: they start empty and are no
    result (the shifted butterfly's extra copies of the P parts, part
    c * P + b being copy c of part b; Trivance's received value).
    `chunk_of_part` says which memory chunk holds each part (identity when
    absent): the xor group stores part b in chunk bitreverse(b) so that every
    message is one contiguous range. `segments` (S > 1) says the runtime
    cuts the buffer into S segments that each run these steps, pipelined:
    in super-step t segment j runs step t - j. The proof is of one segment;
    the cost model prices the super-steps.

    ```mlir
    coll.program @ring attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64,
                        num_ranks = 2 : i64, op = #coll.op<sum>} {
      coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]}
      coll.step "all-gather" copy {0 -> 1 [1], 1 -> 0 [0]}
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    Coll_CollectiveKindAttr:$kind,
    Coll_ReduceOpAttr:$op,
    I64Attr:$num_ranks,
    I64Attr:$num_parts,
    OptionalAttr<DenseI64ArrayAttr>:$chunk_of_part,
    OptionalAttr<Coll_GroupKindAttr>:$group,
    OptionalAttr<DenseI64ArrayAttr>:$group_elements,
    OptionalAttr<I64Attr>:$num_scratch_parts,
    UnitAttr:$noncommutative,
    OptionalAttr<I64Attr>:$root,
    OptionalAttr<I64Attr>:$segments
  );
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The program's slot rules (PartRules), read once.
    PartRules partRules();
    /// Whether `rank` starts with a defined value of `part`.
    bool startsWith(int64_t rank, int64_t part);
    /// Whether `rank`'s `part` is a result the collective must deliver.
    bool delivers(int64_t rank, int64_t part);
    /// Whether that result is a reduction over contributions (else it is
    /// one rank's block).
    bool reduces();
    /// Whether delivered slot (rank, part) must hold the contribution that
    /// starts at (fromRank, fromPart).
    bool expects(int64_t rank, int64_t part, int64_t fromRank,
                 int64_t fromPart);
  }];
}

def Coll_StepOp : Coll_Op<"step", [HasParent<"ProgramOp">]> {
  let summary = "one communication step";
  let description = [{
    Every transfer `s -> d [b, ...]` sends parts `b, ...` from rank `s` to
    rank `d`; the receiver combines them into its own copy of the same parts
    (`combine`) or overwrites its copy (`copy`). `s -> d [b, ...] into [c,
    ...]` makes the receiver take the i-th part sent as its part `c_i`,
    which is how a hand-written schedule states a receive that differs from
    the send (the verifier then reports it). `phase` names the part of the
    algorithm the step belongs to.

    A step of a program on a group (`group` set on the program) may instead
    be one group-level move, `move [f, f+v) -> [t, t+v)`: the vectors at
    placements f .. f+v-1 move onto t .. t+v-1 by the one permutation
    t_t t_f^-1 (design.md 3.1), and the transfers are implied. When a step
    lists transfers too, the transfers are what runs and what is verified;
    the move only records where they came from.

    A step may also list group-level moves of vector slots, `vectors {s ->
    d, ...}`, where slot c * P + p is copy c of the vector at placement p
    (copies 1.. are scratch; the program then has num_parts = copies * P).
    All moves of a step share the one permutation t_q t_p^-1 of their
    placements; moves within one placement (a `copy` step) are local copies
    on every rank. One slot may feed several destinations. This is the
    shifted butterfly of 0 < r (design.md 3.1).

    ```mlir
    coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]}
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 0 -> 10}
    ```
  }];
  let arguments = (ins
    StrAttr:$phase,
    Coll_StepKindAttr:$step_kind,
    DenseI64ArrayAttr:$sources,
    DenseI64ArrayAttr:$destinations,
    TypedArrayAttrBase<DenseI64ArrayAttr, "parts per transfer">:$parts,
    OptionalAttr<TypedArrayAttrBase<DenseI64ArrayAttr, "received parts per transfer">>:$received_parts,
    OptionalAttr<I64Attr>:$from,
    OptionalAttr<I64Attr>:$to,
    OptionalAttr<I64Attr>:$vectors,
    OptionalAttr<DenseI64ArrayAttr>:$vector_sources,
    OptionalAttr<DenseI64ArrayAttr>:$vector_destinations
  );
  let assemblyFormat = [{
    $phase custom<StepKindKeyword>($step_kind) custom<Transfers>($sources, $destinations, $parts, $received_parts, $from, $to, $vectors, $vector_sources, $vector_destinations) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    size_t getNumTransfers() { return getSources().size(); }
    llvm::ArrayRef<int64_t> getTransferParts(size_t i) {
      return llvm::cast<mlir::DenseI64ArrayAttr>(getParts()[i]).asArrayRef();
    }
    /// The parts the receiver of transfer i takes them as.
    llvm::ArrayRef<int64_t> getReceivedParts(size_t i) {
      if (std::optional<mlir::ArrayAttr> received = getReceivedParts())
        return llvm::cast<mlir::DenseI64ArrayAttr>((*received)[i]).asArrayRef();
      return getTransferParts(i);
    }
    /// A group-level move without transfers of its own.
    bool isImplicitMove() { return getSources().empty() && getVectors().has_value(); }
    /// Group-level moves of vector slots (copy * P + placement).
    bool hasVectorMoves() { return getVectorSources().has_value(); }
    size_t getNumVectorMoves() { return hasVectorMoves() ? getVectorSources()->size() : 0; }
  }];
}


//===----------------------------------------------------------------------===//
// Selection level: what coll-select-schedules decides with the cost model
//===----------------------------------------------------------------------===//

def Coll_ChoiceOp : Coll_Op<"choice", [Symbol,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a choose block's dispatcher, as the cost model priced it";
  let description = [{
    The dispatcher `sym_name` of a `choose { ... }` block: it calls one of
    `candidates` (the coll.collective ops whose `choice_of` is this name)
    by the communicator size and the call's byte count. `priced` holds, per
    rank count the compiler priced, the cheapest candidate per size range
    on `model` (its name and description). Beyond `priced_up_to`, a
    communicator admitted by the same candidates as at P (each P of
    `estimates`, the largest priced P of its set of admitting candidates)
    takes P's ranges. Written by `coll-select-schedules`; the C++
    translation prints it and decides nothing.

    ```mlir
    coll.choice @allreduce {candidates = [@ring, @doubling],
        model = "m", description = "alpha = 1 us, ...", priced_up_to = 64 : i64,
        priced = [#coll.priced<ranks = 2, bounds = [], picks = [1],
                               costs = [2.0, 1.0e-4, 1.0, 1.0e-4]>],
        estimates = array<i64>}
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    FlatSymbolRefArrayAttr:$candidates,
    StrAttr:$model,
    StrAttr:$description,
    I64Attr:$priced_up_to,
    TypedArrayAttrBase<Coll_PricedRankCountAttr, "priced rank counts">:$priced,
    DenseI64ArrayAttr:$estimates
  );
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
}

def Coll_SwitchSettingsOp : Coll_Op<"switch_settings", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "where an optical circuit switch is set for a digit routing";
  let description = [{
    For the `reconfigure auto` collective `collective`, on model `model`:
    either the model's constants (alpha per phase, hop latency, beta,
    delta), from which the runtime finds R* = argmin C(R) at run time
    (coll/reconfiguration.hpp, seed 002), or, on an optical switch model,
    `table`: the cheapest settings per rank count and size, found at compile
    time. Written by `coll-select-schedules`; the C++ translation prints it.

    ```mlir
    coll.switch_settings @trivance {model = "m", description = "...",
        constants = array<f64: 1.0, 0.1, 1.0e-4, 20.0>}
    ```
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$collective,
    StrAttr:$model,
    StrAttr:$description,
    OptionalAttr<DenseF64ArrayAttr>:$constants,
    OptionalAttr<TypedArrayAttrBase<Coll_SwitchPlanAttr, "switch plans">>:$table
  );
  let assemblyFormat = "$collective attr-dict";
  let hasVerifier = 1;
}

#endif // COLL_OPS_TD
