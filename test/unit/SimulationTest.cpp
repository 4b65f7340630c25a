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
  Checked checked(ringWith(3, ""));
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == "coverage");
  CHECK(checked.violation->rank == 0);
  CHECK(checked.violation->part == 2);
  CHECK(checked.violation->message ==
        "rank 0 ends without part 2 (given away at step 1)");
}

TEST_CASE("sending a part already handed on is an ownership violation") {
  Checked checked(ringWith(
      1,
      R"(coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [0], 2 -> 0 [1]})"));
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == "ownership");
  CHECK(checked.violation->step == 1);
  CHECK(checked.violation->rank == 0);
  CHECK(checked.violation->message ==
        "rank 0 sends part 0, which it gave away at step 0");
}

TEST_CASE("combining into a part already handed on") {
  Checked checked(ringWith(
      1,
      R"(coll.step "reduce-scatter" combine {2 -> 1 [1]})"));
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == "ownership");
  CHECK(checked.violation->message ==
        "rank 1 combines into part 1, which it gave away at step 0");
}

TEST_CASE("overwriting a partial that exists nowhere else") {
  Checked checked(ringWith(
      1, R"(coll.step "reduce-scatter" copy {0 -> 1 [2], 1 -> 2 [0], 2 -> 0 [1]})"));
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == "ownership");
  CHECK(checked.violation->step == 1);
  CHECK(checked.violation->message ==
        "rank 1 overwrites part 2, whose partial result {1} exists nowhere "
        "else, with {0, 2} from rank 0");
}

TEST_CASE("two messages from one rank in one step") {
  Checked checked(ringWith(
      0,
      R"(coll.step "reduce-scatter" combine {0 -> 1 [0], 0 -> 2 [1], 2 -> 0 [2]})"));
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == "matching");
  CHECK(checked.violation->message ==
        "rank 0 sends two messages in one step (to 1 and 2)");
}

TEST_CASE("a contribution counted twice is a coverage violation") {
  Checked checked(
      R"(coll.step "reduce-scatter" combine {0 -> 1 [0]})"
      "\n"
      R"(coll.step "reduce-scatter" copy {1 -> 0 [0]})"
      "\n"
      R"(coll.step "reduce-scatter" combine {0 -> 1 [0]})"
      "\n");
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == "coverage");
  CHECK(checked.violation->step == 2);
  CHECK(checked.violation->message ==
        "the contribution of rank 0 to part 0 reaches rank 1 twice (it holds "
        "{0, 1} and receives {0, 1} from rank 0)");
}

TEST_CASE("a part that never arrives is reported with what is missing") {
  // Only the reduction towards rank 2's part 0 and nothing else.
  Checked checked(R"(coll.step "reduce-scatter" combine {1 -> 0 [1]})"
                  "\n");
  REQUIRE(checked.violation);
  CHECK(checked.violation->property == "coverage");
  CHECK(checked.violation->message ==
        "rank 0 ends with part 0 = {0}, missing {1, 2}");
}
