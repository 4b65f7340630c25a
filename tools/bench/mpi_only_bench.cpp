// mpi-only-bench: a benchmark that knows nothing of collc (it calls MPI
// only), for running unchanged with and without libcollc_mpi.so preloaded
// (tools/bench/preload_compare.sh, docs/benchmarks.md). Debian packages
// neither the OSU micro-benchmarks nor IMB; this measures as seed 000 does:
// a barrier before each call, each rank times its own call, a call's time
// is the maximum over ranks, the median over trials (and p10, p90).
//   mpi-only-bench [--kinds allreduce,...] [--sizes 8,1K,1M] [--trials N]
// prints CSV: kind,bytes,median_us,p10_us,p90_us (rank 0).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

bool parseSize(const std::string& text, std::size_t& bytes) {
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str()) return false;
  std::size_t scale = 1;
  if (*end == 'K') scale = 1024, ++end;
  else if (*end == 'M') scale = 1024 * 1024, ++end;
  if (*end) return false;
  bytes = static_cast<std::size_t>(n) * scale;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<std::string> kinds = {"allreduce", "reduce_scatter_block", "allgather", "alltoall",
                                    "scan", "exscan", "barrier", "bcast", "reduce", "gather",
                                    "scatter"};
  std::vector<std::size_t> sizes = {8, 64, 512, 4096, 32768, 262144, 1048576};
  int trials = 51, warmups = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--kinds" && hasValue) {
      kinds = split(argv[++i]);
    } else if (arg == "--sizes" && hasValue) {
      sizes.clear();
      for (const std::string& s : split(argv[++i])) {
        std::size_t b = 0;
        if (!parseSize(s, b) || b == 0) {
          if (rank == 0) std::fprintf(stderr, "mpi-only-bench: error: bad size '%s'\n", s.c_str());
          MPI_Abort(MPI_COMM_WORLD, 2);
        }
        sizes.push_back(b);
      }
    } else if (arg == "--trials" && hasValue) {
      trials = std::atoi(argv[++i]);
    } else {
      if (rank == 0)
        std::fprintf(stderr,
                     "usage: mpi-only-bench [--kinds allreduce,reduce_scatter_block,allgather,"
                     "alltoall,scan,exscan,barrier,bcast,reduce,gather,scatter] [--sizes 8,1K,1M] "
                     "[--trials N]\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (trials < 1) trials = 1;
  if (rank == 0) std::printf("kind,bytes,median_us,p10_us,p90_us\n");
  const std::size_t P = static_cast<std::size_t>(size);
  for (const std::string& kind : kinds) {
    const bool known = kind == "allreduce" || kind == "reduce_scatter_block" || kind == "allgather" ||
                       kind == "alltoall" || kind == "scan" || kind == "exscan" || kind == "barrier" ||
                       kind == "bcast" || kind == "reduce" || kind == "gather" || kind == "scatter";
    if (!known) {
      if (rank == 0) std::fprintf(stderr, "mpi-only-bench: error: unknown kind '%s'\n", kind.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (std::size_t bytes : kind == "barrier" ? std::vector<std::size_t>{0} : sizes) {
      const int n = static_cast<int>(std::max<std::size_t>(bytes / sizeof(int), 1));
      const std::size_t un = static_cast<std::size_t>(n);
      std::vector<int> send(P * un, rank + 1), recv(P * un, 0);
      auto call = [&] {
        if (kind == "allreduce") MPI_Allreduce(send.data(), recv.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else if (kind == "reduce_scatter_block") MPI_Reduce_scatter_block(send.data(), recv.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else if (kind == "allgather") MPI_Allgather(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, MPI_COMM_WORLD);
        else if (kind == "alltoall") MPI_Alltoall(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, MPI_COMM_WORLD);
        else if (kind == "scan") MPI_Scan(send.data(), recv.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else if (kind == "exscan") MPI_Exscan(send.data(), recv.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        // The rooted calls from the last rank (rank 0 is most libraries' best case).
        else if (kind == "bcast") MPI_Bcast(recv.data(), n, MPI_INT, size - 1, MPI_COMM_WORLD);
        else if (kind == "reduce") MPI_Reduce(send.data(), recv.data(), n, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
        else if (kind == "gather") MPI_Gather(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, size - 1, MPI_COMM_WORLD);
        else if (kind == "scatter") MPI_Scatter(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, size - 1, MPI_COMM_WORLD);
        else MPI_Barrier(MPI_COMM_WORLD);
      };
      // bcast: the root's buffer holds rank P's values, every other rank's is overwritten.
      if (kind == "bcast" && rank == size - 1) std::fill(recv.begin(), recv.end(), size);
      for (int w = 0; w < warmups; ++w) call();
      std::vector<double> mine(static_cast<std::size_t>(trials)), worst(mine.size());
      for (int t = 0; t < trials; ++t) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        call();
        mine[static_cast<std::size_t>(t)] = MPI_Wtime() - t0;
      }
      // Checked outside the timed calls: every rank's first element.
      const long long P2 = static_cast<long long>(size);
      long long want = -1;
      if (kind == "allreduce" || kind == "reduce_scatter_block") want = P2 * (P2 + 1) / 2;
      else if (kind == "scan") want = (rank + 1LL) * (rank + 2) / 2;
      else if (kind == "exscan" && rank > 0) want = rank * (rank + 1LL) / 2;
      else if (kind == "allgather" || kind == "alltoall") want = 1;
      else if (kind == "bcast") want = P2;
      else if (kind == "reduce" && rank == size - 1) want = P2 * (P2 + 1) / 2;
      else if (kind == "gather" && rank == size - 1) want = 1;
      else if (kind == "scatter") want = P2;
      if (want >= 0 && recv[0] != want) {
        std::fprintf(stderr, "mpi-only-bench: error: %s of %zu B: rank %d got %d, want %lld\n",
                     kind.c_str(), bytes, rank, recv[0], want);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      MPI_Allreduce(mine.data(), worst.data(), trials, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      std::sort(worst.begin(), worst.end());
      auto at = [&](double q) { return worst[static_cast<std::size_t>(q * (worst.size() - 1))] * 1e6; };
      if (rank == 0)
        std::printf("%s,%zu,%.3f,%.3f,%.3f\n", kind.c_str(), bytes, at(0.5), at(0.1), at(0.9));
    }
  }
  MPI_Finalize();
  return 0;
}
