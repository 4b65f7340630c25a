// MpiTransport's exchanges between two ranks, on both of its paths: one
// contiguous run each way (MPI_Sendrecv) and scattered segments
// (Irecv/Isend/Waitall with a packed or hindexed message). Each moves the
// exact bytes, and a receive that gets fewer bytes than it expects throws
// the same error on either path, naming the bytes, the peer and the tag.
// At any P the ranks pair up (2k with 2k+1, on a communicator of their
// own); with P odd the last rank has no partner and only reports.
//   mpirun -np 2 check_transport   -> "PASS transport P=2 4 cases"

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
std::string exchangeWith(coll::MpiTransport& t, std::size_t sentBytes, std::size_t pieces,
                         std::size_t piece, std::vector<unsigned char>& got, int tag) {
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
    t.exchange(&send, 1, peer, recvs.data(), recvs.size(), peer, tag);
  } catch (const coll::Error& e) {
    return e.what();
  }
  return "";
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
    coll::MpiTransport t{pair};
    const int me = t.rank();
    const int peer = 1 - me;
    std::vector<unsigned char> got;
    for (std::size_t pieces : {std::size_t(1), std::size_t(3)}) {
      // The exact bytes, in order, across the runs.
      const std::size_t piece = 5;
      std::string error = exchangeWith(t, pieces * piece, pieces, piece, got, 7);
      expect(error.empty(), rank, "an exchange of " + std::to_string(pieces) + " run(s) threw: " + error);
      for (std::size_t i = 0; i < pieces * piece; ++i) {
        const unsigned char want = static_cast<unsigned char>(17 * peer + 3 * i + 1);
        const std::size_t at = i / piece * (piece + 1) + i % piece;
        if (got[at] != want) {
          expect(false, rank, "byte " + std::to_string(i) + " of " + std::to_string(pieces) +
                                  " run(s) is " + std::to_string(got[at]) + ", not " +
                                  std::to_string(want));
          break;
        }
      }
      ++cases;
      // Rank 1 expects 2 bytes more than rank 0 sends; rank 0 gets what
      // it expects.
      const std::size_t sent = me == 0 ? pieces * piece - 2 : pieces * piece;
      error = exchangeWith(t, sent, pieces, piece, got, 9);
      if (me == 1) {
        const std::string want = "coll::MpiTransport: expected " + std::to_string(pieces * piece) +
                                 " bytes from rank 0 (tag 9), got " +
                                 std::to_string(pieces * piece - 2);
        expect(error == want, rank, "a short message gave '" + error + "', not '" + want + "'");
      } else {
        expect(error.empty(), rank, "a full message threw: " + error);
      }
      ++cases;
    }
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) std::printf("PASS transport P=%d %d cases\n", P, cases);
  MPI_Comm_free(&pair);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
