// A probe, not a test: A/B of two runtime versions (e.g. the executor's
// direct local filing) on butterfly_max (cyclic(P): local copy steps) or
// exscan_linear, `count` ints, median of N calls (maximum over ranks).
// Build it twice, against this runtime and an older one:
//   build/bin/collc compile examples/butterfly_max.coll -o /tmp/ab/bm.hpp
//   build/bin/collc compile examples/exscan_linear.coll -o /tmp/ab/ex.hpp
//   git archive OLD runtime/include | tar -x -C /tmp/oldrt
//   for v in new old; do inc=runtime/include; [ $v = old ] && inc=/tmp/oldrt/runtime/include
//     mpicxx -O2 -std=c++17 -DOMPI_SKIP_MPICXX=1 -I $inc -I /tmp/ab
//       tools/bench/probes/executor_ab.cpp build/runtime/libcollc_runtime.a -o /tmp/ab/ab_$v; done
// and run them alternately: mpirun -np 3 --oversubscribe ... /tmp/ab/ab_old bm 65536 2001
#include "coll/runtime.hpp"
#include "bm.hpp"
#include "ex.hpp"
#include <mpi.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    coll::Comm comm{MPI_COMM_WORLD};
    const char* which = argv[1];
    const std::size_t n = std::strtoul(argv[2], nullptr, 10);
    const int iters = std::atoi(argv[3]);
    std::vector<int> s(n, 1), r(n);
    std::vector<double> t;
    for (int i = 0; i < iters; ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      if (!std::strcmp(which, "bm")) collc::butterfly_max(comm, s.data(), r.data(), n);
      else collc::exscan_linear(comm, s.data(), r.data(), n);
      double d = MPI_Wtime() - t0, m = 0;
      MPI_Allreduce(&d, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      t.push_back(m);
    }
    std::sort(t.begin(), t.end());
    if (comm.rank() == 0) std::printf("%s n=%zu median %.2f us\n", which, n, t[t.size() / 2] * 1e6);
  }
  MPI_Finalize();
}
