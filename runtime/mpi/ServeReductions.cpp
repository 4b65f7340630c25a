// The policy's allreduce and reduce_scatter_block, per element type and
// operator (Dispatch.hpp).
#include "Dispatch.hpp"
#include "policy.hpp"

namespace coll::mpi {

void allreduce(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
               Reduction reduction) {
  withReduction(element, reduction, [&](auto* type, auto op) {
    using T = std::remove_pointer_t<decltype(type)>;
    collc_mpi_policy::policy_allreduce(comm, static_cast<const T*>(send), static_cast<T*>(recv),
                                       count, op);
  });
}

void reduceScatterBlock(Comm& comm, const void* send, void* recv, std::size_t count,
                        Element element, Reduction reduction) {
  withReduction(element, reduction, [&](auto* type, auto op) {
    using T = std::remove_pointer_t<decltype(type)>;
    collc_mpi_policy::policy_reduce_scatter(comm, static_cast<const T*>(send),
                                            static_cast<T*>(recv), count, op);
  });
}

}  // namespace coll::mpi
