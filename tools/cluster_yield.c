/* Preloaded by tools/cluster.sh into MPICH's ranks on the emulated
 * cluster: after a round of UCX progress that found nothing to do, give
 * the core away (sched_yield), as Open MPI's mpi_yield_when_idle does.
 *
 * Why: the emulated hosts are K processes on this machine's two cores.
 * MPICH's ch4 progress loop (over UCX) busy-polls and never yields, so a
 * rank whose peer shares a core with a third polling rank waits until
 * the kernel's next scheduler tick (HZ = 250: 4 ms) to see the peer's
 * message: an 8 B allreduce took 8 ms at 4 hosts and 24 ms at 6, with
 * 1 MiB at the link rate on 2 hosts (no core shared). Real hosts do not
 * share cores; this puts the emulation back to measuring the links
 * (docs/history/benchmarks-2026-12.md, "MPICH on the emulated cluster"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*progress_fn)(void *);

unsigned ucp_worker_progress(void *worker) {
  static progress_fn next;
  if (!next) next = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
  const unsigned events = next(worker);
  if (!events) sched_yield();
  return events;
}
