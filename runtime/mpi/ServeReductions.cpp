// The policy's allreduce and reduce_scatter_block, per element type and
// operator (Dispatch.hpp).
#include "Dispatch.hpp"
#include "policy.hpp"

namespace coll::mpi {

void allreduce(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
               Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_allreduce(comm, in, out, count, op);
  });
}

void reduceScatterBlock(Comm& comm, const void* send, void* recv, std::size_t count,
                        Element element, Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_reduce_scatter(comm, in, out, count, op);
  });
}

}  // namespace coll::mpi
