#pragma once
// Point-to-point layer of the collc runtime: the Transport interface that
// schedules run on and Comm, the handle users pass to generated
// collectives. MPI-free: the MPI transport is coll/mpi_transport.hpp, the
// in-process one coll/local_transport.hpp.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeindex>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "coll/error.hpp"
#include "coll/linkage.hpp"

namespace coll {

class Recording;  // coll/recording.hpp

// "No partner in this direction" for Transport::exchange.
constexpr int kNoPeer = -1;

struct SendSegment {
  const void* data;
  std::size_t bytes;
};

struct RecvSegment {
  void* data;
  std::size_t bytes;
};

// One rank's part of a step with one partner on each side (see exchange).
struct PeerExchange {
  const SendSegment* sends;
  std::size_t numSends;
  int to;
  const RecvSegment* recvs;
  std::size_t numRecvs;
  int from;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Where its exchanges start reading (its own members, its channels'
  // tables): a Comm asks once and prefetches these at the start of every
  // call, so after other work has pushed them out of cache they arrive
  // together rather than one wait each
  // (docs/history/benchmarks-2026-12.md, "Where a cold call waits").
  virtual std::vector<const void*> hotMemory() const { return {}; }
  // Lines whose addresses move as the transport runs (e.g. the
  // shared-memory slots its next messages to and from its neighbours will
  // use): `count` pointers at `lines` that the transport keeps current
  // while it lives; a Comm reads and prefetches them at every call's start.
  struct MovingMemory {
    const void* const* lines = nullptr;
    int count = 0;
  };
  virtual MovingMemory movingHotMemory() const { return {}; }
  // One step of a schedule: send `sends` (in order) to rank `to` and receive
  // `recvs` (in order) from rank `from`, concurrently; either may be kNoPeer
  // (then its segment list is ignored). Returns when both sides are complete.
  // The segments of one side are one message: the receiver may cut its
  // memory into other segments, only the byte sequence must agree.
  // A peer with no bytes to move still exchanges one empty message, so a
  // step always synchronizes its ranks. `tag` distinguishes steps.
  virtual void exchange(const SendSegment* sends, std::size_t numSends, int to,
                        const RecvSegment* recvs, std::size_t numRecvs, int from,
                        int tag) = 0;
  // Several exchanges of one step at once, e.g. both ports of a Trivance
  // phase (seeds/002). The default runs them one after another, which is
  // correct when every rank lists its exchanges in the same pattern; a
  // transport with nonblocking sends overlaps them.
  virtual void exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) {
    for (std::size_t i = 0; i < n; ++i)
      exchange(exchanges[i].sends, exchanges[i].numSends, exchanges[i].to, exchanges[i].recvs,
               exchanges[i].numRecvs, exchanges[i].from, tag);
  }
};

// A part as the executor moves it (coll/executor.hpp): its storage and
// start in bytes, whatever the element type.
struct BytePart {
  unsigned char* data = nullptr;
  std::size_t bytes = 0;
  const unsigned char* initial = nullptr;  // null or == data: the part starts at data
  bool keep = true;                        // false: scratch, its final value is not wanted

  // Where the part starts, if not at data.
  const unsigned char* startsElsewhere() const { return initial != data ? initial : nullptr; }
};

// What the executor (coll/executor.hpp) builds per step, kept in the Comm
// between calls so a collective called in a loop does not allocate once
// warmed up: one block for a call's per-part flags and a group's segment
// lists, exchanges and landing decisions (sized by the plan's maxima, so
// a call touches a few adjacent lines), and the staging of what arrives
// to be merged, or to be copied over a part also sent.
class ExecutorBuffers {
 public:
  struct Lists {
    unsigned char* partState;     // per part
    unsigned char* landsInPlace;  // per received part of a group
    SendSegment* sendSegs;        // a group's, message after message
    RecvSegment* recvSegs;
    PeerExchange* exchanges;
  };
  // The lists for `parts` parts and a group of at most these many send
  // and receive segments, pairs and received parts.
  Lists prepare(std::size_t parts, std::size_t sends, std::size_t receives, std::size_t pairs,
                std::size_t received) {
    const std::size_t sendAt = 0;
    const std::size_t receiveAt = sendAt + sends * sizeof(SendSegment);
    const std::size_t pairAt = receiveAt + receives * sizeof(RecvSegment);
    const std::size_t stateAt = pairAt + pairs * sizeof(PeerExchange);
    const std::size_t landsAt = stateAt + (parts + 15) / 16 * 16;  // whole 16-byte blocks: see clearPartState
    const std::size_t bytes = landsAt + received;
    if (block_.size() < bytes) block_.resize(bytes);
    std::byte* b = block_.data();
    return {reinterpret_cast<unsigned char*>(b + stateAt), reinterpret_cast<unsigned char*>(b + landsAt),
            reinterpret_cast<SendSegment*>(b + sendAt), reinterpret_cast<RecvSegment*>(b + receiveAt),
            reinterpret_cast<PeerExchange*>(b + pairAt)};
  }
  std::vector<unsigned char> staging;
  // A call's parts in bytes (at least `parts` of them).
  BytePart* byteParts(std::size_t parts) {
    if (byteParts_.size() < parts) byteParts_.resize(parts);
    return byteParts_.data();
  }
  // The lists' block (null before a first call), for Comm::plan to prefetch.
  const void* hotMemory() const { return block_.data(); }

 private:
  static_assert(alignof(SendSegment) <= alignof(std::max_align_t) && sizeof(SendSegment) % alignof(PeerExchange) == 0 &&
                    sizeof(RecvSegment) % alignof(PeerExchange) == 0,
                "the lists stay aligned one after another");
  std::vector<std::byte> block_;
  std::vector<BytePart> byteParts_;
};

// Memory a collective needs during one call besides the caller's buffers
// (its part layout, scratch blocks, a copy of an in-place input), kept in
// the Comm so that a collective called in a loop allocates on its first
// call only (and when a larger count needs more). Slots are independent;
// what a slot holds is valid until the next request for that slot, and
// uninitialized: the caller writes before it reads.
class Workspace {
 public:
  enum Slot { parts, scratch, copy, numSlots };

  // The part layout's block (null before a first call), for Comm::plan to
  // prefetch.
  const void* hotMemory() const { return blocks_[parts].data.get(); }

  template <class T>
  T* get(Slot slot, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>, "a Workspace holds trivially copyable objects");
    static_assert(alignof(T) <= kAlignment, "a Workspace aligns to 64 bytes");
    return static_cast<T*>(bytes(slot, n * sizeof(T)));
  }

 private:
  static constexpr std::size_t kAlignment = 64;  // a cache line: merges vectorise on aligned blocks
  struct Free {
    void operator()(void* p) const { ::operator delete(p, std::align_val_t{kAlignment}); }
  };
  void* bytes(Slot slot, std::size_t size) {
    Block& b = blocks_[slot];
    if (size > b.capacity) {
      b.data.reset();
      b.data.reset(::operator new(size, std::align_val_t{kAlignment}));
      b.capacity = size;
    }
    return b.data.get();
  }
  struct Block {
    std::unique_ptr<void, Free> data;
    std::size_t capacity = 0;
  };
  Block blocks_[numSlots];
};

// How a Comm is made from another library's communicator handle: a
// transport header specializes TransportFor<Handle> with
//   static std::unique_ptr<Transport> make(Handle);
// (coll/mpi_transport.hpp does for MPI_Comm), so this header needs none of
// those libraries.
template <class Handle>
struct TransportFor;

// The communicator handle of generated collectives. Owns its transport.
class Comm {
 public:
  // From a handle some transport header knows, e.g. Comm{MPI_COMM_WORLD}
  // with coll/mpi_transport.hpp (or coll/runtime.hpp) included.
  template <class Handle, class Make = TransportFor<Handle>,
            class = decltype(Make::make(std::declval<Handle>()))>
  explicit Comm(Handle handle) : Comm(Make::make(handle)) {}
  // With COLLC_RECORD set to a file name in the environment, the Comm
  // records every collective call into that file (see recordTo).
  explicit Comm(std::unique_ptr<Transport> transport) : transport_(std::move(transport)) {
    if (!transport_) throw Error("coll::Comm: null transport");
    rank_ = transport_->rank();
    size_ = transport_->size();
    const std::vector<const void*> hot = transport_->hotMemory();
    for (const void* p : hot)
      if (numHot_ < kMaxHot) hot_[numHot_++] = p;
    moving_ = transport_->movingHotMemory();
    if (const char* file = std::getenv("COLLC_RECORD"); file && *file) recordFile_ = file;
    if (const char* check = std::getenv("COLLC_CHECK"); check && *check && std::strcmp(check, "0") != 0)
      checked_ = true;
  }
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  Comm(Comm&&) noexcept = default;
  Comm& operator=(Comm&&) noexcept = default;
  ~Comm() = default;

  // The transport's, kept here: a call's first read, without its lines.
  int rank() const { return rank_; }
  int size() const { return size_; }
  Transport& transport() { return *transport_; }

  // Where the executor records what this rank sends and receives (null:
  // nothing is recorded). Ranks that share one Recording (e.g. on one
  // LocalNetwork) record one program.
  void setRecording(std::shared_ptr<Recording> recording) { recording_ = std::move(recording); }
  Recording* recording() const { return recording_.get(); }

  // Records every collective call from now on into `file` (empty: no
  // more): each call's ranks send their record to rank 0, which writes the
  // call as a coll.program named @<kind>_<n> (n: this Comm's recorded
  // calls before it) that `collc verify` reads. The first call recorded
  // replaces the file, later ones are appended; so one file is one
  // communicator's. Every rank must name the same file (rank 0 writes it).
  void recordTo(std::string file) {
    recordFile_ = std::move(file);
    callsRecorded_ = 0;
  }
  const std::string& recordFile() const { return recordFile_; }
  // The number of calls recorded into recordFile() so far.
  int& callsRecorded() { return callsRecorded_; }

  // Checked mode (coll/checked.hpp): every collective call first agrees
  // with the other ranks on what is called, and fails on every rank,
  // naming each rank's view, where they differ. On with COLLC_CHECK set
  // (and not "0") in the environment when the Comm is made; every rank
  // must check alike.
  void setChecked(bool on) { checked_ = on; }
  bool checked() const { return checked_; }
  // The number of the next call checked on this Comm (counted from 0).
  std::uint32_t nextCheckedCall() { return checkedCalls_++; }

  // The hash of a plan's key (Comm::plan), as its cache stores it; checked
  // mode compares it between ranks.
  static std::uint32_t keyHash(std::string_view key) { return hashOf(key); }

  // The executor's per-step buffers (see ExecutorBuffers).
  ExecutorBuffers& executorBuffers() { return executorBuffers_; }
  // A collective's memory for one call (see Workspace).
  Workspace& workspace() { return workspace_; }

  // A schedule's plan for this communicator (e.g. the shifted butterfly's
  // step list), made by `make` on first use and kept while the Comm lives,
  // so a collective called in a loop plans once. The size never changes,
  // so `key` (the plan's maker and arguments, e.g.
  // "butterflyPlan" and its arguments' bytes, at most kMaxPlanKey bytes)
  // identifies the plan; a key asked for as another Plan type is an error.
  // The lookup is one probe of an open-addressed table whose entries hold
  // the key itself: a call after other work (cold caches) misses one line
  // before its plan however many plans the Comm holds (collc-bench's holds
  // dozens; a scan of their hashes missed one line per eight, a table of
  // indexes into the entries one more line). Making a plan is out of the
  // lookup's code (addPlan), so a call runs through little code.
  // Every collective asks for its plan first, so the lookup also starts
  // fetching what the rest of the call reads (prefetchCall) and, once it
  // finds the plan, the plan's own hot memory (a member hotMemory(), if
  // the Plan type has one): a call after other work then waits for these
  // lines together instead of one after another
  // (docs/history/benchmarks-2026-12.md, "Where a cold call waits").
  static constexpr std::size_t kMaxPlanKey = 64;
  template <class Plan, class Make>
  const Plan& plan(std::string_view key, Make&& make) {
    const std::uint32_t hash = hashOf(key);
    prefetchCall(hash);
    if (const void* found = findPlan(key, hash, typeid(Plan))) return *static_cast<const Plan*>(found);
    using Maker = std::remove_reference_t<Make>;
    return *static_cast<const Plan*>(addPlan(key, hash, typeid(Plan), &madeAs<Plan, Maker>,
                                             const_cast<void*>(static_cast<const void*>(&make))));
  }

 private:
  // One cached plan, or an empty entry of the table (plan null); its
  // first line holds what a lookup reads for keys of up to 32 bytes (the
  // runtime families' keys are 12-33).
  struct alignas(64) StoredPlan {
    std::uint32_t hash;  // the key's hash (the table's index takes its low bits)
    std::uint32_t keySize;
    const void* plan = nullptr;
    const void* hot;  // the plan's hotMemory() (or null), prefetched on a hit
    const std::type_info* type;
    char key[kMaxPlanKey];
    std::shared_ptr<const void> owner;  // keeps `plan` alive; off the lookup's first line
  };
  static_assert(offsetof(StoredPlan, key) == 32, "32 bytes of key share the entry's first line");
  static_assert(sizeof(StoredPlan) == 128, "an entry is two lines");
  template <class Plan, class = void>
  struct HasHotMemory : std::false_type {};
  template <class Plan>
  struct HasHotMemory<Plan, std::void_t<decltype(std::declval<const Plan&>().hotMemory())>> : std::true_type {};
  // Independent lines: prefetched together, they cost about one wait.
  void prefetchCall(std::uint32_t hash) const {
    for (int i = 0; i < numHot_; ++i) __builtin_prefetch(hot_[i]);
    if (!table_.empty()) __builtin_prefetch(&table_[hash & (table_.size() - 1)]);
    __builtin_prefetch(executorBuffers_.hotMemory());
    __builtin_prefetch(workspace_.hotMemory());
    // Last: their addresses are read from the transport's memory, which
    // the loop above has only started to fetch.
    for (int i = 0; i < moving_.count; ++i) __builtin_prefetch(moving_.lines[i]);
  }
  // Keys are a few dozen bytes of names and ints: FNV-1a over 8-byte words.
  static std::uint32_t hashOf(std::string_view key) {
    std::uint64_t h = 1469598103934665603ull;
    std::size_t i = 0;
    for (; i + 8 <= key.size(); i += 8) {
      std::uint64_t word;
      std::memcpy(&word, key.data() + i, 8);
      h = (h ^ word) * 1099511628211ull;
    }
    for (; i < key.size(); ++i) h = (h ^ static_cast<unsigned char>(key[i])) * 1099511628211ull;
    return static_cast<std::uint32_t>(h ^ (h >> 29));  // the table's index takes the low bits
  }
  // Inline, 8 bytes at a time: no call into the C library's memcmp,
  // whose code is cold on a call after other work.
  static bool sameKey(const StoredPlan& stored, std::string_view key) {
    if (stored.keySize != key.size()) return false;
    std::size_t i = 0;
    for (; i + 8 <= key.size(); i += 8) {
      std::uint64_t a, b;
      std::memcpy(&a, stored.key + i, 8);
      std::memcpy(&b, key.data() + i, 8);
      if (a != b) return false;
    }
    for (; i < key.size(); ++i)
      if (stored.key[i] != key[i]) return false;
    return true;
  }
  // Inline in plan(), its error out of line: the lookup is on every call's path.
  [[gnu::always_inline]] const void* findPlan(std::string_view key, std::uint32_t hash,
                                              const std::type_info& type) const {
    if (table_.empty()) return nullptr;
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const StoredPlan& stored = table_[i];
      if (!stored.plan) return nullptr;
      if (stored.hash != hash || !sameKey(stored, key)) continue;
      __builtin_prefetch(stored.hot);
      if (__builtin_expect(stored.type != &type, 0) && *stored.type != type) otherType(key);
      return stored.plan;
    }
  }
  [[noreturn, gnu::noinline, gnu::cold]] static void otherType(std::string_view key) {
    throw Error("coll::Comm::plan: '" + std::string(key) + "' holds another type of plan");
  }
  // The plan `make` makes, and its hot memory: per Plan type and maker,
  // only this; the table's code is addPlan's, once.
  template <class Plan, class Make>
  static std::shared_ptr<const void> madeAs(void* make, const void** hot) {
    auto made = std::make_shared<const Plan>((*static_cast<Make*>(make))());
    *hot = nullptr;
    if constexpr (HasHotMemory<Plan>::value) *hot = made->hotMemory();
    return made;
  }
  // The first call's path: makes the plan (out of the lookup's code).
  const void* addPlan(std::string_view key, std::uint32_t hash, const std::type_info& type,
                      std::shared_ptr<const void> (*makeAs)(void*, const void**), void* make);
  void insert(StoredPlan&& stored) {
    const std::size_t mask = table_.size() - 1;
    std::size_t i = stored.hash & mask;
    while (table_[i].plan) i = (i + 1) & mask;
    table_[i] = std::move(stored);
  }

  std::unique_ptr<Transport> transport_;
  int rank_ = 0, size_ = 1;
  static constexpr int kMaxHot = 8;
  const void* hot_[kMaxHot] = {};  // the transport's hotMemory()
  int numHot_ = 0;
  bool checked_ = false;  // read on every call: beside what prefetchCall reads
  std::uint32_t checkedCalls_ = 0;
  Transport::MovingMemory moving_;  // the transport's movingHotMemory()
  std::vector<StoredPlan> table_;  // open addressing, a power of two long
  std::size_t numPlans_ = 0;
  std::shared_ptr<Recording> recording_;
  std::string recordFile_;
  int callsRecorded_ = 0;
  ExecutorBuffers executorBuffers_;
  Workspace workspace_;
};

#if COLLC_RUNTIME_DEFINITIONS
[[gnu::noinline]]
COLLC_RUNTIME_INLINE const void* Comm::addPlan(std::string_view key, std::uint32_t hash,
                                               const std::type_info& type,
                                               std::shared_ptr<const void> (*makeAs)(void*, const void**),
                                               void* make) {
  if (key.size() > kMaxPlanKey)
    throw Error("coll::Comm::plan: the key '" + std::string(key) + "' is longer than " +
                std::to_string(kMaxPlanKey) + " bytes");
  const void* hot = nullptr;
  std::shared_ptr<const void> made = makeAs(make, &hot);
  StoredPlan stored{hash, static_cast<std::uint32_t>(key.size()), made.get(), hot, &type, {}, made};
  std::memcpy(stored.key, key.data(), key.size());
  if (table_.size() < 2 * (numPlans_ + 1)) {  // at most half full: short probes
    std::size_t size = 16;  // a power of two: the index is hash & (size - 1)
    while (size < 4 * (numPlans_ + 1)) size *= 2;
    std::vector<StoredPlan> old(size);
    old.swap(table_);
    for (StoredPlan& entry : old)
      if (entry.plan) insert(std::move(entry));
  }
  insert(std::move(stored));
  ++numPlans_;
  return made.get();
}
#endif  // COLLC_RUNTIME_DEFINITIONS

}  // namespace coll
