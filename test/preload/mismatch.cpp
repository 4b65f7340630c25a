// An erroneous MPI program for libcollc_mpi.so: on every rank the send
// side of MPI_Allgather (2 ints a block) does not match its receive side
// (3 ints), which MPI forbids. The library decides on the receive side,
// as every rank does, and then fails the call on every rank with an error
// naming both sides, through the communicator's error handler (here
// MPI_ERRORS_RETURN): no rank waits for another. Prints each rank's
// error class; run under the library only (test preload.mismatch). Then
// every rank passes MPI_Allreduce overlapping buffers (also erroneous).
#include <mpi.h>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int send[2] = {rank, rank};
  std::vector<int> recv(3 * static_cast<std::size_t>(size));
  const int rc = MPI_Allgather(send, 2, MPI_INT, recv.data(), 3, MPI_INT, MPI_COMM_WORLD);
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  std::printf("rank %d: MPI_Allgather returned %s\n", rank,
              cls == MPI_ERR_INTERN ? "MPI_ERR_INTERN" : "another code");
  // Every rank's send and receive buffers overlap by 3 of 4 ints, without
  // MPI_IN_PLACE (MPI forbids it): every rank's call fails, naming the
  // overlap, instead of returning a sum read from half-written memory.
  int both[5] = {1, 2, 3, 4, 5};
  const int overlapping = MPI_Allreduce(both, both + 1, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Error_class(overlapping, &cls);
  std::printf("rank %d: overlapping MPI_Allreduce returned %s\n", rank,
              cls == MPI_ERR_INTERN ? "MPI_ERR_INTERN" : "another code");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
