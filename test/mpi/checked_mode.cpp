// Checked mode in a generated header (COLLC_CHECK=1, test mpi.checked.P3):
// rank 1 calls the ring allreduce with 5 doubles where the others pass 4
// (an erroneous program: without checked mode the ring's messages would
// not match). Every rank's call fails with the same coll::Error naming
// each rank's view; the exchange completed, so the Comm serves the next
// call. Prints one line per rank and call; the test requires each exactly.
// (Not named check_*: the main job runs those and expects PASS.)
//   COLLC_CHECK=1 mpirun -np P checked_mode
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "coll/runtime.hpp"
#include "ring.hpp"

int main(int argc, char** argv) {
  setenv("COLLC_CHECK", "1", 0);
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    coll::Comm comm(MPI_COMM_WORLD);
    std::vector<double> in(5, rank + 1.0), out(5, 0.0);
    const double total = size * (size + 1) / 2.0;
    auto call = [&](std::size_t count) -> std::string {
      try {
        collc::ring(comm, in.data(), out.data(), count);
        return out[0] == total && out[count - 1] == total ? "right" : "WRONG";
      } catch (const coll::Error& e) {
        return e.what();
      }
    };
    const std::string first = call(4);
    const std::string diverging = call(rank == 1 ? 5 : 4);
    const std::string after = call(4);
    std::printf("rank %d: call 0 %s\nrank %d: call 1 %s\nrank %d: call 2 %s\n", rank, first.c_str(),
                rank, diverging.c_str(), rank, after.c_str());
  }
  MPI_Finalize();
  return 0;
}
