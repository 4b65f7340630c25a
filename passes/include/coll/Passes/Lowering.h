//===- Lowering.h - entry points the driver calls ---------------*- C++ -*-===//
#ifndef COLL_PASSES_LOWERING_H
#define COLL_PASSES_LOWERING_H

#include "coll/Dialect/CollOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>
#include <string>

namespace llvm {
class raw_ostream;
}

namespace coll {

/// Creates an empty coll.program of `spec` for P ranks and `parts` parts at
/// the builder's insertion point: kind, operator, noncommutative and root
/// come from the spec. The expansions then fill its body.
ProgramOp createProgram(CollectiveOp spec, int64_t P, int64_t parts,
                        mlir::OpBuilder &builder,
                        mlir::DenseI64ArrayAttr chunkOfPart = {},
                        GroupKindAttr group = {},
                        mlir::DenseI64ArrayAttr groupElements = {},
                        int64_t scratchParts = 0);

/// Appends a coll.step of explicit transfers sources[i] -> destinations[i]
/// [parts[i]] (filed as received[i] when given) at the builder's insertion
/// point.
StepOp appendTransferStep(mlir::OpBuilder &builder, mlir::Location loc,
                          llvm::StringRef phase, StepKind kind,
                          llvm::ArrayRef<int64_t> sources,
                          llvm::ArrayRef<int64_t> destinations,
                          llvm::ArrayRef<mlir::Attribute> parts,
                          llvm::ArrayRef<mlir::Attribute> received = {});

/// Builds the coll.program of `spec` for P ranks at the builder's insertion
/// point, by its family's expansion (Expansion.cpp binds them). P must be
/// admitted by the spec. Without transfers, every step of a group schedule
/// is a group-level move alone (cheap for large P; the verifier works on
/// it); tree schedules always list their transfers.
ProgramOp expandCollective(CollectiveOp spec, int64_t P,
                           mlir::OpBuilder &builder, bool withTransfers = true);

/// The group schedules' expansions (ExpandGroupSchedules.cpp): the ring's
/// and the halving butterfly's group moves, the shifted butterfly's
/// coll::butterflyPlan and recursive doubling's coll::doublingPlan.
/// Without transfers a group move is written as the move alone.
ProgramOp expandGroupMoves(CollectiveOp spec, int64_t P,
                           mlir::OpBuilder &builder, bool withTransfers);
ProgramOp expandShiftedButterfly(CollectiveOp spec, int64_t P,
                                 mlir::OpBuilder &builder, bool withTransfers);
ProgramOp expandRecursiveDoubling(CollectiveOp spec, int64_t P,
                                  mlir::OpBuilder &builder);

/// Builds the coll.program of a scan spec (inclusive_scan, exclusive_scan)
/// for P ranks at the builder's insertion point (ExpandScans.cpp).
ProgramOp expandScanCollective(CollectiveOp spec, int64_t P,
                               mlir::OpBuilder &builder);

/// Replaces every coll.collective of `module` (that `select` accepts, when
/// given) by its coll.program for its fixed rank count, or `ranks` (> 0)
/// when the count is symbolic. `ranksHint` says how the user gives `ranks`,
/// for the error message.
mlir::LogicalResult expandAllCollectives(
    mlir::ModuleOp module, int64_t ranks, llvm::StringRef ranksHint,
    bool withTransfers = true,
    const std::function<bool(CollectiveOp)> &select = nullptr);

/// Prints `module`, after coll-select-schedules, as a C++ header (the
/// translation `coll-to-cpp`): each collective's function, each
/// coll.switch_settings and each coll.choice's dispatcher. `source` names
/// the .coll file in the header's first comment. Fails, printing nothing,
/// where a choice or a reconfiguration was not selected.
mlir::LogicalResult translateToCpp(mlir::ModuleOp module, llvm::raw_ostream &os,
                                   llvm::StringRef cppNamespace,
                                   llvm::StringRef source);

/// Registers translateToCpp as `coll-to-cpp` (options --coll-namespace,
/// --coll-source) for coll-translate.
void registerToCppTranslation();

/// Prints the values every rank holds after every step when rank r starts
/// with `count` copies of r+1, in the layout of seeds/000's traces.
mlir::LogicalResult printTrace(ProgramOp program, int64_t count,
                               llvm::raw_ostream &os);

} // namespace coll

#endif
