//===- VerifyCommand.h - collc verify ---------------------------*- C++ -*-===//
#ifndef COLLC_VERIFYCOMMAND_H
#define COLLC_VERIFYCOMMAND_H

#include "coll/Dialect/CollOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collc {

struct VerifyCommandOptions {
  std::string input;
  /// Rank counts asked for; empty: the fixed count, or 2..64.
  std::vector<int64_t> ranks;
  std::string collective;
  bool json = false;
  bool family = true;
  /// Also run the exact simulation on every program proven and fail when
  /// its verdict differs from Z3's.
  bool crossCheck = false;
  /// Decide by the exact replays wherever the verifier has one
  /// (VerifyOptions::replayEverywhere), to compare them with Z3.
  bool replay = false;
  unsigned timeoutMs = 60000;
  /// A proof cache directory (ProofCache.h): the (schedule, P) an earlier
  /// run of this collc proved are reported as proven without Z3 (and,
  /// with crossCheck, still simulated); new proofs are kept.
  std::string proofCache;
};

/// "2..64", "3,7,127", "2..8,16,31" -> sorted, unique counts; an error
/// message on bad text.
std::optional<std::string> parseRankList(llvm::StringRef text,
                                         std::vector<int64_t> &ranks);

/// Proves every property for every collective (and rank count) of `module`
/// and prints the results. Exit code (ExitCode.h): 0 all proven, 1 a
/// property is violated, 3 something could not be proven, 4 the simulation
/// disagrees (with --cross-check).
int runVerify(mlir::ModuleOp module, const VerifyCommandOptions &options);


} // namespace collc

#endif
