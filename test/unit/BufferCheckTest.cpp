// coll::checkBuffers (runtime/include/coll/collectives.hpp): a generated
// call refuses send and receive buffers that overlap outside its kind's
// in-place form, naming the overlap; disjoint buffers and each kind's
// in-place forms pass. coll::checkArguments refuses first a null buffer
// the kind reads or writes on this rank.
#include "coll/collectives.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace coll;

namespace {

/// The error checkBuffers raises ("" if none) for rank 1 of 4, root 2.
std::string refusal(Kind kind, const int *send, const int *recv, std::size_t count, int rank = 1) {
  try {
    checkBuffers("collc::f", kind, rank, 4, 2, send, recv, count);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

/// The error checkArguments raises ("" if none) for `rank` of 4, root 2.
std::string nullRefusal(Kind kind, const int *send, const int *recv, int rank) {
  try {
    checkArguments("collc::f", kind, rank, 4, 2, send, recv, 4);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("checkArguments: a null buffer the kind uses on this rank is refused") {
  std::vector<int> a(64), b(64);
  const int *none = nullptr;
  for (Kind k : {Kind::allreduce, Kind::inclusive_scan, Kind::exclusive_scan, Kind::alltoall,
                 Kind::allgather, Kind::reduce_scatter}) {
    CHECK(nullRefusal(k, none, b.data(), 1) == "collc::f: send is null with count 4");
    CHECK(nullRefusal(k, a.data(), none, 1) == "collc::f: recv is null with count 4");
    CHECK(nullRefusal(k, a.data(), b.data(), 1) == "");
  }
  // recv is the root's alone for reduce and gather; send for scatter.
  for (Kind k : {Kind::reduce, Kind::gather}) {
    CHECK(nullRefusal(k, a.data(), none, 1) == "");
    CHECK(nullRefusal(k, a.data(), none, 2) == "collc::f: recv is null with count 4");
    CHECK(nullRefusal(k, none, b.data(), 1) == "collc::f: send is null with count 4");
  }
  CHECK(nullRefusal(Kind::scatter, none, b.data(), 1) == "");
  CHECK(nullRefusal(Kind::scatter, none, b.data(), 2) == "collc::f: send is null with count 4");
  CHECK(nullRefusal(Kind::scatter, a.data(), none, 2) == "collc::f: recv is null with count 4");
  // broadcast passes its one buffer as both; a barrier has none.
  CHECK(nullRefusal(Kind::broadcast, none, none, 1) == "collc::f: buffer is null with count 4");
  CHECK(nullRefusal(Kind::broadcast, a.data(), a.data(), 1) == "");
  CHECK(nullRefusal(Kind::barrier, none, none, 1) == "");
  // Then the overlap rule, as checkBuffers.
  CHECK(nullRefusal(Kind::allreduce, a.data(), a.data() + 1, 1) ==
        "collc::f: rank 1's send buffer (4 elements) and receive buffer (4 elements) overlap by 3 "
        "elements, not in the in-place form (send == recv): MPI requires them disjoint");
}

TEST_CASE("checkBuffers: disjoint buffers and the in-place forms pass") {
  std::vector<int> a(64), b(64);
  for (Kind k : {Kind::allreduce, Kind::inclusive_scan, Kind::exclusive_scan, Kind::alltoall,
                 Kind::reduce, Kind::allgather, Kind::gather, Kind::reduce_scatter, Kind::scatter})
    CHECK(refusal(k, a.data(), b.data(), 4) == "");
  CHECK(refusal(Kind::allreduce, a.data(), a.data(), 4) == "");
  CHECK(refusal(Kind::exclusive_scan, a.data(), a.data(), 4) == "");
  CHECK(refusal(Kind::alltoall, a.data(), a.data(), 4) == "");
  CHECK(refusal(Kind::allgather, a.data() + 4, a.data(), 4) == "");       // rank 1's block
  CHECK(refusal(Kind::gather, a.data() + 8, a.data(), 4, 2) == "");       // the root's block
  CHECK(refusal(Kind::reduce_scatter, a.data(), a.data(), 4) == "");      // MPI_IN_PLACE
  CHECK(refusal(Kind::reduce_scatter, a.data(), a.data() + 4, 4) == "");  // recv inside send
  CHECK(refusal(Kind::scatter, a.data(), a.data() + 8, 4, 2) == "");
  // Touching ends are not an overlap.
  CHECK(refusal(Kind::allreduce, a.data(), a.data() + 4, 4) == "");
  CHECK(refusal(Kind::allreduce, a.data() + 4, a.data(), 4) == "");
  // Ranks that do not use a buffer: a non-root's reduce recv, gather recv,
  // scatter send; broadcast and barrier have one buffer or none.
  CHECK(refusal(Kind::reduce, a.data(), a.data() + 1, 4) == "");
  CHECK(refusal(Kind::gather, a.data(), a.data() + 1, 4) == "");
  CHECK(refusal(Kind::scatter, a.data() + 1, a.data(), 4) == "");
  CHECK(refusal(Kind::broadcast, a.data(), a.data() + 1, 4) == "");
}

TEST_CASE("checkBuffers: any other overlap is refused, naming it and the form") {
  std::vector<int> a(64);
  CHECK(refusal(Kind::allreduce, a.data(), a.data() + 1, 4) ==
        "collc::f: rank 1's send buffer (4 elements) and receive buffer (4 elements) overlap by 3 "
        "elements, not in the in-place form (send == recv): MPI requires them disjoint");
  CHECK(refusal(Kind::inclusive_scan, a.data() + 3, a.data(), 4) ==
        "collc::f: rank 1's send buffer (4 elements) and receive buffer (4 elements) overlap by 1 "
        "element, not in the in-place form (send == recv): MPI requires them disjoint");
  CHECK(refusal(Kind::alltoall, a.data(), a.data() + 2, 4) ==
        "collc::f: rank 1's send buffer (16 elements) and receive buffer (16 elements) overlap by "
        "14 elements, not in the in-place form (send == recv): MPI requires them disjoint");
  CHECK(refusal(Kind::reduce, a.data(), a.data() + 2, 4, 2) ==
        "collc::f: rank 2's send buffer (4 elements) and receive buffer (4 elements) overlap by 2 "
        "elements, not in the in-place form (send == recv): MPI requires them disjoint");
  // send at another block than the rank's own, or inside no block.
  CHECK(refusal(Kind::allgather, a.data(), a.data(), 4) ==
        "collc::f: rank 1's send buffer (4 elements) and receive buffer (16 elements) overlap by 4 "
        "elements, not in the in-place form (send == recv + rank * count): MPI requires them "
        "disjoint");
  CHECK(refusal(Kind::gather, a.data() + 9, a.data(), 4, 2) ==
        "collc::f: rank 2's send buffer (4 elements) and receive buffer (16 elements) overlap by 4 "
        "elements, not in the in-place form (send == recv + rank * count): MPI requires them "
        "disjoint");
  // recv starting before send and reaching into it.
  CHECK(refusal(Kind::reduce_scatter, a.data() + 2, a.data(), 4) ==
        "collc::f: rank 1's send buffer (16 elements) and receive buffer (4 elements) overlap by 2 "
        "elements, not in the in-place form (recv inside send): MPI requires them disjoint");
  CHECK(refusal(Kind::scatter, a.data() + 1, a.data(), 4, 2) ==
        "collc::f: rank 2's send buffer (16 elements) and receive buffer (4 elements) overlap by 3 "
        "elements, not in the in-place form (recv inside send): MPI requires them disjoint");
}

TEST_CASE("overlapBytes: the bytes two ranges share, 0 when they only touch") {
  char m[32];
  CHECK(overlapBytes(m, 8, m + 8, 8) == 0);   // adjacent
  CHECK(overlapBytes(m + 8, 8, m, 8) == 0);
  CHECK(overlapBytes(m, 8, m + 7, 8) == 1);
  CHECK(overlapBytes(m + 7, 8, m, 8) == 1);
  CHECK(overlapBytes(m, 32, m + 4, 8) == 8);  // one inside the other
  CHECK(overlapBytes(m + 4, 8, m, 32) == 8);
  CHECK(overlapBytes(m, 16, m, 16) == 16);
  CHECK(overlapBytes(m + 4, 0, m, 32) == 0);  // empty ranges share nothing
  CHECK(overlapBytes(m, 32, m + 4, 0) == 0);
}

TEST_CASE("bufferRule: every kind's buffers are MPI's, and its in-place form fits them") {
  // (kind, send, recv, root-only side, in-place form), as MPI's calls take them.
  struct Expected {
    Kind kind;
    Extent send, recv;
    bool sendAtRootOnly, recvAtRootOnly;
    InPlace inPlace;
  };
  const Expected table[] = {
      {Kind::allreduce, Extent::block, Extent::block, false, false, InPlace::sendIsRecv},
      {Kind::reduce_scatter, Extent::blocks, Extent::block, false, false, InPlace::recvInSend},
      {Kind::allgather, Extent::block, Extent::blocks, false, false, InPlace::sendIsOwnBlock},
      {Kind::alltoall, Extent::blocks, Extent::blocks, false, false, InPlace::sendIsRecv},
      {Kind::broadcast, Extent::block, Extent::none, false, false, InPlace::none},
      {Kind::reduce, Extent::block, Extent::block, false, true, InPlace::sendIsRecv},
      {Kind::gather, Extent::block, Extent::blocks, false, true, InPlace::sendIsOwnBlock},
      {Kind::scatter, Extent::blocks, Extent::block, true, false, InPlace::recvInSend},
      {Kind::inclusive_scan, Extent::block, Extent::block, false, false, InPlace::sendIsRecv},
      {Kind::exclusive_scan, Extent::block, Extent::block, false, false, InPlace::sendIsRecv},
      {Kind::barrier, Extent::none, Extent::none, false, false, InPlace::none},
  };
  int kinds = 0;
#define COLLC_COUNT_KIND(kind) ++kinds;
  COLLC_KINDS(COLLC_COUNT_KIND)
#undef COLLC_COUNT_KIND
  REQUIRE(kinds == static_cast<int>(sizeof table / sizeof *table));
  for (const Expected &e : table) {
    CAPTURE(kindName(e.kind));
    const BufferRule rule = bufferRule(e.kind);
    CHECK(rule.send == e.send);
    CHECK(rule.recv == e.recv);
    CHECK(rule.sendAtRootOnly == e.sendAtRootOnly);
    CHECK(rule.recvAtRootOnly == e.recvAtRootOnly);
    CHECK(rule.inPlace == e.inPlace);
    // Every kind tells the header's reader what it takes.
    CHECK(std::string(rule.doc).size() > 0);
  }
  CHECK(elementsOf(Extent::none, 4, 3) == 0);
  CHECK(elementsOf(Extent::block, 4, 3) == 3);
  CHECK(elementsOf(Extent::blocks, 4, 3) == 12);
}
