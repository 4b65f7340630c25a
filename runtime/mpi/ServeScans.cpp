// The policy's scans, per element type and operator (Dispatch.hpp).
#include "Dispatch.hpp"
#include "policy.hpp"

namespace coll::mpi {

void inclusiveScan(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
                   Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_inclusive_scan(comm, in, out, count, op);
  });
}

// Rank 0's result is left as it was (undefined in MPI).
void exclusiveScan(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
                   Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_exclusive_scan(comm, in, out, count, op);
  });
}

}  // namespace coll::mpi
