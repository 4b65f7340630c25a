// End-to-end check of one collc barrier: rank r enters r * 20 ms late, and no
// rank may leave before the last one has entered (entry and exit times from
// the host's monotonic clock -- MPI_Wtime need not be global -- which the
// test's ranks share, gathered with MPI_Allgather). Repeated calls must not
// cross-match. Read once per example, with COLLC_HEADER and COLLC_FN defined
// (check_common.hpp); run under mpirun with any number of ranks.

#include "check_common.hpp"
#include COLLC_HEADER

#include <chrono>
#include <thread>

COLLC_EXAMPLE_BEGIN

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int runAll(coll::Comm& comm) {
  const int rank = comm.rank(), P = comm.size();
  int cases = 0;
  for (int round = 0; round < 3; ++round) {
    // Round 1 delays the highest rank instead of staggering all.
    const int delayMs = round == 1 ? (rank == P - 1 ? 60 : 0) : 20 * ((rank + round) % P);
    MPI_Barrier(MPI_COMM_WORLD);
    std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
    double times[2];
    times[0] = now();
    collc::COLLC_FN(comm);
    times[1] = now();
    std::vector<double> all(2 * static_cast<std::size_t>(P));
    MPI_Allgather(times, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, MPI_COMM_WORLD);
    double lastEntry = 0;
    int lastRank = 0;
    for (int r = 0; r < P; ++r)
      if (all[2 * r] > lastEntry) lastEntry = all[2 * r], lastRank = r;
    for (int r = 0; r < P; ++r)
      if (all[2 * r + 1] < lastEntry)
        fail(std::string("FAIL ") + kName + " P=" + std::to_string(P) + " round=" + std::to_string(round) +
             ": rank " + std::to_string(r) + " left the barrier before rank " + std::to_string(lastRank) +
             " entered it");
    ++cases;
  }
  for (int i = 0; i < 100; ++i) collc::COLLC_FN(comm);  // back to back
  return cases + 1;
}

int check() {
  return checkExample(kName, collc::COLLC_CAT(COLLC_FN, _accepts), runAll, [](coll::Comm& comm) { collc::COLLC_FN(comm); });
}

COLLC_EXAMPLE_END
