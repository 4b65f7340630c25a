// MpiTransport's exchanges between two ranks, on each of its paths: MPI
// with one contiguous run each way (MPI_Sendrecv) and with scattered
// segments (Irecv/Isend/Waitall with a packed or hindexed message), and
// the shared-memory channels (coll/shm_channels.hpp) for messages up to
// their size, alone or beside MPI messages in one step. Each moves the
// exact bytes, in the order MPI matches them, and a receive that gets
// fewer bytes than it expects throws the same error on every path, naming
// the bytes, the peer and the tag; on the channels a message of another
// step (tag) is an error too. At any P the ranks pair up (2k with 2k+1, on
// a communicator of their own); with P odd the last rank has no partner
// and only reports.
// The same cases run on coll::UcxTransport (UCP tagged messages, UCX_TLS
// from the environment).
//   mpirun -np 2 check_transport   -> "PASS transport P=2 19 cases"

#include "coll/mpi_transport.hpp"

#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, int rank, const std::string& what) {
  if (ok) return;
  std::printf("FAIL transport rank %d: %s\n", rank, what.c_str());
  ++failures;
}

// Runs one exchange with the peer, receiving into `pieces` runs of `piece`
// bytes each (one run: the contiguous path) while the peer sends
// `sentBytes`; returns the error text, or "" when none was thrown.
std::string exchangeWith(coll::Transport& t, std::size_t sentBytes, std::size_t pieces,
                         std::size_t piece, std::vector<unsigned char>& got, int tag, int sendTag = -1) {
  const int peer = 1 - t.rank();
  std::vector<unsigned char> out(sentBytes);
  for (std::size_t i = 0; i < sentBytes; ++i)
    out[i] = static_cast<unsigned char>(17 * t.rank() + 3 * i + 1);
  // The runs land with one byte of gap between them, so scattered runs
  // are not adjacent in memory.
  got.assign(pieces * (piece + 1), 0);
  std::vector<coll::RecvSegment> recvs;
  for (std::size_t k = 0; k < pieces; ++k) recvs.push_back({got.data() + k * (piece + 1), piece});
  const coll::SendSegment send{out.data(), sentBytes};
  try {
    if (sendTag < 0) {
      t.exchange(&send, 1, peer, recvs.data(), recvs.size(), peer, tag);
    } else {  // rank 0 sends with sendTag, rank 1 with tag: two steps that differ
      t.exchange(&send, 1, peer, recvs.data(), recvs.size(), peer, t.rank() == 0 ? sendTag : tag);
    }
  } catch (const coll::Error& e) {
    return e.what();
  }
  return "";
}

// Whether `got` holds the peer's message of `bytes` bytes, cut into runs of
// `piece` bytes with a byte of gap between them.
bool receivedExactly(const std::vector<unsigned char>& got, int peer, std::size_t bytes, std::size_t piece) {
  for (std::size_t i = 0; i < bytes; ++i) {
    const unsigned char want = static_cast<unsigned char>(17 * peer + 3 * i + 1);
    if (got[i / piece * (piece + 1) + i % piece] != want) return false;
  }
  return true;
}

// One step of several messages each way with the peer, of `sizes` bytes in
// this order (some through the channels, some through MPI when they
// outgrow them): each must land in its own buffer, as MPI matches
// messages between two ranks in the order they were posted.
bool orderedStep(coll::Transport& t, const std::vector<std::size_t>& sizes) {
  const int peer = 1 - t.rank();
  std::vector<std::vector<unsigned char>> out(sizes.size()), in(sizes.size());
  std::vector<coll::SendSegment> sends(sizes.size());
  std::vector<coll::RecvSegment> recvs(sizes.size());
  std::vector<coll::PeerExchange> exchanges(sizes.size());
  for (std::size_t m = 0; m < sizes.size(); ++m) {
    out[m].resize(sizes[m]);
    in[m].assign(sizes[m], 0);
    for (std::size_t i = 0; i < sizes[m]; ++i) out[m][i] = static_cast<unsigned char>(t.rank() + 5 * m + i);
    sends[m] = {out[m].data(), sizes[m]};
    recvs[m] = {in[m].data(), sizes[m]};
    exchanges[m] = {&sends[m], 1, peer, &recvs[m], 1, peer};
  }
  try {
    t.exchangeAll(exchanges.data(), exchanges.size(), 3);
  } catch (const coll::Error& e) {
    std::printf("rank %d: %s\n", t.rank(), e.what());
    return false;
  }
  for (std::size_t m = 0; m < sizes.size(); ++m)
    for (std::size_t i = 0; i < sizes[m]; ++i)
      if (in[m][i] != static_cast<unsigned char>(peer + 5 * m + i)) return false;
  return true;
}

// The cases on one transport (its channels on or off).
// `who` names the transport in its errors; `channels`: whether it sees a
// message's tag (MPI and UCX would wait for the matching one).
int runCases(coll::Transport& t, int rank, const char* path, const std::string& who, bool channels) {
  const int me = t.rank();
  const int peer = 1 - me;
  int cases = 0;
  std::vector<unsigned char> got;
  auto where = [&](const std::string& what) { return std::string(path) + ": " + what; };
  for (std::size_t pieces : {std::size_t(1), std::size_t(3)}) {
    // The exact bytes, in order, across the runs.
    const std::size_t piece = 5;
    std::string error = exchangeWith(t, pieces * piece, pieces, piece, got, 7);
    expect(error.empty(), rank, where("an exchange of " + std::to_string(pieces) + " run(s) threw: " + error));
    expect(receivedExactly(got, peer, pieces * piece, piece), rank,
           where("the bytes of " + std::to_string(pieces) + " run(s) differ"));
    ++cases;
    // Rank 1 expects 2 bytes more than rank 0 sends; rank 0 gets what
    // it expects.
    const std::size_t sent = me == 0 ? pieces * piece - 2 : pieces * piece;
    error = exchangeWith(t, sent, pieces, piece, got, 9);
    if (me == 1) {
      const std::string want = who + ": expected " + std::to_string(pieces * piece) +
                               " bytes from rank 0 (tag 9), got " + std::to_string(pieces * piece - 2);
      expect(error == want, rank, where("a short message gave '" + error + "', not '" + want + "'"));
    } else {
      expect(error.empty(), rank, where("a full message threw: " + error));
    }
    ++cases;
  }
  // A message of several slots of the channels (or one MPI message), in
  // 7 scattered runs of 1000 bytes.
  std::string error = exchangeWith(t, 7000, 7, 1000, got, 11);
  expect(error.empty() && receivedExactly(got, peer, 7000, 1000), rank,
         where("a 7000-byte message in 7 runs arrived otherwise: " + error));
  ++cases;
  // Eight messages each way in one step, small and large mixed: through
  // the channels 8 B, 0 B, 3 B in a slot each, 5000 B and three of 8000 B
  // in two (more than a channel's 8 slots in all, so the sender waits for
  // the reader), 40000 B beyond them; a hundred times, as the order must
  // hold however the two ranks' polls interleave.
  bool ordered = true;
  for (int round = 0; round < 100 && ordered; ++round)
    ordered = orderedStep(t, {8, 40000, 0, 5000, 8000, 8000, 8000, 3});
  expect(ordered, rank, where("the messages of one step were filed out of order"));
  ++cases;
  // A message of another step: the channels see its tag (MPI would wait
  // for the matching tag, so only there).
  if (channels) {
    error = exchangeWith(t, 5, 1, 5, got, 13, 12);
    const std::string want = me == 0 ? "coll::MpiTransport: expected the message of tag 12 from rank 1, got one of tag 13"
                                     : "coll::MpiTransport: expected the message of tag 13 from rank 0, got one of tag 12";
    expect(error == want, rank, where("a message of another step gave '" + error + "', not '" + want + "'"));
    ++cases;
  }
  return cases;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm pair = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
  int pairSize = 1;
  MPI_Comm_size(pair, &pairSize);
  int cases = 0;
  if (pairSize == 2) {
    // MPI alone, then the channels (both ranks of a pair share a node here).
    coll::MpiTransport::Options mpiOnly;
    mpiOnly.sharedMemory = false;
    coll::MpiTransport viaMpi{pair, mpiOnly};
    expect(viaMpi.sharedMemoryBytes() == 0, rank, "channels are on with sharedMemory = false");
    cases += runCases(viaMpi, rank, "MPI", "coll::MpiTransport", false);
    coll::MpiTransport viaChannels{pair, coll::MpiTransport::Options{}};
    expect(viaChannels.sharedMemoryBytes() == 32768, rank,
           "the channels carry " + std::to_string(viaChannels.sharedMemoryBytes()) + " bytes, not 32768");
    cases += runCases(viaChannels, rank, "channels", "coll::MpiTransport", true);
    // UCX (UCX_TLS from the environment), addresses exchanged over MPI.
    coll::UcxTransport viaUcx{coll::mpiBootstrap(pair)};
    cases += runCases(viaUcx, rank, "UCX", "coll::UcxTransport", false);
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) std::printf("PASS transport P=%d %d cases\n", P, cases);
  MPI_Comm_free(&pair);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
