// libcollc_mpi.so in checked mode (COLLC_CHECK=1, test preload.checked):
// calls the ranks agree on, served or passed to MPI, give MPI's results;
// then rank 1 calls MPI_Bcast where the others call MPI_Allreduce (an
// erroneous program, which without checked mode would hang or mix two
// calls' messages): every rank's call fails through MPI_ERRORS_RETURN,
// the library printing each rank's view; and the communicator still
// serves the calls after it. Prints one line per rank and phase.
#include <mpi.h>

#include <cstdio>
#include <vector>

namespace {

void first(void* in, void* inout, int* len, MPI_Datatype*) {  // a user operator (passed to MPI)
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] = static_cast<int*>(in)[i];
}

const char* className(int rc) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  return cls == MPI_SUCCESS ? "MPI_SUCCESS" : cls == MPI_ERR_INTERN ? "MPI_ERR_INTERN" : "another code";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int n = 4;
  const std::size_t P = static_cast<std::size_t>(size);

  // Agreed calls, each checked against its reference.
  int wrong = 0;
  std::vector<int> x(n, rank + 1), sum(n);
  MPI_Allreduce(x.data(), sum.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int v : sum) wrong += v != size * (size + 1) / 2;
  double value = rank == size - 1 ? 2.5 : 0.0;
  MPI_Bcast(&value, 1, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
  wrong += value != 2.5;
  std::vector<int> all(P * n);
  MPI_Gather(x.data(), n, MPI_INT, all.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (std::size_t i = 0; i < all.size(); ++i) wrong += all[i] != static_cast<int>(i / n) + 1;
  std::vector<int> out(P), in(P);
  for (std::size_t d = 0; d < P; ++d) out[d] = rank * 100 + static_cast<int>(d);
  MPI_Alltoall(out.data(), 1, MPI_INT, in.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (std::size_t s = 0; s < P; ++s) wrong += in[s] != static_cast<int>(s) * 100 + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Op op;
  MPI_Op_create(first, 0, &op);
  int kept = 0;
  MPI_Allreduce(&rank, &kept, 1, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Op_free(&op);
  std::printf("rank %d: agreed calls %s\n", rank, wrong ? "WRONG" : "right");
  std::fflush(stdout);

  // Call 6 (counted from 0 on MPI_COMM_WORLD): rank 1 diverges.
  int rc = MPI_SUCCESS;
  if (rank == 1)
    rc = MPI_Bcast(sum.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
  else
    rc = MPI_Allreduce(x.data(), sum.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: %s returned %s\n", rank, rank == 1 ? "MPI_Bcast" : "MPI_Allreduce",
              className(rc));
  std::fflush(stdout);

  // Call 7: the communicator serves again.
  rc = MPI_Allreduce(x.data(), sum.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: then MPI_Allreduce returned %s, %d\n", rank, className(rc), sum[0]);
  MPI_Finalize();
  return 0;
}
