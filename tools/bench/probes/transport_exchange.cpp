// A probe, not a test: one rank pair's exchange of B bytes each way on
// collc's transport (the Comm's: MpiTransport with its shared-memory
// channels up to COLLC_SHM_BYTES, or UCX with COLLC_TRANSPORT=ucx) against
// MPI_Sendrecv, warm, the mean of 5000 back to back after 1000 untimed:
//   mpirun -np 2 --bind-to none --mca pml ob1 --mca btl self,vader
//     -x COLLC_SHM_BYTES=1000000 build/bin/collc-probe-transport-exchange
#include "coll/runtime.hpp"

#include <mpi.h>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    coll::Comm comm{MPI_COMM_WORLD};
    const int peer = 1 - comm.rank();
    if (comm.size() != 2) {
      if (comm.rank() == 0) std::fprintf(stderr, "collc-probe-transport-exchange: run it on 2 ranks\n");
    } else {
      for (std::size_t bytes : {1024ul, 4096ul, 8192ul, 16384ul, 32768ul, 65536ul, 262144ul}) {
        std::vector<char> a(bytes, 1), b(bytes);
        const coll::SendSegment s{a.data(), bytes};
        const coll::RecvSegment r{b.data(), bytes};
        for (int i = 0; i < 1000; ++i) comm.transport().exchange(&s, 1, peer, &r, 1, peer, 1);
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int i = 0; i < 5000; ++i) comm.transport().exchange(&s, 1, peer, &r, 1, peer, 1);
        const double collc = (MPI_Wtime() - t0) / 5000 * 1e6;
        const double t1 = MPI_Wtime();
        for (int i = 0; i < 5000; ++i)
          MPI_Sendrecv(a.data(), static_cast<int>(bytes), MPI_BYTE, peer, 0, b.data(), static_cast<int>(bytes),
                       MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double mpi = (MPI_Wtime() - t1) / 5000 * 1e6;
        if (comm.rank() == 0) std::printf("%7zu B: collc %.2f us, MPI_Sendrecv %.2f us\n", bytes, collc, mpi);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
