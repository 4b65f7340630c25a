// The Z3 verifier against the exact dataflow simulation: on every example
// schedule (per P, explicit and as group moves, and through the family
// proofs) and on thousands of random mutants, the two must agree; and on
// operator legality against a direct replay of the combines.
#include "Helpers.h"
#include "FamilyForms.h"

#include "coll/Dialect/Catalogue.h"
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Simulation.h"
#include "coll/Passes/Verify.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <atomic>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

using namespace coll;
using collc_test::spec;

namespace {

/// A step program as plain data, printed as MLIR for each mutant.
struct PlainStep {
  StepKind kind;
  std::vector<Transfer> transfers;
};
struct PlainProgram {
  int64_t P;
  bool noncommutative = false;
  std::vector<PlainStep> steps;
  CollectiveKind kind = CollectiveKind::allreduce;
  std::optional<int64_t> root;
  int64_t parts = P;
  std::optional<int64_t> segments;
};

std::string print(const PlainProgram &p) {
  std::ostringstream os;
  os << "coll.program @p attributes {kind = #coll.kind<"
     << stringifyCollectiveKind(p.kind).str() << ">, "
     << (p.noncommutative ? "noncommutative, " : "")
     << "num_parts = " << p.parts << " : i64, num_ranks = " << p.P
     << " : i64, op = #coll.op<sum>";
  if (p.root)
    os << ", root = " << *p.root << " : i64";
  if (p.segments)
    os << ", segments = " << *p.segments << " : i64";
  os << "} {\n";
  for (const PlainStep &s : p.steps) {
    os << "  coll.step \"s\" " << stringifyStepKind(s.kind).str() << " {";
    for (size_t t = 0; t < s.transfers.size(); ++t) {
      const Transfer &tr = s.transfers[t];
      os << (t ? ", " : "") << tr.src << " -> " << tr.dst << " [";
      for (size_t i = 0; i < tr.sent.size(); ++i)
        os << (i ? ", " : "") << tr.sent[i];
      os << "]";
      if (tr.received != tr.sent) {
        os << " into [";
        for (size_t i = 0; i < tr.received.size(); ++i)
          os << (i ? ", " : "") << tr.received[i];
        os << "]";
      }
    }
    os << "}\n";
  }
  os << "}\n";
  return os.str();
}

PlainProgram plainOf(ProgramOp program) {
  PlainProgram p{static_cast<int64_t>(program.getNumRanks())};
  p.kind = program.getKind();
  p.parts = program.getNumParts();
  if (std::optional<uint64_t> root = program.getRoot())
    p.root = static_cast<int64_t>(*root);
  if (std::optional<uint64_t> segments = program.getSegments())
    p.segments = static_cast<int64_t>(*segments);
  for (StepOp step : program.getBody().getOps<StepOp>())
    p.steps.push_back({step.getStepKind(), transfersOfStep(step)});
  return p;
}

struct Verdicts {
  std::optional<Violation> simulation;
  std::vector<PropertyResult> z3;
  /// The same program with every rank-level program decided by replay
  /// where the verifier can (VerifyOptions' replay thresholds at 0).
  std::vector<PropertyResult> replayed;
  /// Whether Z3 worked on placements (provenOnGroupLevel).
  bool groupLevel = false;
  std::set<std::string> violated() const {
    std::set<std::string> names;
    for (const PropertyResult &r : z3)
      if (r.verdict == Verdict::violated)
        names.insert(propertyName(r.property));
    return names;
  }
  bool z3Proven() const {
    return llvm::all_of(z3, [](const PropertyResult &r) {
      return r.verdict == Verdict::proven;
    });
  }
  bool z3Unsettled() const {
    return llvm::any_of(z3, [](const PropertyResult &r) {
      return r.verdict == Verdict::notProven && !r.skipped;
    });
  }
};

/// The simulation and Z3 on the same program; nullopt if the text does not
/// verify as IR (a mutant the op verifier already rejects).
std::optional<Verdicts> judge(mlir::MLIRContext &context,
                              const std::string &text) {
  // Mutants the op verifier rejects are skipped; keep their errors quiet.
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module)
    return std::nullopt;
  ProgramOp program = *module->getOps<ProgramOp>().begin();
  VerifyOptions replay;
  replay.replayEverywhere();
  return Verdicts{Simulation::run(program), verifyProgram(program, {}),
                  verifyProgram(program, replay), provenOnGroupLevel(program)};
}

/// The agreement the test suite demands of the two checkers.
void checkAgreement(const Verdicts &v) {
  REQUIRE_FALSE(v.z3Unsettled());
  // The replays give Z3's verdict on every property, and ownership's
  // counterexample is the one Z3 minimizes to (first step, then slot).
  REQUIRE(v.replayed.size() == v.z3.size());
  for (size_t i = 0; i < v.z3.size(); ++i) {
    CAPTURE(propertyName(v.z3[i].property));
    CHECK(verdictName(v.replayed[i].verdict) == verdictName(v.z3[i].verdict));
    if (v.z3[i].property == Property::ownership && v.z3[i].counterexample &&
        v.replayed[i].counterexample)
      CHECK(describeCounterexample(*v.replayed[i].counterexample) ==
            describeCounterexample(*v.z3[i].counterexample));
  }
  if (!v.simulation) {
    CHECK(v.z3Proven());
    return;
  }
  std::set<std::string> violated = v.violated();
  std::string z3Said;
  for (const PropertyResult &r : v.z3)
    z3Said +=
        std::string(propertyName(r.property)) + " " + verdictName(r.verdict) +
        " " + r.note +
        (r.counterexample ? ": " + describeCounterexample(*r.counterexample)
                          : "") +
        "\n";
  CAPTURE(z3Said);
  CAPTURE(v.simulation->property);
  CAPTURE(v.simulation->message);
  REQUIRE_FALSE(violated.empty());
  // The simulation stops at the first violation in step order, Z3 at the
  // first property in the order matching, ownership, coverage: the
  // simulation's property is violated for Z3 too, or Z3 did not get to it.
  const PropertyResult &same =
      *llvm::find_if(v.z3, [&](const PropertyResult &r) {
        return v.simulation->property == propertyName(r.property);
      });
  bool notReached = same.verdict == Verdict::notProven && same.skipped;
  CHECK((same.verdict == Verdict::violated || notReached));
}

/// A mutant: what was done to its program, and the program's text.
struct Mutant {
  std::string what, text;
};

/// Judges mutants, requires the agreement of each that the op verifier
/// accepts, and counts what it saw.
struct MutantTally {
  int judged = 0, rejected = 0, groupLevel = 0;
  std::map<std::string, int> byProperty;

  /// Judges `mutants` on up to two threads, each with a context of its own
  /// (a verdict depends on its program alone: Z3's contexts and the
  /// simulation are per program), then checks each in order on this
  /// thread, where doctest's assertions must run.
  void judgeAndCheck(const std::vector<Mutant> &mutants) {
    std::vector<std::optional<Verdicts>> verdicts(mutants.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
      mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
      context.getOrLoadDialect<CollDialect>();
      for (size_t i; (i = next++) < mutants.size();)
        verdicts[i] = judge(context, mutants[i].text);
    };
    std::thread helper(work);
    work();
    helper.join();
    for (size_t i = 0; i < mutants.size(); ++i) {
      CAPTURE(mutants[i].what);
      CAPTURE(mutants[i].text);
      const std::optional<Verdicts> &v = verdicts[i];
      if (!v) {
        ++rejected;
        continue;
      }
      ++judged;
      groupLevel += v->groupLevel;
      if (v->simulation)
        ++byProperty[v->simulation->property];
      checkAgreement(*v);
    }
  }
};

/// The three example schedules, as one-collective .coll sources.
struct Example {
  const char *group, *schedule;
  bool onXor() const { return std::string(group) == "xor"; }
  bool admits(int64_t P) const { return !onXor() || (P & (P - 1)) == 0; }
  std::string source() const {
    return spec(group, schedule,
                onXor() ? "ranks P where P == 2^k;" : "ranks P;");
  }
};
const Example kExamples[] = {{"cyclic", "linear"},
                             {"cyclic", "butterfly(r = 0)"},
                             {"xor", "butterfly(r = 0)"}};

/// Trees, digit routings, scans and a barrier, as .coll sources with
/// symbolic P.
const char *const kRoutedSources[] = {
    "collective c : broadcast<any> { ranks P; root = 1; tree binomial; }",
    "collective c : reduce<any, sum> { ranks P; root = 2; tree arity(2) "
    "flat_below(0); }",
    "collective c : allreduce<any, sum> { ranks P; tree flat; }",
    "collective c : gather<any> { ranks P; root = 0; tree arity(3) "
    "flat_below(0); }",
    "collective c : scatter<any> { ranks P; root = 1; tree binomial; }",
    "collective c : alltoall<any> { ranks P; digits balanced_ternary; }",
    "collective c : alltoall<any> { ranks P; digits radix(3); }",
    "collective c : alltoall<any> { ranks P; schedule direct; }",
    "collective c : inclusive_scan<any, sum> { ranks P; schedule doubling; }",
    "collective c : exclusive_scan<any, sum> { ranks P; schedule linear; }",
    "collective c : exclusive_scan<any, sum> { ranks P; schedule doubling; }",
    "collective c : barrier { ranks P; tree arity(2) flat_below(0); }",
    "collective c : allgather<any> { ranks P; tree arity(3) flat_below(0); }",
    "collective c : reduce_scatter<any, sum> { ranks P; tree binomial; }",
};

} // namespace

TEST_CASE("trees, digit routings and scans are proven per P, and the "
          "simulation agrees") {
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (const char *source : kRoutedSources)
    for (int64_t P : {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 23, 27}) {
      CAPTURE(source);
      CAPTURE(P);
      mlir::OwningOpRef<mlir::ModuleOp> module;
      ProgramOp program = collc_test::expand(context, module, source, P);
      CHECK_FALSE(Simulation::run(program).has_value());
      for (const PropertyResult &r : verifyProgram(program, {}))
        CHECK(r.verdict == Verdict::proven);
    }
}

TEST_CASE("every example schedule is proven per P, as transfers and as "
          "group moves, and the simulation agrees") {
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (const Example &example : kExamples) {
    for (int64_t P : {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 23}) {
      if (!example.admits(P))
        continue;
      CAPTURE(example.group);
      CAPTURE(example.schedule);
      CAPTURE(P);
      mlir::OwningOpRef<mlir::ModuleOp> module;
      ProgramOp explicitForm =
          collc_test::expand(context, module, example.source(), P);
      CHECK_FALSE(Simulation::run(explicitForm).has_value());
      for (const PropertyResult &r : verifyProgram(explicitForm, {}))
        CHECK(r.verdict == Verdict::proven);

      mlir::OwningOpRef<mlir::ModuleOp> specModule;
      CollectiveOp specOp =
          collc_test::parseSpec(context, specModule, example.source());
      mlir::OpBuilder builder(specModule->getBody(),
                              specModule->getBody()->end());
      ProgramOp moves = expandCollective(specOp, P, builder, false);
      CHECK_FALSE(Simulation::run(moves).has_value());
      for (const PropertyResult &r : verifyProgram(moves, {}))
        CHECK(r.verdict == Verdict::proven);
      // Only the moves of every group, and the dataflow of the ring and of
      // the halving butterfly on cyclic(P), have family proofs.
      for (Property property : kAllProperties)
        if (familyCovers(specOp, moves, property)) {
          bool induction = std::string(example.schedule) == "linear" ||
                           std::string(example.group) == "cyclic";
          CHECK((property == Property::matching || induction));
        }
    }
  }
}

TEST_CASE("the family proofs hold, and each P in range is their instance") {
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (const Example &example : kExamples) {
    mlir::OwningOpRef<mlir::ModuleOp> module;
    CollectiveOp specOp =
        collc_test::parseSpec(context, module, example.source());
    std::vector<PropertyResult> family = proveFamily(specOp, 65536, {});
    // The ring and the halving butterfly on cyclic(P) have inductions for
    // ownership, coverage and legality beside the moves.
    bool linear = std::string(example.schedule) == "linear" ||
                  std::string(example.group) == "cyclic";
    REQUIRE(family.size() == (linear ? 4u : 1u));
    for (const PropertyResult &r : family)
      CHECK(r.verdict == Verdict::proven);
    mlir::OpBuilder builder(module->getBody(), module->getBody()->end());
    for (int64_t P = 2; P <= 64; ++P) {
      if (!specOp.acceptsRanks(P))
        continue;
      ProgramOp moves = expandCollective(specOp, P, builder, false);
      CHECK(familyCovers(specOp, moves, Property::matching));
      CHECK(familyCovers(specOp, moves, Property::coverage) == linear);
      CHECK_FALSE(Simulation::run(moves).has_value());
    }
  }
}

/// Each family result as "verdict" or "verdict: counterexample", by
/// property name.
static std::map<std::string, std::string>
verdictTexts(const std::vector<PropertyResult> &results) {
  std::map<std::string, std::string> out;
  for (const PropertyResult &r : results)
    out[propertyName(r.property)] =
        verdictName(r.verdict) +
        (r.counterexample ? ": " + r.counterexample->message : "");
  return out;
}

TEST_CASE("the halving butterfly's induction rejects wrong closed forms") {
  auto verdicts = [](HalvingForm form) {
    return verdictTexts(proveHalvingButterfly(64, {}, form));
  };
  std::map<std::string, std::string> right = verdicts({});
  CHECK(right.at("ownership") == "proven");
  CHECK(right.at("coverage") == "proven");
  CHECK(right.at("operator-legality") == "proven");
  // ceil(n/2) moves: for odd n the sources [n/2, n) and the destinations
  // [0, n/2 + 1) share placement floor(n/2).
  HalvingForm ceil;
  ceil.ceilHalf = true;
  std::map<std::string, std::string> c = verdicts(ceil);
  CHECK(c.at("ownership").rfind("violated: the closed form fails for", 0) ==
        0);
  CHECK(c.at("coverage").rfind("violated", 0) == 0);
  CHECK_FALSE(c.count("operator-legality"));
  // Landing one placement up: n = 2 moves placement 1 onto itself.
  HalvingForm shifted;
  shifted.destinationOffset = 1;
  std::map<std::string, std::string> d = verdicts(shifted);
  CHECK(d.at("ownership").rfind("violated", 0) == 0);
  CHECK(d.at("coverage").rfind("violated", 0) == 0);
}

TEST_CASE("the linear allgather's induction rejects a wrong closed form") {
  auto verdicts = [](LinearAllgatherForm form) {
    return verdictTexts(proveLinearAllgather(64, {}, form));
  };
  std::map<std::string, std::string> right = verdicts({});
  CHECK(right.at("ownership") == "proven");
  CHECK(right.at("coverage") == "proven");
  CHECK(right.at("operator-legality") == "proven");
  // Step i sending placement i + 1, which only step i itself fills.
  LinearAllgatherForm ahead;
  ahead.sourceOffset = 1;
  std::map<std::string, std::string> wrong = verdicts(ahead);
  CHECK(wrong.at("ownership").rfind("violated: the closed form fails for", 0) ==
        0);
  CHECK(wrong.at("coverage").rfind("violated", 0) == 0);
  CHECK_FALSE(wrong.count("operator-legality"));
}

/// Whether the family proof of `spec` covers the coverage of the program
/// in `text` (a coll.program).
static bool coversParsed(mlir::MLIRContext &context, CollectiveOp spec,
                         const std::string &text) {
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  REQUIRE(parsed);
  return familyCovers(spec, *parsed->getOps<ProgramOp>().begin(),
                      Property::coverage);
}

/// The kinds a tree serves, with their spec types.
static const std::pair<CollectiveKind, const char *> kTreeKinds[] = {
    {CollectiveKind::broadcast, "broadcast<any>"},
    {CollectiveKind::reduce, "reduce<any, sum>"},
    {CollectiveKind::gather, "gather<any>"},
    {CollectiveKind::scatter, "scatter<any>"},
    {CollectiveKind::allreduce, "allreduce<any, sum>"},
    {CollectiveKind::allgather, "allgather<any>"},
    {CollectiveKind::reduce_scatter, "reduce_scatter<any, sum>"},
    {CollectiveKind::barrier, "barrier"}};

static bool isRootedTreeKind(CollectiveKind kind) {
  return kind == CollectiveKind::broadcast || kind == CollectiveKind::reduce ||
         kind == CollectiveKind::gather || kind == CollectiveKind::scatter;
}

TEST_CASE("every binomial tree is proven for all P, and each P is its "
          "instance") {
  const auto &kinds = kTreeKinds;
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (const auto &entry : kinds) {
    // Named, not bound: CAPTURE's lambda cannot take a binding before
    // clang 16.
    const CollectiveKind kind = entry.first;
    const auto &type = entry.second;
    CAPTURE(type);
    bool copies = kind == CollectiveKind::broadcast ||
                  kind == CollectiveKind::gather ||
                  kind == CollectiveKind::scatter ||
                  kind == CollectiveKind::allgather;
    CHECK(verdictTexts(proveBinomialTree(kind, 65536, {})) ==
          std::map<std::string, std::string>{
              {"matching", "proven"},
              {"ownership", "proven"},
              {"coverage", "proven"},
              {"operator-legality", "proven"}});
    std::vector<PropertyResult> right = proveBinomialTree(kind, 64, {});
    REQUIRE(right.size() == 4);
    CHECK(right[3].method ==
          (copies ? "nothing is combined: the tree only copies"
                  : "the operator is commutative; the coverage induction "
                    "shows each contribution is combined once, at the root"));
    // A level sending one rank too far: a receiver outside the ranks or a
    // rank that sends and receives in one level (matching), a receiver
    // that is not live (up) or already holds (down).
    BinomialForm far;
    far.distanceLag = 1;
    std::vector<PropertyResult> wrong = proveBinomialTree(kind, 64, {}, far);
    REQUIRE(wrong.size() == 3);
    for (const PropertyResult &r : wrong)
      CHECK(r.verdict == Verdict::violated);
    CHECK(verdictTexts(wrong).at("ownership").rfind(
              "violated: the closed form fails for", 0) == 0);

    bool rooted = isRootedTreeKind(kind);
    for (int64_t root : rooted ? std::vector<int64_t>{0, 1, 5}
                               : std::vector<int64_t>{0}) {
      std::string source = std::string("collective c : ") + type +
                           " { ranks P; " +
                           (rooted ? "root = " + std::to_string(root) + "; "
                                   : std::string()) +
                           "tree binomial; }";
      mlir::OwningOpRef<mlir::ModuleOp> module;
      CollectiveOp spec = collc_test::parseSpec(context, module, source);
      mlir::OpBuilder builder(module->getBody(), module->getBody()->end());
      for (int64_t P = 2; P <= 40; ++P) {
        if (!spec.acceptsRanks(P))
          continue;
        CAPTURE(root);
        CAPTURE(P);
        ProgramOp program = expandCollective(spec, P, builder, false);
        CHECK(familyCovers(spec, program, Property::ownership));
        CHECK(familyCovers(spec, program, Property::coverage));
        CHECK(familyCovers(spec, program, Property::matching));
      }
    }
  }
  // A program is covered only if every level is the closed form's: the
  // right one, and one whose last level has rank 6 skip rank 7.
  mlir::OwningOpRef<mlir::ModuleOp> specModule;
  CollectiveOp rootZero = collc_test::parseSpec(
      context, specModule,
      "collective c : broadcast<any> { ranks P; root = 0; tree binomial; }");
  auto program = [&](const char *lastLevel) {
    return "coll.program @c attributes {kind = #coll.kind<broadcast>, "
           "num_parts = 1 : i64, num_ranks = 8 : i64, op = #coll.op<sum>, "
           "root = 0 : i64} {\n"
           "  coll.step \"broadcast\" copy {0 -> 4 [0]}\n"
           "  coll.step \"broadcast\" copy {0 -> 2 [0], 4 -> 6 [0]}\n"
           "  coll.step \"broadcast\" copy {" +
           std::string(lastLevel) + "}\n}\n";
  };
  for (const auto &entry :
       {std::pair{"0 -> 1 [0], 2 -> 3 [0], 4 -> 5 [0], 6 -> 7 [0]", true},
        std::pair{"0 -> 1 [0], 2 -> 3 [0], 4 -> 5 [0]", false}}) {
    const char *lastLevel = entry.first;
    const bool covered = entry.second;
    CAPTURE(lastLevel);
    CHECK(coversParsed(context, rootZero, program(lastLevel)) == covered);
  }
  // A gather is covered only with every run whole: rank 2's message to
  // rank 0 without block 3, or with block 3 filed as 1, is not the form.
  mlir::OwningOpRef<mlir::ModuleOp> gatherModule;
  CollectiveOp gather = collc_test::parseSpec(
      context, gatherModule,
      "collective c : gather<any> { ranks P; root = 0; tree binomial; }");
  auto gatherProgram = [&](const char *secondLevel) {
    return "coll.program @c attributes {kind = #coll.kind<gather>, "
           "num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, "
           "root = 0 : i64} {\n"
           "  coll.step \"gather\" copy {1 -> 0 [1], 3 -> 2 [3]}\n"
           "  coll.step \"gather\" copy {" +
           std::string(secondLevel) + "}\n}\n";
  };
  for (const auto &entry :
       {std::pair{"2 -> 0 [2, 3]", true}, std::pair{"2 -> 0 [2]", false},
        std::pair{"2 -> 0 [2, 3] into [2, 1]", false}}) {
    const auto secondLevel = std::get<0>(entry);
    const auto covered = std::get<1>(entry);
    CAPTURE(secondLevel);
    CHECK(coversParsed(context, gather, gatherProgram(secondLevel)) ==
          covered);
  }
  // The kinds trees do not serve have no closed form; the flat tree and
  // the chain have none (they are proven per P).
  CHECK(proveBinomialTree(CollectiveKind::alltoall, 64, {}).empty());
  for (const char *tree : {"flat", "chain"}) {
    mlir::OwningOpRef<mlir::ModuleOp> module;
    CollectiveOp spec = collc_test::parseSpec(
        context, module,
        std::string("collective c : broadcast<any> { ranks P; root = 0; "
                    "tree ") +
            tree + "; }");
    CHECK(proveFamily(spec, 64, {}).empty());
    mlir::OpBuilder builder(module->getBody(), module->getBody()->end());
    ProgramOp program = expandCollective(spec, 9, builder, false);
    CHECK_FALSE(familyCovers(spec, program, Property::coverage));
  }
}

TEST_CASE("the family binding: which families are proven for every P at once") {
  // Family.cpp's kFamilyProofs, family by family: a family bound to
  // another's proof would claim "all P" for a schedule it is not about.
  struct Case {
    Family family;
    const char *spec;
    bool provenForAllP;
  };
  const Case cases[] = {
      {Family::ring, "allreduce<any, sum> { ranks P; group cyclic(P); "
                     "schedule linear; }",
       true},
      {Family::halving, "allreduce<any, sum> { ranks P; group cyclic(P); "
                        "schedule butterfly; }",
       true},
      {Family::shiftedButterfly, "allreduce<any, sum> { ranks P; group "
                                 "cyclic(P); schedule butterfly(r = 1); }",
       false},
      {Family::recursiveDoubling, "allreduce<any, sum> { ranks P where P == "
                                  "2^k; group xor(P); schedule "
                                  "butterfly(r = max); }",
       false},
      {Family::flatTree, "broadcast<any> { ranks P; root = 0; tree flat; }",
       false},
      {Family::binomialTree,
       "broadcast<any> { ranks P; root = 0; tree binomial; }", true},
      {Family::chainTree, "broadcast<any> { ranks P; root = 0; tree chain; }",
       false},
      {Family::hierarchicalTree,
       "broadcast<any> { ranks P; root = 0; tree arity(3) flat_below(0); }",
       true},
      {Family::chainScan, "inclusive_scan<any, sum> { ranks P; schedule "
                          "linear; }",
       false},
      {Family::doublingScan, "inclusive_scan<any, sum> { ranks P; schedule "
                             "doubling; }",
       false},
      {Family::pairwise, "alltoall<any> { ranks P; schedule direct; }",
       false},
      {Family::bruck, "alltoall<any> { ranks P; digits radix(2); }", true},
      {Family::retri, "alltoall<any> { ranks P; digits balanced_ternary; }",
       true},
      {Family::trivance, "allreduce<any, sum> { ranks P; digits "
                         "balanced_ternary; }",
       false},
  };
  REQUIRE(std::size(cases) == families().size());
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (const Case &c : cases) {
    const std::string name = familyInfo(c.family).name;
    CAPTURE(name);
    mlir::OwningOpRef<mlir::ModuleOp> module;
    CollectiveOp spec = collc_test::parseSpec(
        context, module, std::string("collective c : ") + c.spec);
    REQUIRE(familyOf(spec) == c.family);
    CHECK(proveFamily(spec, 16, {}).empty() == !c.provenForAllP);
  }
}

TEST_CASE("root = any: every root's plan is proven, and no root's proof "
          "accepts another root's plan") {
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (const char *kind : {"broadcast<any>", "reduce<any, sum>", "gather<any>",
                           "scatter<any>"}) {
    for (const char *tree : {"binomial", "flat", "arity(3) flat_below(0)"}) {
      CAPTURE(kind);
      CAPTURE(tree);
      mlir::OwningOpRef<mlir::ModuleOp> module;
      CollectiveOp spec = collc_test::parseSpec(
          context, module,
          std::string("collective c : ") + kind +
              " { ranks P; root = any; tree " + tree + "; }");
      REQUIRE(spec.getAnyRoot());
      std::vector<PropertyResult> family = proveFamily(spec, 64, {});
      for (int64_t P : {1, 2, 5, 6}) {
        CAPTURE(P);
        CrossCheck cross;
        std::vector<PropertyResult> results =
            verifyRankCount(spec, P, family, {}, &cross);
        for (const PropertyResult &r : results) {
          CHECK(r.verdict == Verdict::proven);
          CHECK(r.scope.find("every root in [0, " + std::to_string(P) + ")") !=
                std::string::npos);
        }
        CHECK((P == 1 || (cross.compared && cross.agrees)));
        mlir::OpBuilder builder(module->getBody(), module->getBody()->end());
        for (int64_t root = 0; root < P; ++root) {
          CAPTURE(root);
          mlir::OwningOpRef<CollectiveOp> instance = rootInstance(spec, root);
          CHECK(instance->getRoot() == std::optional<uint64_t>(root));
          CHECK_FALSE(instance->getAnyRoot());
          ProgramOp own = expandCollective(*instance, P, builder, false);
          CHECK(own.getRoot() == std::optional<uint64_t>(root));
          if (P < 3)
            continue;
          // The mutant: the next root's plan, labelled as this root's. The
          // family instance check must reject it, Z3 must refute it, and
          // the simulation must agree.
          mlir::OwningOpRef<CollectiveOp> next =
              rootInstance(spec, (root + 1) % P);
          ProgramOp other = expandCollective(*next, P, builder, false);
          other.setRootAttr(builder.getI64IntegerAttr(root));
          for (Property property : kAllProperties)
            CHECK_FALSE(familyCovers(*instance, other, property));
          std::vector<PropertyResult> wrong = verifyProgram(other, {});
          bool violated = llvm::any_of(wrong, [](const PropertyResult &r) {
            return r.verdict == Verdict::violated;
          });
          CHECK(violated);
          CrossCheck check = crossCheck(other, wrong);
          CHECK(check.compared);
          CHECK(check.agrees);
        }
      }
    }
  }
}

TEST_CASE("root = any: a root's plan that is root 0's renamed takes root "
          "0's proof, and no other plan does") {
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  auto parse = [&](const PlainProgram &plain,
                   mlir::OwningOpRef<mlir::ModuleOp> &holder) {
    mlir::ScopedDiagnosticHandler quiet(
        &context, [](mlir::Diagnostic &) { return mlir::success(); });
    holder = mlir::parseSourceString<mlir::ModuleOp>(print(plain), &context);
    return holder ? *holder->getOps<ProgramOp>().begin() : ProgramOp();
  };
  int renamed = 0, mutants = 0;
  for (const char *kind : {"broadcast<any>", "reduce<any, sum>", "gather<any>",
                           "scatter<any>"}) {
    for (std::string tree : {"binomial", "flat", "chain",
                             "chain; segments = 8", "arity(3) flat_below(0)"}) {
      std::string kindText = kind;
      CAPTURE(kindText);
      CAPTURE(tree);
      if (tree.find("segments") != std::string::npos &&
          kindText.rfind("broadcast", 0) != 0 &&
          kindText.rfind("reduce", 0) != 0)
        continue; // pipelines broadcast and reduce only
      mlir::OwningOpRef<mlir::ModuleOp> module;
      CollectiveOp spec = collc_test::parseSpec(
          context, module,
          std::string("collective c : ") + kind + " { ranks P; root = any; " +
              "tree " + tree + "; }");
      mlir::OpBuilder builder(module->getBody(), module->getBody()->end());
      for (int64_t P : {1, 2, 3, 5, 6, 8, 13}) {
        CAPTURE(P);
        mlir::OwningOpRef<CollectiveOp> zero = rootInstance(spec, 0);
        ProgramOp base = expandCollective(*zero, P, builder, false);
        for (int64_t root = 0; root < P; ++root) {
          CAPTURE(root);
          mlir::OwningOpRef<CollectiveOp> instance = rootInstance(spec, root);
          ProgramOp own = expandCollective(*instance, P, builder, false);
          // Every tree family's plan for a root is root 0's renamed, so
          // the verifier proves one root per P ...
          REQUIRE(isRootRotation(base, own, root));
          ++renamed;
          // ... and the verdict it hands on is each root's own: the
          // simulation, and to P = 8 Z3 on this root's plan alone, agree.
          if (P <= 8)
            for (const PropertyResult &r : verifyProgram(own, {}))
              CHECK(r.verdict == Verdict::proven);
          CHECK_FALSE(Simulation::run(own).has_value());
          if (P < 3 || P > 6)
            continue;
          // Another rotation is not this one.
          CHECK_FALSE(isRootRotation(base, own, (root + 1) % P));
          // The transfers of a step in another order are the same step.
          PlainProgram plain = plainOf(own);
          PlainProgram shuffled = plain;
          for (PlainStep &step : shuffled.steps)
            std::reverse(step.transfers.begin(), step.transfers.end());
          mlir::OwningOpRef<mlir::ModuleOp> holder;
          ProgramOp same = parse(shuffled, holder);
          REQUIRE(same);
          CHECK(isRootRotation(base, same, root));
          // Mutants: any one change of one step is not root 0's plan.
          auto rejects = [&](const PlainProgram &mutant, std::string what) {
            CAPTURE(what);
            if (print(mutant) == print(plain))
              return; // no change (one part only: no other part to send)
            mlir::OwningOpRef<mlir::ModuleOp> held;
            ProgramOp wrong = parse(mutant, held);
            if (!wrong)
              return; // the op verifier refuses it already
            ++mutants;
            CHECK_FALSE(isRootRotation(base, wrong, root));
          };
          for (size_t s = 0; s < plain.steps.size(); ++s) {
            CAPTURE(s);
            const PlainStep &step = plain.steps[s];
            for (size_t t = 0; t < step.transfers.size(); ++t) {
              CAPTURE(t);
              const Transfer &tr = step.transfers[t];
              PlainProgram m = plain;
              m.steps[s].transfers[t].dst = (tr.dst + 1) % P == tr.src
                                                ? (tr.dst + 2) % P
                                                : (tr.dst + 1) % P;
              rejects(m, "another destination");
              m = plain;
              m.steps[s].transfers[t].src = (tr.src + 1) % P == tr.dst
                                                ? (tr.src + 2) % P
                                                : (tr.src + 1) % P;
              rejects(m, "another source");
              m = plain;
              for (int64_t &b : m.steps[s].transfers[t].sent)
                b = (b + 1) % plain.parts;
              rejects(m, "other parts sent");
              m = plain;
              for (int64_t &b : m.steps[s].transfers[t].received)
                b = (b + 1) % plain.parts;
              rejects(m, "other parts received");
              m = plain;
              m.steps[s].transfers.erase(m.steps[s].transfers.begin() + t);
              rejects(m, "a transfer dropped");
              m = plain;
              m.steps[s].transfers.push_back(tr);
              rejects(m, "a transfer twice");
            }
            PlainProgram m = plain;
            m.steps[s].kind = step.kind == StepKind::copy ? StepKind::combine
                                                          : StepKind::copy;
            rejects(m, "the other step kind");
            m = plain;
            m.steps.erase(m.steps.begin() + s);
            rejects(m, "a step dropped");
            if (s + 1 < plain.steps.size()) {
              m = plain;
              std::swap(m.steps[s], m.steps[s + 1]);
              rejects(m, "two steps swapped");
            }
            for (size_t t = 0; t < step.transfers.size(); ++t) {
              m = plain;
              std::vector<int64_t> &taken = m.steps[s].transfers[t].received;
              std::reverse(taken.begin(), taken.end());
              rejects(m, "the parts received in another order");
            }
          }
          PlainProgram m = plain;
          m.noncommutative = true;
          rejects(m, "a non-commutative operator");
          m = plain;
          m.root = (root + 1) % P;
          rejects(m, "another root");
          // Root 0's plan renamed here, in the test: the same as the
          // expansion's; with gather's and scatter's blocks left alone (they
          // belong to ranks), another plan.
          const bool blocks = kindText.rfind("gather", 0) == 0 ||
                              kindText.rfind("scatter", 0) == 0;
          auto turn = [&](PlainProgram program, bool turnBlocks) {
            program.root = root;
            for (PlainStep &step : program.steps)
              for (Transfer &tr : step.transfers) {
                tr.src = (tr.src + root) % P;
                tr.dst = (tr.dst + root) % P;
                if (turnBlocks)
                  for (std::vector<int64_t> *v : {&tr.sent, &tr.received})
                    for (int64_t &b : *v)
                      b = (b + root) % P;
              }
            return program;
          };
          PlainProgram base0 = plainOf(base);
          REQUIRE(base0.parts == (blocks ? P : 1));
          mlir::OwningOpRef<mlir::ModuleOp> turnedHolder;
          CHECK(isRootRotation(base, parse(turn(base0, blocks), turnedHolder),
                               root));
          if (blocks) {
            rejects(turn(base0, false), "ranks renamed, blocks not");
            // Blocks renamed by another offset than their ranks.
            PlainProgram offset = turn(base0, false);
            for (PlainStep &step : offset.steps)
              for (Transfer &tr : step.transfers)
                for (std::vector<int64_t> *v : {&tr.sent, &tr.received})
                  for (int64_t &b : *v)
                    b = (b + root + 1) % P;
            rejects(offset, "blocks renamed by another offset");
          }
          // The program's other attributes: each changed is another plan
          // (whether or not the verifier reads it).
          mlir::Builder b(&context);
          auto attributeMutant = [&](const char *what, auto &&change) {
            CAPTURE(std::string(what));
            ProgramOp copy = llvm::cast<ProgramOp>(own->clone());
            module->getBody()->push_back(copy);
            change(copy);
            ++mutants;
            CHECK_FALSE(isRootRotation(base, copy, root));
            copy->erase();
          };
          attributeMutant("segments", [&](ProgramOp p) {
            p.setSegmentsAttr(b.getI64IntegerAttr(2));
          });
          attributeMutant("operator", [&](ProgramOp p) {
            p.setOpAttr(ReduceOpAttr::get(&context, ReduceOp::max));
          });
          attributeMutant("kind", [&](ProgramOp p) {
            p.setKindAttr(CollectiveKindAttr::get(
                &context, p.getKind() == CollectiveKind::broadcast
                              ? CollectiveKind::reduce
                              : CollectiveKind::broadcast));
          });
          attributeMutant("scratch parts", [&](ProgramOp p) {
            p.setNumScratchPartsAttr(b.getI64IntegerAttr(0));
          });
          attributeMutant("parts", [&](ProgramOp p) {
            p.setNumPartsAttr(b.getI64IntegerAttr(p.getNumParts() + 1));
          });
          attributeMutant("chunks", [&](ProgramOp p) {
            std::vector<int64_t> identity(p.getNumParts());
            for (size_t i = 0; i < identity.size(); ++i)
              identity[i] = static_cast<int64_t>(i);
            p.setChunkOfPartAttr(b.getDenseI64ArrayAttr(identity));
          });
          attributeMutant("group", [&](ProgramOp p) {
            p.setGroupAttr(GroupKindAttr::get(&context, GroupKind::cyclic));
          });
          // A slot written twice in one step is never taken as renamed, as
          // which write lands last is lost when transfers are sorted.
          PlainProgram twice = base0;
          twice.steps[0].transfers.push_back(twice.steps[0].transfers[0]);
          mlir::OwningOpRef<mlir::ModuleOp> twiceHolder, turnedTwiceHolder;
          ProgramOp twiceBase = parse(twice, twiceHolder);
          ProgramOp twiceTurned =
              parse(turn(twice, blocks), turnedTwiceHolder);
          if (twiceBase && twiceTurned) {
            ++mutants;
            CHECK_FALSE(isRootRotation(twiceBase, twiceTurned, root));
          }
        }
      }
    }
  }
  MESSAGE(renamed << " root plans recognized, " << mutants << " mutants");
  CHECK(mutants > 3000);
}

TEST_CASE("every hierarchical tree is proven for all P, and each P is its "
          "instance") {
  const auto &kinds = kTreeKinds;
  const std::map<std::string, std::string> allProven{
      {"ownership", "proven"},
      {"coverage", "proven"},
      {"operator-legality", "proven"}};
  for (const auto &entry : {std::pair<int64_t, int64_t>{2, 0},
                                  {3, 0},
                                  {4, 8},
                                  {8, 2},
                                  {16, 16},
                                  {2, 16}}) {
    const auto arity = std::get<0>(entry);
    const auto flatBelow = std::get<1>(entry);
    CAPTURE(arity);
    CAPTURE(flatBelow);
    for (auto [kind, type] : kinds)
      CHECK(verdictTexts(proveHierarchicalTree(kind, arity, flatBelow, 65536,
                                               {})) == allProven);
    // Groups of q ranks each: the remainder's ranks belong to no group
    // (start(a) = a q < n).
    HierarchicalForm dropped;
    dropped.dropRemainder = true;
    std::map<std::string, std::string> wrong = verdictTexts(
        proveHierarchicalTree(CollectiveKind::reduce, arity, flatBelow, 64, {},
                              dropped));
    CHECK(wrong.at("ownership").rfind("violated: the closed form fails for",
                                      0) == 0);
    CHECK(wrong.at("coverage").rfind("violated", 0) == 0);
    CHECK_FALSE(wrong.count("operator-legality"));
    // A node's level before its children's: member 1 sends before its
    // group has reached it.
    HierarchicalForm early;
    early.shallowerFirst = true;
    std::map<std::string, std::string> order = verdictTexts(
        proveHierarchicalTree(CollectiveKind::gather, arity, flatBelow, 64, {},
                              early));
    CHECK(order.at("ownership").rfind("violated: the closed form fails for",
                                      0) == 0);
    CHECK(order.at("coverage").rfind("violated", 0) == 0);
  }
  CHECK(proveHierarchicalTree(CollectiveKind::alltoall, 4, 0, 64, {}).empty());
  CHECK(proveHierarchicalTree(CollectiveKind::reduce, 65, 0, 64, {}).empty());
  CHECK(proveHierarchicalTree(CollectiveKind::reduce, 2, 66, 64, {}).empty());

  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (auto [kind, type] : kinds) {
    bool rooted = isRootedTreeKind(kind);
    for (const char *tree : {"arity(3) flat_below(0)", "arity(4) flat_below(8)",
                             "arity(2) flat_below(5)"}) {
      std::string source = std::string("collective c : ") + type +
                           " { ranks P; " + (rooted ? "root = 2; " : "") +
                           "tree " + tree + "; }";
      mlir::OwningOpRef<mlir::ModuleOp> module;
      CollectiveOp spec = collc_test::parseSpec(context, module, source);
      mlir::OpBuilder builder(module->getBody(), module->getBody()->end());
      for (int64_t P = 3; P <= 40; ++P) {
        CAPTURE(source);
        CAPTURE(P);
        ProgramOp program = expandCollective(spec, P, builder, false);
        CHECK(familyCovers(spec, program, Property::coverage));
        CHECK_FALSE(familyCovers(spec, program, Property::matching));
      }
    }
  }
  // The seed-000 tree on ten ranks of arity four (groups 3, 3, 2, 2): the
  // right program, one whose last step comes too early (rank 8 sends
  // before rank 9 has reached it), and one with rank 9 in rank 6's group.
  mlir::OwningOpRef<mlir::ModuleOp> specModule;
  CollectiveOp hier = collc_test::parseSpec(
      context, specModule,
      "collective c : reduce<any, sum> { ranks P; root = 0; tree arity(4) "
      "flat_below(0); }");
  auto program = [](const std::vector<const char *> &steps) {
    std::string text =
        "coll.program @c attributes {kind = #coll.kind<reduce>, num_parts = "
        "1 : i64, num_ranks = 10 : i64, op = #coll.op<sum>, root = 0 : i64} "
        "{\n";
    for (const char *step : steps)
      text += std::string("  coll.step \"reduce\" combine {") + step + "}\n";
    return text + "}\n";
  };
  const std::vector<const char *> right = {
      "1 -> 0 [0], 4 -> 3 [0], 7 -> 6 [0], 9 -> 8 [0]",
      "2 -> 0 [0], 5 -> 3 [0]", "3 -> 0 [0]", "6 -> 0 [0]", "8 -> 0 [0]"};
  const std::vector<const char *> early = {
      "1 -> 0 [0], 4 -> 3 [0], 7 -> 6 [0], 8 -> 0 [0]",
      "2 -> 0 [0], 5 -> 3 [0], 9 -> 8 [0]", "3 -> 0 [0]", "6 -> 0 [0]"};
  const std::vector<const char *> regrouped = {
      "1 -> 0 [0], 4 -> 3 [0], 7 -> 6 [0], 9 -> 6 [0]",
      "2 -> 0 [0], 5 -> 3 [0]", "3 -> 0 [0]", "6 -> 0 [0]", "8 -> 0 [0]"};
  for (const auto &entry :
       {std::pair{right, true}, std::pair{early, false},
        std::pair{regrouped, false}}) {
    const auto steps = std::get<0>(entry);
    const auto covered = std::get<1>(entry);
    CAPTURE(steps[0]);
    CHECK(coversParsed(context, hier, program(steps)) == covered);
  }
}

TEST_CASE("the digit routings are proven for every P = base^s, and each "
          "such P is their instance") {
  auto verdicts = [](ScheduleKind schedule, int64_t radix, DigitForm form) {
    return verdictTexts(proveDigitRouting(schedule, radix, 4096, {}, form));
  };
  const std::map<std::string, std::string> allProven{
      {"matching", "proven"},
      {"ownership", "proven"},
      {"coverage", "proven"},
      {"operator-legality", "proven"}};
  CHECK(verdicts(ScheduleKind::balanced_ternary, 0, {}) == allProven);
  CHECK(verdicts(ScheduleKind::radix, 2, {}) == allProven);
  CHECK(verdicts(ScheduleKind::radix, 5, {}) == allProven);
  std::vector<PropertyResult> ternary =
      proveDigitRouting(ScheduleKind::balanced_ternary, 0, 4096, {});
  CHECK(ternary[0].property == Property::matching);
  CHECK(ternary[0].scope == "all P = 3^s in [3, 2187]");
  CHECK(proveDigitRouting(ScheduleKind::radix, 2, 4096, {})[2].scope ==
        "all P = 2^s in [2, 4096]");
  // Moving every block against its digits lands block j at x - j: P = 3,
  // block 1 ends at rank x + 2.
  DigitForm reversed;
  reversed.reversed = true;
  std::map<std::string, std::string> wrong =
      verdicts(ScheduleKind::balanced_ternary, 0, reversed);
  CHECK(wrong.at("matching") == "proven"); // still whole columns rotated
  // Ownership's invariant is only as good as the coverage query.
  CHECK(wrong.at("ownership") == "not proven");
  CHECK(wrong.at("coverage").rfind("violated: the closed form fails for", 0) ==
        0);
  CHECK_FALSE(wrong.count("operator-legality"));
  CHECK(verdicts(ScheduleKind::radix, 2, reversed).at("coverage").rfind(
            "violated", 0) == 0);
  CHECK(proveDigitRouting(ScheduleKind::direct, 0, 4096, {}).empty());

  // The instances: exactly P = base^s, and every step as the closed form.
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  for (const auto &entry :
       {std::pair{"collective c : alltoall<any> { ranks P; digits "
                  "balanced_ternary; }",
                  3},
        std::pair{"collective c : alltoall<any> { ranks P; digits radix(2); }",
                  2},
        std::pair{"collective c : alltoall<any> { ranks P; digits radix(3); }",
                  3}}) {
    const auto source = std::get<0>(entry);
    const auto base = std::get<1>(entry);
    mlir::OwningOpRef<mlir::ModuleOp> module;
    CollectiveOp spec = collc_test::parseSpec(context, module, source);
    mlir::OpBuilder builder(module->getBody(), module->getBody()->end());
    for (int64_t P = 2; P <= 81; ++P) {
      CAPTURE(source);
      CAPTURE(P);
      bool power = false;
      for (int64_t q = base; q <= P; q *= base)
        power |= q == P;
      ProgramOp program = expandCollective(spec, P, builder, false);
      CHECK(familyCovers(spec, program, Property::coverage) == power);
      CHECK(familyCovers(spec, program, Property::ownership) == power);
      CHECK(familyCovers(spec, program, Property::matching) == power);
    }
  }
  // A ReTri program for P = 9 with blocks 4 and 5 swapped between the
  // two steps of phase 0 is not the closed form.
  mlir::OwningOpRef<mlir::ModuleOp> specModule;
  CollectiveOp retri = collc_test::parseSpec(
      context, specModule,
      "collective c : alltoall<any> { ranks P; digits balanced_ternary; }");
  auto program = [](const char *plus, const char *minus) {
    std::string text = "coll.program @c attributes {kind = "
                       "#coll.kind<alltoall>, num_parts = 9 : i64, num_ranks "
                       "= 9 : i64, op = #coll.op<sum>} {\n";
    auto step = [&](int offset, const char *blocks) {
      text += "  coll.step \"s\" copy {";
      for (int i = 0; i < 9; ++i)
        text += (i ? ", " : "") + std::to_string(i) + " -> " +
                std::to_string((i + offset) % 9) + " " + blocks;
      text += "}\n";
    };
    step(1, plus);
    step(8, minus);
    step(3, "[2, 3, 4]");
    step(6, "[5, 6, 7]");
    return text + "}\n";
  };
  for (const auto &entry :
       {std::tuple{"[1, 4, 7]", "[2, 5, 8]", true},
        std::tuple{"[1, 5, 7]", "[2, 4, 8]", false}}) {
    const auto plus = std::get<0>(entry);
    const auto minus = std::get<1>(entry);
    const auto covered = std::get<2>(entry);
    CAPTURE(plus);
    mlir::OwningOpRef<mlir::ModuleOp> parsed =
        mlir::parseSourceString<mlir::ModuleOp>(program(plus, minus),
                                                &context);
    REQUIRE(parsed);
    ProgramOp p = *parsed->getOps<ProgramOp>().begin();
    CHECK(familyCovers(retri, p, Property::coverage) == covered);
    CHECK(Simulation::run(p).has_value() == !covered);
  }
}

TEST_CASE("an unaligned move on the xor group sends its vectors where the "
          "rank-level transfers take them") {
  // Recursive halving for P = 8 whose last copy is split into [1, 3) ->
  // [4, 6), [0, 1) -> [6, 7), [3, 4) -> [7, 8). [1, 3) -> [4, 6) is not
  // aligned: what runs sends both vectors along the first one's
  // permutation g = t_4 t_1^-1 = t_5, so vector 2 lands on placement
  // g t_2 = t_7, not t_5 (once the group level read it as t_5 and only
  // noticed parts filed under the wrong index; with other moves it proved
  // ownership the transfers break). Placement 5 stays empty.
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  std::optional<Verdicts> v = judge(context, R"(
    coll.program @p attributes {group = #coll.group<xor>, kind = #coll.kind<allreduce>,
        num_parts = 8 : i64, num_ranks = 8 : i64, op = #coll.op<sum>} {
      coll.step "s" combine move [4, 8) -> [0, 4)
      coll.step "s" combine move [2, 4) -> [0, 2)
      coll.step "s" combine move [1, 2) -> [0, 1)
      coll.step "s" copy move [0, 1) -> [1, 2)
      coll.step "s" copy move [0, 2) -> [2, 4)
      coll.step "s" copy move [1, 3) -> [4, 6)
      coll.step "s" copy move [0, 1) -> [6, 7)
      coll.step "s" copy move [3, 4) -> [7, 8)
    })");
  REQUIRE(v);
  CHECK(v->z3[0].verdict == Verdict::proven); // one permutation per step
  const PropertyResult &coverage = v->z3[2];
  REQUIRE(coverage.verdict == Verdict::violated);
  CHECK(coverage.counterexample->step == -1);
  CHECK(coverage.counterexample->message ==
        "placement 5 (rank 5's part 0) is empty after the last step (it was "
        "handed on by a combine and never received back)");
  // The simulation sees the same: rank 0's part 5 was handed on.
  REQUIRE(v->simulation);
  CHECK(v->simulation->property == "coverage");
  CHECK(v->simulation->message ==
        "rank 0 ends without part 5 (given away at step 0)");
}

/// Hand-written programs of the other kinds (test/verify/proven has them
/// with explanations).
const char *kOtherKinds[] = {
    R"(coll.program @p attributes {group = #coll.group<cyclic>, kind = #coll.kind<reduce_scatter>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
      coll.step "s" combine move [3, 5) -> [0, 2)
      coll.step "s" combine move [2, 3) -> [0, 1)
      coll.step "s" combine move [1, 2) -> [0, 1)
    })",
    R"(coll.program @p attributes {group = #coll.group<cyclic>, kind = #coll.kind<allgather>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
      coll.step "s" copy move [0, 1) -> [1, 2)
      coll.step "s" copy move [0, 1) -> [2, 3)
      coll.step "s" copy move [0, 2) -> [3, 5)
    })",
    R"(coll.program @p attributes {kind = #coll.kind<broadcast>, num_parts = 2 : i64, num_ranks = 5 : i64, op = #coll.op<sum>, root = 2 : i64} {
      coll.step "s" copy {2 -> 0 [0, 1]}
      coll.step "s" copy {2 -> 3 [0, 1], 0 -> 1 [0, 1]}
      coll.step "s" copy {3 -> 4 [0, 1]}
    })",
    R"(coll.program @p attributes {kind = #coll.kind<reduce>, num_parts = 2 : i64, num_ranks = 5 : i64, op = #coll.op<sum>, root = 0 : i64} {
      coll.step "s" combine {1 -> 0 [0, 1], 3 -> 2 [0, 1]}
      coll.step "s" combine {4 -> 2 [0, 1]}
      coll.step "s" combine {2 -> 0 [0, 1]}
    })"};

TEST_CASE("random mutants: Z3 and the simulation agree on every one") {
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  std::mt19937 rng(20261129);
  auto pick = [&](int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  };
  MutantTally tally;
  std::vector<Mutant> mutants;
  std::vector<PlainProgram> bases;
  for (const Example &example : kExamples)
    for (int64_t P : {3, 4, 5, 7, 8}) {
      if (!example.admits(P))
        continue;
      mlir::OwningOpRef<mlir::ModuleOp> module;
      bases.push_back(
          plainOf(collc_test::expand(context, module, example.source(), P)));
    }
  for (const char *source : kRoutedSources)
    for (int64_t P : {4, 5, 7}) {
      mlir::OwningOpRef<mlir::ModuleOp> module;
      bases.push_back(plainOf(collc_test::expand(context, module, source, P)));
    }
  for (const char *text : kOtherKinds) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    REQUIRE(module);
    PlainProgram base = plainOf(*module->getOps<ProgramOp>().begin());
    REQUIRE_FALSE(Simulation::run(*module->getOps<ProgramOp>().begin()));
    bases.push_back(base);
    bases.push_back(base); // twice the rounds: fewer steps to mutate
  }
  for (const PlainProgram &base : bases) {
    int64_t P = base.P;
    for (int round = 0; round < 60; ++round) {
      PlainProgram m = base;
      int mutations = 1 + pick(2);
      std::string what;
      for (int k = 0; k < mutations && !m.steps.empty(); ++k) {
        PlainStep &step = m.steps[pick(m.steps.size())];
        Transfer *t = step.transfers.empty()
                          ? nullptr
                          : &step.transfers[pick(step.transfers.size())];
        switch (pick(11)) {
        case 0: // dropped step
          m.steps.erase(m.steps.begin() + pick(m.steps.size()));
          what += "drop ";
          break;
        case 1: // duplicated step
          m.steps.insert(m.steps.begin() + pick(m.steps.size()), step);
          what += "dup ";
          break;
        case 2: // swapped steps
          std::swap(step, m.steps[pick(m.steps.size())]);
          what += "swap ";
          break;
        case 3: // swapped peer
          if (t)
            t->dst = pick(P);
          what += "peer ";
          break;
        case 4: // off-by-one part
          if (t && !t->sent.empty()) {
            int64_t i = pick(t->sent.size());
            t->sent[i] = t->received[i] = (t->sent[i] + 1) % base.parts;
          }
          what += "part ";
          break;
        case 5: // step kind flipped
          step.kind = step.kind == StepKind::combine ? StepKind::copy
                                                     : StepKind::combine;
          what += "kind ";
          break;
        case 6: // dropped transfer
          if (t)
            step.transfers.erase(step.transfers.begin() +
                                 (t - step.transfers.data()));
          what += "drop-transfer ";
          break;
        case 7: // received as another part
          if (t && !t->received.empty())
            t->received[pick(t->received.size())] = pick(base.parts);
          what += "into ";
          break;
        case 8: // one part fewer received than sent
          if (t && t->received.size() > 1)
            t->received.pop_back();
          what += "size ";
          break;
        case 9: // a part named twice in one message
          if (t && !t->sent.empty()) {
            t->sent.push_back(t->sent.front());
            t->received.push_back(t->received.front());
          }
          what += "twice ";
          break;
        case 10: // every transfer of a step files its parts rotated
          for (Transfer &tr : step.transfers)
            std::rotate(tr.received.begin(),
                        tr.received.begin() + (tr.received.empty() ? 0 : 1),
                        tr.received.end());
          what += "rotate ";
          break;
        }
      }
      mutants.push_back({what, print(m)});
    }
  }
  tally.judgeAndCheck(mutants);
  MESSAGE("judged " << tally.judged << " mutants (" << tally.rejected
                    << " rejected by the op verifier); simulation verdicts: "
                    << tally.byProperty["matching"] << " matching, "
                    << tally.byProperty["ownership"] << " ownership, "
                    << tally.byProperty["coverage"] << " coverage");
  CHECK(tally.judged > 500);
  CHECK(tally.byProperty["matching"] > 20);
  CHECK(tally.byProperty["ownership"] > 20);
  CHECK(tally.byProperty["coverage"] > 20);
}

namespace {
/// Operator legality by direct replay: every combine must join two runs of
/// consecutive ranks, the lower-ranked holder's run first (the runtime puts
/// its value first).
std::optional<bool> rankOrdered(const PlainProgram &p) {
  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> value;
  for (int64_t r = 0; r < p.P; ++r)
    for (int64_t b = 0; b < p.P; ++b)
      value[{r, b}] = {r};
  for (const PlainStep &s : p.steps) {
    auto before = value;
    for (const Transfer &t : s.transfers)
      for (int64_t b : t.sent) {
        std::vector<int64_t> a = before[{t.dst, b}], in = before[{t.src, b}];
        if (s.kind == StepKind::copy) {
          value[{t.dst, b}] = in;
          continue;
        }
        std::sort(a.begin(), a.end());
        std::sort(in.begin(), in.end());
        auto run = [](const std::vector<int64_t> &v) {
          return v.empty() ||
                 v.back() - v.front() + 1 == static_cast<int64_t>(v.size());
        };
        bool receivedFirst = t.src < t.dst;
        if (!run(a) || !run(in) ||
            (receivedFirst ? in.back() + 1 != a.front()
                           : a.back() + 1 != in.front()))
          return false;
        llvm::append_range(value[{t.dst, b}], in);
        value[{t.src, b}].clear();
      }
  }
  return true;
}
} // namespace

/// A program of group moves as plain data, printed as MLIR for each mutant
/// of the group-level test below.
struct PlainGroupStep {
  StepKind kind;
  bool range;
  int64_t from = 0, to = 0, vectors = 0;
  std::vector<std::pair<int64_t, int64_t>> moves; // vector moves
};
struct PlainGroupProgram {
  int64_t P = 0, parts = 0, scratch = 0;
  GroupKind group = GroupKind::cyclic;
  std::vector<int64_t> table;
  CollectiveKind kind = CollectiveKind::allreduce;
  std::vector<PlainGroupStep> steps;
};

PlainGroupProgram plainGroupOf(ProgramOp program) {
  PlainGroupProgram p;
  p.P = program.getNumRanks();
  p.parts = program.getNumParts();
  p.scratch = program.getNumScratchParts().value_or(0);
  p.group = *program.getGroup();
  if (std::optional<llvm::ArrayRef<int64_t>> table = program.getGroupElements())
    p.table.assign(table->begin(), table->end());
  p.kind = program.getKind();
  for (StepOp step : program.getBody().getOps<StepOp>()) {
    PlainGroupStep s{step.getStepKind(), step.isImplicitMove()};
    if (s.range) {
      s.from = *step.getFrom();
      s.to = *step.getTo();
      s.vectors = *step.getVectors();
    } else {
      for (auto [src, dst] :
           llvm::zip(*step.getVectorSources(), *step.getVectorDestinations()))
        s.moves.push_back({src, dst});
    }
    p.steps.push_back(s);
  }
  return p;
}

std::string print(const PlainGroupProgram &p) {
  std::ostringstream os;
  os << "coll.program @g attributes {group = #coll.group<"
     << stringifyGroupKind(p.group).str() << ">, ";
  if (!p.table.empty()) {
    os << "group_elements = array<i64: ";
    for (size_t i = 0; i < p.table.size(); ++i)
      os << (i ? ", " : "") << p.table[i];
    os << ">, ";
  }
  os << "kind = #coll.kind<" << stringifyCollectiveKind(p.kind).str()
     << ">, num_parts = " << p.parts << " : i64, ";
  if (p.scratch)
    os << "num_scratch_parts = " << p.scratch << " : i64, ";
  os << "num_ranks = " << p.P << " : i64, op = #coll.op<sum>} {\n";
  for (const PlainGroupStep &s : p.steps) {
    os << "  coll.step \"s\" " << stringifyStepKind(s.kind).str();
    if (s.range) {
      os << " move [" << s.from << ", " << s.from + s.vectors << ") -> ["
         << s.to << ", " << s.to + s.vectors << ")\n";
      continue;
    }
    os << " vectors {";
    for (size_t i = 0; i < s.moves.size(); ++i)
      os << (i ? ", " : "") << s.moves[i].first << " -> " << s.moves[i].second;
    os << "}\n";
  }
  os << "}\n";
  return os.str();
}

TEST_CASE("random group-level mutants: Z3 and the simulation agree on "
          "every one, whatever the kind, the group and its table") {
  // The group level is an abstraction of the rank-level transfers the
  // moves imply (what runs, and what the simulation runs): every kind,
  // every group (cyclic, xor, element tables), range and vector moves,
  // and tables with rows swapped must give the verdict the simulation
  // gives.
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  std::mt19937 rng(20261201);
  auto pick = [&](int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  };
  struct Source {
    const char *text;
    std::vector<int64_t> ranks;
  };
  const Source sources[] = {
      {"collective c : allreduce<any, sum> { ranks P; group cyclic(P); "
       "schedule linear; }", {3, 4, 5}},
      {"collective c : allreduce<any, sum> { ranks P; group cyclic(P); "
       "schedule butterfly; }", {3, 5, 6, 8}},
      {"collective c : allreduce<any, sum> { ranks P where P == 2^k; group "
       "xor(P); schedule butterfly; }", {4, 8}},
      {"collective c : reduce_scatter<any, sum> { ranks P; group cyclic(P); "
       "schedule butterfly; }", {4, 5, 7}},
      {"collective c : allgather<any> { ranks P; group cyclic(P); schedule "
       "linear; }", {3, 5}},
      {"collective c : allgather<any> { ranks P where P == 2^k; group "
       "xor(P); schedule butterfly; }", {4, 8}},
      {"collective c : allreduce<any, sum> { ranks P; group cyclic(P); "
       "schedule butterfly(r = 1); }", {5, 6, 7}},
      {"collective c : allreduce<any, sum> { ranks P; group cyclic(P); "
       "schedule butterfly(r = max); }", {3, 5}},
      {"collective c : allreduce<any, sum> { ranks 6; group cyclic(2) * "
       "cyclic(3); schedule butterfly; }", {6}},
      {"collective c : reduce_scatter<any, sum> { ranks 4; group generated "
       "{ (0 1)(2 3), (0 2)(1 3) }; schedule butterfly; }", {4}},
      {"collective c : allgather<any> { ranks 6; group cyclic(3) * "
       "cyclic(2); schedule linear; }", {6}},
  };
  const CollectiveKind kinds[] = {
      CollectiveKind::allreduce,      CollectiveKind::reduce_scatter,
      CollectiveKind::allgather,      CollectiveKind::alltoall,
      CollectiveKind::inclusive_scan, CollectiveKind::exclusive_scan,
      CollectiveKind::barrier};
  std::vector<PlainGroupProgram> bases;
  for (const Source &source : sources)
    for (int64_t P : source.ranks) {
      mlir::OwningOpRef<mlir::ModuleOp> module;
      mlir::OwningOpRef<mlir::ModuleOp> scratch;
      coll::CollectiveOp spec =
          collc_test::parseSpec(context, module, source.text);
      scratch = mlir::ModuleOp::create(spec.getLoc());
      mlir::OpBuilder builder(scratch->getBody(), scratch->getBody()->end());
      ProgramOp program =
          expandCollective(spec, P, builder, /*withTransfers=*/false);
      REQUIRE_FALSE(Simulation::run(program));
      bases.push_back(plainGroupOf(program));
    }
  MutantTally tally;
  std::vector<Mutant> mutants;
  for (const PlainGroupProgram &base : bases) {
    for (int round = 0; round < 80; ++round) {
      PlainGroupProgram m = base;
      int mutations = 1 + pick(2);
      std::string what;
      for (int k = 0; k < mutations && !m.steps.empty(); ++k) {
        PlainGroupStep &step = m.steps[pick(m.steps.size())];
        switch (pick(11)) {
        case 0:
          m.steps.erase(m.steps.begin() + pick(m.steps.size()));
          what += "drop ";
          break;
        case 1:
          m.steps.insert(m.steps.begin() + pick(m.steps.size()), step);
          what += "dup ";
          break;
        case 2:
          std::swap(step, m.steps[pick(m.steps.size())]);
          what += "swap ";
          break;
        case 3:
          step.kind = step.kind == StepKind::combine ? StepKind::copy
                                                     : StepKind::combine;
          what += "kind ";
          break;
        case 4: // a range's source or destination off by one
          if (step.range)
            (pick(2) ? step.from : step.to) += pick(2) ? 1 : -1;
          else if (!step.moves.empty())
            step.moves[pick(step.moves.size())].second = pick(m.parts);
          what += "off-by-one ";
          break;
        case 5: // one vector more or fewer
          if (step.range)
            step.vectors += pick(2) ? 1 : -1;
          else if (step.moves.size() > 1)
            step.moves.erase(step.moves.begin() + pick(step.moves.size()));
          what += "vectors ";
          break;
        case 6:
        case 7: // another collective kind
          m.kind = kinds[pick(std::size(kinds))];
          if (m.kind == CollectiveKind::exclusive_scan && m.P == 2)
            m.parts = 2;
          what += "collective-kind ";
          break;
        case 8: // two rows of the element table swapped, or another group
          if (!m.table.empty()) {
            int64_t a = pick(m.P), b = pick(m.P);
            for (int64_t x = 0; x < m.P; ++x)
              std::swap(m.table[a * m.P + x], m.table[b * m.P + x]);
          } else if ((m.P & (m.P - 1)) == 0) {
            m.group = m.group == GroupKind::cyclic ? GroupKind::xor_
                                                   : GroupKind::cyclic;
          }
          what += "group ";
          break;
        case 9: // a vector move's source
          if (!step.range && !step.moves.empty())
            step.moves[pick(step.moves.size())].first = pick(m.parts);
          what += "vector-source ";
          break;
        case 10: // a range move written as the same vector moves
          if (step.range && m.scratch == 0 && m.parts == m.P) {
            PlainGroupStep v{step.kind, false};
            for (int64_t i = 0; i < step.vectors; ++i)
              v.moves.push_back({step.from + i, step.to + i});
            step = v;
          }
          what += "as-vectors ";
          break;
        }
      }
      mutants.push_back({what, print(m)});
    }
  }
  tally.judgeAndCheck(mutants);
  MESSAGE("judged " << tally.judged << " group-level mutants ("
                    << tally.groupLevel << " on the group level, "
                    << tally.rejected
                    << " rejected by the op verifier); simulation verdicts: "
                    << tally.byProperty["matching"] << " matching, "
                    << tally.byProperty["ownership"] << " ownership, "
                    << tally.byProperty["coverage"] << " coverage");
  CHECK(tally.judged > 500);
  CHECK(tally.groupLevel > 300);
  CHECK(tally.byProperty["ownership"] > 20);
  CHECK(tally.byProperty["coverage"] > 20);
}

TEST_CASE("operator legality: Z3 agrees with a replay of the combines") {
  mlir::MLIRContext context;
  context.getOrLoadDialect<CollDialect>();
  int legal = 0, illegal = 0;
  for (const Example &example : kExamples)
    for (int64_t P = 2; P <= 9; ++P) {
      if (!example.admits(P))
        continue;
      CAPTURE(example.group);
      CAPTURE(example.schedule);
      CAPTURE(P);
      mlir::OwningOpRef<mlir::ModuleOp> module;
      PlainProgram p =
          plainOf(collc_test::expand(context, module, example.source(), P));
      p.noncommutative = true;
      std::optional<Verdicts> v = judge(context, print(p));
      REQUIRE(v);
      const PropertyResult &legality = v->z3[3];
      bool expected = *rankOrdered(p);
      CHECK((legality.verdict == Verdict::proven) == expected);
      CHECK((legality.verdict == Verdict::violated) == !expected);
      // The verifier's own replay of the merges (as runs of ranks) too, at
      // the same first bad step (Z3 then minimizes the slot, the replay
      // names the first bad move).
      const PropertyResult &replayed = v->replayed[3];
      CHECK(replayed.byReplay);
      CHECK(verdictName(replayed.verdict) == verdictName(legality.verdict));
      if (legality.counterexample && replayed.counterexample)
        CHECK(replayed.counterexample->step == legality.counterexample->step);
      (expected ? legal : illegal) += 1;
    }
  // Recursive halving on the xor group joins neighbouring blocks: legal for
  // every power of two; the cyclic schedules wrap around and are not.
  CHECK(legal == 5); // P = 2 for ring and butterfly, P = 2, 4, 8 on xor
  CHECK(illegal > 10);
}
