//===- ProofCache.h - proofs kept across runs ------------------*- C++ -*-===//
//
// `collc compile` and `collc policy` prove a schedule for every admitted P
// before they write code for it (the coll-prove-rank-counts pass). The
// same examples are compiled by many targets and by both MPI trees; a
// proof cache directory lets a later run of the *same collc executable*
// reuse what an earlier one proved, instead of proving it again.
//
// One file per schedule, named by a digest of (this executable's identity,
// the schedule's key); it holds both in full and the P proven. A file from
// another collc (a rebuilt verifier), of another format, or naming another
// key is ignored. The identity is the executable's GNU build ID (a digest
// of its contents the linker writes), or, without one, a SHA-256 of the
// executable's file. The directory is trusted as the build tree is: a hand
// edited entry is believed (docs/collc.md, "The proof cache").
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_PROOFCACHE_H
#define COLL_PASSES_PROOFCACHE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace coll {

class CollectiveOp;

/// What the verifier reads of `spec`, as one line: its attributes but its
/// names and its segments (which change no transfer the proof sees). The
/// key of its proofs in a ProvenSchedules.
std::string proofKey(CollectiveOp spec);

/// The (schedule key, P) pairs proven: by this command (the candidates of
/// `segments = auto` share a key, so their proofs are one proof) and, with
/// a cache directory, by earlier runs of this executable.
class ProvenSchedules {
public:
  /// Keeps proofs in `dir` too (made if missing). An error message when
  /// the directory cannot be made or this executable has no identity.
  std::optional<std::string> useDirectory(llvm::StringRef dir);

  bool contains(const std::string &key, int64_t P);
  void insert(const std::string &key, int64_t P);
  /// Writes the P proven for `key` to the directory, if one is used
  /// (through a temporary file and a rename: concurrent builds read whole
  /// files). A failure to write only loses the cache entry.
  void save(const std::string &key);

private:
  /// Reads `key`'s file into `proven` once.
  void load(const std::string &key);
  std::string path(const std::string &key) const;

  std::set<std::pair<std::string, int64_t>> proven;
  std::set<std::string> loaded;
  std::string directory, identity;
};

/// This executable's identity: "build-id HEX" or "sha256 HEX"; empty when
/// neither can be read.
std::string executableIdentity();

} // namespace coll

#endif
