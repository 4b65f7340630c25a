// A probe, not a test: an 8 B allreduce (or a one-double-per-rank
// allgather) whose code and data are out of cache, as after another
// collective in collc-bench's shuffled order
// (docs/history/benchmarks-2026-12.md, "One
// exchange through the channels"). Before each timed call: a pass over
// 48 MiB (or nothing, `warm`), then MPI_Barrier; the timed call is
// collc's ring or recursive doubling, the hand-written MPI ring, or
// MPI_Allreduce; or for the allgather collc's allgather_doubling or
// allgather_ring, a hand-written ring of MPI_Sendrecv, or MPI_Allgather.
// Prints the median of N (maximum over ranks, combined after the N calls).
// `self` is `cold` with the same call on MPI_COMM_SELF after the pass: the
// call's code warm, the world communicator's data (plans, buffers,
// channels) still cold. `twin` runs the same call on a second Comm of
// MPI_COMM_WORLD after the pass: all of the call's code warm, the timed
// Comm's data cold. `tlb` touches one line per page of the 48 MiB instead
// of every line: the pages' translations are evicted, most lines are not.
// With PLANS > 0 the Comm first caches that many other plans, as
// collc-bench's Comm holds every case's plans when it times one.
// The timed call is the function `timed_call`, so callgrind can count
// its cache misses alone (a first call outside it makes the
// plans):
//   mpirun -np 2 --bind-to none --mca pml ob1 --mca btl self,vader
//     build/bin/collc-probe-cold-allreduce MODE cold|warm|self|twin|tlb [N [PLANS]]
//   MODE: ring|doubling|hand|mpi (allreduce), agdoubling|agring|handag|mpiag (allgather)
//   mpirun ... valgrind --tool=callgrind --cache-sim=yes --LL=33554432,16,64
//     --toggle-collect='timed_call*' build/bin/collc-probe-cold-allreduce ring cold 20
#include "coll/runtime.hpp"
#include "handwritten.hpp"
#include "schedules.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// The modes, in the usage's order; a mode's name is matched once, before
// timing, so the timed call runs no string compares.
enum class Mode { ring, doubling, hand, mpi, agdoubling, agring, handag, mpiag };
constexpr const char* kModeNames[] = {"ring", "doubling", "hand", "mpi", "agdoubling", "agring", "handag", "mpiag"};

struct Call {
  coll::Comm& comm;
  MPI_Comm mpiComm;
  Mode mode;
  double send = 1, recv = 0;
  std::vector<double> gathered = std::vector<double>();  // the allgather's, one double per rank
  std::vector<double> scratch = std::vector<double>(16);
};

// A ring allgather of one double per rank: P - 1 MPI_Sendrecv steps.
void handAllgather(Call& c) {
  int rank = 0, P = 1;
  MPI_Comm_rank(c.mpiComm, &rank);
  MPI_Comm_size(c.mpiComm, &P);
  c.gathered[static_cast<std::size_t>(rank)] = c.send;
  for (int s = 0; s < P - 1; ++s) {
    const int out = (rank - s + P) % P, in = (rank - s - 1 + P) % P;
    MPI_Sendrecv(&c.gathered[static_cast<std::size_t>(out)], 1, MPI_DOUBLE, (rank + 1) % P, 0,
                 &c.gathered[static_cast<std::size_t>(in)], 1, MPI_DOUBLE, (rank + P - 1) % P, 0, c.mpiComm,
                 MPI_STATUS_IGNORE);
  }
}

void run(Call& c) {
  switch (c.mode) {
    case Mode::ring: collc::allreduce_ring(c.comm, &c.send, &c.recv, 1); break;
    case Mode::doubling: collc::allreduce_doubling(c.comm, &c.send, &c.recv, 1); break;
    case Mode::hand: collc_bench::hand::ringAllreduce(&c.send, &c.recv, 1, c.mpiComm, c.scratch); break;
    case Mode::mpi: MPI_Allreduce(&c.send, &c.recv, 1, MPI_DOUBLE, MPI_SUM, c.mpiComm); break;
    case Mode::agdoubling: collc::allgather_doubling(c.comm, &c.send, c.gathered.data(), 1); break;
    case Mode::agring: collc::allgather_ring(c.comm, &c.send, c.gathered.data(), 1); break;
    case Mode::handag: handAllgather(c); break;
    case Mode::mpiag: MPI_Allgather(&c.send, 1, MPI_DOUBLE, c.gathered.data(), 1, MPI_DOUBLE, c.mpiComm); break;
  }
}

}  // namespace

__attribute__((noinline)) void timed_call(Call& c) { run(c); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::size_t numModes = sizeof(kModeNames) / sizeof(kModeNames[0]);
  std::size_t mode = 0;
  while (argc >= 2 && mode < numModes && std::strcmp(argv[1], kModeNames[mode])) ++mode;
  const bool known = argc >= 3 && mode < numModes &&
                     (!std::strcmp(argv[2], "cold") || !std::strcmp(argv[2], "warm") ||
                      !std::strcmp(argv[2], "self") || !std::strcmp(argv[2], "twin") ||
                      !std::strcmp(argv[2], "tlb"));
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 100;
  const int otherPlans = argc > 4 ? std::atoi(argv[4]) : 0;
  if (!known || iterations < 1 || otherPlans < 0) {
    std::fprintf(stderr, "usage: collc-probe-cold-allreduce ");
    for (std::size_t m = 0; m < numModes; ++m) std::fprintf(stderr, "%s%s", m ? "|" : "", kModeNames[m]);
    std::fprintf(stderr, " cold|warm|self|twin|tlb [N [PLANS]]\n");
    MPI_Finalize();
    return 2;
  }
  {
    coll::Comm comm{MPI_COMM_WORLD};
    Call call{comm, MPI_COMM_WORLD, static_cast<Mode>(mode)};
    const bool cold = std::strcmp(argv[2], "warm") != 0, self = !std::strcmp(argv[2], "self"),
               twin = !std::strcmp(argv[2], "twin");
    const std::size_t stride = std::strcmp(argv[2], "tlb") ? 8 : 512 + 8;  // doubles: a line, or a page and a line
    coll::Comm selfComm{MPI_COMM_SELF};
    Call selfCall{selfComm, MPI_COMM_SELF, static_cast<Mode>(mode)};
    coll::Comm twinComm{MPI_COMM_WORLD};
    Call twinCall{twinComm, MPI_COMM_WORLD, static_cast<Mode>(mode)};
    for (Call* c : {&call, &selfCall, &twinCall}) {
      int ranks = 1;
      MPI_Comm_size(c->mpiComm, &ranks);
      c->gathered.assign(static_cast<std::size_t>(ranks), 0);
    }
    std::vector<double> memory(std::size_t(6) << 20, 1);  // 48 MiB
    for (int i = 0; i < otherPlans; ++i)
      comm.plan<int>("collc-probe-other-plan-" + std::to_string(i), [] { return 0; });
    run(call);
    if (twin) run(twinCall);
    // This rank's times, combined after the loop (as collc-bench does per
    // pass): an MPI_Allreduce after each call would warm MPI_Allreduce's
    // code for the next timed call in `warm` mode.
    std::vector<double> mine(static_cast<std::size_t>(iterations)), times(mine.size());
    for (int i = 0; i < iterations; ++i) {
      if (cold)
        for (std::size_t k = 0; k < memory.size(); k += stride) memory[k] += 1;
      if (self) run(selfCall);
      if (twin) run(twinCall);
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      timed_call(call);
      mine[static_cast<std::size_t>(i)] = MPI_Wtime() - start;
    }
    MPI_Allreduce(mine.data(), times.data(), iterations, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    std::sort(times.begin(), times.end());
    if (comm.rank() == 0)
      std::printf("%s %s: median %.2f us of %d\n", argv[1], argv[2], times[times.size() / 2] * 1e6,
                  iterations);
  }
  MPI_Finalize();
  return 0;
}
