// The policy's calls that only move data (bytes) and its barrier, and
// explain(): which candidate a call runs and the model's reasons.
#include <cstdio>

#include "Serve.hpp"
#include "policy.hpp"

namespace coll::mpi {

using Byte = unsigned char;

void allgather(Comm& comm, const void* send, void* recv, std::size_t bytes) {
  collc_mpi_policy::policy_allgather(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                     bytes);
}

void alltoall(Comm& comm, const void* send, void* recv, std::size_t bytes) {
  collc_mpi_policy::policy_alltoall(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                    bytes);
}

void barrier(Comm& comm) { collc_mpi_policy::policy_barrier(comm); }

void broadcast(Comm& comm, void* buffer, std::size_t bytes, int root) {
  collc_mpi_policy::policy_broadcast(comm, static_cast<Byte*>(buffer), bytes, root);
}

void gather(Comm& comm, const void* send, void* recv, std::size_t bytes, int root) {
  collc_mpi_policy::policy_gather(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                  bytes, root);
}

void scatter(Comm& comm, const void* send, void* recv, std::size_t bytes, int root) {
  collc_mpi_policy::policy_scatter(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                   bytes, root);
}

const char* callName(Call call) {
  switch (call) {
    case Call::allreduce: return "MPI_Allreduce";
    case Call::reduceScatterBlock: return "MPI_Reduce_scatter_block";
    case Call::allgather: return "MPI_Allgather";
    case Call::alltoall: return "MPI_Alltoall";
    case Call::scan: return "MPI_Scan";
    case Call::exscan: return "MPI_Exscan";
    case Call::barrier: return "MPI_Barrier";
    case Call::broadcast: return "MPI_Bcast";
    case Call::reduce: return "MPI_Reduce";
    case Call::gather: return "MPI_Gather";
    case Call::scatter: return "MPI_Scatter";
  }
  return "MPI_?";
}

namespace {

// "NAME (model: a 1.20 us, b 0.95 us)" for a choice among candidates.
template <std::size_t N>
std::string chosen(int choice, const char* const (&names)[N],
                   double (*predicted)(int, std::size_t, int) noexcept, int ranks,
                   std::size_t bytes) {
  std::string text = names[choice];
  // The candidates by their own names: "policy_allreduce_ring" as "ring".
  // (Their common prefix, up to its last '_'.)
  std::string common = names[0];
  for (std::size_t i = 1; i < N; ++i) {
    std::size_t k = 0;
    while (k < common.size() && common[k] == names[i][k]) ++k;
    common.resize(k);
  }
  const std::size_t prefix = common.rfind('_') == std::string::npos ? 0 : common.rfind('_') + 1;
  std::string costs;
  for (std::size_t i = 0; i < N; ++i) {
    const double us = predicted(ranks, bytes, static_cast<int>(i));
    if (us < 0) continue;
    char item[160];
    std::snprintf(item, sizeof item, "%s%s %.3g us", costs.empty() ? "" : ", ", names[i] + prefix, us);
    costs += item;
  }
  return text + (costs.empty() ? " (the model priced no candidate at this P: the first that admits it)"
                               : " (model: " + costs + ")");
}

}  // namespace

std::string explain(Call call, int ranks, std::size_t bytes) {
  using namespace collc_mpi_policy;
  switch (call) {
    case Call::allreduce:
      return chosen(policy_allreduce_choice(ranks, bytes), policy_allreduce_candidates,
                    policy_allreduce_predicted_us, ranks, bytes);
    case Call::reduceScatterBlock:
      return chosen(policy_reduce_scatter_choice(ranks, bytes), policy_reduce_scatter_candidates,
                    policy_reduce_scatter_predicted_us, ranks, bytes);
    case Call::allgather:
      return chosen(policy_allgather_choice(ranks, bytes), policy_allgather_candidates,
                    policy_allgather_predicted_us, ranks, bytes);
    case Call::alltoall:
      return chosen(policy_alltoall_choice(ranks, bytes), policy_alltoall_candidates,
                    policy_alltoall_predicted_us, ranks, bytes);
    case Call::scan: return "policy_inclusive_scan (the one schedule: recursive doubling)";
    case Call::exscan: return "policy_exclusive_scan (the one schedule: the direct chain)";
    case Call::barrier: return "policy_barrier (the one schedule: the shifted butterfly, r = max)";
    case Call::broadcast:
      return chosen(policy_broadcast_choice(ranks, bytes), policy_broadcast_candidates,
                    policy_broadcast_predicted_us, ranks, bytes);
    case Call::reduce: return "policy_reduce (the one schedule: the binomial tree)";
    case Call::gather: return "policy_gather (the one schedule: the binomial tree)";
    case Call::scatter: return "policy_scatter (the one schedule: the binomial tree)";
  }
  return "?";
}

}  // namespace coll::mpi
