// A policy's allreduce, reduce_scatter_block and reduce, per element type
// and operator (Dispatch.hpp), where it has them (policy_calls.h).
#include "Dispatch.hpp"
#include "policy.hpp"
#include "policy_calls.h"

namespace coll::mpi::entries {

#ifdef COLLC_POLICY_ALLREDUCE
void allreduce(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
               Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_allreduce(comm, in, out, count, op);
  });
}
#endif

#ifdef COLLC_POLICY_REDUCE_SCATTER
void reduceScatterBlock(Comm& comm, const void* send, void* recv, std::size_t count,
                        Element element, Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_reduce_scatter(comm, in, out, count, op);
  });
}
#endif

#ifdef COLLC_POLICY_REDUCE
void reduce(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
            Reduction reduction, int root) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_reduce(comm, in, out, count, root, op);
  });
}
#endif

}  // namespace coll::mpi::entries
