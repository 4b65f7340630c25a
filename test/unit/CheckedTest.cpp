// Checked mode (runtime/include/coll/checked.hpp) on in-process ranks:
// calls every rank agrees on run as without it; a rank that calls another
// kind, count, root, operator or type, or skips a call, makes every rank
// fail with the same text naming each rank's view; a rank that never
// calls makes the others fail with their transport's timeout, named.
#include "coll/collectives.hpp"
#include "coll/local_transport.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace coll;

namespace {

/// Runs body(comm, rank) on P checked local ranks; returns each rank's
/// error text ("" where it finished).
std::vector<std::string> errorsOf(int P, const std::function<void(Comm &, int)> &body,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  auto network = std::make_shared<LocalNetwork>(P, timeout);
  std::vector<std::string> errors(static_cast<std::size_t>(P));
  std::vector<std::thread> threads;
  for (int r = 0; r < P; ++r)
    threads.emplace_back([&, r] {
      try {
        Comm comm(std::make_unique<LocalTransport>(network, r));
        comm.setChecked(true);
        body(comm, r);
      } catch (const std::exception &e) {
        errors[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (std::thread &t : threads) t.join();
  return errors;
}

/// The schedule field of a tree plan's view.
std::string scheduleOf(Kind kind, int root) {
  char text[16];
  std::snprintf(text, sizeof text, "%08x",
                static_cast<unsigned>(Comm::keyHash(treePlanKey(kind, Tree{}, root).view())));
  return text;
}

void allreduce(Comm &comm, int count) {
  std::vector<int> send(static_cast<std::size_t>(count), comm.rank() + 1), recv(send.size());
  runTree(comm, Kind::allreduce, Tree{}, 0, send.data(), recv.data(), send.size(), Sum{});
  const int P = comm.size();
  for (int v : recv) REQUIRE(v == P * (P + 1) / 2);
}

}  // namespace

TEST_CASE("checked mode: calls the ranks agree on run as without it") {
  for (int P : {1, 2, 3, 5, 8}) {
    CAPTURE(P);
    const std::vector<std::string> errors = errorsOf(P, [](Comm &comm, int) {
      allreduce(comm, 10);
      allreduce(comm, 7);
      double x = comm.rank() == 2 ? 2.5 : 0.0;
      runTree(comm, Kind::broadcast, Tree{}, 2 % comm.size(), &x, &x, 1, NoMerge{});
      REQUIRE(x == (comm.size() > 2 ? 2.5 : 0.0));
      CHECK(comm.nextCheckedCall() == 3);  // three calls checked before
    });
    for (const std::string &e : errors) CHECK(e == "");
  }
}

TEST_CASE("checked mode: another count on one rank fails every rank, naming each view") {
  const std::vector<std::string> errors =
      errorsOf(4, [](Comm &comm, int rank) { allreduce(comm, rank == 1 ? 11 : 10); });
  const std::string schedule = scheduleOf(Kind::allreduce, 0);
  const std::string expected =
      "coll::checked (COLLC_CHECK): the ranks disagree on a collective call: ranks 0, 2, 3: call 0, "
      "allreduce of 40 B (int32, sum, schedule " + schedule + "); rank 1: call 0, allreduce of 44 B "
      "(int32, sum, schedule " + schedule + ")";
  for (const std::string &e : errors) CHECK(e == expected);
}

TEST_CASE("checked mode: another kind, root, operator or type is named") {
  const std::vector<std::string> errors = errorsOf(3, [](Comm &comm, int rank) {
    std::vector<float> data(4, 1.0f);
    std::vector<double> wide(4, 1.0);
    switch (rank) {
      case 0:
        runTree(comm, Kind::allreduce, Tree{}, 0, data.data(), data.data(), 4, Max{});
        break;
      case 1:
        runTree(comm, Kind::broadcast, Tree{}, 1, data.data(), data.data(), 4, NoMerge{});
        break;
      default:
        runTree(comm, Kind::allreduce, Tree{}, 0, wide.data(), wide.data(), 2, Max{});
    }
  });
  const std::string expected =
      "coll::checked (COLLC_CHECK): the ranks disagree on a collective call: rank 0: call 0, "
      "allreduce of 16 B (float32, max, schedule " + scheduleOf(Kind::allreduce, 0) +
      "); rank 1: call 0, broadcast of 16 B (float32, root 1, schedule " +
      scheduleOf(Kind::broadcast, 1) + "); rank 2: call 0, allreduce of 16 B (float64, max, schedule " +
      scheduleOf(Kind::allreduce, 0) + ")";
  for (const std::string &e : errors) CHECK(e == expected);
}

TEST_CASE("checked mode: a call skipped on one rank is found at the next") {
  const std::vector<std::string> errors = errorsOf(3, [](Comm &comm, int rank) {
    allreduce(comm, 2);
    if (rank != 0) allreduce(comm, 2);  // rank 0 skips its second allreduce
    int x = 0;
    runTree(comm, Kind::broadcast, Tree{}, 0, &x, &x, 1, NoMerge{});
  });
  const std::string expected =
      "coll::checked (COLLC_CHECK): the ranks disagree on a collective call: rank 0: call 1, "
      "broadcast of 4 B (int32, root 0, schedule " + scheduleOf(Kind::broadcast, 0) +
      "); ranks 1, 2: call 1, allreduce of 8 B (int32, sum, schedule " +
      scheduleOf(Kind::allreduce, 0) + ")";
  for (const std::string &e : errors) CHECK(e == expected);
}

TEST_CASE("checked mode: a rank that never calls ends the others' wait, named") {
  const std::vector<std::string> errors = errorsOf(
      2,
      [](Comm &comm, int rank) {
        if (rank == 0) allreduce(comm, 3);
      },
      std::chrono::milliseconds(200));
  CHECK(errors[0] ==
        "coll::checked (COLLC_CHECK): rank 0 at call 0, allreduce of 12 B (int32, sum, schedule " +
            scheduleOf(Kind::allreduce, 0) +
            "): coll::LocalTransport: rank 0 waited too long for rank 1's message of step 32766");
  CHECK(errors[1] == "");
}
