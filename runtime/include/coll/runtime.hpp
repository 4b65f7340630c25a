#pragma once
// Everything generated collectives need: Comm, groups, trees, plans and
// their executor, digit routings, butterfly plans, segments, merges,
// operators.

#include "coll/butterfly.hpp"
#include "coll/collectives.hpp"
#include "coll/digits.hpp"
#include "coll/executor.hpp"
#include "coll/group_moves.hpp"
#include "coll/groups.hpp"
#include "coll/merge.hpp"
#include "coll/plan.hpp"
#include "coll/reconfiguration.hpp"
#include "coll/scans.hpp"
#include "coll/segments.hpp"
#include "coll/mpi_transport.hpp"
#include "coll/recording.hpp"
#include "coll/transport.hpp"
#include "coll/trees.hpp"

namespace coll {

// Reduction operators. Generated code takes any callable; these are the
// named ones matching MPI_SUM, MPI_PROD, MPI_MIN and MPI_MAX.
// The casts undo integer promotion for narrow types like int8_t.
struct Sum {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a + b); }
};
struct Prod {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a * b); }
};
struct Min {
  template <class T>
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
struct Max {
  template <class T>
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

}  // namespace coll
