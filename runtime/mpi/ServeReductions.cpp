// The policy's allreduce, reduce_scatter_block and reduce, per element
// type and operator (Dispatch.hpp).
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

void reduce(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
            Reduction reduction, int root) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_reduce(comm, in, out, count, root, op);
  });
}

}  // namespace coll::mpi
