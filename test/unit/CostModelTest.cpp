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
                 "bandwidth or gamma");
  CHECK_FALSE(MachineModel::parse("beta = fast\n", error));
  CHECK(error == "1:8: expected a non-negative number for 'beta', got 'fast'");
  CHECK_FALSE(MachineModel::parse("alpha = 1\n", error));
  CHECK(error == "1:1: the model needs beta (us per byte) or bandwidth (GB/s)");
}
