#pragma once
// Hand-written MPI baselines, the schedules a user would otherwise write
// with MPI_Sendrecv (doubles, MPI_SUM): the ring (Patarasuk and Yuan 2009)
// and recursive halving/doubling (Thakur, Rabenseifner and Gropp 2005).
// Chunks as collc cuts them: count into P chunks, the first count % P one
// element longer. `scratch` is the caller's, grown as needed.

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace collc_bench::hand {

// Allreduce: a ring reduce-scatter then a ring allgather, 2(P-1) steps.
void ringAllreduce(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                   std::vector<double>& scratch);
// Allreduce: recursive halving reduce-scatter then recursive doubling
// allgather, 2 log2 P steps; P must be a power of two.
void halvingDoublingAllreduce(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                              std::vector<double>& scratch);
// Allreduce: recursive doubling on the whole vector, log2 P steps; P a
// power of two.
void doublingAllreduce(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                       std::vector<double>& scratch);
// Allgather of `count` elements per rank: a ring, P-1 steps.
void ringAllgather(const double* send, double* recv, std::size_t count, MPI_Comm comm);
// Reduce-scatter of `count` elements per block (send holds P blocks): a
// ring, P-1 steps.
void ringReduceScatter(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                       std::vector<double>& scratch);

}  // namespace collc_bench::hand
