// A probe, not a test: what MPI's own point-to-point reaches on a ring, as
// a bound for a ring allreduce on the emulated cluster
// (docs/history/benchmarks-2026-12.md,
// "200 Mbit/s"). Each rank sends B bytes to rank + 1 and receives B from
// rank - 1 (MPI_Sendrecv), STEPS times back to back; prints the median of
// 8 (maximum over ranks) against STEPS * B / rate. A ring allreduce of M
// bytes on P ranks is 2(P - 1) such steps of M / P.
//   tools/cluster.sh --hosts 4 --rate 200mbit -- build/bin/collc-probe-ring-steps 200e6 6
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (argc != 3 || std::atof(argv[1]) <= 0 || std::atoi(argv[2]) < 1) {
    if (rank == 0) std::fprintf(stderr, "usage: collc-probe-ring-steps RATE_BITS_PER_S STEPS\n");
    MPI_Finalize();
    return 2;
  }
  const double bytesPerSecond = std::atof(argv[1]) / 8;
  const int steps = std::atoi(argv[2]);
  for (std::size_t bytes : {std::size_t(64) << 10, std::size_t(256) << 10, std::size_t(1) << 20}) {
    std::vector<char> out(bytes, 1), in(bytes);
    std::vector<double> times;
    for (int trial = 0; trial < 8; ++trial) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      for (int s = 0; s < steps; ++s)
        MPI_Sendrecv(out.data(), static_cast<int>(bytes), MPI_BYTE, (rank + 1) % P, 0, in.data(),
                     static_cast<int>(bytes), MPI_BYTE, (rank + P - 1) % P, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
      double mine = MPI_Wtime() - start, slowest = 0;
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      times.push_back(slowest);
    }
    std::sort(times.begin(), times.end());
    const double bound = steps * static_cast<double>(bytes) / bytesPerSecond;
    if (rank == 0)
      std::printf("%d steps of %zu B: median %.1f us, bound %.1f us, ratio %.2f\n", steps, bytes,
                  times[times.size() / 2] * 1e6, bound * 1e6, times[times.size() / 2] / bound);
  }
  MPI_Finalize();
  return 0;
}
