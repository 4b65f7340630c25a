// MPI implementation of coll::Transport and the Comm constructors.


#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "coll/mpi_transport.hpp"
#include "Polling.hpp"

namespace coll {
namespace {

// MPI counts are int: a message is made of blocks of at most this many bytes
// (a longer segment is several blocks of one datatype).
constexpr std::size_t kMaxMessageBytes = std::size_t{1} << 30;

// Scattered messages up to this size are packed into one buffer instead of
// described by a datatype (Bruck at 64 B: 2.55 x MPI with datatypes).
constexpr std::size_t kPackBelowBytes = 16384;

std::string mpiErrorString(int code) {
  char buffer[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, buffer, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(buffer, static_cast<std::size_t>(length));
}

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw Error(std::string("coll::MpiTransport: ") + what + " failed: " + mpiErrorString(code));
}

// The elementwise minimum of `values` over the ranks of comm, by
// dissemination (round k: to rank + 2^k, from rank - 2^k), with
// point-to-point messages only: this transport also runs inside
// libcollc_mpi.so, which serves MPI_Allreduce and MPI_Barrier itself.
// With no values, a barrier.
void disseminateMin(MPI_Comm comm, std::vector<long long>& values) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<long long> incoming(values.size());
  for (int d = 1; d < size; d *= 2) {
    check(MPI_Sendrecv(values.data(), static_cast<int>(values.size()), MPI_LONG_LONG, (rank + d) % size, 0,
                       incoming.data(), static_cast<int>(incoming.size()), MPI_LONG_LONG,
                       (rank - d + size) % size, 0, comm, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::min(values[i], incoming[i]);
  }
}

constexpr std::uintptr_t kPageBytes = 4096;

template <class Segment>
std::size_t bytesOf(const Segment* segments, std::size_t n) {
  std::size_t bytes = 0;
  for (std::size_t s = 0; s < n; ++s) bytes += segments[s].bytes;
  return bytes;
}

// What checkSharedMemoryReceive found wrong, out of the step's lines.
[[noreturn, gnu::noinline, gnu::cold]] void wrongSharedMemoryReceive(const ShmChannels::Receive& receive,
                                                                     int tag) {
  if (receive.total != receive.expected)
    throw Error("coll::MpiTransport: expected " + std::to_string(receive.expected) + " bytes from rank " +
                std::to_string(receive.peer) + " (tag " + std::to_string(tag) + "), got " +
                std::to_string(receive.total));
  throw Error("coll::MpiTransport: expected the message of tag " + std::to_string(tag) + " from rank " +
              std::to_string(receive.peer) + ", got one of tag " + std::to_string(receive.tag));
}

// Throws unless `receive`, done through the channels, got the size and
// tag its step expects.
void checkSharedMemoryReceive(const ShmChannels::Receive& receive, int tag) {
  if (receive.total != receive.expected || receive.tag != static_cast<std::uint32_t>(tag))
    wrongSharedMemoryReceive(receive, tag);
}

// The step of one peer each way (or one side only) through the channels,
// as progressUntilDone runs it but without its lists: the common step of
// a small collective, whose cost is mostly the code it runs when that is
// out of cache (docs/history/benchmarks-2026-12.md, "One exchange through
// the channels").
// `receive` says what arrived (its size and tag, checked by the caller).
// Returns false if it waited `limitMs` (> 0) without completing; `send`
// and `receive` then say which side is pending.
bool exchangeThroughChannels(ShmChannels& shm, const PeerExchange& x, std::size_t sendBytes,
                             std::size_t recvBytes, int tag, ShmChannels::Send& send,
                             ShmChannels::Receive& receive, std::int64_t limitMs) {
  send.segments = x.sends;
  send.numSegments = x.numSends;
  send.bytes = sendBytes;
  send.peer = x.to;
  send.tag = static_cast<std::uint32_t>(tag);
  send.done = x.to == kNoPeer;
  receive.segments = x.recvs;
  receive.numSegments = x.numRecvs;
  receive.expected = recvBytes;
  receive.peer = x.from;
  receive.done = x.from == kNoPeer;
  detail::Poller poller(limitMs);
  for (;;) {
    bool moved = false;
    if (!send.done) moved |= shm.progress(send);
    if (!receive.done) moved |= shm.progress(receive);
    if (send.done && receive.done) return true;
    if (poller.after(moved)) return false;
  }
}

// "rank 1", "ranks 1, 3".
}  // namespace

MpiTransport::Options MpiTransport::Options::fromEnvironment(std::int64_t timeoutMs) {
  Options options;
  options.timeoutMs = detail::timeoutFromEnvironment("coll::MpiTransport", timeoutMs);
  if (const char* on = std::getenv("COLLC_SHM"); on && std::strcmp(on, "0") == 0) options.sharedMemory = false;
  if (const char* bytes = std::getenv("COLLC_SHM_BYTES"); bytes && *bytes) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(bytes, &end, 10);
    if (*end != '\0') throw Error(std::string("coll::MpiTransport: COLLC_SHM_BYTES='") + bytes + "' is not a number of bytes");
    options.sharedMemoryBytes = static_cast<std::size_t>(n);
  }
  return options;
}

MpiTransport::MpiTransport(MPI_Comm comm, Options options) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) throw Error("coll::Comm: MPI is not initialized (call MPI_Init first)");
  // A split with the same rank order rather than MPI_Comm_dup, which would
  // run the program's attribute copy callbacks on collc's communicator
  // (and their delete callbacks when it is freed).
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_split(comm, 0, rank, &comm_), "MPI_Comm_split");
  // From here on failures must free the duplicate: the destructor will not run.
  try {
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    void* value = nullptr;
    int found = 0;
    check(MPI_Comm_get_attr(comm_, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr(MPI_TAG_UB)");
    if (found && value != nullptr) tagUpperBound_ = *static_cast<int*>(value);
    timeoutMs_ = options.timeoutMs;
    setUpSharedMemory(options);
  } catch (...) {
    freeSharedMemory();
    MPI_Comm_free(&comm_);
    throw;
  }
}

MpiTransport::~MpiTransport() {
  // Freeing after MPI_Finalize is erroneous; then there is nothing to free.
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // After a timeout the peers may be gone or elsewhere: freeing the window
  // (collective) would wait for them. Its memory and the communicator are
  // left to MPI_Finalize (or MPI_Abort).
  if (failed_) return;
  freeSharedMemory();
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiTransport::freeSharedMemory() {
  shm_.reset();
  if (windowLocked_) MPI_Win_unlock_all(window_);
  windowLocked_ = false;
  if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
}

// The node's ranks each allocate the region they receive in, in one
// shared window, format it, and wait for each other before the first
// message; the ranks of a node agree on the options first, so a node uses
// the channels on every rank or on none.
void MpiTransport::setUpSharedMemory(Options options) {
#if COLLC_SMPI
  // SMPI's ranks are coroutines of one thread: a channel's spin would never
  // let its peer run, and a copy through it would cost no simulated time.
  (void)options;
  return;
#endif
  check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_),
        "MPI_Comm_split_type");
  check(MPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  int nodeSize = 1, nodeRank = 0;
  check(MPI_Comm_size(node_, &nodeSize), "MPI_Comm_size");
  check(MPI_Comm_rank(node_, &nodeRank), "MPI_Comm_rank");
  std::vector<long long> agreed{options.sharedMemory ? 1 : 0,
                                static_cast<long long>(std::min<std::size_t>(options.sharedMemoryBytes, LLONG_MAX))};
  disseminateMin(node_, agreed);
  if (nodeSize == 1 || agreed[0] == 0 || agreed[1] == 0) {
    freeSharedMemory();
    return;
  }
  // Up to 8 slots of 4 KiB per channel, fewer (at least 2) when a node
  // has many ranks: a rank's region stays near 2 MiB up to 256 ranks.
  ShmChannels::Shape shape;
  const std::size_t perChannel = (std::size_t{2} << 20) / static_cast<std::size_t>(nodeSize);
  shape.slots = static_cast<std::uint32_t>(std::clamp<std::size_t>(perChannel / shape.slotBytes, 2, 8));
  MPI_Info info = MPI_INFO_NULL;
  check(MPI_Info_create(&info), "MPI_Info_create");
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  // Each region is used from its first page boundary on: MPI may hand out
  // memory at any offset (Open MPI's started 264 bytes into a page), and a
  // slot that straddles cache lines costs every message.
  auto aligned = [](void* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<void*>((at + kPageBytes - 1) / kPageBytes * kPageBytes);
  };
  void* region = nullptr;
  const int rc = MPI_Win_allocate_shared(
      static_cast<MPI_Aint>(ShmChannels::regionBytes(nodeSize, shape) + kPageBytes), 1, info, node_, &region,
      &window_);
  MPI_Info_free(&info);
  if (rc == MPI_SUCCESS) MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN);
  std::vector<long long> allocated{rc == MPI_SUCCESS ? 1 : 0};
  disseminateMin(node_, allocated);
  if (!allocated[0]) {  // on some rank: no channels on this node
    freeSharedMemory();
    return;
  }
  check(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
  windowLocked_ = true;
  ShmChannels::format(aligned(region), nodeSize, shape);
  check(MPI_Win_sync(window_), "MPI_Win_sync");
  std::vector<long long> none;
  disseminateMin(node_, none);  // every region is formatted
  check(MPI_Win_sync(window_), "MPI_Win_sync");
  std::vector<void*> regions(static_cast<std::size_t>(nodeSize));
  for (int i = 0; i < nodeSize; ++i) {
    MPI_Aint size = 0;
    int unit = 0;
    check(MPI_Win_shared_query(window_, i, &size, &unit, &regions[static_cast<std::size_t>(i)]),
          "MPI_Win_shared_query");
    regions[static_cast<std::size_t>(i)] = aligned(regions[static_cast<std::size_t>(i)]);
  }
  // Which ranks of comm_ are on this node, and as which node rank.
  MPI_Group all = MPI_GROUP_NULL, here = MPI_GROUP_NULL;
  check(MPI_Comm_group(comm_, &all), "MPI_Comm_group");
  check(MPI_Comm_group(node_, &here), "MPI_Comm_group");
  std::vector<int> ranks(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) ranks[static_cast<std::size_t>(r)] = r;
  std::vector<int> nodeRankOf(static_cast<std::size_t>(size_), MPI_UNDEFINED);
  const int translated = MPI_Group_translate_ranks(all, size_, ranks.data(), here, nodeRankOf.data());
  MPI_Group_free(&all);
  MPI_Group_free(&here);
  check(translated, "MPI_Group_translate_ranks");
  for (int& r : nodeRankOf)
    if (r == MPI_UNDEFINED) r = -1;
  shm_ = std::make_unique<ShmChannels>(regions, nodeRank, nodeRankOf, shape);
  // Room for a step's messages before the first step, so they sit beside
  // the transport in memory rather than wherever the heap is then.
  shmSends_.reserve(16);
  shmReceives_.reserve(16);
  sharedMemoryBytes_ = static_cast<std::size_t>(agreed[1]);
}

std::vector<const void*> MpiTransport::hotMemory() const {
  // The lines of this object a step reads (its first, the channels'
  // pointer and limit), and the channels' own state and peer table.
  std::vector<const void*> hot{this, &shm_};
  if (shm_) {
    hot.push_back(shm_.get());
    hot.push_back(shm_->peerTable());
  }
  return hot;
}

Transport::MovingMemory MpiTransport::movingHotMemory() const {
  if (!shm_) return {};
  return {shm_->nextSlots(), shm_->numNextSlots()};
}

void MpiTransport::exchange(const SendSegment* sends, std::size_t numSends, int to,
                            const RecvSegment* recvs, std::size_t numRecvs, int from, int tag) {
  const PeerExchange one{sends, numSends, to, recvs, numRecvs, from};
  exchangeAll(&one, 1, tag);
}

// The bytes of one side of an exchange as one MPI message: a contiguous
// run goes as MPI_BYTE; scattered segments (adjacent ones merged, each
// block at most kMaxMessageBytes) as one hindexed datatype over absolute
// addresses, so both sides may cut their memory into segments as they
// like -- only the byte sequence must agree.
template <class Segment>
void MpiTransport::describe(const Segment* segments, std::size_t n, Message& message,
                            Packing* packing) {
  // The common case, one contiguous segment: no address lookups, no lists.
  if (n <= 1 && (n == 0 || segments[0].bytes <= kMaxMessageBytes)) {
    message.bytes = n ? segments[0].bytes : 0;
    message.base = message.bytes ? segments[0].data : nullptr;
    message.type = MPI_BYTE;
    message.count = static_cast<int>(message.bytes);
    return;
  }
  blockLengths_.clear();
  displacements_.clear();
  message.bytes = 0;
  message.base = nullptr;
  const char* runStart = nullptr;
  std::size_t runLength = 0;
  auto flush = [&] {
    if (runLength == 0) return;
    MPI_Aint address = 0;
    check(MPI_Get_address(runStart, &address), "MPI_Get_address");
    blockLengths_.push_back(static_cast<int>(runLength));
    displacements_.push_back(address);
    if (!message.base) message.base = runStart;
    runLength = 0;
  };
  for (std::size_t s = 0; s < n; ++s) {
    const char* p = static_cast<const char*>(segments[s].data);
    const std::size_t bytes = segments[s].bytes;
    for (std::size_t off = 0; off < bytes;) {
      const std::size_t len = std::min(kMaxMessageBytes, bytes - off);
      if (runLength && runStart + runLength == p + off && runLength + len <= kMaxMessageBytes) {
        runLength += len;
      } else {
        flush();
        runStart = p + off;
        runLength = len;
      }
      off += len;
      message.bytes += len;
    }
  }
  flush();
  message.type = MPI_BYTE;
  message.count = blockLengths_.empty() ? 0 : blockLengths_.front();
  if (blockLengths_.size() <= 1) return;
  if (packing && message.bytes <= kPackBelowBytes) {
    // One contiguous message through the step's pack buffer: sends are
    // copied in now, receives copied out after the step completes.
    char* at = packing->base + packing->used;
    std::size_t offset = 0;
    for (std::size_t s = 0; s < n; ++s) {
      const std::size_t bytes = segments[s].bytes;
      if (!bytes) continue;
      if (packing->receives)
        unpack_.push_back({static_cast<std::size_t>(at - packBuffer_.data()) + offset,
                           const_cast<void*>(static_cast<const void*>(segments[s].data)), bytes});
      else
        std::memcpy(at + offset, segments[s].data, bytes);
      offset += bytes;
    }
    packing->used += message.bytes;
    message.base = at;
    message.count = static_cast<int>(message.bytes);
    return;
  }
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check(MPI_Type_create_hindexed(static_cast<int>(blockLengths_.size()), blockLengths_.data(),
                                 displacements_.data(), MPI_BYTE, &type),
        "MPI_Type_create_hindexed");
  types_.push_back(type);
  check(MPI_Type_commit(&types_.back()), "MPI_Type_commit");
  message.type = types_.back();
  message.count = 1;
  message.base = MPI_BOTTOM;
}

// The common step of a small collective -- one peer each way, through
// the channels -- here, and everything else in exchangeSteps, out of
// line: a call after other work then runs a few adjacent lines of this
// function rather than lines spread over all of it.
void MpiTransport::exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) {
  if (__builtin_expect(failed_, 0)) unusable();
  if (n == 1 && shm_ && tag >= 0) {
    const PeerExchange& x = exchanges[0];
    const std::size_t out = x.to == kNoPeer ? 0 : bytesOf(x.sends, x.numSends);
    const std::size_t in = x.from == kNoPeer ? 0 : bytesOf(x.recvs, x.numRecvs);
    if ((x.to == kNoPeer || viaSharedMemory(x.to, out)) && (x.from == kNoPeer || viaSharedMemory(x.from, in))) {
      ShmChannels::Send send;
      ShmChannels::Receive receive;
      if (!exchangeThroughChannels(*shm_, x, out, in, tag, send, receive, timeoutMs_)) {
        requests_.clear();
        timedOut(tag, receive.done ? std::vector<int>{} : std::vector<int>{x.from},
                 send.done ? std::vector<int>{} : std::vector<int>{x.to});
      }
      if (x.from != kNoPeer) checkSharedMemoryReceive(receive, tag);
      return;
    }
  }
  exchangeSteps(exchanges, n, tag);
}

void MpiTransport::unusable() const {
  throw Error("coll::MpiTransport: unusable since an earlier exchange failed (" + failure_ + ")");
}

void MpiTransport::timedOut(int tag, const std::vector<int>& silent, const std::vector<int>& full) {
  // The step's MPI messages will not complete: cancelled and released
  // without waiting (a send to a dead rank never completes). The
  // transport is not used again.
  for (MPI_Request& r : requests_)
    if (r != MPI_REQUEST_NULL) {
      MPI_Cancel(&r);
      MPI_Request_free(&r);
    }
  const std::string what = detail::waitedTooLong(rank_, timeoutMs_, tag, silent, full);
  failed_ = true;
  failure_ = what;
  throw Error("coll::MpiTransport: " + what);
}

void MpiTransport::exchangeSteps(const PeerExchange* exchanges, std::size_t n, int tag) {
  if (tag < 0) throw Error("coll::MpiTransport: negative tag " + std::to_string(tag));
  // Tags only need to differ between nearby steps; wrap to stay legal.
  const int mpiTag = tagUpperBound_ == INT_MAX ? tag : tag % (tagUpperBound_ + 1);
  shmSends_.clear();
  shmReceives_.clear();
  bool allShm = shm_ != nullptr;
  if (shm_) {
    for (std::size_t e = 0; e < n; ++e) {
      const PeerExchange& x = exchanges[e];
      if (x.to != kNoPeer) {
        const std::size_t bytes = bytesOf(x.sends, x.numSends);
        if (!viaSharedMemory(x.to, bytes)) {
          allShm = false;
        } else {
          ShmChannels::Send& send = shmSends_.emplace_back();
          send.segments = x.sends;
          send.numSegments = x.numSends;
          send.bytes = bytes;
          send.peer = x.to;
          send.tag = static_cast<std::uint32_t>(tag);
        }
      }
      if (x.from != kNoPeer) {
        const std::size_t bytes = bytesOf(x.recvs, x.numRecvs);
        if (!viaSharedMemory(x.from, bytes)) {
          allShm = false;
        } else {
          ShmChannels::Receive& receive = shmReceives_.emplace_back();
          receive.segments = x.recvs;
          receive.numSegments = x.numRecvs;
          receive.expected = bytes;
          receive.peer = x.from;
        }
      }
    }
  }
  if (allShm) {
    requests_.clear();
    sources_.clear();
    progressUntilDone(tag);
    checkSharedMemoryReceives(tag);
    return;
  }
  // The common step, one peer each way and one contiguous run each side:
  // MPI_Sendrecv, which lets the library send a small message inline,
  // without a request to allocate and complete.
  auto contiguous = [](const auto* segments, std::size_t count) {
    return count == 0 || (count == 1 && segments[0].bytes <= kMaxMessageBytes);
  };
  // (Not with a wait limit: a blocking call cannot be given up.)
  if (n == 1 && timeoutMs_ == 0 && exchanges[0].to != kNoPeer && exchanges[0].from != kNoPeer && shmSends_.empty() &&
      shmReceives_.empty() && contiguous(exchanges[0].sends, exchanges[0].numSends) &&
      contiguous(exchanges[0].recvs, exchanges[0].numRecvs)) {
    const PeerExchange& x = exchanges[0];
    Message out, in;
    describe(x.sends, x.numSends, out, nullptr);
    describe(x.recvs, x.numRecvs, in, nullptr);
    MPI_Status status;
    check(MPI_Sendrecv(out.base, out.count, MPI_BYTE, x.to, mpiTag, const_cast<void*>(in.base),
                       in.count, MPI_BYTE, x.from, mpiTag, comm_, &status),
          "MPI_Sendrecv");
    int got = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &got), "MPI_Get_count");
    if (got == MPI_UNDEFINED || static_cast<std::size_t>(got) != in.bytes)
      throw Error("coll::MpiTransport: expected " + std::to_string(in.bytes) + " bytes from rank " +
                  std::to_string(x.from) + " (tag " + std::to_string(tag) + "), got " +
                  std::to_string(got));
    return;
  }
  requests_.clear();
  expectedBytes_.clear();
  sources_.clear();
  recvTypes_.clear();
  // Datatypes made for this step are freed however it ends.
  struct FreeTypes {
    std::vector<MPI_Datatype>& types;
    ~FreeTypes() {
      for (MPI_Datatype& t : types) MPI_Type_free(&t);
      types.clear();
    }
  } freeTypes{types_};
  // A failure must not leave requests writing into buffers the caller
  // frees while the exception unwinds: cancel and complete them first.
  auto abandon = [&] {
    for (MPI_Request& r : requests_)
      if (r != MPI_REQUEST_NULL) {
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
  };
  auto post = [&](int code, const char* what) {
    if (code == MPI_SUCCESS) return;
    abandon();
    check(code, what);
  };
  auto describeOrAbandon = [&](const auto* segments, std::size_t count, Message& message,
                               Packing* packing) {
    try {
      describe(segments, count, message, packing);
    } catch (...) {
      abandon();
      throw;
    }
  };

  // Small scattered messages are packed (a datatype costs more than the
  // copy): room for all of the step's bytes is made before anything is
  // posted, so the buffers never move under a pending request.
  // (At most the sides of several segments and kPackBelowBytes or fewer.)
  std::size_t stepBytes = 0;
  auto packable = [](auto* segments, std::size_t count) {
    std::size_t bytes = 0;
    for (std::size_t s = 0; s < count; ++s) bytes += segments[s].bytes;
    return count > 1 && bytes <= kPackBelowBytes ? bytes : 0;
  };
  for (std::size_t e = 0; e < n; ++e) {
    const PeerExchange& x = exchanges[e];
    if (x.to != kNoPeer && !viaSharedMemory(x.to, bytesOf(x.sends, x.numSends)))
      stepBytes += packable(x.sends, x.numSends);
    if (x.from != kNoPeer && !viaSharedMemory(x.from, bytesOf(x.recvs, x.numRecvs)))
      stepBytes += packable(x.recvs, x.numRecvs);
  }
  if (packBuffer_.size() < stepBytes) packBuffer_.resize(stepBytes);
  Packing packedRecv{packBuffer_.data(), 0, true}, packedSend{nullptr, 0, false};
  unpack_.clear();

  // Receives first so incoming data can land directly in user memory. A
  // peer with nothing to move still gets one empty message, so a step
  // always synchronizes its ranks (a barrier is made of such steps).
  // Every exchange is one message each way.
  Message message;
  for (std::size_t e = 0; e < n; ++e) {
    const PeerExchange& x = exchanges[e];
    if (x.from == kNoPeer || viaSharedMemory(x.from, bytesOf(x.recvs, x.numRecvs))) continue;
    describeOrAbandon(x.recvs, x.numRecvs, message, &packedRecv);
    requests_.push_back(MPI_REQUEST_NULL);
    expectedBytes_.push_back(message.bytes);
    sources_.push_back(x.from);
    recvTypes_.push_back(message.type);
    post(MPI_Irecv(const_cast<void*>(message.base), message.count, message.type, x.from, mpiTag,
                   comm_, &requests_.back()),
         "MPI_Irecv");
  }
  const std::size_t numRecvRequests = requests_.size();
  packedSend = Packing{packedRecv.base + packedRecv.used, 0, false};
  for (std::size_t e = 0; e < n; ++e) {
    const PeerExchange& x = exchanges[e];
    if (x.to == kNoPeer || viaSharedMemory(x.to, bytesOf(x.sends, x.numSends))) continue;
    describeOrAbandon(x.sends, x.numSends, message, &packedSend);
    requests_.push_back(MPI_REQUEST_NULL);
    post(MPI_Isend(message.base, message.count, message.type, x.to, mpiTag, comm_,
                   &requests_.back()),
         "MPI_Isend");
  }
  if (requests_.empty() && shmSends_.empty() && shmReceives_.empty()) return;

  statuses_.resize(requests_.size());
  const int rc = shmSends_.empty() && shmReceives_.empty() && timeoutMs_ == 0
                     ? MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data())
                     : progressUntilDone(tag);
  if (rc != MPI_SUCCESS) abandon();  // requests still pending (MPI_ERR_PENDING)
  if (rc == MPI_ERR_IN_STATUS) {
    for (const MPI_Status& st : statuses_)
      if (st.MPI_ERROR != MPI_SUCCESS && st.MPI_ERROR != MPI_ERR_PENDING) check(st.MPI_ERROR, "MPI_Waitall");
  }
  check(rc, "MPI_Waitall");

  // A short message means the two sides disagree about the step.
  for (std::size_t r = 0; r < numRecvRequests; ++r) {
    MPI_Count got = 0;
#if COLLC_SMPI
    // SMPI 3.32 has no MPI_Get_elements_x (it aborts the simulation); a
    // simulated message stays below 2^31 bytes, which an int counts.
    int bytes = 0;
    check(MPI_Get_count(&statuses_[r], MPI_BYTE, &bytes), "MPI_Get_count");
    got = bytes;
#else
    check(MPI_Get_elements_x(&statuses_[r], recvTypes_[r], &got), "MPI_Get_elements_x");
#endif
    if (got == MPI_UNDEFINED || static_cast<std::size_t>(got) != expectedBytes_[r])
      throw Error("coll::MpiTransport: expected " + std::to_string(expectedBytes_[r]) + " bytes from rank " +
                  std::to_string(sources_[r]) + " (tag " + std::to_string(tag) + "), got " +
                  std::to_string(static_cast<long long>(got)));
  }
  checkSharedMemoryReceives(tag);
  for (const Unpack& u : unpack_) std::memcpy(u.to, packBuffer_.data() + u.from, u.bytes);
}

int MpiTransport::progressUntilDone(int tag) {
  bool mpiDone = requests_.empty();
  detail::Poller poller(timeoutMs_);
  // A channel carries one message after another: of several messages to
  // (from) one peer in a step, only the first unfinished one moves, so
  // they are sent (filed) in the order MPI would match them.
  auto progressInOrder = [&](auto& messages, bool& done, bool& moved) {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      auto& m = messages[i];
      if (m.done) continue;
      bool first = true;
      for (std::size_t j = 0; j < i && first; ++j) first = messages[j].done || messages[j].peer != m.peer;
      if (first) moved |= shm_->progress(m);
      done &= m.done;
    }
  };
  for (;;) {
    bool done = true, moved = false;
    progressInOrder(shmSends_, done, moved);
    progressInOrder(shmReceives_, done, moved);
    if (!mpiDone) {
      int flag = 0;
      const int rc = MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &flag, statuses_.data());
      if (rc != MPI_SUCCESS) return rc;
      mpiDone = flag != 0;
      done &= mpiDone;
    }
    if (done) return MPI_SUCCESS;
    if (poller.after(moved)) {
      // Who has not been heard from: the pending receives (MPI's come
      // first in requests_, one per source_).
      std::vector<int> silent, full;
      for (const ShmChannels::Receive& r : shmReceives_)
        if (!r.done) silent.push_back(r.peer);
      for (const ShmChannels::Send& s : shmSends_)
        if (!s.done) full.push_back(s.peer);
      for (std::size_t r = 0; r < sources_.size() && !mpiDone; ++r) {
        int flag = 1;
        if (requests_[r] != MPI_REQUEST_NULL) MPI_Test(&requests_[r], &flag, MPI_STATUS_IGNORE);
        if (!flag) silent.push_back(sources_[r]);
      }
      std::sort(silent.begin(), silent.end());
      silent.erase(std::unique(silent.begin(), silent.end()), silent.end());
      timedOut(tag, silent, full);
    }
  }
}

// Both sides of a message through the channels agree on it as MPI's
// would: its size and its step.
void MpiTransport::checkSharedMemoryReceives(int tag) const {
  for (const ShmChannels::Receive& receive : shmReceives_) checkSharedMemoryReceive(receive, tag);
}

namespace {

class MpiBootstrap final : public UcxBootstrap {
 public:
  explicit MpiBootstrap(MPI_Comm comm) {
    int rank = 0;
    check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    check(MPI_Comm_split(comm, 0, rank, &comm_), "MPI_Comm_split");
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiBootstrap() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  // A ring: in step s each rank passes on the string of rank - s.
  std::vector<std::string> allGather(const std::string& mine) override {
    std::vector<std::string> all(static_cast<std::size_t>(size_));
    all[static_cast<std::size_t>(rank_)] = mine;
    const int next = (rank_ + 1) % size_, prev = (rank_ - 1 + size_) % size_;
    for (int s = 0; s + 1 < size_; ++s) {
      const std::string& out = all[static_cast<std::size_t>((rank_ - s + size_) % size_)];
      std::string& in = all[static_cast<std::size_t>((rank_ - s - 1 + size_) % size_)];
      unsigned long long outLength = out.size(), inLength = 0;
      check(MPI_Sendrecv(&outLength, 1, MPI_UNSIGNED_LONG_LONG, next, 0, &inLength, 1, MPI_UNSIGNED_LONG_LONG, prev,
                         0, comm_, MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
      in.assign(static_cast<std::size_t>(inLength), '\0');
      check(MPI_Sendrecv(out.data(), static_cast<int>(out.size()), MPI_BYTE, next, 1, in.data(),
                         static_cast<int>(in.size()), MPI_BYTE, prev, 1, comm_, MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
    }
    return all;
  }
  // Dissemination with nonblocking messages, calling whileWaiting until
  // each round's have arrived.
  void barrier(const std::function<void()>& whileWaiting) override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;  // the transport outlived MPI: its own barrier was the last word
    for (int d = 1; d < size_; d *= 2) {
      MPI_Request requests[2];
      check(MPI_Irecv(nullptr, 0, MPI_BYTE, (rank_ - d + size_) % size_, 2, comm_, &requests[0]), "MPI_Irecv");
      check(MPI_Isend(nullptr, 0, MPI_BYTE, (rank_ + d) % size_, 2, comm_, &requests[1]), "MPI_Isend");
      for (int done = 0; !done;) {
        check(MPI_Testall(2, requests, &done, MPI_STATUSES_IGNORE), "MPI_Testall");
        if (!done && whileWaiting) whileWaiting();
      }
    }
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
};

}  // namespace

std::unique_ptr<UcxBootstrap> mpiBootstrap(MPI_Comm comm) { return std::make_unique<MpiBootstrap>(comm); }

std::unique_ptr<Transport> makeTransport(MPI_Comm comm, std::int64_t timeoutMs) {
  const char* which = std::getenv("COLLC_TRANSPORT");
  if (!which || !*which || std::strcmp(which, "mpi") == 0)
    return std::make_unique<MpiTransport>(comm, MpiTransport::Options::fromEnvironment(timeoutMs));
  if (std::strcmp(which, "ucx") == 0) {
#if COLLC_UCX
    return std::make_unique<UcxTransport>(
        mpiBootstrap(comm), detail::timeoutFromEnvironment("coll::UcxTransport", timeoutMs));
#else
    throw Error("coll::Comm: COLLC_TRANSPORT=ucx, but this runtime is built without UCX");
#endif
  }
  throw Error(std::string("coll::Comm: COLLC_TRANSPORT='") + which + "': expected mpi or ucx");
}

}  // namespace coll
