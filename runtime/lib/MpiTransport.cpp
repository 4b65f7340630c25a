// MPI implementation of coll::Transport and the Comm constructors.

#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "coll/transport.hpp"

namespace coll {
namespace {

// MPI counts are int; larger segments go out as several messages. Both sides
// split the same sizes the same way, and MPI keeps messages between one pair
// on one tag in order, so the pieces match up.
constexpr std::size_t kMaxMessageBytes = std::size_t{1} << 30;

std::string mpiErrorString(int code) {
  char buffer[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, buffer, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(buffer, static_cast<std::size_t>(length));
}

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw Error(std::string("coll::MpiTransport: ") + what + " failed: " + mpiErrorString(code));
}

}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) throw Error("coll::Comm: MPI is not initialized (call MPI_Init first)");
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  // From here on failures must free the duplicate: the destructor will not run.
  try {
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    void* value = nullptr;
    int found = 0;
    check(MPI_Comm_get_attr(comm_, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr(MPI_TAG_UB)");
    if (found && value != nullptr) tagUpperBound_ = *static_cast<int*>(value);
  } catch (...) {
    MPI_Comm_free(&comm_);
    throw;
  }
}

MpiTransport::~MpiTransport() {
  // Freeing after MPI_Finalize is erroneous; then there is nothing to free.
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiTransport::exchange(const SendSegment* sends, std::size_t numSends, int to,
                            const RecvSegment* recvs, std::size_t numRecvs, int from, int tag) {
  const PeerExchange one{sends, numSends, to, recvs, numRecvs, from};
  exchangeAll(&one, 1, tag);
}

void MpiTransport::exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) {
  if (tag < 0) throw Error("coll::MpiTransport: negative tag " + std::to_string(tag));
  // Tags only need to differ between nearby steps; wrap to stay legal.
  const int mpiTag = tagUpperBound_ == INT_MAX ? tag : tag % (tagUpperBound_ + 1);
  requests_.clear();
  expectedBytes_.clear();
  sources_.clear();
  // A failed post must not leave earlier requests writing into buffers the
  // caller frees while the exception unwinds: cancel and complete them.
  auto post = [&](int code, const char* what) {
    if (code == MPI_SUCCESS) return;
    for (MPI_Request& r : requests_)
      if (r != MPI_REQUEST_NULL) {
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
    check(code, what);
  };

  // Receives first so incoming data can land directly in user memory. A
  // peer with nothing to move still gets one empty message, so a step
  // always synchronizes its ranks (a barrier is made of such steps).
  for (std::size_t e = 0; e < n; ++e) {
    const PeerExchange& x = exchanges[e];
    if (x.from == kNoPeer) continue;
    std::size_t recvBytes = 0;
    for (std::size_t s = 0; s < x.numRecvs; ++s) recvBytes += x.recvs[s].bytes;
    if (recvBytes == 0) {
      requests_.push_back(MPI_REQUEST_NULL);
      expectedBytes_.push_back(0);
      sources_.push_back(x.from);
      post(MPI_Irecv(nullptr, 0, MPI_BYTE, x.from, mpiTag, comm_, &requests_.back()), "MPI_Irecv");
    }
    for (std::size_t s = 0; s < x.numRecvs; ++s) {
      char* base = static_cast<char*>(x.recvs[s].data);
      for (std::size_t off = 0; off < x.recvs[s].bytes; off += kMaxMessageBytes) {
        const std::size_t len = std::min(kMaxMessageBytes, x.recvs[s].bytes - off);
        requests_.push_back(MPI_REQUEST_NULL);
        expectedBytes_.push_back(len);
        sources_.push_back(x.from);
        post(MPI_Irecv(base + off, static_cast<int>(len), MPI_BYTE, x.from, mpiTag, comm_, &requests_.back()),
             "MPI_Irecv");
      }
    }
  }
  const std::size_t numRecvRequests = requests_.size();
  for (std::size_t e = 0; e < n; ++e) {
    const PeerExchange& x = exchanges[e];
    if (x.to == kNoPeer) continue;
    std::size_t sendBytes = 0;
    for (std::size_t s = 0; s < x.numSends; ++s) sendBytes += x.sends[s].bytes;
    if (sendBytes == 0) {
      requests_.push_back(MPI_REQUEST_NULL);
      post(MPI_Isend(nullptr, 0, MPI_BYTE, x.to, mpiTag, comm_, &requests_.back()), "MPI_Isend");
    }
    for (std::size_t s = 0; s < x.numSends; ++s) {
      const char* base = static_cast<const char*>(x.sends[s].data);
      for (std::size_t off = 0; off < x.sends[s].bytes; off += kMaxMessageBytes) {
        const std::size_t len = std::min(kMaxMessageBytes, x.sends[s].bytes - off);
        requests_.push_back(MPI_REQUEST_NULL);
        post(MPI_Isend(base + off, static_cast<int>(len), MPI_BYTE, x.to, mpiTag, comm_, &requests_.back()),
             "MPI_Isend");
      }
    }
  }
  if (requests_.empty()) return;

  statuses_.resize(requests_.size());
  const int rc = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
  if (rc == MPI_ERR_IN_STATUS) {
    for (const MPI_Status& st : statuses_)
      if (st.MPI_ERROR != MPI_SUCCESS && st.MPI_ERROR != MPI_ERR_PENDING) check(st.MPI_ERROR, "MPI_Waitall");
  }
  check(rc, "MPI_Waitall");

  // A short message means the two sides disagree about the step.
  for (std::size_t r = 0; r < numRecvRequests; ++r) {
    int got = 0;
    check(MPI_Get_count(&statuses_[r], MPI_BYTE, &got), "MPI_Get_count");
    if (static_cast<std::size_t>(got) != expectedBytes_[r])
      throw Error("coll::MpiTransport: expected " + std::to_string(expectedBytes_[r]) + " bytes from rank " +
                  std::to_string(sources_[r]) + " (tag " + std::to_string(tag) + "), got " + std::to_string(got));
  }
}

Comm::Comm(MPI_Comm comm) : transport_(std::make_unique<MpiTransport>(comm)) {}

Comm::Comm(std::unique_ptr<Transport> transport) : transport_(std::move(transport)) {
  if (!transport_) throw Error("coll::Comm: null transport");
}

}  // namespace coll
