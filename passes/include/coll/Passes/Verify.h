//===- Verify.h - proofs of step programs with Z3 ---------------*- C++ -*-===//
//
// The four properties of design.md 4, proven with Z3 over symbolic slots
// (rank and part, or placement) and symbolic contributions, or refuted with
// a counterexample naming P, the step, the rank and the part. The passes
// coll-verify-{matching,ownership,coverage,operator-legality} and
// `collc verify` both call these.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_VERIFY_H
#define COLL_PASSES_VERIFY_H

#include "coll/Dialect/CollOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace coll {

enum class Property { matching, ownership, coverage, operatorLegality };
constexpr Property kAllProperties[] = {Property::matching, Property::ownership,
                                       Property::coverage,
                                       Property::operatorLegality};
const char *propertyName(Property property);

enum class Verdict { proven, violated, notProven };
const char *verdictName(Verdict verdict);

struct Counterexample {
  int64_t ranks = 0;
  int64_t step = -1; // -1: after the last step
  int64_t rank = -1; // -1: no single rank
  int64_t part = -1; // -1: no single part
  int64_t root = -1; // the root of a `root = any` spec's instance, or -1
  std::string expected, found;
  std::string message;
  mlir::Operation *at = nullptr;
};

struct PropertyResult {
  Property property;
  Verdict verdict = Verdict::notProven;
  double seconds = 0;
  /// "P = 7", or "all P in [2, 65536]" for a family proof.
  std::string scope;
  /// How the verdict was reached, in a few words.
  std::string method;
  /// The reason for "not proven", or a fact worth reporting (e.g. whether
  /// every rank gets a bitwise-identical result).
  std::string note;
  std::optional<Counterexample> counterexample;
  /// Not checked because an earlier property is violated (verdict
  /// notProven, the note says which).
  bool skipped = false;
  /// Decided by an exact concrete replay of the program, not by a Z3
  /// query: reported as "proven by replay".
  bool byReplay = false;
};

struct VerifyOptions {
  /// Per Z3 query; a timeout is reported as "not proven".
  unsigned timeoutMs = 60000;
  /// Properties already proven another way (a family proof, or an earlier
  /// run's proof kept in a proof cache): reported as proven without a
  /// query of their own, with `alreadyProvenBy` as their method.
  std::vector<Property> alreadyProven;
  std::string alreadyProvenBy = "family proof";
  /// The family proof of a group's moves (cyclic or aligned xor) covers the
  /// part index every move files each part under, so the group-level
  /// coverage query need not check it again.
  bool moveIndicesProven = false;
  /// Rank-level programs of more steps than this whose parts' paths do not
  /// compose (chains, pipelines: thousands of steps of single transfers,
  /// a chain too deep for Z3's symbolic slot) are decided by an exact
  /// replay instead. Tests lower it to run the replay on every program.
  size_t replayAboveSteps = 64;
  /// Rank-level programs that are not reduce-then-copy and move values
  /// between parts (Trivance's folds through a scratch part) take Z3's
  /// general coverage query, whose symbolic paths cost seconds from a few
  /// hundred slots on (16 s at P = 729); above this many slots their
  /// coverage is decided by the exact replay. Tests lower it to compare.
  int64_t replayGeneralCoverageAboveSlots = 512;
  /// Rank order of a non-commutative operator: Z3's five symbolic
  /// contributions cost about 8x per doubling of P (1 s at 1024 slots), so
  /// above this many slots the exact replay of the merges decides.
  int64_t replayRankOrderAboveSlots = 1024;

  /// Every rank-level program is decided by the exact replay, also those
  /// whose paths compose (which Z3 decides per part otherwise): for
  /// recordings at large P (tools/recorded-execution.sh), where Z3's
  /// queries over every rank's transfers cost minutes.
  bool replayRankLevel = false;

  /// Every threshold above at 0: the replays decide wherever they can.
  void replayEverywhere() {
    replayAboveSteps = 0;
    replayGeneralCoverageAboveSlots = 0;
    replayRankOrderAboveSlots = 0;
  }
};

/// Whether `program` is proven on the group level (placements as slots):
/// group moves only, of a kind whose result a placement states (allreduce,
/// barrier, reduce_scatter, allgather), and no scratch parts beside range
/// moves. Every other program is proven on the rank level, on the
/// transfers its moves imply.
bool provenOnGroupLevel(ProgramOp program);

/// Makes the C library keep 64 MiB of free heap rather than return it to
/// the kernel at once. A proof per P builds a module and a Z3 context and
/// frees both: the heap grows and shrinks by tens of MiB each time, and
/// the kernel zeroes every page anew; with the padding
/// `collc verify examples/butterfly_auto.coll --ranks 1..64` takes 17 s of
/// CPU instead of 40 (docs/verification.md, "Time against P"). For a
/// program's main(); the peak memory is unchanged.
void keepHeapForProofs();

/// Proves every property of one step program for its rank count, in the
/// order matching, ownership, coverage, operator legality.
std::vector<PropertyResult> verifyProgram(ProgramOp program,
                                          const VerifyOptions &options);

/// Proves what holds for every rank count in [2, maxRanks] at once, with P
/// symbolic: the rank-level matching and part-index formulas of the spec's
/// group moves, and for the linear schedule ownership and coverage by
/// induction over the step index. Empty when no family proof applies.
std::vector<PropertyResult> proveFamily(CollectiveOp spec, int64_t maxRanks,
                                        const VerifyOptions &options);

/// Ownership and coverage (and with them legality of a commutative
/// operator) of the butterfly on cyclic(P), r = 0, for every P in
/// [2, maxRanks], by induction over the live placement count.
std::vector<PropertyResult> proveHalvingButterfly(int64_t maxRanks,
                                                  const VerifyOptions &options);

/// Ownership, coverage and legality of the linear allgather on cyclic(P)
/// for every P in [2, maxRanks], by induction over the step index.
std::vector<PropertyResult>
proveLinearAllgather(int64_t maxRanks, const VerifyOptions &options);

/// Ownership, coverage and legality of a commutative operator of the
/// binomial tree of `kind` (reduce, gather, broadcast, scatter and the
/// allreduce, allgather, reduce-scatter and barrier made of two of them)
/// for every P in [2, maxRanks], by induction over the tree's levels
/// (matching stays per P). Empty for kinds trees do not serve.
std::vector<PropertyResult> proveBinomialTree(CollectiveKind kind,
                                              int64_t maxRanks,
                                              const VerifyOptions &options);

/// Ownership, coverage and legality of a commutative operator of the
/// hierarchical tree `arity(arity) flat_below(flatBelow)` of `kind` for
/// every P in [2, maxRanks], by induction over the size of a node (matching
/// stays per P). Empty for kinds trees do not serve, and for nodes of more
/// than 64 members.
std::vector<PropertyResult>
proveHierarchicalTree(CollectiveKind kind, int64_t arity, int64_t flatBelow,
                      int64_t maxRanks, const VerifyOptions &options);

/// Matching, ownership, coverage and legality of the all-to-all by
/// base-`radix` digits (ScheduleKind::radix, Bruck) or balanced-ternary
/// digits (ScheduleKind::balanced_ternary, ReTri) for every P = base^s up
/// to maxRanks, one query per s with the block, ranks and digits
/// symbolic. Empty for other schedules.
std::vector<PropertyResult> proveDigitRouting(ScheduleKind schedule,
                                              int64_t radix, int64_t maxRanks,
                                              const VerifyOptions &options);

/// Whether `program` (expanded from `spec` without transfers) is an
/// instance of the closed forms behind proveFamily's result for
/// `property`, so that result covers this P too.
bool familyCovers(CollectiveOp spec, ProgramOp program, Property property);

/// The exact dataflow simulation (Simulation.h) of a program held against
/// the proofs' verdicts: the independent check every proof must agree
/// with. Matching, ownership and coverage are compared (the simulation
/// does not judge operator legality): Z3 proves all three iff the
/// simulation finds no violation.
struct CrossCheck {
  /// False when there was nothing to compare: the program is too large to
  /// simulate, or Z3 neither proved nor refuted it (not proven).
  bool compared = false;
  bool agrees = true;
  /// What the simulation found: "no violation", or its violation.
  std::string simulation;
};
CrossCheck crossCheck(ProgramOp program,
                      const std::vector<PropertyResult> &results);

/// `spec` with its root fixed at `root`: what a `root = any` spec runs when
/// the caller passes `root`, as a spec of its own (detached, freed with the
/// returned reference).
mlir::OwningOpRef<CollectiveOp> rootInstance(CollectiveOp spec, int64_t root);

/// Whether `turned` (root r's plan) is `base` (root 0's) with every rank k
/// renamed (k + r) mod P, and every rank's own block too (gather,
/// scatter): a broadcast, reduce, gather or scatter of a commutative
/// operator on ranks and transfers only, the same steps in the same order,
/// each with the same transfers in any order, no slot written twice in a
/// step. Such a plan has `base`'s verdicts (RootRotation.cpp says why).
bool isRootRotation(ProgramOp base, ProgramOp turned, int64_t r);

/// Expands `spec` for P ranks as group moves (in a scratch module) and
/// proves it, taking as proven what `family` (proveFamily's results)
/// covers for this P. Counterexamples name no operation (`at` is null).
/// With `cross`, also runs crossCheck on the same expansion. A `root = any`
/// spec is expanded for every root in [0, P) (rootInstance): root 0's plan
/// is proven, and so is each root's plan that is not root 0's renamed
/// (isRootRotation); the renamed ones take root 0's verdicts (and with
/// `cross` are each simulated). A property is proven when it is for each
/// root; otherwise the first root's result that is not proven is reported,
/// its counterexample naming it.
std::vector<PropertyResult>
verifyRankCount(CollectiveOp spec, int64_t P,
                const std::vector<PropertyResult> &family,
                const VerifyOptions &options, CrossCheck *cross = nullptr);

/// "P = 4, step 3, rank 1, part 2: <message> (expected ..., found ...)".
std::string describeCounterexample(const Counterexample &counterexample);

/// For the coll-verify-* passes: proves `property` for every coll.program
/// of `module` and reports each violation or failed proof as an error at
/// the step (or program) concerned.
mlir::LogicalResult reportProperty(mlir::ModuleOp module, Property property,
                                   const VerifyOptions &options);

} // namespace coll

#endif
