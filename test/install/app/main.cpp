#include "coll/runtime.hpp"
#include "ring.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int wrong = 0;
  {
    coll::Comm comm{MPI_COMM_WORLD};
    std::vector<std::int64_t> data(10, comm.rank() + 1), expected(10);
    MPI_Allreduce(data.data(), expected.data(), 10, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    // (The same on every rank: what a preloaded policy serves, run.cmake.)
    MPI_Bcast(expected.data(), 10, MPI_INT64_T, comm.size() - 1, MPI_COMM_WORLD);
    collc::ring(comm, data.data(), data.data(), data.size());  // in place
    for (std::size_t i = 0; i < data.size(); ++i) wrong += data[i] != expected[i];
    if (comm.rank() == 0)
      std::printf("installed package: ring P=%d %s\n", comm.size(),
                  wrong ? "DIFFERS" : "matches MPI_Allreduce");
  }
  MPI_Finalize();
  return wrong ? 1 : 0;
}
