// The dataflow check names the first violation: property, step, rank, part.
#include "coll/Dialect/CollOps.h"
#include "coll/Passes/Simulation.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <doctest/doctest.h>

using namespace coll;

namespace {
struct Checked {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::optional<Violation> violation;

  explicit Checked(const std::string &steps) {
    context.getOrLoadDialect<CollDialect>();
    std::string text = "coll.program @p attributes {kind = #coll.kind<allreduce>, "
                       "num_parts = 3 : i64, num_ranks = 3 : i64, "
                       "op = #coll.op<sum>} {\n" +
                       steps + "}\n";
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    REQUIRE(module);
    violation = Simulation::run(*module->getOps<ProgramOp>().begin());
  }
};

// The ring for P = 3, as the expansion builds it.
const char *kRingSteps[] = {
    R"(coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 0 [2]})",
    R"(coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [0], 2 -> 0 [1]})",
    R"(coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 0 [0]})",
    R"(coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 0 [2]})",
};

/// Every field of the first violation: property, step, rank, part, message.
void checkViolation(const Checked &checked, const char *property, int64_t step,
                    int64_t rank, int64_t part, const char *message) {
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == property);
  CHECK(checked.violation->step == step);
  CHECK(checked.violation->rank == rank);
  CHECK(checked.violation->part == part);
  CHECK(checked.violation->message == message);
}

std::string ringWith(int replaced, const std::string &replacement) {
  std::string steps;
  for (int i = 0; i < 4; ++i)
    steps += (i == replaced ? replacement : std::string(kRingSteps[i])) + "\n";
  return steps;
}
} // namespace

TEST_CASE("the ring for P = 3 passes") {
  Checked checked(ringWith(-1, ""));
  CHECK_FALSE(checked.violation.has_value());
}

TEST_CASE("a dropped step leaves a part incomplete") {
  // Without the last step there are 3 steps; the check after them fails.
  checkViolation(Checked(ringWith(3, "")), "coverage", 3, 0, 2,
                 "rank 0 ends without part 2 (given away at step 1)");
}

TEST_CASE("sending a part already handed on is an ownership violation") {
  checkViolation(
      Checked(ringWith(
          1,
          R"(coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [0], 2 -> 0 [1]})")),
      "ownership", 1, 0, 0, "rank 0 sends part 0, which it gave away at step 0");
}

TEST_CASE("combining into a part already handed on") {
  checkViolation(
      Checked(ringWith(1, R"(coll.step "reduce-scatter" combine {2 -> 1 [1]})")),
      "ownership", 1, 1, 1,
      "rank 1 combines into part 1, which it gave away at step 0");
}

TEST_CASE("overwriting a partial that exists nowhere else") {
  checkViolation(
      Checked(ringWith(
          1,
          R"(coll.step "reduce-scatter" copy {0 -> 1 [2], 1 -> 2 [0], 2 -> 0 [1]})")),
      "ownership", 1, 1, 2,
      "rank 1 overwrites part 2 = {1} with {0, 2} from rank 0, losing the "
      "only copy of the contribution of rank 1");
}

TEST_CASE("two messages from one rank in one step") {
  // Matching names no part: -1.
  checkViolation(
      Checked(ringWith(
          0,
          R"(coll.step "reduce-scatter" combine {0 -> 1 [0], 0 -> 2 [1], 2 -> 0 [2]})")),
      "matching", 0, 0, -1,
      "rank 0 sends two messages in one step (to 1 and 2)");
}

TEST_CASE("a contribution counted twice is a coverage violation") {
  checkViolation(
      Checked(R"(coll.step "reduce-scatter" combine {0 -> 1 [0]})"
              "\n"
              R"(coll.step "reduce-scatter" copy {1 -> 0 [0]})"
              "\n"
              R"(coll.step "reduce-scatter" combine {0 -> 1 [0]})"
              "\n"),
      "coverage", 2, 1, 0,
      "the contribution of rank 0 to part 0 reaches rank 1 twice (it holds "
      "{0, 1} and receives {0, 1} from rank 0)");
}

TEST_CASE("a part that never arrives is reported with what is missing") {
  // Only rank 1's part 1 moves; after the one step rank 0's part 0 is alone.
  checkViolation(
      Checked(R"(coll.step "reduce-scatter" combine {1 -> 0 [1]})"
              "\n"),
      "coverage", 1, 0, 0, "rank 0 ends with part 0 = {0}, missing {1, 2}");
}
