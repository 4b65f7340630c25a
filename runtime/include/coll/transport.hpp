#pragma once
// Point-to-point layer of the collc runtime: the Transport interface that
// schedules run on, its MPI implementation, and Comm, the handle users pass
// to generated collectives.

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
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "coll/error.hpp"

namespace coll {

class Recording;  // coll/executor.hpp

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

// Transport over a private duplicate of an MPI communicator, so collc
// messages can never match the application's own messages.
class MpiTransport final : public Transport {
 public:
  explicit MpiTransport(MPI_Comm comm);
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void exchange(const SendSegment* sends, std::size_t numSends, int to,
                const RecvSegment* recvs, std::size_t numRecvs, int from,
                int tag) override;
  void exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) override;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;
  int tagUpperBound_ = 32767;  // the MPI-guaranteed minimum until queried
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
};

// What the executor (coll/executor.hpp) builds per step, kept in the Comm
// between calls so a collective called in a loop does not allocate once
// warmed up.
struct ExecutorBuffers {
  std::vector<unsigned char> staging;  // messages to merge, or to copy over a part also sent
  std::vector<char> sentNow;           // per part: sent in the current step (or group)
  std::vector<char> writtenNow;        // per part: written by an earlier step of the group
  std::vector<char> moved;             // per part: written since the start (left its initial)
  std::vector<char> landsInPlace;      // per received part of the group: not staged
  std::vector<SendSegment> sendSegs;
  std::vector<RecvSegment> recvSegs;
  std::vector<PeerExchange> exchanges;
  std::vector<std::size_t> sendStart, recvStart;  // per message, into the segments
};

// The communicator handle of generated collectives. Owns its transport.
class Comm {
 public:
  explicit Comm(MPI_Comm comm);
  explicit Comm(std::unique_ptr<Transport> transport);
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  Comm(Comm&&) noexcept = default;
  Comm& operator=(Comm&&) noexcept = default;
  ~Comm() = default;

  int rank() const { return transport_->rank(); }
  int size() const { return transport_->size(); }
  Transport& transport() { return *transport_; }

  // Where the executor records what this rank sends and receives (null:
  // nothing is recorded). Ranks that share one Recording (e.g. on one
  // LocalNetwork) record one program.
  void setRecording(std::shared_ptr<Recording> recording) { recording_ = std::move(recording); }
  Recording* recording() const { return recording_.get(); }

  // The executor's per-step buffers (see ExecutorBuffers).
  ExecutorBuffers& executorBuffers() { return executorBuffers_; }

  // A schedule's plan for this communicator (e.g. the shifted butterfly's
  // step list), made by `make` on first use and kept while the Comm lives,
  // so a collective called in a loop plans once. The size never changes,
  // so `key` (the plan's maker and arguments, e.g.
  // "coll::butterflyPlan(1, cyclic)") identifies the plan; a key asked for
  // as another Plan type is an error.
  template <class Plan, class Make>
  const Plan& plan(std::string_view key, Make&& make) {
    auto it = plans_.find(key);
    if (it == plans_.end())
      it = plans_.emplace(std::string(key), StoredPlan{std::make_shared<const Plan>(make()), typeid(Plan)}).first;
    else if (it->second.type != typeid(Plan))
      throw Error("coll::Comm::plan: '" + std::string(key) + "' holds another type of plan");
    return *static_cast<const Plan*>(it->second.plan.get());
  }

 private:
  struct StoredPlan {
    std::shared_ptr<const void> plan;
    std::type_index type;
  };
  std::unique_ptr<Transport> transport_;
  std::map<std::string, StoredPlan, std::less<>> plans_;
  std::shared_ptr<Recording> recording_;
  ExecutorBuffers executorBuffers_;
};

}  // namespace coll
