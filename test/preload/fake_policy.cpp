// A policy.so from another collc (test/preload/policy_errors.sh): its
// table names runtime headers other than the library's, so the library
// must refuse it before running any of its code.
#include "Serve.hpp"

extern "C" __attribute__((visibility("default"))) const coll::mpi::Policy* collc_mpi_policy_v1() {
  static const coll::mpi::Policy policy{coll::mpi::kPolicyAbi, "0123456789abcdef", 1, "fake.coll"};
  return &policy;
}
