// The alpha-beta-gamma cost of step programs (passes/lib/cost) against the
// closed forms of design.md 5, on a uniform fully connected machine. The
// closed forms are oracles here: the cost is computed from the steps.
#include "Helpers.h"

#include "coll/Passes/CostModel.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace coll;
using collc_test::expand;

namespace {

const MachineModel kModel = [] {
  MachineModel m;
  m.alpha = 1.5;
  m.beta = 0.01;
  m.gamma = 0.003;
  return m;
}();

double log2ceil(int64_t P) {
  return std::ceil(std::log2(static_cast<double>(P)));
}

double priced(const std::string &source, int64_t P, double bytes) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramOp program = expand(context, module, source, P);
  return predictedTime(program, kModel, bytes);
}

std::string allreduce(const std::string &body) {
  return "collective c : allreduce<any, sum> { ranks P; " + body + " }";
}

} // namespace

TEST_CASE("group and tree allreduces cost exactly their closed forms") {
  const double a = kModel.alpha, b = kModel.beta, g = kModel.gamma;
  const double M = 3000;
  for (int64_t P = 2; P <= 20; ++P) {
    CAPTURE(P);
    double p = static_cast<double>(P), L = log2ceil(P);
    CHECK(priced(allreduce("group cyclic(P); schedule linear;"), P, M) ==
          doctest::Approx(2 * (p - 1) * a + 2 * (p - 1) / p * b * M +
                          (p - 1) / p * g * M));
    CHECK(priced(allreduce("group cyclic(P); schedule butterfly;"), P, M) ==
          doctest::Approx(2 * L * a + 2 * (p - 1) / p * b * M +
                          (p - 1) / p * g * M));
    CHECK(priced(allreduce("tree binomial;"), P, M) ==
          doctest::Approx(2 * L * (a + b * M) + L * g * M));
    CHECK(priced(allreduce("tree flat;"), P, M) ==
          doctest::Approx(2 * (p - 1) * (a + b * M) + (p - 1) * g * M));
  }
  for (int64_t P : {2, 4, 8, 16, 32}) {
    CAPTURE(P);
    double L = log2ceil(P);
    std::string xorRanks = "collective c : allreduce<any, sum> { ranks P "
                           "where P == 2^k; group xor(P); schedule ";
    CHECK(priced(xorRanks + "butterfly(r = max); }", P, M) ==
          doctest::Approx(L * (a + b * M + g * M)));
    // Shifted reductions at r = max on cyclic(P), P a power of two: the
    // recursive doubling's traffic, log2 P whole vectors.
    CHECK(priced(allreduce("group cyclic(P); schedule butterfly(r = max);"),
                 P, M) == doctest::Approx(L * (a + b * M + g * M)));
  }
}

TEST_CASE("alltoall routings cost their phases times their blocks") {
  const double a = kModel.alpha, b = kModel.beta;
  const double block = 100;
  auto alltoall = [](const std::string &routing) {
    return "collective c : alltoall<any> { ranks P; " + routing + " }";
  };
  // ReTri, n = 27: 3 phases of two steps (+ and -), 9 blocks each.
  CHECK(priced(alltoall("digits balanced_ternary;"), 27, block) ==
        doctest::Approx(6 * (a + 9 * block * b)));
  // Bruck radix 2, n = 16: 4 phases of one step, 8 blocks each.
  CHECK(priced(alltoall("digits radix(2);"), 16, block) ==
        doctest::Approx(4 * (a + 8 * block * b)));
  // Bruck radix 3, n = 27: 3 phases of two steps, 9 blocks each.
  CHECK(priced(alltoall("digits radix(3);"), 27, block) ==
        doctest::Approx(6 * (a + 9 * block * b)));
  // Pairwise exchange: n - 1 steps of one block.
  CHECK(priced(alltoall("schedule direct;"), 9, block) ==
        doctest::Approx(8 * (a + block * b)));
}

TEST_CASE("the cost is affine in the size, and crossovers solve for it") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> m1, m2;
  ProgramOp tree = expand(context, m1, allreduce("tree binomial;"), 8);
  ProgramOp ring =
      expand(context, m2, allreduce("group cyclic(P); schedule linear;"), 8);
  MachineModel seed;
  seed.alpha = 0.065;
  seed.beta = 1.717528e-5;
  AffineCost t = affineCost(tree, seed), r = affineCost(ring, seed);
  CHECK(t.at(4096) == doctest::Approx(predictedTime(tree, seed, 4096)));
  // Seed 000: 6(alpha + beta M) = 14 alpha + 14/8 beta M at about 7,124 B.
  std::optional<double> at = crossover(t, r);
  REQUIRE(at.has_value());
  CHECK(*at == doctest::Approx(8 * 0.065 / (4.25 * 1.717528e-5)));
  CHECK(std::lround(*at) == 7124);
}

TEST_CASE("machine models parse with line and column errors") {
  std::string error;
  std::optional<MachineModel> m = MachineModel::parse(
      "# comment\nname = x\nalpha = 0.065\nbandwidth = 58.223 # GB/s\n", error);
  REQUIRE(m.has_value());
  CHECK(m->name == "x");
  CHECK(m->beta == doctest::Approx(1.717533e-5).epsilon(1e-5));
  CHECK_FALSE(MachineModel::parse("alpha = 1\nalhpa = 2\nbeta = 1\n", error));
  CHECK(error == "2:1: unknown key 'alhpa'; expected name, alpha, beta, "
                 "bandwidth, gamma, overhead, topology, topology_file, hop_latency, delta or ports");
  CHECK_FALSE(MachineModel::parse("beta = fast\n", error));
  CHECK(error == "1:8: expected a non-negative number for 'beta', got 'fast'");
  CHECK_FALSE(MachineModel::parse("alpha = 1\n", error));
  CHECK(error == "1:1: the model needs beta (us per byte) or bandwidth (GB/s)");
  // Found by the model fuzz target: `ports = INFINITY` reached an int
  // conversion (UB); infinities and NaNs price nothing.
  CHECK_FALSE(MachineModel::parse("beta = 1\nports = INFINITY\n", error));
  CHECK(error == "2:9: expected a non-negative number for 'ports', got 'INFINITY'");
  CHECK_FALSE(MachineModel::parse("alpha = nan\nbeta = 1\n", error));
  CHECK(error == "1:9: expected a non-negative number for 'alpha', got 'nan'");
  CHECK_FALSE(MachineModel::parse("beta = 1\nports = 1e10\n", error));
  CHECK(error == "2:9: ports must be a whole number in 1..4096, got '1e10'");
  CHECK_FALSE(MachineModel::parse("beta = 1\nports = 2.5\n", error));
  CHECK(error == "2:9: ports must be a whole number in 1..4096, got '2.5'");
}

TEST_CASE("on a full mesh the topology model is the uniform one") {
  MachineModel model = kModel;
  model.topology = "full";
  const double M = 4096;
  for (int64_t P : {3, 5, 8, 12}) {
    CAPTURE(P);
    std::string error;
    std::optional<Topology> full = model.topologyFor(P, error);
    REQUIRE(full.has_value());
    for (const char *body :
         {"group cyclic(P); schedule linear;",
          "group cyclic(P); schedule butterfly;", "tree binomial;",
          "tree flat;", "group cyclic(P); schedule butterfly(r = 1);"}) {
      CAPTURE(body);
      mlir::MLIRContext context;
      mlir::OwningOpRef<mlir::ModuleOp> module;
      ProgramOp program = expand(context, module, allreduce(body), P);
      CHECK(predictedTime(program, kModel, M, &*full) ==
            doctest::Approx(predictedTime(program, kModel, M)));
    }
  }
}

TEST_CASE("a ring congests where a full mesh does not") {
  MachineModel model;
  model.alpha = 0.5;
  model.beta = 0.01;
  model.hopLatency = 0.25;
  const double M = 100;
  std::string error;
  model.topology = "ring";
  std::optional<Topology> ring = model.topologyFor(4, error);
  model.topology = "full";
  std::optional<Topology> full = model.topologyFor(4, error);
  REQUIRE(ring.has_value());
  REQUIRE(full.has_value());
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> m1, m2;
  ProgramOp doubling = expand(
      context, m1,
      "collective c : allreduce<any, sum> { ranks P where P == 2^k; group "
      "xor(P); schedule butterfly(r = max); }",
      4);
  // Full mesh: two steps of one hop, one whole vector per link.
  CHECK(predictedTime(doubling, model, M, &*full) ==
        doctest::Approx(2 * (0.5 + 0.25 + 1.0)));
  // Ring: xor 1 is a neighbour; xor 2 goes two hops, and shortest paths
  // put two messages on links 1 -> 0 and 2 -> 1.
  std::vector<StepCost> steps = costOfSteps(doubling, model, M, &*ring);
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].time == doctest::Approx(0.5 + 0.25 + 1.0));
  CHECK(steps[1].hops == 2);
  CHECK(steps[1].time == doctest::Approx(0.5 + 0.5 + 2.0));
  // The ring allreduce only talks to neighbours: the same on both.
  ProgramOp ringAllreduce = expand(
      context, m2, allreduce("group cyclic(P); schedule linear;"), 4);
  CHECK(predictedTime(ringAllreduce, model, M, &*ring) ==
        doctest::Approx(predictedTime(ringAllreduce, model, M, &*full)));
}

TEST_CASE("shortest paths through switches, and topology errors") {
  std::string error;
  std::optional<Topology> tree = Topology::builtin("hierarchy(4, 50)", 8, 1,
                                                   100, error);
  REQUIRE(tree.has_value());
  // Ranks 0..7, node switches 8 and 9, top switch 10.
  CHECK(tree->numNodes() == 11);
  CHECK(tree->route(0, 3)->size() == 2);  // up to switch 8 and down
  CHECK(tree->route(0, 4)->size() == 4);  // through the top switch
  CHECK(tree->getLinks()[(*tree->route(0, 4))[1]].bandwidth == 50);
  CHECK_FALSE(Topology::builtin("torus(3, 3)", 8, 0, 1, error));
  CHECK(error == "torus(3, 3) has 9 nodes, not P = 8");
  CHECK_FALSE(Topology::builtin("mesh", 8, 0, 1, error));
  CHECK(error == "unknown topology 'mesh'; expected full, ring, torus(a, b), "
                 "fat_tree(k) or hierarchy(n, inter_bandwidth)");
  std::optional<Topology> custom = Topology::parse(
      "nodes 3\nlink 0 1 latency=1 bandwidth=10 duplex\n"
      "link 1 2 latency=2 bandwidth=5 duplex # slow\nplace all 0 1 2 2\n",
      error);
  REQUIRE(custom.has_value());
  CHECK(custom->numRanks() == 4);
  CHECK(custom->route(0, 3)->size() == 2);
  CHECK(custom->route(2, 3)->empty()); // same node
  CHECK_FALSE(Topology::parse("nodes 2\nlink 0 5 latency=1 bandwidth=1\n",
                              error));
  CHECK(error == "2:8: '5' is not a node in [0, 2)");
  CHECK_FALSE(Topology::parse("link 0 1 latency=1 bandwidth=1\n", error));
  CHECK(error == "1:1: the first statement must be 'nodes N'");
  CHECK_FALSE(Topology::parse("nodes 2\nlink 0 1 latency=1 speed=3\n", error));
  CHECK(error == "2:20: expected latency=US, bandwidth=GBPS or duplex, got "
                 "'speed=3'");
  // The route table has a row per node holding ranks: its size is bounded
  // (a fuzzer's "nodes 345550" asked for 955 GB).
  CHECK_FALSE(Topology::parse("# x\nnodes 8193\n", error));
  CHECK(error == "2:7: at most 8192 nodes, got 8193");
  // A second count would leave the links read before it out of range (a
  // fuzzer's heap overflow).
  CHECK_FALSE(Topology::parse("nodes 9\nlink 4 8 latency=1 bandwidth=1\nnodes 6\n", error));
  CHECK(error == "3:1: 'nodes' is given twice (first on line 1)");
  std::optional<Topology> widest = Topology::parse("nodes 8192\nplace all 0 8191\n", error);
  REQUIRE(widest.has_value());
  CHECK_FALSE(widest->route(0, 1).has_value()); // no links
  CHECK_FALSE(Topology::builtin("full", 2049, 1, 1, error));
  CHECK(error == "topology full is built for 1 to 2048 ranks, not P = 2049");
  CHECK_FALSE(Topology::builtin("ring", 4097, 1, 1, error));
  CHECK(error == "topology ring is built for 1 to 4096 ranks, not P = 4097");
  std::optional<Topology> fat = Topology::builtin("fat_tree(64)", 4096, 1, 1, error);
  REQUIRE(fat.has_value());
  CHECK(fat->numNodes() == 4096 + 64 + 1);
  CHECK(fat->route(0, 4095)->size() == 4); // leaf, top, leaf, rank
}

TEST_CASE("two ports overlap independent steps: ReTri's + and -, Trivance") {
  MachineModel two = kModel;
  two.ports = 2;
  const double a = two.alpha, b = two.beta, g = two.gamma;
  // ReTri n = 27: the + and - steps of a phase touch different blocks.
  CHECK(priced("collective c : alltoall<any> { ranks P; digits "
               "balanced_ternary; }",
               27, 100) == doctest::Approx(6 * (a + 900 * b)));
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> m1, m2;
  ProgramOp retri = expand(
      context, m1,
      "collective c : alltoall<any> { ranks P; digits balanced_ternary; }", 27);
  CHECK(predictedTime(retri, two, 100) == doctest::Approx(3 * (a + 900 * b)));
  // Trivance, P = 27: per phase both neighbours at once, two merges.
  const double M = 1000;
  ProgramOp trivance = expand(
      context, m2,
      "collective c : allreduce<any, sum> { ranks P; digits balanced_ternary; }",
      27);
  CHECK(predictedTime(trivance, two, M) ==
        doctest::Approx(3 * (a + b * M + 2 * g * M)));
  // The ring's steps depend on each other: nothing overlaps.
  CHECK(priced(allreduce("group cyclic(P); schedule linear;"), 6, M) ==
        doctest::Approx([&] {
          mlir::MLIRContext c;
          mlir::OwningOpRef<mlir::ModuleOp> m;
          return predictedTime(
              expand(c, m, allreduce("group cyclic(P); schedule linear;"), 6),
              two, M);
        }()));
}

TEST_CASE("segments: a chain pipelines, a ring only pays more startups") {
  const double a = kModel.alpha, b = kModel.beta, g = kModel.gamma;
  const double M = 6000;
  for (int64_t P = 2; P <= 12; ++P)
    for (int S : {1, 2, 3, 8, 64}) {
      CAPTURE(P);
      CAPTURE(S);
      double p = static_cast<double>(P), s = S;
      std::string segments = " segments = " + std::to_string(S) + ";";
      // The chain broadcast: P - 1 steps of one message, pipelined into
      // P + S - 2 super-steps of M / S bytes (each rank sends and receives
      // at once).
      CHECK(priced("collective c : broadcast<any> { ranks P; root = 0; tree "
                   "chain;" + segments + " }",
                   P, M) == doctest::Approx((p + s - 2) * (a + b * M / s)));
      // The chain reduce merges M / S bytes per super-step.
      CHECK(priced("collective c : reduce<any, sum> { ranks P; root = 0; "
                   "tree chain;" + segments + " }",
                   P, M) ==
            doctest::Approx((p + s - 2) * (a + b * M / s + g * M / s)));
      // The ring sends in every step on every rank: the same bytes, and
      // S - 1 more startups.
      CHECK(priced(allreduce("group cyclic(P); schedule linear;" + segments),
                   P, M) ==
            doctest::Approx((2 * (p - 1) + s - 1) * a +
                            2 * (p - 1) / p * b * M + (p - 1) / p * g * M));
    }
}

TEST_CASE("overhead: each step pays its busiest sender's and receiver's "
          "messages") {
  MachineModel withO = kModel;
  withO.overhead = 0.25;
  const double o = withO.overhead, M = 6000;
  auto both = [&](const std::string &source, int64_t P) {
    mlir::MLIRContext context;
    mlir::OwningOpRef<mlir::ModuleOp> module;
    ProgramOp program = expand(context, module, source, P);
    return std::make_pair(predictedTime(program, kModel, M),
                          predictedTime(program, withO, M));
  };
  for (int64_t P = 2; P <= 9; ++P)
    for (int S : {1, 3, 8}) {
      CAPTURE(P);
      CAPTURE(S);
      double p = static_cast<double>(P);
      // The segmented ring: every rank sends and receives each of the
      // 2 (P - 1) steps' S segments, several in one super-step.
      auto [ring, ringO] = both(
          allreduce("group cyclic(P); schedule linear; segments = " +
                    std::to_string(S) + ";"),
          P);
      CHECK(ringO == doctest::Approx(ring + 2 * 2 * (p - 1) * S * o));
    }
  // The flat broadcast: P - 1 steps of one message each.
  auto [flat, flatO] = both(
      "collective c : broadcast<any> { ranks P; root = 0; tree flat; }", 7);
  CHECK(flatO == doctest::Approx(flat + 6 * 2 * o));
  // Overlapped steps (two ports) still pay their messages' CPU time.
  MachineModel two = withO;
  two.ports = 2;
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> m;
  ProgramOp retri = expand(
      context, m,
      "collective c : alltoall<any> { ranks P; digits balanced_ternary; }", 27);
  const double a = two.alpha, b = two.beta;
  CHECK(predictedTime(retri, two, 100) ==
        doctest::Approx(3 * (a + 900 * b) + 6 * 2 * o));
  // The model says so.
  CHECK(withO.describe() == "alpha = 1.5 us, beta = 0.01 us/B (0.100 GB/s), "
                            "gamma = 0.003 us/B, overhead = 0.25 us per message");
}
