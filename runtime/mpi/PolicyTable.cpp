// A policy's table (Serve.hpp): its entry points, which rank counts each
// admits, and the explanation of its choices, for the calls it has
// schedules for (policy_calls.h, written by `collc policy` with the
// schedules' header). Compiled into libcollc_mpi.so for the built-in
// policy, and into a policy.so (COLLC_POLICY_LOADABLE) that exports it.
#include <cstdio>

#include "Serve.hpp"
#include "policy.hpp"
#include "policy_calls.h"

#ifndef COLLC_RUNTIME_DIGEST
#error "COLLC_RUNTIME_DIGEST: the digest of the runtime headers this policy is compiled with"
#endif

namespace coll::mpi {
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

// policy_calls.h says how each call is explained: by the model's choice
// among its candidates, or as its one schedule.
#define COLLC_CHOICE(name)                                                                   \
  chosen(collc_mpi_policy::name##_choice(ranks, bytes), collc_mpi_policy::name##_candidates, \
         collc_mpi_policy::name##_predicted_us, ranks, bytes)
#define COLLC_ONE(name, schedule) std::string(#name " (the one schedule: " schedule ")")

// policy_calls.h lists the calls present as X(call, schedule, explanation):
// Call::call, served by entries::call (Serve*.cpp) with the schedule
// collc_mpi_policy::schedule, explained by `explanation`.
std::string explain([[maybe_unused]] Call call, [[maybe_unused]] int ranks,
                    [[maybe_unused]] std::size_t bytes) {
#define COLLC_EXPLAIN(call, schedule, explanation) \
  case Call::call:                                 \
    return explanation;
  switch (call) {
    COLLC_POLICY_CALLS(COLLC_EXPLAIN)
    default: break;
  }
#undef COLLC_EXPLAIN
  return "(no schedule for this call)";
}

bool accepts([[maybe_unused]] Call call, [[maybe_unused]] int ranks) {
#define COLLC_ACCEPTS(call, schedule, explanation) \
  case Call::call:                                 \
    return collc_mpi_policy::schedule##_accepts(ranks);
  switch (call) {
    COLLC_POLICY_CALLS(COLLC_ACCEPTS)
    default: break;
  }
#undef COLLC_ACCEPTS
  return false;
}

constexpr Policy makeTable() {
  Policy table{};
  table.abi = kPolicyAbi;
  table.runtime = COLLC_RUNTIME_DIGEST;
  table.digest = COLLC_POLICY_DIGEST;
  table.sources = COLLC_POLICY_SOURCES;
  table.toolchain = COLLC_POLICY_TOOLCHAIN;
  table.commSize = sizeof(Comm);
#define COLLC_ENTRY(call, schedule, explanation) table.call = entries::call;
  COLLC_POLICY_CALLS(COLLC_ENTRY)
#undef COLLC_ENTRY
  table.accepts = accepts;
  table.explain = explain;
  return table;
}

constexpr Policy kTable = makeTable();

}  // namespace

#ifdef COLLC_POLICY_LOADABLE
extern "C" __attribute__((visibility("default"))) const Policy* collc_mpi_policy_v1() {
  return &kTable;
}
#else
const Policy& builtinPolicy() { return kTable; }
#endif

}  // namespace coll::mpi
