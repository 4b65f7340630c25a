#pragma once
// Shared-memory channels between the ranks of one node: for every ordered
// pair of ranks a bounded single-producer single-consumer queue of
// fixed-size slots (after Vyukov's bounded queue: a slot's sequence number
// says whose turn it is), in memory that every rank of the node maps. A
// message is cut into slot-sized fragments, each carrying the message's
// total size and tag, so the receiver checks both as MPI would.
//
// MPI-free and exception-free: coll::MpiTransport maps the memory (an
// MPI-3 shared window) and sends small messages through it, which skips
// the MPI library's point-to-point matching, requests and progress engine
// for the common step of a small collective (a few bytes each way); a unit
// test runs two threads over one region.
//
// A rank receives in its own region: one channel per node rank (itself
// included, unused), each `Shape::slots` slots of `Shape::slotBytes`
// bytes. The sender of a channel writes its slots, the receiver reads and
// frees them; each side keeps its own position (the number of fragments it
// has moved on that channel) in process-local memory.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "coll/transport.hpp"

namespace coll {

namespace detail {
// Copies n bytes. Up to 32 bytes -- a small collective's whole
// message -- as a few loads and stores, first and last words
// overlapping (no loop, which the compiler would turn back into a
// call): a call into the C library's memcpy runs its code and its GOT
// entry, both out of cache on a call after other work.
template <class Word>
void copyEnds(char* to, const char* from, std::size_t n) {
  Word first, last;
  std::memcpy(&first, from, sizeof(Word));
  std::memcpy(&last, from + n - sizeof(Word), sizeof(Word));
  std::memcpy(to, &first, sizeof(Word));
  std::memcpy(to + n - sizeof(Word), &last, sizeof(Word));
}
inline void copyBytes(char* to, const char* from, std::size_t n) {
  if (n >= 16 && n <= 32) {
    copyEnds<std::uint64_t>(to, from, 16);
    copyEnds<std::uint64_t>(to + n - 16, from + n - 16, 16);
  } else if (n >= 8 && n < 16) {
    copyEnds<std::uint64_t>(to, from, n);
  } else if (n >= 4 && n < 8) {
    copyEnds<std::uint32_t>(to, from, n);
  } else if (n > 0 && n < 4) {
    const char a = from[0], b = from[n / 2], c = from[n - 1];
    to[0] = a;
    to[n / 2] = b;
    to[n - 1] = c;
  } else if (n > 32) {
    std::memcpy(to, from, n);
  }
}
}  // namespace detail

class alignas(64) ShmChannels {
 public:
  struct Shape {
    std::uint32_t slots = 8;         // per channel: fragments in flight
    // Header and payload, a multiple of 64 (slots start on cache lines):
    // 4 KiB of payload and the header's line, so a message of a power of
    // two up to 4 KiB takes one slot.
    std::uint32_t slotBytes = 4096 + 64;
  };

  // Ring neighbours whose next slots nextSlots() keeps (rank + 1, rank - 1).
  static constexpr int kWatchedPeers = 2;

  // One message from this rank to rank `peer` (a rank reaches() says is
  // on the node), moved by progress(): `bytes` in total from `numSegments`
  // segments, in order.
  struct Send {
    const SendSegment* segments = nullptr;
    std::size_t numSegments = 0;
    std::size_t bytes = 0;
    int peer = 0;
    std::uint32_t tag = 0;
    // Progress: the fragments written so far, where the next byte is read.
    std::uint32_t fragmentsDone = 0, segment = 0;
    std::size_t offset = 0;
    bool done = false;
  };

  // One message to this rank from rank `peer`, filed into `numSegments`
  // segments of `expected` bytes in all. When done, `total` and `tag` are
  // the sender's; bytes beyond what fits are dropped.
  struct Receive {
    const RecvSegment* segments = nullptr;
    std::size_t numSegments = 0;
    std::size_t expected = 0;
    int peer = 0;
    std::uint32_t tag = 0;
    std::uint32_t fragmentsDone = 0, segment = 0;
    std::size_t offset = 0;
    std::size_t total = 0;
    bool done = false;
  };

  // The bytes of one rank's region for a node of `ranks` ranks.
  static std::size_t regionBytes(int ranks, Shape shape) {
    return static_cast<std::size_t>(ranks) * shape.slots * shape.slotBytes;
  }

  // Makes `region` (this rank's, regionBytes(ranks, shape) bytes) ready
  // for the node's senders; every rank formats its own before any peer
  // sends (the transport synchronizes the node in between).
  static void format(void* region, int ranks, Shape shape) {
    char* base = static_cast<char*>(region);
    for (std::size_t c = 0; c < static_cast<std::size_t>(ranks); ++c)
      for (std::uint32_t k = 0; k < shape.slots; ++k)
        new (base + (c * shape.slots + k) * shape.slotBytes) Header{k};
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }

  // regions[i]: node rank i's region as mapped in this process; `self`:
  // this rank's node rank; nodeRankOf[r]: the node rank of the caller's
  // rank r, or -1 for a rank on another node. Sends and receives name
  // the caller's ranks.
  ShmChannels(const std::vector<void*>& regions, int self, const std::vector<int>& nodeRankOf, Shape shape)
      : shape_(shape), payload_(shape.slotBytes - sizeof(Header)), peers_(nodeRankOf.size()) {
    const std::size_t channelBytes = static_cast<std::size_t>(shape.slots) * shape.slotBytes;
    for (std::size_t r = 0; r < nodeRankOf.size(); ++r) {
      const int node = nodeRankOf[r];
      if (node < 0) continue;
      peers_[r].out = static_cast<char*>(regions[static_cast<std::size_t>(node)]) +
                      static_cast<std::size_t>(self) * channelBytes;
      peers_[r].in = static_cast<char*>(regions[static_cast<std::size_t>(self)]) +
                     static_cast<std::size_t>(node) * channelBytes;
    }
    // Watch this rank's ring neighbours (rank + 1 and rank - 1) on the node.
    const int P = static_cast<int>(nodeRankOf.size());
    int me = 0;
    while (me < P && nodeRankOf[static_cast<std::size_t>(me)] != self) ++me;
    if (me < P)
      for (int neighbour : {(me + 1) % P, (me + P - 1) % P}) {
        if (neighbour == me || !reaches(neighbour) || (numWatched_ == 1 && watched_[0] == neighbour))
          continue;
        watched_[numWatched_++] = neighbour;
        noteNextSlots(neighbour);
      }
  }

  // Whether rank r (the caller's numbering) is on this node.
  bool reaches(int r) const { return peers_[static_cast<std::size_t>(r)].out != nullptr; }
  // Where the peers' channel pointers and positions are (a step reads
  // them first; MpiTransport::hotMemory).
  const void* peerTable() const { return peers_.data(); }
  // The slots the next message to and the next from each of this rank's
  // ring neighbours on the node will use (numNextSlots() pointers, kept
  // current as messages move): a call prefetches them before it has read
  // its plan (MpiTransport::movingHotMemory), as MPI's small messages
  // find their buffers still in cache after its own barrier.
  const void* const* nextSlots() const { return nextSlots_; }
  int numNextSlots() const { return 2 * numWatched_; }
  std::size_t payloadBytes() const { return payload_; }

  // Writes as many of the message's fragments as the channel has free
  // slots for; returns whether it wrote any. Sets send.done when all are
  // written (the receiver may not have read them yet).
  bool progress(Send& send) {
    const std::size_t fragments = fragmentsOf(send.bytes);
    Peer& peer = peers_[static_cast<std::size_t>(send.peer)];
    char* channel = peer.out;
    std::uint64_t& position = peer.sent;
    bool moved = false;
    while (send.fragmentsDone < fragments) {
      char* slot = slotAt(channel, position);
      Header& header = *reinterpret_cast<Header*>(slot);
      if (header.sequence.load(std::memory_order_acquire) != position) break;  // not yet read
      const std::size_t at = static_cast<std::size_t>(send.fragmentsDone) * payload_;
      const std::size_t n = send.bytes - at < payload_ ? send.bytes - at : payload_;
      header.bytes = static_cast<std::uint32_t>(n);
      header.tag = send.tag;
      header.total = send.bytes;
      gather(send, slot + sizeof(Header), n);
      header.sequence.store(position + 1, std::memory_order_release);
      ++position;
      ++send.fragmentsDone;
      moved = true;
    }
    send.done = send.fragmentsDone == fragments;
    if (moved) noteNextSlots(send.peer);
    return moved;
  }

  // Reads as many of the message's fragments as have arrived; returns
  // whether it read any. Sets receive.done when all have.
  bool progress(Receive& receive) {
    Peer& peer = peers_[static_cast<std::size_t>(receive.peer)];
    char* channel = peer.in;
    std::uint64_t& position = peer.received;
    bool moved = false;
    while (!receive.done) {
      char* slot = slotAt(channel, position);
      Header& header = *reinterpret_cast<Header*>(slot);
      if (header.sequence.load(std::memory_order_acquire) != position + 1) break;  // not yet written
      if (receive.fragmentsDone == 0) {
        receive.total = static_cast<std::size_t>(header.total);
        receive.tag = header.tag;
      }
      scatter(receive, slot + sizeof(Header), header.bytes);
      header.sequence.store(position + shape_.slots, std::memory_order_release);
      ++position;
      ++receive.fragmentsDone;
      receive.done = receive.fragmentsDone == fragmentsOf(receive.total);
      moved = true;
    }
    if (moved) noteNextSlots(receive.peer);
    return moved;
  }

 private:
  // A slot's first bytes; the payload follows (a message of a few bytes
  // travels in the header's cache line).
  struct Header {
    explicit Header(std::uint64_t s) : sequence(s) {}
    std::atomic<std::uint64_t> sequence;  // k + n * slots: free for fragment k + n * slots; +1: written
    std::uint64_t total = 0;               // the message's bytes
    std::uint32_t bytes = 0;               // this fragment's
    std::uint32_t tag = 0;
  };
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
                "shared-memory channels need lock-free 64-bit atomics");

  std::size_t fragmentsOf(std::size_t bytes) const {
    return bytes == 0 ? 1 : (bytes + payload_ - 1) / payload_;
  }
  // Copies the next n bytes of the message's segments to `out`.
  static void gather(Send& send, char* out, std::size_t n) {
    while (n) {
      const SendSegment& s = send.segments[send.segment];
      const std::size_t take = s.bytes - send.offset < n ? s.bytes - send.offset : n;
      detail::copyBytes(out, static_cast<const char*>(s.data) + send.offset, take);
      out += take;
      n -= take;
      send.offset += take;
      if (send.offset == s.bytes) {
        ++send.segment;
        send.offset = 0;
      }
    }
  }
  // Files n bytes from `in` at the receive's next segment bytes; what
  // does not fit is dropped (the transport reports the sizes).
  static void scatter(Receive& receive, const char* in, std::size_t n) {
    while (n && receive.segment < receive.numSegments) {
      const RecvSegment& s = receive.segments[receive.segment];
      const std::size_t take = s.bytes - receive.offset < n ? s.bytes - receive.offset : n;
      detail::copyBytes(static_cast<char*>(s.data) + receive.offset, in, take);
      in += take;
      n -= take;
      receive.offset += take;
      if (receive.offset == s.bytes) {
        ++receive.segment;
        receive.offset = 0;
      }
    }
  }

  // A rank on this node: its channel from this rank (in its region) and
  // to this rank (in ours), and the fragments moved on each; one line.
  struct Peer {
    char* out = nullptr;
    char* in = nullptr;
    std::uint64_t sent = 0, received = 0;
  };

  // The slot a channel's fragment number `position` uses.
  char* slotAt(char* channel, std::uint64_t position) const {
    return channel + (position % shape_.slots) * shape_.slotBytes;
  }
  void noteNextSlots(int r) {
    for (int w = 0; w < numWatched_; ++w)
      if (watched_[w] == r) {
        const Peer& peer = peers_[static_cast<std::size_t>(r)];
        nextSlots_[2 * w] = slotAt(peer.out, peer.sent);
        nextSlots_[2 * w + 1] = slotAt(peer.in, peer.received);
      }
  }

  // First: on the object's first line, which a call prefetches.
  const void* nextSlots_[2 * kWatchedPeers] = {};  // [2w]: to watched_[w], [2w + 1]: from it
  int watched_[kWatchedPeers] = {-1, -1};
  int numWatched_ = 0;
  Shape shape_;
  std::size_t payload_;
  std::vector<Peer> peers_;  // by the caller's rank
};

}  // namespace coll
