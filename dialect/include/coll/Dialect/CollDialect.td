//===- CollDialect.td - the coll dialect -------------------*- tablegen -*-===//
#ifndef COLL_DIALECT_TD
#define COLL_DIALECT_TD

include "mlir/IR/OpBase.td"

def Coll_Dialect : Dialect {
  let name = "coll";
  let cppNamespace = "::coll";
  let summary = "Collective communication schedules";
  let description = [{
    The `coll` dialect has two levels. Spec ops (`coll.collective`) record
    what the user wrote in a `.coll` file: the collective kind, element type,
    operator, rank constraint, group and schedule. Step ops
    (`coll.program`, `coll.step`) record the schedule expanded for one rank
    count: per step, which rank sends which parts to which rank, and whether
    the receiver combines them or copies them.
  }];
  let useDefaultAttributePrinterParser = 1;
}

class Coll_Op<string mnemonic, list<Trait> traits = []>
    : Op<Coll_Dialect, mnemonic, traits>;

#endif // COLL_DIALECT_TD
