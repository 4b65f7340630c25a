// A preload library that spoils results (not collc's): MPI_Allreduce on
// MPI_INT adds 1 to the last element on the last rank; built with
// CORRUPT_BARRIER, MPI_Barrier holds nobody instead. run.sh must reject a
// run under either (the harness can fail).
#include <mpi.h>

#ifdef CORRUPT_BARRIER
extern "C" __attribute__((visibility("default"))) int MPI_Barrier(MPI_Comm) { return MPI_SUCCESS; }
#else
extern "C" __attribute__((visibility("default"))) int MPI_Allreduce(
    const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
    MPI_Comm comm) {
  const int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (datatype == MPI_INT && count > 1 && rank == size - 1) static_cast<int*>(recvbuf)[count - 1] += 1;
  return rc;
}
#endif
