//===- CostCommand.h - collc cost and collc explain -------------*- C++ -*-===//
#ifndef COLLC_COSTCOMMAND_H
#define COLLC_COSTCOMMAND_H

#include "coll/Passes/CostModel.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collc {

struct CostCommandOptions {
  bool explain = false;
  int64_t ranks = 0; // 0: the spec's fixed count
  /// explain: several counts (--ranks 2..16) give one summary line per P;
  /// so does no --ranks on a symbolic count (P = 1..64).
  std::vector<int64_t> rankList;
  std::string model; // a model file, or inline "alpha=...,beta=..."
  std::vector<double> sizes;
  std::string collective;
};

/// "64,8K,128K,1M" (K, M, G binary; an optional trailing B or iB) -> bytes;
/// an error message on bad text.
std::optional<std::string> parseSizeList(llvm::StringRef text,
                                         std::vector<double> &sizes);

/// `collc cost`: a table of predicted times per candidate and size.
/// `collc explain`: each candidate's affine cost, the fastest per size
/// range and every pairwise crossover; over several P, per P the fastest
/// candidate by size on one line. Exit code 0, or 1 on an error.
int runCost(mlir::ModuleOp module, const CostCommandOptions &options);

} // namespace collc

#endif
