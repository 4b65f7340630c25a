// No heap allocation on a collective's second call on a Comm (issue 15):
// operator new is counted around the second of two identical calls of
// every schedule collc-bench measures (every kind and family; in place
// too), on MPI's transport. The first call may allocate (its plan, the
// Workspace, the executor's and transport's buffers); after it, nothing
// may. MPI's own memory is its business (C malloc, not counted).
//   mpirun -np P check_no_allocation   -> "PASS no-allocation P=P N calls"

#include "coll/runtime.hpp"

#include "choose.hpp"
#include "schedules.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <vector>

namespace {
std::atomic<long> allocations{0};
}

// The replacements pair malloc with free; GCC sees operator new inlined
// into a delete that frees and warns, which is the point here.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  ++allocations;
  const std::size_t a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int failures = 0, calls = 0, rank = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  {
    coll::Comm comm{MPI_COMM_WORLD};
    // A count not divisible by P (parts of unequal size), and a large one.
    for (std::size_t count : {std::size_t(7), std::size_t(70001)}) {
      const std::size_t Pz = static_cast<std::size_t>(P);
      std::vector<double> send(Pz * count, 1.0), recv(Pz * count, 0.0);
      double* s = send.data();
      double* r = recv.data();
      struct Call {
        const char* name;
        bool accepts;
        std::function<void()> run;
      };
#define REDUCING(fn) Call{#fn, collc::fn##_accepts(P), [&] { collc::fn(comm, s, r, count); }}
#define IN_PLACE(fn) Call{#fn " in place", collc::fn##_accepts(P), [&] { collc::fn(comm, r, r, count); }}
#define BROADCAST(fn) Call{#fn, collc::fn##_accepts(P), [&] { collc::fn(comm, r, count); }}
      const std::vector<Call> table{
          REDUCING(allreduce_ring), REDUCING(allreduce_ring_seg4), REDUCING(allreduce_butterfly),
          REDUCING(allreduce_halving), REDUCING(allreduce_doubling), REDUCING(allreduce_tree),
          REDUCING(allreduce_trivance), REDUCING(allreduce_choose), IN_PLACE(allreduce_ring),
          IN_PLACE(allreduce_butterfly), IN_PLACE(allreduce_tree),
          REDUCING(reduce_scatter_ring), REDUCING(reduce_scatter_butterfly), REDUCING(reduce_scatter_halving),
          REDUCING(reduce_scatter_tree), IN_PLACE(reduce_scatter_ring),
          REDUCING(allgather_ring), REDUCING(allgather_butterfly), REDUCING(allgather_doubling),
          REDUCING(allgather_tree),
          REDUCING(alltoall_direct), REDUCING(alltoall_bruck), REDUCING(alltoall_retri), IN_PLACE(alltoall_direct),
          BROADCAST(broadcast_binomial), BROADCAST(broadcast_chain_seg8), BROADCAST(broadcast_flat),
          BROADCAST(broadcast_arity4), BROADCAST(broadcast_arity8),
          REDUCING(reduce_binomial), REDUCING(reduce_binomial_seg4), REDUCING(reduce_binomial_seg64),
          REDUCING(reduce_flat), REDUCING(reduce_arity4),
          REDUCING(gather_binomial), REDUCING(gather_flat), REDUCING(scatter_binomial), REDUCING(scatter_flat),
          REDUCING(scan_doubling), REDUCING(scan_linear), REDUCING(exscan_doubling), REDUCING(exscan_linear),
          IN_PLACE(exscan_linear),
          Call{"barrier_binomial", collc::barrier_binomial_accepts(P), [&] { collc::barrier_binomial(comm); }},
          Call{"barrier_flat", collc::barrier_flat_accepts(P), [&] { collc::barrier_flat(comm); }}};
#undef REDUCING
#undef IN_PLACE
#undef BROADCAST
      for (const Call& call : table) {
        if (!call.accepts) continue;
        call.run();  // the first call may allocate
        const long before = allocations.load();
        call.run();
        const long made = allocations.load() - before;
        ++calls;
        if (made) {
          ++failures;
          std::printf("FAIL %s count=%zu rank %d: %ld allocation(s) on the second call\n", call.name, count, rank,
                      made);
        }
      }
    }
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && total == 0) std::printf("PASS no-allocation P=%d %d calls\n", P, calls);
  MPI_Finalize();
  return total ? 1 : 0;
}
