#pragma once
// Everything generated collectives need: Comm, groups, trees, plans and
// their executor, digit routings, butterfly plans, segments, merges and
// operators (coll/merge.hpp).

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
