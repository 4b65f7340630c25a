//===- CollAttrs.td - coll enums and attributes ------------*- tablegen -*-===//
#ifndef COLL_ATTRS_TD
#define COLL_ATTRS_TD

include "coll/Dialect/CollDialect.td"
include "mlir/IR/EnumAttr.td"

// The runtime's coll::Kind (COLLC_KINDS, runtime/include/coll/plan.hpp)
// by name and value: coll::runtimeKind is a cast, and PlanProgram.cpp
// checks at compile time that the two lists agree.
def Coll_CollectiveKind : I32EnumAttr<"CollectiveKind", "collective kind", [
    I32EnumAttrCase<"allreduce", 0>, I32EnumAttrCase<"reduce_scatter", 1>,
    I32EnumAttrCase<"allgather", 2>, I32EnumAttrCase<"alltoall", 3>,
    I32EnumAttrCase<"broadcast", 4>, I32EnumAttrCase<"reduce", 5>,
    I32EnumAttrCase<"gather", 6>, I32EnumAttrCase<"scatter", 7>,
    I32EnumAttrCase<"inclusive_scan", 8>, I32EnumAttrCase<"exclusive_scan", 9>,
    I32EnumAttrCase<"barrier", 10>
  ]> {
  let cppNamespace = "::coll";
  let genSpecializedAttr = 0;
}
def Coll_CollectiveKindAttr : EnumAttr<Coll_Dialect, Coll_CollectiveKind, "kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def Coll_ReduceOp : I32EnumAttr<"ReduceOp", "reduction operator", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"prod", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"max", 3>,
    I32EnumAttrCase<"custom", 4>
  ]> {
  let cppNamespace = "::coll";
  let genSpecializedAttr = 0;
}
def Coll_ReduceOpAttr : EnumAttr<Coll_Dialect, Coll_ReduceOp, "op"> {
  let assemblyFormat = "`<` $value `>`";
}

def Coll_RankConstraint : I32EnumAttr<"RankConstraint", "rank-count constraint", [
    I32EnumAttrCase<"any", 0>, I32EnumAttrCase<"power_of_two", 1>
  ]> {
  let cppNamespace = "::coll";
  let genSpecializedAttr = 0;
}
def Coll_RankConstraintAttr : EnumAttr<Coll_Dialect, Coll_RankConstraint, "ranks"> {
  let assemblyFormat = "`<` $value `>`";
}

def Coll_GroupKind : I32EnumAttr<"GroupKind", "permutation group acting on the ranks", [
    I32EnumAttrCase<"cyclic", 0>, I32EnumAttrCase<"xor_", 1, "xor">,
    I32EnumAttrCase<"generated", 2>
  ]> {
  let cppNamespace = "::coll";
  let genSpecializedAttr = 0;
}
def Coll_GroupKindAttr : EnumAttr<Coll_Dialect, Coll_GroupKind, "group"> {
  let assemblyFormat = "`<` $value `>`";
}

// linear and butterfly act on a group; flat, binomial, chain and hierarchical are
// trees over the ranks relative to a root (runtime/include/coll/trees.hpp);
// direct, radix and balanced_ternary route all-to-all blocks by the digits of
// their offsets (runtime/include/coll/digits.hpp); scans take linear (a
// chain) or doubling (recursive doubling, Hillis-Steele) without a group.
def Coll_ScheduleKind : I32EnumAttr<"ScheduleKind", "schedule of a collective", [
    I32EnumAttrCase<"linear", 0>, I32EnumAttrCase<"butterfly", 1>,
    I32EnumAttrCase<"flat", 2>, I32EnumAttrCase<"binomial", 3>,
    I32EnumAttrCase<"hierarchical", 4>, I32EnumAttrCase<"direct", 5>,
    I32EnumAttrCase<"radix", 6>, I32EnumAttrCase<"balanced_ternary", 7>,
    I32EnumAttrCase<"doubling", 8>, I32EnumAttrCase<"chain", 9>
  ]> {
  let cppNamespace = "::coll";
  let genSpecializedAttr = 0;
}
def Coll_ScheduleKindAttr : EnumAttr<Coll_Dialect, Coll_ScheduleKind, "schedule"> {
  let assemblyFormat = "`<` $value `>`";
}

// combine hands the sender's partial value on (it no longer counts it);
// fold combines a copy (scans: the sender keeps its prefix for itself).
def Coll_StepKind : I32EnumAttr<"StepKind", "what a receiver does with a part", [
    I32EnumAttrCase<"combine", 0>, I32EnumAttrCase<"copy", 1>,
    I32EnumAttrCase<"fold", 2>
  ]> {
  let cppNamespace = "::coll";
  let genSpecializedAttr = 0;
}
def Coll_StepKindAttr : EnumAttr<Coll_Dialect, Coll_StepKind, "step"> {
  let assemblyFormat = "`<` $value `>`";
}


//===----------------------------------------------------------------------===//
// What the selection pass (coll-select-schedules) decides, as data the C++
// translation prints.
//===----------------------------------------------------------------------===//

class Coll_Attr<string name, string attrMnemonic> : AttrDef<Coll_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Coll_PricedRankCountAttr : Coll_Attr<"PricedRankCount", "priced"> {
  let summary = "a choice's candidates priced at one rank count";
  let description = [{
    At `ranks` processes, the size ranges of the cheapest candidate: a call
    of M bytes (count * sizeof(T)) runs candidate `picks[i]` for the first
    i with M < `bounds[i]`, else the last pick (`bounds` has one entry less
    than `picks`). `costs` holds each candidate's predicted time as
    (fixed us, us per byte), -1, -1 where the candidate does not admit
    `ranks` (f64 attributes, which print exactly).

    ```mlir
    #coll.priced<ranks = 4, bounds = [7124], picks = [1, 0],
                 costs = [8.5, 1.2e-4, 3.0, 2.4e-4]>
    ```
  }];
  let parameters = (ins "int64_t":$ranks, "mlir::DenseI64ArrayAttr":$bounds,
                        "mlir::DenseI64ArrayAttr":$picks,
                        "mlir::ArrayAttr":$costs);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Coll_SwitchPlanAttr : Coll_Attr<"SwitchPlan", "switch_plan"> {
  let summary = "an optical switch's cheapest settings at one rank count";
  let description = [{
    At `ranks` processes, for `bytes` per node below `bounds[i]` (the last
    range unbounded) the phases before which the circuit switch is set are
    `settings[i]`. No settings: the program sends nothing, so there is no
    phase to set the switch for.

    ```mlir
    #coll.switch_plan<ranks = 9, bounds = [4096],
                      settings = [array<i64: 0>, array<i64: 0, 1>]>
    ```
  }];
  let parameters = (ins "int64_t":$ranks, "mlir::DenseI64ArrayAttr":$bounds,
                        "mlir::ArrayAttr":$settings);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // COLL_ATTRS_TD
