// coll::ShmChannels between threads of one process (the MPI transport maps
// the same regions across processes): exact bytes across fragments and
// scattered segments, flow control when a message outgrows the channel,
// and the sizes and tags a receiver sees when the sender disagrees.

#include "coll/shm_channels.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using coll::ShmChannels;

// One region per rank, formatted, and each rank's channels over them.
struct Node {
  explicit Node(int ranks, ShmChannels::Shape shape) : shape(shape) {
    for (int r = 0; r < ranks; ++r) {
      memory.emplace_back(new std::uint64_t[ShmChannels::regionBytes(ranks, shape) / 8 + 1]);
      ShmChannels::format(memory.back().get(), ranks, shape);
    }
    std::vector<void*> regions;
    std::vector<int> nodeRankOf;
    for (auto& m : memory) {
      nodeRankOf.push_back(static_cast<int>(regions.size()));
      regions.push_back(m.get());
    }
    for (int r = 0; r < ranks; ++r) channels.emplace_back(regions, r, nodeRankOf, shape);
  }
  ShmChannels::Shape shape;
  std::vector<std::unique_ptr<std::uint64_t[]>> memory;
  std::vector<ShmChannels> channels;
};

// The byte pattern rank `from` sends in message `m`.
unsigned char pattern(int from, int m, std::size_t i) {
  return static_cast<unsigned char>(31 * from + 7 * m + 3 * i + 1);
}

// Cuts `buffer` into segments of `piece` bytes (the last one shorter).
template <class Segment, class Byte>
std::vector<Segment> cut(Byte* buffer, std::size_t bytes, std::size_t piece) {
  std::vector<Segment> segments;
  for (std::size_t at = 0; at < bytes; at += piece)
    segments.push_back({buffer + at, std::min(piece, bytes - at)});
  if (segments.empty()) segments.push_back({buffer, 0});
  return segments;
}

// Rank `self` sends message m of sizes[m] bytes to `peer` and receives the
// peer's message m, of sizes[m] bytes, into sizes[m] + extra bytes, both
// at once, in order; returns what each receive saw (exact: the bytes that
// fit are the peer's).
struct Seen {
  std::size_t total;
  std::uint32_t tag;
  bool exact;
};
std::vector<Seen> talk(ShmChannels& channels, int self, int peer, const std::vector<std::size_t>& sizes,
                       std::size_t sendPiece, std::size_t receivePiece, long extra = 0) {
  std::vector<Seen> seen;
  for (std::size_t m = 0; m < sizes.size(); ++m) {
    std::vector<unsigned char> out(sizes[m]), in(static_cast<std::size_t>(static_cast<long>(sizes[m]) + extra), 0);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = pattern(self, static_cast<int>(m), i);
    const auto sendSegments = cut<coll::SendSegment>(out.data(), out.size(), sendPiece);
    const auto receiveSegments = cut<coll::RecvSegment>(in.data(), in.size(), receivePiece);
    ShmChannels::Send send;
    send.peer = peer;
    send.segments = sendSegments.data();
    send.numSegments = sendSegments.size();
    send.bytes = out.size();
    send.tag = static_cast<std::uint32_t>(100 + m);
    ShmChannels::Receive receive;
    receive.peer = peer;
    receive.segments = receiveSegments.data();
    receive.numSegments = receiveSegments.size();
    receive.expected = in.size();
    while (!send.done || !receive.done) {
      if (!send.done) channels.progress(send);
      if (!receive.done) channels.progress(receive);
      std::this_thread::yield();
    }
    bool exact = true;
    for (std::size_t i = 0; i < std::min(sizes[m], in.size()); ++i)
      exact &= in[i] == pattern(peer, static_cast<int>(m), i);
    seen.push_back({receive.total, receive.tag, exact});
  }
  return seen;
}

}  // namespace

TEST_CASE("ShmChannels: exact bytes across fragments, segments and a full channel") {
  ShmChannels::Shape shape;
  shape.slots = 2;  // a 3-fragment message must wait for the reader
  shape.slotBytes = 128;
  Node node(2, shape);
  const std::size_t payload = node.channels[0].payloadBytes();
  CHECK(payload == 128 - 24);
  const std::vector<std::size_t> sizes{0, 1, 8, payload - 1, payload, payload + 1, 5 * payload + 3, 10000};
  std::vector<Seen> seen0, seen1;
  std::thread other([&] { seen1 = talk(node.channels[1], 1, 0, sizes, 7, 13); });
  seen0 = talk(node.channels[0], 0, 1, sizes, 13, 5);
  other.join();
  for (std::size_t m = 0; m < sizes.size(); ++m) {
    INFO("message " << m << " of " << sizes[m] << " bytes");
    CHECK(seen0[m].total == sizes[m]);
    CHECK(seen1[m].total == sizes[m]);
    CHECK(seen0[m].tag == 100 + m);
    CHECK(seen0[m].exact);
    CHECK(seen1[m].exact);
  }
}

TEST_CASE("ShmChannels: three ranks, every channel its own queue") {
  ShmChannels::Shape shape;
  shape.slots = 3;
  shape.slotBytes = 64;
  Node node(3, shape);
  // Rank r sends to r + 1 and receives from r - 1, five messages each.
  const std::vector<std::size_t> sizes{40, 0, 200, 3, 41};
  std::vector<std::vector<Seen>> seen(3);
  auto ring = [&](int r) {
    for (std::size_t m = 0; m < sizes.size(); ++m) {
      std::vector<unsigned char> out(sizes[m]), in(sizes[m]);
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = pattern(r, static_cast<int>(m), i);
      const coll::SendSegment s{out.data(), out.size()};
      const coll::RecvSegment d{in.data(), in.size()};
      ShmChannels::Send send;
      send.peer = (r + 1) % 3;
      send.segments = &s;
      send.numSegments = 1;
      send.bytes = out.size();
      send.tag = static_cast<std::uint32_t>(m);
      ShmChannels::Receive receive;
      receive.peer = (r + 2) % 3;
      receive.segments = &d;
      receive.numSegments = 1;
      receive.expected = in.size();
      while (!send.done || !receive.done) {
        if (!send.done) node.channels[static_cast<std::size_t>(r)].progress(send);
        if (!receive.done) node.channels[static_cast<std::size_t>(r)].progress(receive);
        std::this_thread::yield();
      }
      bool exact = true;
      for (std::size_t i = 0; i < in.size(); ++i)
        exact &= in[i] == pattern((r + 2) % 3, static_cast<int>(m), i);
      seen[static_cast<std::size_t>(r)].push_back({receive.total, receive.tag, exact});
    }
  };
  std::thread a(ring, 1), b(ring, 2);
  ring(0);
  a.join();
  b.join();
  for (int r = 0; r < 3; ++r)
    for (std::size_t m = 0; m < sizes.size(); ++m) {
      INFO("rank " << r << ", message " << m);
      const Seen& s = seen[static_cast<std::size_t>(r)][m];
      CHECK(s.total == sizes[m]);
      CHECK(s.tag == m);
      CHECK(s.exact);
    }
}

TEST_CASE("ShmChannels: a receive that expects more sees the sender's size, and the channel stays in step") {
  ShmChannels::Shape shape;
  shape.slots = 2;
  shape.slotBytes = 64;
  Node node(2, shape);
  // Each side expects 3 bytes more than the other sends; then both agree
  // again (the short messages were consumed whole).
  const std::vector<std::size_t> sizes{5, 100};
  std::vector<Seen> seen0, seen1;
  std::thread other([&] { seen1 = talk(node.channels[1], 1, 0, sizes, 100, 100, 3); });
  seen0 = talk(node.channels[0], 0, 1, sizes, 100, 100, 3);
  other.join();
  CHECK(seen0[0].total == 5);
  CHECK(seen0[1].total == 100);
  CHECK(seen0[1].exact);
  CHECK(seen1[1].total == 100);
  CHECK(seen1[1].exact);
  // A receive that expects fewer bytes keeps what fits (the transport
  // reports the sizes), and the next message arrives whole.
  std::vector<Seen> fewer0, fewer1;
  std::thread again([&] { fewer1 = talk(node.channels[1], 1, 0, {70, 40}, 70, 70, -30); });
  fewer0 = talk(node.channels[0], 0, 1, {70, 40}, 70, 70, -30);
  again.join();
  CHECK(fewer0[0].total == 70);
  CHECK(fewer0[0].exact);
  CHECK(fewer1[1].total == 40);
  CHECK(fewer1[1].exact);
}

TEST_CASE("ShmChannels: detail::copyBytes copies exactly n bytes at every size and offset") {
  // The small sizes take the overlapping-word path, above 32 memcpy: every
  // size from 0 to 80 at every source and destination offset of a word.
  std::vector<char> from(128), to(128);
  for (std::size_t i = 0; i < from.size(); ++i) from[i] = static_cast<char>(i * 7 + 1);
  for (std::size_t n = 0; n <= 80; ++n)
    for (std::size_t at = 0; at < 8; ++at)
      for (std::size_t into = 0; into < 8; ++into) {
        std::fill(to.begin(), to.end(), '\x5a');
        coll::detail::copyBytes(to.data() + into, from.data() + at, n);
        for (std::size_t i = 0; i < to.size(); ++i) {
          const bool inside = i >= into && i < into + n;
          const char expected = inside ? from[at + i - into] : '\x5a';
          if (to[i] != expected) FAIL("n " << n << ", from offset " << at << ", to offset " << into << ": byte " << i);
        }
      }
}

// The slots the next message to and from each ring neighbour will use,
// which a call prefetches before it reads its plan: exact addresses as
// messages move and wrap around, one entry pair per distinct neighbour on
// the node.
TEST_CASE("ShmChannels: nextSlots() names the next slot to and from each ring neighbour") {
  ShmChannels::Shape shape;
  shape.slots = 3;
  shape.slotBytes = 64;
  const std::size_t channelBytes = 3 * 64;
  Node node(4, shape);
  auto region = [&](int r) { return reinterpret_cast<const char*>(node.memory[static_cast<std::size_t>(r)].get()); };
  // Rank 0 watches 1 (next) and 3 (previous); rank 1 watches 2 and 0.
  const ShmChannels& zero = node.channels[0];
  REQUIRE(zero.numNextSlots() == 4);
  CHECK(zero.nextSlots()[0] == region(1) + 0 * channelBytes);  // to 1: slot 0 of 0's channel in 1's region
  CHECK(zero.nextSlots()[1] == region(0) + 1 * channelBytes);  // from 1: slot 0 of 1's channel in 0's region
  CHECK(zero.nextSlots()[2] == region(3) + 0 * channelBytes);
  CHECK(zero.nextSlots()[3] == region(0) + 3 * channelBytes);
  // Rank 0 sends rank 1 four messages of 1, 2, 1 and 1 fragments (40 bytes
  // of payload a slot); 1 reads each before the next.
  const std::size_t payload = zero.payloadBytes();
  std::size_t position = 0;
  for (std::size_t bytes : {std::size_t(1), payload + 1, payload, std::size_t(0)}) {
    std::vector<unsigned char> out(bytes, 7), in(bytes);
    const coll::SendSegment s{out.data(), out.size()};
    const coll::RecvSegment d{in.data(), in.size()};
    ShmChannels::Send send;
    send.peer = 1;
    send.segments = &s;
    send.numSegments = 1;
    send.bytes = bytes;
    ShmChannels::Receive receive;
    receive.peer = 0;
    receive.segments = &d;
    receive.numSegments = 1;
    receive.expected = bytes;
    while (!send.done || !receive.done) {
      if (!send.done) node.channels[0].progress(send);
      if (!receive.done) node.channels[1].progress(receive);
    }
    position += bytes <= payload ? 1 : 2;
    INFO("after " << position << " fragments");
    const std::size_t slot = position % 3;
    CHECK(zero.nextSlots()[0] == region(1) + 0 * channelBytes + slot * 64);
    CHECK(zero.nextSlots()[1] == region(0) + 1 * channelBytes);  // nothing came from 1
    CHECK(node.channels[1].nextSlots()[3] == region(1) + 0 * channelBytes + slot * 64);  // 1 from 0
    CHECK(node.channels[1].nextSlots()[0] == region(2) + 1 * channelBytes);  // 1 to 2: unmoved
    CHECK(node.channels[1].nextSlots()[2] == region(0) + 1 * channelBytes);  // 1 to 0: unmoved
  }
  CHECK(position == 5);
  // Two ranks: one neighbour. A neighbour on another node: not watched.
  Node pair(2, shape);
  CHECK(pair.channels[0].numNextSlots() == 2);
  CHECK(pair.channels[1].nextSlots()[0] == reinterpret_cast<const char*>(pair.memory[0].get()) + 1 * channelBytes);
  std::vector<void*> regions{node.memory[0].get(), node.memory[1].get()};
  const ShmChannels split(regions, 0, {0, 1, -1}, shape);  // rank 2 is elsewhere
  REQUIRE(split.numNextSlots() == 2);
  CHECK(split.nextSlots()[0] == region(1));
}
