// The runtime's functions that depend on no element type or operator --
// making and checking plans, recording, checked mode, the executor's
// errors -- compiled once for every program that links libcollc_runtime,
// instead of inline in each of its units (coll/linkage.hpp).
#define COLLC_RUNTIME_SOURCE 1
#include "coll/collectives.hpp"
