// Collective benchmark: collc's generated schedules against the MPI
// library's own collectives, in one run, by seed 000's method: all ranks
// enter MPI_Barrier before each call, each rank times its call, the call's
// time is the maximum over ranks, and a case reports the median of the
// repetitions. The ratio collc / MPI is what to read (lower is better);
// absolute times on an oversubscribed laptop mean little.
//
//   mpirun -np 8 --oversubscribe --bind-to none --mca pml ob1
//          build/bin/collc-bench [--reps N]

#include "coll/runtime.hpp"

#include "allreduce_tree.hpp"
#include "alltoall_bruck.hpp"
#include "alltoall_direct.hpp"
#include "alltoall_retri.hpp"
#include "bcast_binomial.hpp"
#include "bcast_chain.hpp"
#include "bcast_pipelined_auto.hpp"
#include "butterfly.hpp"
#include "doubling.hpp"
#include "halving.hpp"
#include "reduce_flat.hpp"
#include "reduce_pipelined.hpp"
#include "ring.hpp"
#include "scan_doubling.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

int reps = 20;

// Median over repetitions of the slowest rank's time, in microseconds.
double measure(const std::function<void()>& call) {
  call();  // warm-up: buffers, connections
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    call();
    double mine = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    times.push_back(slowest * 1e6);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void report(const char* name, std::size_t bytes, double collc, double mpi) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("%-16s %10zu %12.1f %12.1f %8.2f\n", name, bytes, collc, mpi, collc / mpi);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::max(1, std::atoi(argv[i + 1]));
  {
    coll::Comm comm{MPI_COMM_WORLD};
    const int P = comm.size(), rank = comm.rank();
    if (rank == 0) {
      std::printf("P = %d, %d repetitions, median of the slowest rank (seed 000's method)\n", P, reps);
      std::printf("%-16s %10s %12s %12s %8s\n", "collective", "bytes", "collc us", "MPI us", "ratio");
    }
    const bool powerOfTwo = (P & (P - 1)) == 0;
    for (std::size_t bytes : {64ul, 8192ul, 131072ul, 1048576ul}) {
      const std::size_t n = bytes / sizeof(double);
      std::vector<double> send(n, rank + 1.0), recv(n), ref(n);
      auto mpiAllreduce = [&] { MPI_Allreduce(send.data(), ref.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); };
      const double mpi = measure(mpiAllreduce);
      report("allreduce ring", bytes, measure([&] { collc::ring(comm, send.data(), recv.data(), n); }), mpi);
      report("allreduce bfly", bytes, measure([&] { collc::butterfly(comm, send.data(), recv.data(), n); }), mpi);
      report("allreduce tree", bytes, measure([&] { collc::allreduce_tree(comm, send.data(), recv.data(), n); }), mpi);
      if (powerOfTwo) {
        report("allreduce halv", bytes, measure([&] { collc::halving(comm, send.data(), recv.data(), n); }), mpi);
        report("allreduce dbl", bytes, measure([&] { collc::doubling(comm, send.data(), recv.data(), n); }), mpi);
      }
      report("reduce flat", bytes, measure([&] { collc::reduce_flat(comm, send.data(), recv.data(), n); }),
             measure([&] { MPI_Reduce(send.data(), ref.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); }));
      report("reduce pipe3", bytes, measure([&] { collc::reduce_pipelined(comm, send.data(), recv.data(), n); }),
             measure([&] { MPI_Reduce(send.data(), ref.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); }));
      if (P > collc::bcast_binomial_root)
        report("bcast binomial", bytes, measure([&] { collc::bcast_binomial(comm, recv.data(), n); }),
               measure([&] { MPI_Bcast(ref.data(), static_cast<int>(n), MPI_DOUBLE, collc::bcast_binomial_root, MPI_COMM_WORLD); }));
      // Each against MPI_Bcast from the same root.
      if (P > collc::bcast_chain_root)
        report("bcast chain x8", bytes, measure([&] { collc::bcast_chain(comm, recv.data(), n); }),
               measure([&] { MPI_Bcast(ref.data(), static_cast<int>(n), MPI_DOUBLE, collc::bcast_chain_root, MPI_COMM_WORLD); }));
      report("bcast chain auto", bytes, measure([&] { collc::bcast_pipelined_auto(comm, recv.data(), n); }),
             measure([&] { MPI_Bcast(ref.data(), static_cast<int>(n), MPI_DOUBLE, collc::bcast_pipelined_auto_root, MPI_COMM_WORLD); }));
      report("scan doubling", bytes, measure([&] { collc::scan_doubling(comm, send.data(), recv.data(), n); }),
             measure([&] { MPI_Scan(send.data(), ref.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }));
      // alltoall: `bytes` per destination block.
      std::vector<double> a2aSend(n * P, rank), a2aRecv(n * P), a2aRef(n * P);
      const double mpiA2a = measure([&] {
        MPI_Alltoall(a2aSend.data(), static_cast<int>(n), MPI_DOUBLE, a2aRef.data(), static_cast<int>(n), MPI_DOUBLE, MPI_COMM_WORLD);
      });
      report("alltoall direct", bytes, measure([&] { collc::alltoall_direct(comm, a2aSend.data(), a2aRecv.data(), n); }), mpiA2a);
      report("alltoall bruck", bytes, measure([&] { collc::alltoall_bruck(comm, a2aSend.data(), a2aRecv.data(), n); }), mpiA2a);
      report("alltoall retri", bytes, measure([&] { collc::alltoall_retri(comm, a2aSend.data(), a2aRecv.data(), n); }), mpiA2a);
    }
  }
  MPI_Finalize();
  return 0;
}
