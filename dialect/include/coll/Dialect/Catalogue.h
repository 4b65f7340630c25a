//===- Catalogue.h - the algorithm families collc knows ---------*- C++ -*-===//
//
// One entry per algorithm family (MPICH's algorithm catalogue is the
// model): its name, how a .coll file spells it, the kinds it serves, its
// parameters with their defaults and ranges, where `segments` and
// `reconfigure auto` apply, its restrictions, and the runtime functions
// that plan and run it. The parser, the op verifier, the emitter, the
// expansion and `collc families` read it; a rule about families is stated
// here and nowhere else.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_DIALECT_CATALOGUE_H
#define COLL_DIALECT_CATALOGUE_H

#include "coll/Dialect/CollOps.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace coll {

enum class Family {
  ring,               // group G; schedule linear;
  halving,            // group G; schedule butterfly;  (r = 0)
  shiftedButterfly,   // butterfly(r = N), N > 0, or r = max off xor
  recursiveDoubling,  // group xor(P); schedule butterfly(r = max);
  flatTree,           // tree flat;
  binomialTree,       // tree binomial;
  chainTree,          // tree chain;
  hierarchicalTree,   // tree arity(k) [flat_below(t)];
  chainScan,          // schedule linear;  (no group)
  doublingScan,       // schedule doubling;
  pairwise,           // schedule direct;
  bruck,              // digits radix(k);
  retri,              // digits balanced_ternary;  (alltoall)
  trivance,           // digits balanced_ternary;  (allreduce)
};

/// How many families there are (the last enumerator's value + 1).
constexpr size_t kNumFamilies = static_cast<size_t>(Family::trivance) + 1;

/// Whether a stage's binding table (an array of entries with a `family`
/// field) has one entry per family, in `Family`'s order, so that
/// `table[static_cast<size_t>(f)]` is f's: each table states it in a
/// static_assert.
template <class Entry, size_t N>
constexpr bool bindsEveryFamilyInOrder(const Entry (&table)[N]) {
  if (N != kNumFamilies)
    return false;
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(table[i].family) != i)
      return false;
  return true;
}

/// How a family uses a permutation group.
enum class GroupUse {
  none,    // takes no group
  any,     // cyclic(P), xor(P), a product or a generated group
  xorOnly, // xor(P) only
};

/// A numeric parameter: `name` in min..max (no max: unbounded), `byDefault`
/// when the statement leaves it out, and the values `auto` tries.
struct FamilyParam {
  const char *name;    // as checkParameter and autoValues know it
  const char *spelled; // in messages: "tree arity"
  int64_t min;
  std::optional<int64_t> max;
  std::optional<int64_t> byDefault;
  const char *meaning;
};

/// An argument of a family's runtime entry (its run function), after the
/// communicator, as the C++ target prints it from the spec. The entry and
/// its arguments are the family's binding to the runtime: the target reads
/// them here and has no case of its own per family.
enum class RunArg {
  kind,          // coll::Kind::<the kind>
  tree,          // coll::Tree{shape, arity, flat_below}
  root,          // the root: the caller's, the spec's, or 0 for unrooted kinds
  groupSchedule, // coll::GroupSchedule::linear or ::butterfly
  scanSchedule,  // coll::ScanSchedule::linear or ::doubling
  butterflyR,    // r as the runtime takes it (coll::kLatencyOptimal for max)
  group,         // coll::CyclicGroup(P), coll::XorGroup(P) or the table
  digits,        // coll::Digits{system, radix}
  buffers,       // send, recv, count (broadcast: its one buffer; barrier: none)
  op,            // the operator, or coll::NoMerge{} for kinds without one
  segments,      // S, when the spec has segments = S > 1 (else nothing)
};

struct FamilyInfo {
  Family id;
  const char *name;     // "the ring", in messages and listings
  const char *spelling; // how a .coll file selects it
  ScheduleKind schedule;
  GroupUse group;
  llvm::ArrayRef<CollectiveKind> kinds;
  /// The kinds `segments = S` pipelines (empty: none); on a group family
  /// only on cyclic(P) or xor(P).
  llvm::ArrayRef<CollectiveKind> segmentKinds;
  bool reconfigure; // `reconfigure auto` (the optical switch, seed 002)
  llvm::ArrayRef<FamilyParam> params;
  const char *restrictions; // beyond kinds and parameters ("" if none)
  const char *plan;         // the runtime's plan function
  const char *run;          // the runtime's run function
  llvm::ArrayRef<RunArg> runArgs; // what the run function takes after comm
};

/// Every family, in the order of `Family`.
llvm::ArrayRef<FamilyInfo> families();
const FamilyInfo &familyInfo(Family family);

/// The family a schedule selects: by the schedule, whether there is a
/// group (linear with one is the ring, without one the scan chain), the
/// kind (balanced_ternary on allreduce is Trivance, otherwise ReTri) and r
/// (butterfly: 0 the halving butterfly, max on xor recursive doubling, any
/// other the shifted butterfly). None: a tree or digit schedule with a
/// group, or doubling with one.
std::optional<Family> familyOf(CollectiveKind kind, ScheduleKind schedule,
                               std::optional<GroupKind> group,
                               int64_t butterflyR);

/// A verified collective's family (its verifier ran checkFamily).
Family familyOf(CollectiveOp spec);

/// A spec's schedule in words: "<the family's name> (<the .coll
/// statements>)", e.g. "the ring (group cyclic(P), schedule linear)".
std::string describeSchedule(CollectiveOp spec);

/// A collective's fields as checkFamily reads them.
struct FamilySpec {
  CollectiveKind kind = CollectiveKind::allreduce;
  ScheduleKind schedule = ScheduleKind::linear;
  std::optional<GroupKind> group;
  int64_t butterflyR = 0;
  std::optional<int64_t> arity, flatBelow, radix, segments;
  bool reconfigure = false;
  /// The rank count: fixed, or constrained to powers of two.
  std::optional<int64_t> fixedRanks;
  bool powerOfTwo = false;
};

/// What a violation is about, so the parser can point at its statement.
enum class SpecField {
  kind,
  schedule,
  group,
  butterflyR,
  arity,
  flatBelow,
  radix,
  segments,
  reconfigure,
};

struct FamilyViolation {
  SpecField field;
  std::string message;
};

/// The catalogue's rules for `spec`: a family exists for its schedule and
/// group, serves its kind, takes its parameters in range, and admits its
/// segments, reconfiguration and group. The first rule broken, or none.
std::optional<FamilyViolation> checkFamily(const FamilySpec &spec);

/// The rules of a collective beyond its family, each stated once for the
/// parser, the coll.collective and the coll.program verifiers (messages
/// without the collective's name; the parser adds it and the place):
///
/// a root iff the kind is rooted (broadcast, reduce, gather, scatter), and
/// then a rank: >= 0, and < P when P is fixed; or, with `anyRoot` (`root =
/// any;`), no fixed root: the caller passes it, and every root is proven;
std::optional<std::string> checkRoot(CollectiveKind kind,
                                     std::optional<int64_t> root,
                                     std::optional<int64_t> fixedRanks,
                                     bool anyRoot = false);
/// only a custom operator may be noncommutative;
std::optional<std::string> checkOperator(ReduceOp op, bool noncommutative);
/// a group given by generators (`spelled`: "generated group" or "product
/// group") needs a fixed P; its generators must be permutations of the P
/// ranks (P images each, every rank once) and make an abelian group acting
/// regularly, and on the butterfly one with an enumeration in which every
/// halving moves by one element (PermutationGroup.h). Without generators only the fixed P is checked.
std::optional<std::string>
checkGeneratedGroup(llvm::ArrayRef<std::vector<int64_t>> generators,
                    std::optional<int64_t> fixedRanks, ScheduleKind schedule,
                    llvm::StringRef spelled = "generated group");

/// xor(n) is (Z_2)^k: n must be a power of two ("group xor(P) needs P to
/// be a power of two, got P = 6"; `name` is how the order is called).
std::optional<std::string> checkXorOrder(int64_t order,
                                         llvm::StringRef name = "P");

/// The rule for parameter `name` (e.g. "arity", "radix", "segments") of
/// any family that has it: a message if `value` is out of its range.
std::optional<std::string> checkParameter(llvm::StringRef name, int64_t value);

/// The default of parameter `name` (e.g. flat_below's 16), if it has one.
std::optional<int64_t> parameterDefault(llvm::StringRef name);

/// The values `auto` tries for a parameter: `segments = auto` S = 1, 2, 4,
/// ..., 256; `arity(auto)` 2, 3, 4, 8, 16 (those below a fixed P, 2
/// always); `r = auto` 0 .. ceil(log2 P) - 1 (0..5 for a symbolic P) and
/// max.
llvm::SmallVector<int64_t> autoValues(llvm::StringRef name,
                                      std::optional<int64_t> fixedRanks);

/// How a .coll file selects each family that serves `kind`, in catalogue
/// order: "'schedule linear;' or 'schedule doubling;'" for the scans.
std::string schedulesFor(CollectiveKind kind);

/// "allreduce, reduce_scatter and allgather".
std::string kindList(llvm::ArrayRef<CollectiveKind> kinds);

/// The catalogue as a table, one block per family (`collc families`).
std::string describeFamilies();

} // namespace coll

#endif
