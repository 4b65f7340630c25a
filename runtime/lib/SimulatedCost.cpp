// coll::chargeSimulatedMerge under SimGrid's SMPI (COLLC_SMPI; docs/scale.md):
// a merged element costs COLLC_SMPI_MERGE_FLOPS flops (default 1) of the
// simulated host, 1 ns on the shipped platforms' 1 Gflop/s hosts -- about
// 8 GB/s of doubles, one core's streaming rate.
#include <mpi.h>  // SMPI's, which declares smpi_execute_flops

#include <cstdlib>
#include <string>

#include "coll/error.hpp"
#include "coll/merge.hpp"

namespace coll {
namespace {

double mergeFlopsFromEnvironment() {
  const char* text = std::getenv("COLLC_SMPI_MERGE_FLOPS");
  if (!text || !*text) return 1.0;
  char* end = nullptr;
  const double flops = std::strtod(text, &end);
  if (*end != '\0' || !(flops >= 0) || flops > 1e6)
    throw Error(std::string("coll: COLLC_SMPI_MERGE_FLOPS='") + text +
                "' is not a number of flops per element in 0..1e6");
  return flops;
}

}  // namespace

void chargeSimulatedMerge(std::size_t elements) {
  // (Every simulated rank has its own copy of this static: SMPI loads the
  // program once per rank.)
  static const double flopsPerElement = mergeFlopsFromEnvironment();
  if (elements != 0 && flopsPerElement > 0)
    smpi_execute_flops(flopsPerElement * static_cast<double>(elements));
}

}  // namespace coll
