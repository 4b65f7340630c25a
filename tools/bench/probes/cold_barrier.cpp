// A probe, not a test: a barrier's time right after a large collective.
// Before each timed call: a 16 MiB allreduce (MPI's or collc's ring), a
// pass over 16 MiB of memory, or nothing; then MPI_Barrier; the timed call
// is collc's barrier_butterfly, MPI_Barrier, or a bare zero-byte exchange
// (MPI_Sendrecv, or MPI_Irecv + MPI_Isend + MPI_Waitall). Prints the
// median of 60 (maximum over ranks). Built with collc-bench:
//   mpirun -np 2 --bind-to none --mca pml ob1 --mca btl self,vader
//     build/bin/collc-probe-cold-barrier mpi|collc|touch|none  collc|mpi|sendrecv|isendrecv
#include "coll/runtime.hpp"
#include "schedules.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: collc-probe-cold-barrier mpi|collc|touch|none collc|mpi|sendrecv|isendrecv\n");
    MPI_Finalize();
    return 2;
  }
  {
    coll::Comm comm{MPI_COMM_WORLD};
    const char* before = argv[1];
    const char* timed = argv[2];
    const std::size_t n = std::size_t(4) << 20;  // 16 MiB of int
    std::vector<int> s(n, 1), r(n);
    std::vector<double> t;
    const int peer = 1 - comm.rank();
    for (int i = 0; i < 60; ++i) {
      if (!std::strcmp(before, "mpi"))
        MPI_Allreduce(s.data(), r.data(), static_cast<int>(n), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      else if (!std::strcmp(before, "collc"))
        collc::allreduce_ring(comm, s.data(), r.data(), n);
      else if (!std::strcmp(before, "touch"))
        for (std::size_t k = 0; k < n; k += 16) s[k] += 1;
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      if (!std::strcmp(timed, "collc")) {
        collc::barrier_butterfly(comm);
      } else if (!std::strcmp(timed, "sendrecv") && comm.size() == 2) {
        char a = 0, b = 0;
        MPI_Sendrecv(&a, 0, MPI_BYTE, peer, 5, &b, 0, MPI_BYTE, peer, 5, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
      } else if (!std::strcmp(timed, "isendrecv") && comm.size() == 2) {
        char a = 0, b = 0;
        MPI_Request q[2];
        MPI_Irecv(&b, 0, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(&a, 0, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      } else {
        MPI_Barrier(MPI_COMM_WORLD);
      }
      double d = MPI_Wtime() - t0, m = 0;
      MPI_Allreduce(&d, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      t.push_back(m);
    }
    std::sort(t.begin(), t.end());
    if (comm.rank() == 0)
      std::printf("before=%s timed=%s median %.2f us\n", before, timed, t[t.size() / 2] * 1e6);
  }
  MPI_Finalize();
  return 0;
}
