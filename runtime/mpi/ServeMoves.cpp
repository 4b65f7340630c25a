// A policy's calls that only move data (bytes) and its barrier, where it
// has them (policy_calls.h).
#include "Serve.hpp"
#include "policy.hpp"
#include "policy_calls.h"

namespace coll::mpi::entries {

using Byte = unsigned char;

#ifdef COLLC_POLICY_ALLGATHER
void allgather(Comm& comm, const void* send, void* recv, std::size_t bytes) {
  collc_mpi_policy::policy_allgather(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                     bytes);
}
#endif

#ifdef COLLC_POLICY_ALLTOALL
void alltoall(Comm& comm, const void* send, void* recv, std::size_t bytes) {
  collc_mpi_policy::policy_alltoall(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                    bytes);
}
#endif

#ifdef COLLC_POLICY_BARRIER
void barrier(Comm& comm) { collc_mpi_policy::policy_barrier(comm); }
#endif

#ifdef COLLC_POLICY_BROADCAST
void broadcast(Comm& comm, void* buffer, std::size_t bytes, int root) {
  collc_mpi_policy::policy_broadcast(comm, static_cast<Byte*>(buffer), bytes, root);
}
#endif

#ifdef COLLC_POLICY_GATHER
void gather(Comm& comm, const void* send, void* recv, std::size_t bytes, int root) {
  collc_mpi_policy::policy_gather(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                  bytes, root);
}
#endif

#ifdef COLLC_POLICY_SCATTER
void scatter(Comm& comm, const void* send, void* recv, std::size_t bytes, int root) {
  collc_mpi_policy::policy_scatter(comm, static_cast<const Byte*>(send), static_cast<Byte*>(recv),
                                   bytes, root);
}
#endif

}  // namespace coll::mpi::entries
