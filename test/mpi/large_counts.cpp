// Counts past 2^31 elements and bytes past 2^32 (docs/robustness.md,
// "Limits"): not in the default suite (8.6 GB of buffers at P = 2; ctest
// label `large`).
//
//   large_counts header COUNT   a generated ring allreduce (uint8, sum,
//                               in place) of COUNT elements
//   large_counts mpi COUNT      MPI_Allreduce (MPI_DOUBLE, in place) of
//                               COUNT elements, then MPI_Bcast of the same
//                               bytes as 1 MiB contiguous blocks: what
//                               libcollc_mpi.so serves when preloaded
//
// Every element is compared with its closed form. Rank 0 prints a line
// naming the bytes of each call, then (mpi, as test/preload/run.sh wants)
// a line PASS.
#include "coll/runtime.hpp"

#include <mpi.h>

#include "ring.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace {

[[noreturn]] void fail(const char* what, std::size_t i, double got, double want) {
  std::fprintf(stderr, "large_counts: %s: element %zu is %g, expected %g\n", what, i, got, want);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

// Uninitialized: the memory is touched only by the fill (no 4 GiB memset).
template <class T> std::unique_ptr<T[]> buffer(std::size_t count) {
  return std::unique_ptr<T[]>(new T[count]);
}

void viaHeader(std::size_t count, int rank, int P) {
  auto data = buffer<std::uint8_t>(count);
  for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<std::uint8_t>((rank + 1) * (i % 7 + 1));
  coll::Comm comm(MPI_COMM_WORLD);
  collc::ring(comm, data.get(), data.get(), count, coll::Sum{});
  const unsigned ranks = static_cast<unsigned>(P * (P + 1) / 2);
  for (std::size_t i = 0; i < count; ++i)
    if (data[i] != static_cast<std::uint8_t>(ranks * (i % 7 + 1)))
      fail("ring allreduce", i, data[i], static_cast<std::uint8_t>(ranks * (i % 7 + 1)));
  if (rank == 0)
    std::printf("PASS large_counts header: ring allreduce of %zu uint8 (%zu B) at P=%d\n", count,
                count, P);
}

void viaMpi(std::size_t count, int rank, int P) {
  if (count > static_cast<std::size_t>(INT32_MAX)) {
    std::fprintf(stderr, "large_counts: MPI counts are int: at most %d\n", INT32_MAX);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::size_t bytes = count * sizeof(double);
  auto data = buffer<double>(count);
  for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<double>((rank + 1) * (i % 13));
  MPI_Allreduce(MPI_IN_PLACE, data.get(), static_cast<int>(count), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  const double ranks = P * (P + 1) / 2.0;
  for (std::size_t i = 0; i < count; ++i)
    if (data[i] != ranks * static_cast<double>(i % 13)) fail("MPI_Allreduce", i, data[i], ranks * (i % 13));
  // The same bytes, as whole 1 MiB blocks of a contiguous type, from the
  // last rank.
  constexpr int kBlock = 1 << 20;
  MPI_Datatype block;
  MPI_Type_contiguous(kBlock, MPI_BYTE, &block);
  MPI_Type_commit(&block);
  const std::size_t blocks = bytes / kBlock;
  auto* raw = reinterpret_cast<unsigned char*>(data.get());
  if (rank == P - 1)
    for (std::size_t i = 0; i < blocks * kBlock; ++i) raw[i] = static_cast<unsigned char>(i % 251);
  MPI_Bcast(raw, static_cast<int>(blocks), block, P - 1, MPI_COMM_WORLD);
  MPI_Type_free(&block);
  for (std::size_t i = 0; i < blocks * kBlock; ++i)
    if (raw[i] != i % 251) fail("MPI_Bcast", i, raw[i], static_cast<double>(i % 251));
  if (rank == 0)
    std::printf("large_counts mpi: MPI_Allreduce of %zu double (%zu B), MPI_Bcast of %zu B "
                "at P=%d\nPASS\n",
                count, bytes, blocks * kBlock, P);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const std::string mode = argc > 1 ? argv[1] : "";
  const std::size_t count = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 0;
  if ((mode != "header" && mode != "mpi") || count == 0) {
    if (rank == 0) std::fprintf(stderr, "usage: large_counts header|mpi COUNT\n");
    MPI_Finalize();
    return 2;
  }
  try {
    if (mode == "header")
      viaHeader(count, rank, P);
    else
      viaMpi(count, rank, P);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
