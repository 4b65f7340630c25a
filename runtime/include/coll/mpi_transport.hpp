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

#include <memory>
#include <vector>

#include "coll/transport.hpp"

namespace coll {

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

template <>
struct TransportFor<MPI_Comm> {
  static std::unique_ptr<Transport> make(MPI_Comm comm) { return std::make_unique<MpiTransport>(comm); }
};

}  // namespace coll
