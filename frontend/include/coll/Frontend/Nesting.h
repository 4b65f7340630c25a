//===- Nesting.h - a bound on how deep input text nests ---------*- C++ -*-===//
//
// MLIR's parser (and collc's) descend once per nested region, attribute or
// bracket, on the call stack: input nested thousands deep overflows it.
// Every reader of user text scans it first and refuses what nests deeper
// than kMaxNesting with `file:line:col: error:`, before parsing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <optional>

namespace coll {

/// How deep collc's and coll-opt's inputs may nest: far beyond any program
/// collc writes (a module's programs and attributes nest about 5 deep) and
/// far below what overflows an 8 MiB stack (about 5,000).
constexpr unsigned kMaxNesting = 256;

/// The offset of the first bracket of `text` (`{`, `(`, `[` or `<`, not
/// the arrow `->`, outside strings and `//` comments) that opens a level
/// deeper than `limit`, if any.
std::optional<size_t> findNestingBeyond(llvm::StringRef text, unsigned limit);

/// Emits an error at the first bracket of the main buffer of `sourceMgr`
/// deeper than `limit` and fails, or succeeds.
mlir::LogicalResult checkNesting(const llvm::SourceMgr &sourceMgr,
                                 mlir::MLIRContext *context,
                                 unsigned limit = kMaxNesting);

} // namespace coll
