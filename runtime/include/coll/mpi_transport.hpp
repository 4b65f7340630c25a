#pragma once
// The MPI transport: collc's messages over a private duplicate of an MPI
// communicator, and Comm{MPI_Comm} (coll::TransportFor<MPI_Comm>).

// Open MPI's legacy C++ bindings, pulled in by mpi.h, trip
// -Wcast-function-type under -Wextra; silence that for mpi.h alone.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#if defined(__clang__)
#pragma GCC diagnostic ignored "-Wunknown-warning-option"
#endif
#pragma GCC diagnostic ignored "-Wcast-function-type"
#endif
#include <mpi.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "coll/shm_channels.hpp"
#include "coll/transport.hpp"
#include "coll/ucx_transport.hpp"

namespace coll {

// Transport over a private duplicate of an MPI communicator, so collc
// messages can never match the application's own messages. Messages of at
// most Options::sharedMemoryBytes between ranks of one node go through
// shared-memory channels (coll/shm_channels.hpp, in an MPI-3 shared window
// of the node's ranks) instead of MPI's point-to-point calls; both sides
// of a message take the same way, as both know its size.
class MpiTransport final : public Transport {
 public:
  struct Options {
    bool sharedMemory = true;
    std::size_t sharedMemoryBytes = 32768;
    // How long one exchange may wait for its peers before it fails with
    // an error naming them (0: forever). The transport is unusable after.
    std::int64_t timeoutMs = 0;
    // From the environment: COLLC_SHM=0 turns the channels off,
    // COLLC_SHM_BYTES=N sets the largest message they carry (0: off),
    // COLLC_TIMEOUT_MS=N the wait limit (else `timeoutMs`).
    static Options fromEnvironment(std::int64_t timeoutMs = 0);
  };
  // Collective over comm. The ranks of a node use the channels only if
  // all of them ask for them (the smallest sharedMemoryBytes holds).
  explicit MpiTransport(MPI_Comm comm, Options options = Options::fromEnvironment());
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void exchange(const SendSegment* sends, std::size_t numSends, int to,
                const RecvSegment* recvs, std::size_t numRecvs, int from,
                int tag) override;
  void exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) override;
  std::vector<const void*> hotMemory() const override;
  MovingMemory movingHotMemory() const override;

  // The largest message the shared-memory channels carry (0: none do,
  // e.g. every rank on a node of its own).
  std::size_t sharedMemoryBytes() const { return shm_ ? sharedMemoryBytes_ : 0; }

 private:
  void setUpSharedMemory(Options options);
  // exchangeAll's steps other than one peer each way through the channels.
  [[gnu::noinline]] void exchangeSteps(const PeerExchange* exchanges, std::size_t n, int tag);
  // Whether a message of `bytes` to or from `peer` goes through the
  // shared-memory channels: at most sharedMemoryBytes_, to or from a rank
  // of this node (both sides of a message know its size, so both take
  // the same way).
  bool viaSharedMemory(int peer, std::size_t bytes) const {
    return shm_ && bytes <= sharedMemoryBytes_ && shm_->reaches(peer);
  }
  void freeSharedMemory();
  // Runs the step's shared-memory messages and completes its MPI requests
  // (requests_), whichever arrive first.
  int progressUntilDone(int tag);
  // Throws unless every receive through the channels got the size and
  // tag its step expects.
  void checkSharedMemoryReceives(int tag) const;
  // After a wait past timeoutMs_: gives up the step's pending requests,
  // marks the transport failed and throws, naming the peers not heard
  // from (or not taking this rank's messages).
  [[noreturn]] void timedOut(int tag, const std::vector<int>& silent, const std::vector<int>& full);
  [[noreturn]] void unusable() const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;
  int tagUpperBound_ = 32767;  // the MPI-guaranteed minimum until queried
  std::int64_t timeoutMs_ = 0;
  bool failed_ = false;  // an exchange timed out: the step's state is lost
  std::string failure_;
  // One side of an exchange as one MPI message (see describe()).
  struct Message {
    const void* base = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_BYTE;
    std::size_t bytes = 0;
  };
  // Where small scattered messages of a step are packed: `used` bytes of
  // the region at `base` so far; receives are unpacked after the step.
  struct Packing {
    char* base;
    std::size_t used;
    bool receives;
  };
  struct Unpack {
    std::size_t from;  // offset in packBuffer_
    void* to;
    std::size_t bytes;
  };
  template <class Segment>  // SendSegment or RecvSegment
  void describe(const Segment* segments, std::size_t n, Message& message, Packing* packing);

  // Reused across steps so a step does not allocate once warmed up.
  std::vector<MPI_Request> requests_;
  std::vector<MPI_Status> statuses_;
  std::vector<std::size_t> expectedBytes_;  // per receive request
  std::vector<int> sources_;                // per receive request, for messages
  std::vector<MPI_Datatype> recvTypes_;     // per receive request
  std::vector<MPI_Datatype> types_;         // made for this step, freed at its end
  std::vector<int> blockLengths_;
  std::vector<MPI_Aint> displacements_;
  std::vector<char> packBuffer_;
  std::vector<Unpack> unpack_;

  // The shared-memory channels among this node's ranks (null: none).
  MPI_Comm node_ = MPI_COMM_NULL;  // this node's ranks of comm_
  MPI_Win window_ = MPI_WIN_NULL;  // their regions
  bool windowLocked_ = false;      // in a passive epoch (lock_all) while it lives
  std::unique_ptr<ShmChannels> shm_;
  std::size_t sharedMemoryBytes_ = 0;
  // A step's messages through the channels.
  std::vector<ShmChannels::Send> shmSends_;
  std::vector<ShmChannels::Receive> shmReceives_;
};

// A bootstrap for UcxTransport over the ranks of comm (collective): a
// private copy of comm, its all-gather a ring of MPI_Sendrecv and its
// barrier a dissemination of empty ones (libcollc_mpi.so serves
// MPI_Allgather and MPI_Barrier itself).
std::unique_ptr<UcxBootstrap> mpiBootstrap(MPI_Comm comm);

// The transport of Comm{comm} (collective over comm): MpiTransport, or
// with COLLC_TRANSPORT=ucx in the environment (every rank alike) a
// UcxTransport bootstrapped over comm. Either waits at most
// COLLC_TIMEOUT_MS, else `timeoutMs` (0: forever), for an exchange.
std::unique_ptr<Transport> makeTransport(MPI_Comm comm, std::int64_t timeoutMs = 0);

template <>
struct TransportFor<MPI_Comm> {
  static std::unique_ptr<Transport> make(MPI_Comm comm) { return makeTransport(comm); }
};

}  // namespace coll
