// A rank that does not come: with COLLC_TIMEOUT_MS set, the others' call
// of the ring allreduce fails within the limit with a coll::Error naming
// the collective, the step and the rank not heard from, never a hang; the
// Comm is unusable after (a second call says why at once). Every rank
// prints one line; test mpi.timeout.* requires each exactly. The ranks
// then end with MPI_Abort, as docs/robustness.md advises after a
// transport failure (the Comm's shared window cannot be freed together).
// Without COLLC_TIMEOUT_MS it sets 1500 ms itself: run bare, it still
// ends. With `kill`, the last rank kills itself (SIGKILL, as `kill -9`)
// instead of calling, and the others, having printed, exit together
// without MPI_Finalize (MPI cannot end a job with a dead rank; run under
// a launcher told to go on when a rank dies). (Not named check_*: the main job runs those and
// expects PASS.)
//   COLLC_TIMEOUT_MS=1500 mpirun -np P timeout_check [kill] [MESSAGE_DOUBLES]
#include <mpi.h>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "coll/runtime.hpp"
#include "ring.hpp"

int main(int argc, char** argv) {
  setenv("COLLC_TIMEOUT_MS", "1500", 0);
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool kill = argc > 1 && std::string(argv[1]) == "kill";
  const int countArg = kill ? 2 : 1;
  const std::size_t count = argc > countArg ? std::strtoul(argv[countArg], nullptr, 10) : 4;
  // Not destroyed: after the failure no rank frees it (see above).
  auto* comm = new coll::Comm(MPI_COMM_WORLD);
  std::vector<double> in(count, rank + 1.0), out(count, 0.0);
  collc::ring(*comm, in.data(), out.data(), count);  // every rank: fine
  const bool ok = out[0] == size * (size + 1) / 2.0;
  std::string line;
  if (rank == size - 1) {
    if (kill) raise(SIGKILL);
    line = "skipped";
  } else {
    try {
      collc::ring(*comm, in.data(), out.data(), count);
      line = "no error";
    } catch (const coll::Error& e) {
      line = e.what();
    }
    try {
      collc::ring(*comm, in.data(), out.data(), count);
      line += " -- no error again";
    } catch (const coll::Error& e) {
      line += std::string(" -- then: ") + e.what();
    }
  }
  std::printf("rank %d: %s%s\n", rank, ok ? "" : "(first call wrong) ", line.c_str());
  std::fflush(stdout);
  if (kill) {
    // The survivors wait for each other's lines on a communicator of
    // their own (made by them alone), then leave: a launcher ends the job
    // once one rank exits without MPI_Finalize, which a dead rank forbids.
    MPI_Group world, survivors;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    const int dead[1] = {size - 1};
    MPI_Group_excl(world, 1, dead, &survivors);
    MPI_Comm alive;
    MPI_Comm_create_group(MPI_COMM_WORLD, survivors, 0, &alive);
    MPI_Barrier(alive);
    _exit(0);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // (MPI's own: every line is out)
  // The launcher forwards output on its own time: MPICH's Hydra, its
  // proxy starved of CPU by spinning ranks, once handled the abort before
  // rank 0's line still in the pipe and lost it (CI). A pause first.
  if (rank == 0) {
    usleep(1000 * 1000);
    MPI_Abort(MPI_COMM_WORLD, 0);
  }
  MPI_Finalize();
  return 0;
}
