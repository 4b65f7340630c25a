// allreduce_demo: sums a vector over all ranks with three collc schedules
// and compares each result with MPI_Allreduce.
//
//   mpirun -np 5 ./allreduce_demo [count]
#include "coll/runtime.hpp"

#include "butterfly.hpp"
#include "halving.hpp"
#include "ring.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    coll::Comm comm{MPI_COMM_WORLD};
    const std::size_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000;
    std::vector<long> input(count), expected(count), result(count);
    for (std::size_t i = 0; i < count; ++i)
      input[i] = static_cast<long>((comm.rank() + 1) * 1000 + i);
    MPI_Allreduce(input.data(), expected.data(), static_cast<int>(count), MPI_LONG, MPI_SUM,
                  MPI_COMM_WORLD);

    auto report = [&](const char *name) {
      long wrong = 0;
      for (std::size_t i = 0; i < count; ++i) wrong += result[i] != expected[i];
      long total = 0;
      MPI_Reduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
      if (comm.rank() == 0)
        std::printf("%-10s P=%d count=%zu: %s\n", name, comm.size(), count,
                    total == 0 ? "matches MPI_Allreduce" : "WRONG");
      if (total != 0) status = 1;
    };

    collc::ring(comm, input.data(), result.data(), count);
    report("ring");
    collc::butterfly(comm, input.data(), result.data(), count);
    report("butterfly");
    if (collc::halving_accepts(comm.size())) {
      collc::halving(comm, input.data(), result.data(), count);
      report("halving");
    } else if (comm.rank() == 0) {
      std::printf("%-10s P=%d: not run (needs a power-of-two rank count)\n", "halving",
                  comm.size());
    }
  }
  MPI_Finalize();
  return status;
}
