//===- ExitCode.h - collc's exit status -------------------------*- C++ -*-===//
//
// The same for every command (docs/collc.md): scripts and build systems
// tell a wrong schedule from a wrong command line or input file.
//
//===----------------------------------------------------------------------===//
#ifndef COLLC_TOOLS_EXITCODE_H
#define COLLC_TOOLS_EXITCODE_H

namespace collc {

enum ExitCode : int {
  kSuccess = 0,
  /// A property of a schedule is violated (a counterexample is printed).
  kViolated = 1,
  /// The command line, or an input that cannot be read or is not valid: a
  /// missing file, a parse or semantic error, an unknown collective, a bad
  /// model file.
  kInputError = 2,
  /// Nothing is violated, but Z3 could not prove something (timeout or
  /// unknown).
  kNotProven = 3,
  /// verify --cross-check: the exact simulation disagrees with Z3's
  /// verdict, a defect of the verifier (or the simulation) to report.
  kDisagreement = 4,
};

} // namespace collc

#endif
