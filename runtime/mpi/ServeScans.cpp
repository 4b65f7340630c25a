// A policy's scans, per element type and operator (Dispatch.hpp), where it
// has them (policy_calls.h).
#include "Dispatch.hpp"
#include "policy.hpp"
#include "policy_calls.h"

namespace coll::mpi::entries {

#ifdef COLLC_POLICY_INCLUSIVE_SCAN
void scan(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
                   Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_inclusive_scan(comm, in, out, count, op);
  });
}
#endif

#ifdef COLLC_POLICY_EXCLUSIVE_SCAN
// Rank 0's result is left as it was (undefined in MPI).
void exscan(Comm& comm, const void* send, void* recv, std::size_t count, Element element,
                   Reduction reduction) {
  withReduction(element, reduction, send, recv, [&](const auto* in, auto* out, auto op) {
    collc_mpi_policy::policy_exclusive_scan(comm, in, out, count, op);
  });
}
#endif

}  // namespace coll::mpi::entries
