// MPI implementation of coll::Transport and the Comm constructors.

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <utility>

#include "coll/mpi_transport.hpp"

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

}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm) {
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

void MpiTransport::exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) {
  if (tag < 0) throw Error("coll::MpiTransport: negative tag " + std::to_string(tag));
  // Tags only need to differ between nearby steps; wrap to stay legal.
  const int mpiTag = tagUpperBound_ == INT_MAX ? tag : tag % (tagUpperBound_ + 1);
  // The common step, one peer each way and one contiguous run each side:
  // MPI_Sendrecv, which lets the library send a small message inline,
  // without a request to allocate and complete.
  auto contiguous = [](const auto* segments, std::size_t count) {
    return count == 0 || (count == 1 && segments[0].bytes <= kMaxMessageBytes);
  };
  if (n == 1 && exchanges[0].to != kNoPeer && exchanges[0].from != kNoPeer &&
      contiguous(exchanges[0].sends, exchanges[0].numSends) &&
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
    if (exchanges[e].to != kNoPeer) stepBytes += packable(exchanges[e].sends, exchanges[e].numSends);
    if (exchanges[e].from != kNoPeer) stepBytes += packable(exchanges[e].recvs, exchanges[e].numRecvs);
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
    if (x.from == kNoPeer) continue;
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
    if (x.to == kNoPeer) continue;
    describeOrAbandon(x.sends, x.numSends, message, &packedSend);
    requests_.push_back(MPI_REQUEST_NULL);
    post(MPI_Isend(message.base, message.count, message.type, x.to, mpiTag, comm_,
                   &requests_.back()),
         "MPI_Isend");
  }
  if (requests_.empty()) return;

  statuses_.resize(requests_.size());
  const int rc = MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
  if (rc != MPI_SUCCESS) abandon();  // requests still pending (MPI_ERR_PENDING)
  if (rc == MPI_ERR_IN_STATUS) {
    for (const MPI_Status& st : statuses_)
      if (st.MPI_ERROR != MPI_SUCCESS && st.MPI_ERROR != MPI_ERR_PENDING) check(st.MPI_ERROR, "MPI_Waitall");
  }
  check(rc, "MPI_Waitall");

  // A short message means the two sides disagree about the step.
  for (std::size_t r = 0; r < numRecvRequests; ++r) {
    MPI_Count got = 0;
    check(MPI_Get_elements_x(&statuses_[r], recvTypes_[r], &got), "MPI_Get_elements_x");
    if (got == MPI_UNDEFINED || static_cast<std::size_t>(got) != expectedBytes_[r])
      throw Error("coll::MpiTransport: expected " + std::to_string(expectedBytes_[r]) + " bytes from rank " +
                  std::to_string(sources_[r]) + " (tag " + std::to_string(tag) + "), got " +
                  std::to_string(static_cast<long long>(got)));
  }
  for (const Unpack& u : unpack_) std::memcpy(u.to, packBuffer_.data() + u.from, u.bytes);
}

}  // namespace coll
