#pragma once
// Everything a collc-generated header needs, and nothing of MPI: Comm,
// groups, plans and their executor, every family's plan, segments, merges
// and operators (coll/merge.hpp), recordings and the in-process transport's
// interface. A generated header includes this alone, so it compiles
// wherever the runtime's headers are; a program that runs it over MPI
// includes coll/mpi_transport.hpp (or coll/runtime.hpp) as well.

#include "coll/butterfly.hpp"
#include "coll/checked.hpp"
#include "coll/collectives.hpp"
#include "coll/digits.hpp"
#include "coll/executor.hpp"
#include "coll/group_moves.hpp"
#include "coll/groups.hpp"
#include "coll/merge.hpp"
#include "coll/plan.hpp"
#include "coll/reconfiguration.hpp"
#include "coll/recording.hpp"
#include "coll/scans.hpp"
#include "coll/segments.hpp"
#include "coll/transport.hpp"
#include "coll/trees.hpp"
