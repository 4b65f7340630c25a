#pragma once
// The MPI library's own algorithms for one collective: its default and each
// algorithm it can be forced to use, reached through the MPI tool interface
// (MPI_T control variables) so that all of them run in one process, side
// by side with collc's (seed 000: one run, randomized order).
//   Open MPI (coll/tuned): coll_tuned_<coll>_algorithm, an enum; a
//     communicator takes the value set when it is created, so each forced
//     algorithm gets its own MPI_Comm_dup. Needs coll_tuned_use_dynamic_rules
//     (read-only after MPI_Init: collc-bench sets it in the environment
//     before MPI_Init).
//   MPICH: MPIR_CVAR_<COLL>_INTRA_ALGORITHM, an int whose values are the
//     algorithms its description lists, in order (0: auto); read on every
//     call, so it is written before the timed call and reset after it.
//   SimGrid's SMPI (library_algorithms_smpi.cpp): no MPI_T; every case sets
//     its collective's algorithm by name before the timed call (the
//     default: the launch's, smpi/coll-selector or smpi/<coll>) and none
//     is put back after it, as the setting is shared by all simulated ranks.

#include <mpi.h>

#include <string>
#include <vector>

namespace collc_bench {

struct LibraryAlgorithm {
  std::string name;  // "default", or the library's name for it, e.g. "ring"
  int value = 0;     // the control variable's value (0: the default)
  MPI_Comm comm = MPI_COMM_NULL;
  int cvar = -1;  // MPICH: the variable to write before each call
  std::string setting;  // SMPI: the collective it is set for, e.g. "allreduce"
};

class LibraryAlgorithms {
 public:
  // Sets what must be set before MPI_Init (Open MPI's dynamic rules).
  static void beforeInit();
  // After MPI_Init: opens the tool interface.
  LibraryAlgorithms();
  ~LibraryAlgorithms();
  LibraryAlgorithms(const LibraryAlgorithms&) = delete;
  LibraryAlgorithms& operator=(const LibraryAlgorithms&) = delete;

  // "Open MPI 4.1.4" or "MPICH 4.0.2" (first line of MPI_Get_library_version).
  const std::string& library() const { return library_; }
  // Why forced algorithms are unavailable, or empty.
  const std::string& forcedUnavailable() const { return forcedUnavailable_; }
  // The value of Open MPI's `op` component selection ("^avx"), or empty.
  std::string opComponents() const;
  // The sum of doubles the library's reductions are called with: MPI_SUM,
  // or under SMPI an operator that also charges each merged element as
  // collc's merges are charged (coll::chargeSimulatedMerge).
  MPI_Op sum() const { return sum_; }

  // The default (on MPI_COMM_WORLD's duplicate) and, with `forced`, each
  // forced algorithm of `collective`, spelled as MPI names it without
  // MPI_: "allreduce", "reduce_scatter_block", "allgather", "alltoall",
  // "bcast", "reduce", "gather", "scatter", "scan", "exscan", "barrier".
  std::vector<LibraryAlgorithm> algorithms(const std::string& collective, bool forced);

  // Around the timed call of `a`: select writes MPICH's variable, reset
  // puts it back to auto (so the timing's own MPI calls run the default).
  void select(const LibraryAlgorithm& a) const;
  void reset(const LibraryAlgorithm& a) const;

 private:
  std::string library_;
  std::string forcedUnavailable_;
  bool openMpi_ = false, mpich_ = false;
  std::vector<MPI_Comm> comms_;  // freed at the end
  MPI_Op sum_ = MPI_SUM;
};

}  // namespace collc_bench
