// The one executor (runtime/include/coll/executor.hpp) on in-process ranks
// (coll::LocalTransport): parts that start elsewhere, local merges, steps
// run in one exchange, and the errors it names.
#include "coll/collectives.hpp"
#include "coll/executor.hpp"
#include "coll/local_transport.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace coll;

namespace {

struct Add {
  int operator()(int a, int b) const { return a + b; }
};

/// Runs body(comm) on P local ranks and returns the first error's text,
/// or "" when every rank finished.
std::string errorOf(int P, const std::function<void(Comm &)> &body) {
  try {
    runLocal(P, body, std::chrono::seconds(10));
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

/// A plan of `steps` steps for the test to fill.
Plan blankPlan(int P, int rank, int parts, int steps = 1) {
  Plan plan;
  plan.ranks = P;
  plan.rank = rank;
  plan.parts = parts;
  plan.numSteps = steps;
  return plan;
}

} // namespace

TEST_CASE("a part that starts at `initial` is read there and ends in data") {
  // Rank 0 sends part 0 (from its initial) to rank 1, which copies it into
  // part 0; rank 0's part 1 is never written and is copied to data at the end.
  std::vector<std::vector<int>> data(2, std::vector<int>(4, -1));
  const std::vector<int> source = {10, 11, 20, 21};
  REQUIRE(errorOf(2, [&](Comm &comm) {
            const int r = comm.rank();
            Plan plan = blankPlan(2, r, 2);
            plan.steps.resize(1);
            if (r == 0)
              plan.steps[0].sends.push_back({1, {0}, {0}});
            else
              plan.steps[0].receives.push_back({0, {0}, {0}});
            std::vector<PartView<int>> parts{
                {data[r].data(), 2, r == 0 ? source.data() : nullptr},
                {data[r].data() + 2, 2, r == 0 ? source.data() + 2 : nullptr}};
            execute(comm.transport(), plan, parts, Add{});
          }) == "");
  CHECK(data[0] == std::vector<int>{10, 11, 20, 21});
  CHECK(data[1] == std::vector<int>{10, 11, -1, -1});
}

TEST_CASE("a merge into a part still at `initial` starts from its initial value") {
  std::vector<std::vector<int>> data(2, std::vector<int>(1, -1));
  const int initial[2] = {5, 7};
  REQUIRE(errorOf(2, [&](Comm &comm) {
            const int r = comm.rank();
            Plan plan = blankPlan(2, r, 1);
            plan.steps.resize(1);
            plan.steps[0].action = Action::combine;
            if (r == 1)
              plan.steps[0].sends.push_back({0, {0}, {0}});
            else
              plan.steps[0].receives.push_back({1, {0}, {0}});
            std::vector<PartView<int>> parts{{data[r].data(), 1, &initial[r]}};
            execute(comm.transport(), plan, parts, Add{});
          }) == "");
  CHECK(data[0][0] == 12);
  CHECK(data[1][0] == 7);
}

TEST_CASE("a receive from the rank itself is a local merge") {
  std::vector<int> values = {3, 4};
  REQUIRE(errorOf(1, [&](Comm &comm) {
            Plan plan = blankPlan(1, 0, 2);
            plan.steps.resize(1);
            plan.steps[0].action = Action::fold;
            plan.steps[0].receives.push_back({0, {0}, {1}});
            std::vector<PartView<int>> parts{{&values[0], 1}, {&values[1], 1}};
            Recording recording;
            execute(comm.transport(), plan, parts, Add{}, &recording);
            CHECK(recording.program("local") ==
                  "coll.program @local attributes {kind = #coll.kind<allreduce>, "
                  "num_parts = 2 : i64, num_ranks = 1 : i64, op = #coll.op<custom>} {\n"
                  "  coll.step \"step\" fold {0 -> 0 [1] into [0]}\n"
                  "}\n");
          }) == "");
  CHECK(values == std::vector<int>{7, 4});
}

TEST_CASE("steps run in one exchange must not touch what an earlier one writes") {
  // Step 0 copies rank 1's part 0 into rank 0's part 0; step 1 (in the same
  // exchange) sends rank 0's part 0 on: sequentially it would send the new
  // value, in one exchange the old one, so the executor refuses.
  std::string error = errorOf(2, [&](Comm &comm) {
    const int r = comm.rank();
    Plan plan = blankPlan(2, r, 1, 2);
    plan.steps.resize(2);
    plan.steps[1].step = 1;  // in the exchange of step 0
    if (r == 1) {
      plan.steps[0].sends.push_back({0, {0}, {0}});
      plan.steps[1].receives.push_back({0, {0}, {0}});
    } else {
      plan.steps[0].receives.push_back({1, {0}, {0}});
      plan.steps[1].sends.push_back({1, {0}, {0}});
    }
    int value = r;
    std::vector<PartView<int>> parts{{&value, 1}};
    execute(comm.transport(), plan, parts, Add{});
  });
  CHECK(error == "coll::execute: step 1 of rank 0 touches part 0, which an earlier step of "
                 "its group writes");
}

TEST_CASE("in one exchange, a part sent by one step is received by the next") {
  // Rank 0 sends its part 0 in step 0 and receives a new part 0 in step 1,
  // both in one exchange: the send reads the old value, the receive must
  // still be filed (it was staged, since the group sends that part).
  std::vector<std::vector<int>> values = {{10, 11}, {20, 21}};
  REQUIRE(errorOf(2, [&](Comm &comm) {
            const int r = comm.rank();
            Plan plan = blankPlan(2, r, 2, 2);
            plan.steps.resize(2);
            plan.steps[1].step = 1;  // in the exchange of step 0
            if (r == 0) {
              plan.steps[0].sends.push_back({1, {0}, {1}});
              plan.steps[1].receives.push_back({1, {0}, {0}});
            } else {
              plan.steps[0].receives.push_back({0, {1}, {0}});
              plan.steps[1].sends.push_back({0, {0}, {0}});
            }
            std::vector<PartView<int>> parts{{&values[r][0], 1}, {&values[r][1], 1}};
            execute(comm.transport(), plan, parts, Add{});
          }) == "");
  CHECK(values[0] == std::vector<int>{20, 11});
  CHECK(values[1] == std::vector<int>{20, 10});
}

TEST_CASE("a Trivance phase's two messages run in one exchange") {
  // P = 3: one phase; every rank ends with the sum, and the recording
  // holds the program's three steps.
  std::vector<int> values = {1, 2, 4};
  auto recording = std::make_shared<Recording>();
  REQUIRE(errorOf(3, [&](Comm &comm) {
            comm.setRecording(recording);
            int v = values[static_cast<std::size_t>(comm.rank())];
            runTrivance(comm, &v, &values[static_cast<std::size_t>(comm.rank())], 1, Add{});
          }) == "");
  CHECK(values == std::vector<int>{7, 7, 7});
  CHECK(recording->program("trivance") ==
        "coll.program @trivance attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, "
        "num_scratch_parts = 1 : i64, num_ranks = 3 : i64, op = #coll.op<custom>} {\n"
        "  coll.step \"phase 0\" copy {0 -> 1 [0] into [1], 1 -> 2 [0] into [1], "
        "2 -> 0 [0] into [1]}\n"
        "  coll.step \"phase 0\" fold {0 -> 2 [0], 1 -> 0 [0], 2 -> 1 [0]}\n"
        "  coll.step \"phase 0\" fold {0 -> 0 [1] into [0], 1 -> 1 [1] into [0], "
        "2 -> 2 [1] into [0]}\n"
        "}\n");
}

TEST_CASE("the executor names a plan for another rank or layout") {
  // Only rank 0 runs the wrong plan (when both did, whichever failed first
  // was reported: the text named rank 0 or rank 1 by chance).
  CHECK(errorOf(2, [&](Comm &comm) {
          if (comm.rank() != 0)
            return;
          Plan plan = blankPlan(3, comm.rank(), 1);
          int v = 0;
          execute(comm.transport(), plan, std::vector<PartView<int>>{{&v, 1}}, Add{});
        }) == "coll::execute: the plan is for rank 0 of 3, the transport is rank 0 of 2");
  CHECK(errorOf(1, [&](Comm &comm) {
          Plan plan = blankPlan(1, comm.rank(), 2);
          int v = 0;
          execute(comm.transport(), plan, std::vector<PartView<int>>{{&v, 1}}, Add{});
        }) == "coll::execute: the plan has 2 parts, the layout 1");
}

// segments = S: coll::pipelinePlan runs segment j's step t - j in
// super-step t, one exchange per super-step. The chain broadcast on 3 ranks
// (0 -> 1, then 1 -> 2) in 2 segments, seen from rank 1.
TEST_CASE("pipelinePlan: super-step t runs step t - j of segment j") {
  const Tree chain{TreeShape::chain, 2, 16};
  Plan plan = pipelinePlan(treePlan(Kind::broadcast, chain, 3, 0, 1), 2);
  CHECK(plan.parts == 2);
  CHECK(plan.scratchParts == 0);
  CHECK(plan.numSteps == 4);
  REQUIRE(plan.steps.size() == 4);
  // Super-step 0: segment 0's step 0; super-step 1: segment 0's step 1 and
  // segment 1's step 0, in one exchange; super-step 2: segment 1's step 1.
  const int exchange[4] = {0, 1, 1, 3};
  for (int s = 0; s < 4; ++s) {
    CAPTURE(s);
    CHECK(plan.steps[s].step == s);
    CHECK(plan.steps[s].exchange == exchange[s]);
    CHECK(phaseOf(plan, plan.steps[s]) == "broadcast");
  }
  auto only = [](const std::vector<PlanMessage> &list) {
    REQUIRE(list.size() == 1);
    return list[0];
  };
  CHECK(plan.steps[0].sends.empty());
  CHECK(only(plan.steps[0].receives).peer == 0);
  CHECK(only(plan.steps[0].receives).parts == std::vector<int>{0});
  CHECK(plan.steps[1].receives.empty());
  CHECK(only(plan.steps[1].sends).peer == 2);
  CHECK(only(plan.steps[1].sends).parts == std::vector<int>{0});
  CHECK(only(plan.steps[2].receives).parts == std::vector<int>{1});
  CHECK(only(plan.steps[3].sends).parts == std::vector<int>{1});
}

// A plan lists only the rank's own steps: the chain broadcast's root on 5
// ranks sends once in 4 steps; in 3 segments it sends segment j in
// super-step j (steps 0, 2 and 5 of 12; super-step t starts at step
// t (t + 1) / 2 while t < 3).
TEST_CASE("pipelinePlan: a rank's plan lists its own steps, numbered in the program") {
  const Tree chain{TreeShape::chain, 2, 16};
  const Plan tree = treePlan(Kind::broadcast, chain, 5, 0, 0);
  CHECK(tree.numSteps == 4);
  REQUIRE(tree.steps.size() == 1);
  CHECK(tree.steps[0].step == 0);
  Plan plan = pipelinePlan(tree, 3);
  CHECK(plan.numSteps == 12);
  REQUIRE(plan.steps.size() == 3);
  const int number[3] = {0, 2, 5}, exchange[3] = {0, 1, 3};
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    CHECK(plan.steps[j].step == number[j]);
    CHECK(plan.steps[j].exchange == exchange[j]);
    REQUIRE(plan.steps[j].sends.size() == 1);
    CHECK(plan.steps[j].sends[0].peer == 1);
    CHECK(plan.steps[j].sends[0].parts == std::vector<int>{j});
  }
  // The last rank receives segment j in super-step j + 3, as its first
  // step, the lowest segment running (super-steps 3, 4 and 5 are steps
  // 6..8, 9..10 and 11).
  plan = pipelinePlan(treePlan(Kind::broadcast, chain, 5, 0, 4), 3);
  REQUIRE(plan.steps.size() == 3);
  const int last[3] = {6, 9, 11};
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    CHECK(plan.steps[j].step == last[j]);
    REQUIRE(plan.steps[j].receives.size() == 1);
    CHECK(plan.steps[j].receives[0].parts == std::vector<int>{j});
  }
}

TEST_CASE("the executor names steps out of order and exchanges that interleave") {
  auto run = [](const std::function<void(Plan &)> &edit) {
    return errorOf(1, [&](Comm &comm) {
      Plan plan = blankPlan(1, 0, 2, 3);
      plan.steps.resize(2);
      for (PlanStep &step : plan.steps)
        step.receives.push_back({0, {0}, {1}});
      plan.steps[1].step = plan.steps[1].exchange = 1;
      edit(plan);
      int v[2] = {1, 2};
      execute(comm.transport(), plan, std::vector<PartView<int>>{{&v[0], 1}, {&v[1], 1}},
              Add{});
    });
  };
  CHECK(run([](Plan &) {}) == "");
  CHECK(run([](Plan &p) { p.steps[1].step = 0; }) ==
        "coll::execute: rank 0's plan lists step 0 after step 0");
  CHECK(run([](Plan &p) { p.steps[1].step = 3; }) ==
        "coll::execute: rank 0's plan has step 3 of a program of 3 steps");
  CHECK(run([](Plan &p) { p.steps[0].exchange = 1; }) ==
        "coll::execute: rank 0's step 0 runs in the exchange of step 1");
  CHECK(run([](Plan &p) { p.steps[1].exchange = 0 - 1; }) ==
        "coll::execute: rank 0's step 1 runs in the exchange of step -1");
}

TEST_CASE("a cached plan is checked once, when it is made, before anything moves") {
  // checkedPlan (what every collective's plan comes through) refuses a bad
  // plan at the first call with the executor's message; a good one is
  // marked checked, and the same entry comes back on the next call.
  int made = 0;
  auto bad = [&] {
    ++made;
    Plan plan = blankPlan(1, 0, 2, 3);
    plan.steps.resize(2);
    for (PlanStep &step : plan.steps) step.receives.push_back({0, {0}, {1}});
    plan.steps[1].step = 0;
    return plan;
  };
  CHECK(errorOf(1, [&](Comm &comm) { checkedPlan(comm, "bad", bad); }) ==
        "coll::execute: rank 0's plan lists step 0 after step 0");
  CHECK(made == 1);
  CHECK(errorOf(1, [&](Comm &comm) {
          const Plan &first = checkedPlan(comm, "doubling", [] { return doublingPlan(1, 0); });
          const Plan &again = checkedPlan(comm, "doubling", [] {
            throw Error("made twice");
            return Plan{};
          });
          CHECK(first.checked);
          CHECK(&first == &again);
        }) == "");
  // A plan put in the cache by other means stays unchecked: the executor
  // checks it on every call.
  CHECK(errorOf(1, [&](Comm &comm) {
          const Plan &wrong = comm.plan<Plan>("wrong", bad);
          CHECK_FALSE(wrong.checked);
          int v[2] = {1, 2};
          execute(comm.transport(), wrong, std::vector<PartView<int>>{{&v[0], 1}, {&v[1], 1}}, Add{});
        }) == "coll::execute: rank 0's plan lists step 0 after step 0");
}

// Runs: the segmented chain allreduce on LocalTransport equals the sum,
// element by element, for counts below, at and above S.
TEST_CASE("runTree with segments: the pipelined chain allreduce") {
  const Tree chain{TreeShape::chain, 2, 16};
  for (int P : {1, 2, 5}) {
    for (std::size_t count : {1u, 3u, 4u, 11u}) {
      CAPTURE(P);
      CAPTURE(count);
      std::vector<std::vector<long>> recv(P, std::vector<long>(count, -1));
      runLocal(P, [&](Comm &comm) {
        std::vector<long> send(count);
        for (std::size_t i = 0; i < count; ++i)
          send[i] = 100 * comm.rank() + static_cast<long>(i);
        runTree(comm, Kind::allreduce, chain, 0, send.data(),
                recv[comm.rank()].data(), count,
                [](long a, long b) { return a + b; }, 4);
      });
      for (int r = 0; r < P; ++r)
        for (std::size_t i = 0; i < count; ++i)
          CHECK(recv[r][i] == 100 * P * (P - 1) / 2 + P * static_cast<long>(i));
    }
  }
}

// segments = 1 is decided inline (segmentsUsed's fast path); every other
// value goes through the checks.
TEST_CASE("runTree and runGroup name segments they cannot pipeline") {
  const Tree chain{TreeShape::chain, 2, 16};
  int v = 1, out = 0;
  CHECK(errorOf(2, [&](Comm &comm) {
          runTree(comm, Kind::allreduce, chain, 0, &v, &out, 1, Add{}, 0);
        }) == "coll::runTree: segments must be >= 1, got 0");
  CHECK(errorOf(2, [&](Comm &comm) {
          runGroup(comm, Kind::allreduce, GroupSchedule::linear, CyclicGroup(2), &v, &out, 1,
                   Add{}, -3);
        }) == "coll::runGroup: segments must be >= 1, got -3");
  std::vector<int> gathered(2, 0);
  CHECK(errorOf(2, [&](Comm &comm) {
          runTree(comm, Kind::allgather, chain, 0, &v, gathered.data(), 2, NoMerge{}, 2);
        }) == "coll::runTree: segments pipeline broadcast, reduce and allreduce, not allgather");
  CHECK(errorOf(2, [&](Comm &comm) {
          runGroup(comm, Kind::allgather, GroupSchedule::linear, CyclicGroup(2), &v,
                   gathered.data(), 2, NoMerge{}, 2);
        }) == "coll::runGroup: segments pipeline the allreduce, not allgather");
  // One element cannot be cut: 2 segments of it run as one, as asked of
  // any kind.
  std::vector<std::vector<int>> got(2, std::vector<int>(2, -1));
  CHECK(errorOf(2, [&](Comm &comm) {
          const int mine = 10 + comm.rank();
          runGroup(comm, Kind::allgather, GroupSchedule::linear, CyclicGroup(2), &mine,
                   got[static_cast<std::size_t>(comm.rank())].data(), 1, NoMerge{}, 2);
        }) == "");
  CHECK(got == std::vector<std::vector<int>>{{10, 11}, {10, 11}});
}

TEST_CASE("a recording survives encode and mergeEncoded") {
  std::vector<int> values = {1, 2, 4};
  std::vector<std::shared_ptr<Recording>> ranks(3);
  for (auto &r : ranks)
    r = std::make_shared<Recording>();
  auto shared = std::make_shared<Recording>();
  REQUIRE(errorOf(3, [&](Comm &comm) {
            comm.setRecording(ranks[static_cast<std::size_t>(comm.rank())]);
            int v = values[static_cast<std::size_t>(comm.rank())];
            runTrivance(comm, &v, &values[static_cast<std::size_t>(comm.rank())], 1, Add{});
          }) == "");
  Recording merged;
  for (const auto &r : ranks) {
    std::vector<std::int64_t> record = r->encode();
    merged.mergeEncoded(record.data(), record.size());
    shared->merge(*r);
  }
  CHECK(merged.program("t") == shared->program("t"));
  CHECK(merged.problems().empty());
  CHECK(merged.program("t").find("coll.step \"phase 0\" fold {0 -> 2 [0], 1 -> 0 [0], "
                                 "2 -> 1 [0]}") != std::string::npos);
  std::vector<std::int64_t> record = ranks[0]->encode();
  record.push_back(0);
  Recording broken;
  CHECK_THROWS_WITH(broken.mergeEncoded(record.data(), record.size()),
                    "coll::Recording::mergeEncoded: 1 values left over");
  record.resize(3); // kind, operator, ranks
  CHECK_THROWS_WITH(broken.mergeEncoded(record.data(), record.size()),
                    "coll::Recording::mergeEncoded: the record ends early");
  record = ranks[0]->encode();
  record[6] = 1000; // the number of send keys
  CHECK_THROWS_WITH(broken.mergeEncoded(record.data(), record.size()),
                    doctest::Contains("coll::Recording::mergeEncoded: a count of 1000 in a record of"));
  record = ranks[0]->encode();
  record[1] = 6; // no operator
  CHECK_THROWS_WITH(broken.mergeEncoded(record.data(), record.size()),
                    "coll::Recording::mergeEncoded: operator 6");
}

TEST_CASE("Comm::recordTo: every call on the Comm as one program in one file") {
  const std::string file = "collc-unit-record.mlir";
  std::remove(file.c_str());
  const Tree binomial{TreeShape::binomial, 2, 16};
  for (int P : {1, 5}) {
    CAPTURE(P);
    auto shared = std::make_shared<Recording>();
    // Per rank: the allreduce's sum, the broadcast value, the calls recorded.
    std::vector<std::vector<int>> seen(P);
    REQUIRE(errorOf(P, [&](Comm &comm) {
              comm.recordTo(file);
              int v = comm.rank() + 1, sum = 0;
              runTree(comm, Kind::allreduce, binomial, 0, &v, &sum, 1, Add{});
              comm.setRecording(shared); // the second call also here
              runTree(comm, Kind::broadcast, binomial, 0, &v, &v, 1, Add{});
              seen[static_cast<std::size_t>(comm.rank())] = {sum, v, comm.callsRecorded()};
            }) == "");
    for (const std::vector<int> &s : seen)
      CHECK(s == std::vector<int>{P * (P + 1) / 2, 1, 2});
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string header = "// collc recording: call 1 on " + std::to_string(P) + " ranks\n";
    // The file is this run's (replaced by its first call): two programs.
    CHECK(text.str().find("// collc recording: call 0 on " + std::to_string(P) + " ranks\n"
                          "coll.program @allreduce_0 ") == 0);
    CHECK(text.str().find(header + shared->program("broadcast_1")) != std::string::npos);
    CHECK(text.str().find("call 2") == std::string::npos);
  }
  std::remove(file.c_str());
  CHECK(errorOf(2, [&](Comm &comm) {
          comm.recordTo("/nonexistent-dir/x.mlir");
          int v = 1;
          runTree(comm, Kind::broadcast, binomial, 0, &v, &v, 1, Add{});
        }) == "coll: cannot write the recording to '/nonexistent-dir/x.mlir'");
}

TEST_CASE("runGroup and runButterfly name a group that is not the communicator's") {
  int v = 1, out = 0;
  CHECK(errorOf(6, [&](Comm &comm) {
          runGroup(comm, Kind::allreduce, GroupSchedule::butterfly, XorGroup(6), &v, &out, 1,
                   Add{});
        }) == "coll::runGroup: the group of size 6 is not well formed (xor needs a "
              "power-of-two size, a table group its table)");
  CHECK(errorOf(3, [&](Comm &comm) {
          runButterfly(comm, 1, TableGroup(3, nullptr), &v, &out, 1, Add{});
        }) == "coll::runButterfly: the group of size 3 is not well formed (xor needs a "
              "power-of-two size, a table group its table)");
  CHECK(errorOf(3, [&](Comm &comm) {
          runGroup(comm, Kind::allreduce, GroupSchedule::linear, CyclicGroup(4), &v, &out, 1,
                   Add{});
        }) == "coll::runGroup: group size 4 does not match communicator size 3");
}

// A table group's plans are cached under its table's contents: a copy of
// the table elsewhere finds the same plan (the recorded execution's mutant
// hook reaches a header's table so), another table does not.
TEST_CASE("TableGroup keys its plans by the table, not its address") {
  const std::vector<int> cyclic3 = {0, 1, 2, 1, 2, 0, 2, 0, 1};
  const std::vector<int> copy = cyclic3;
  const std::vector<int> other = {0, 1, 2, 2, 0, 1, 1, 2, 0};  // rows 1 and 2 swapped
  const TableGroup a(3, cyclic3.data()), b(3, copy.data()), c(3, other.data());
  CHECK(a.planKey() == b.planKey());
  CHECK(a.planKey() != c.planKey());
  CHECK(groupPlanKey(Kind::allreduce, GroupSchedule::linear, a).view() ==
        groupPlanKey(Kind::allreduce, GroupSchedule::linear, b).view());
  // One Comm: the plan made for `a` is the one found for `b`.
  REQUIRE(errorOf(3, [&](Comm &comm) {
            int made = 0;
            auto make = [&] {
              ++made;
              return groupPlan(Kind::allreduce, groupMoves(GroupSchedule::linear, Kind::allreduce, 3),
                               a, 3, comm.rank());
            };
            const Plan &first =
                comm.plan<Plan>(groupPlanKey(Kind::allreduce, GroupSchedule::linear, a).view(), make);
            const Plan &second =
                comm.plan<Plan>(groupPlanKey(Kind::allreduce, GroupSchedule::linear, b).view(), make);
            CHECK(&first == &second);
            CHECK(made == 1);
          }) == "");
}

// A recording names the operator it ran with: the named ones by name, a
// callable of the caller's as custom, and coll::InRankOrder (what the
// header of a `custom noncommutative` spec passes) as noncommutative.
TEST_CASE("a recording names the operator the run merged with") {
  auto opOf = [](auto op) {
    auto recording = std::make_shared<Recording>();
    REQUIRE(errorOf(3, [&](Comm &comm) {
              comm.setRecording(recording);
              int v = comm.rank() + 1, out = 0;
              runGroup(comm, Kind::allreduce, GroupSchedule::linear, CyclicGroup(3), &v, &out, 1,
                       op);
            }) == "");
    std::string text = recording->program("p");
    size_t at = text.find("op = ");
    return text.substr(at, text.find('}', at) - at);
  };
  CHECK(opOf(Sum{}) == "op = #coll.op<sum>");
  CHECK(opOf(Max{}) == "op = #coll.op<max>");
  CHECK(opOf(Min{}) == "op = #coll.op<min>");
  CHECK(opOf(Prod{}) == "op = #coll.op<prod>");
  CHECK(opOf(Add{}) == "op = #coll.op<custom>");
  CHECK(opOf(inRankOrder(Add{})) == "op = #coll.op<custom>, noncommutative");
}

// The Comm's plan cache: each of many keys (more than the first table
// holds, so it grows) finds the plan made for it, made once; keys that
// differ in one byte or in length are other plans; a key asked for as
// another type and a key over kMaxPlanKey bytes are named.
TEST_CASE("Comm::plan finds each of many plans by its key") {
  REQUIRE(errorOf(1, [&](Comm &comm) {
            int made = 0;
            std::vector<const int *> first;
            auto keyOf = [](int i) { return "plan-" + std::to_string(i) + std::string(i % 40, 'k'); };
            for (int i = 0; i < 300; ++i)
              first.push_back(&comm.plan<int>(keyOf(i), [&] { return ++made, i; }));
            for (int i = 299; i >= 0; --i) {
              const int &again = comm.plan<int>(keyOf(i), [&] { return ++made, -1; });
              CHECK(&again == first[static_cast<std::size_t>(i)]);
              CHECK(again == i);
            }
            CHECK(made == 300);
            CHECK(keyOf(2) == "plan-2kk");
            CHECK(comm.plan<int>("plan-2k", [] { return 7; }) == 7);   // one byte shorter
            CHECK(comm.plan<int>("plan-2kj", [] { return 8; }) == 8);  // one byte differs
            CHECK(comm.plan<int>(keyOf(2), [] { return -1; }) == 2);
            const std::string longest(Comm::kMaxPlanKey, 'x');
            CHECK(comm.plan<int>(longest, [] { return 9; }) == 9);
          }) == "");
  CHECK(errorOf(1, [](Comm &comm) {
          comm.plan<int>("a key", [] { return 1; });
          comm.plan<double>("a key", [] { return 1.0; });
        }) == "coll::Comm::plan: 'a key' holds another type of plan");
  CHECK(errorOf(1, [](Comm &comm) {
          comm.plan<int>(std::string(Comm::kMaxPlanKey + 1, 'x'), [] { return 1; });
        }) == "coll::Comm::plan: the key '" + std::string(Comm::kMaxPlanKey + 1, 'x') +
                  "' is longer than 64 bytes");
}
