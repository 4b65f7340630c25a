#pragma once
// The whole runtime for an MPI program: what generated headers need
// (coll/generated.hpp) and the MPI transport, so that coll::Comm{MPI_Comm}
// works.

#include "coll/generated.hpp"
#include "coll/mpi_transport.hpp"
