// collc-bench: collc's generated collectives against the MPI library's own,
// in one run, by seed 000's method (design.md 7, docs/benchmarks.md):
//   - every case (kind, algorithm, size) is warmed up, then timed in
//     >= 31 trials; each trial runs all cases in an order shuffled with a
//     fixed seed;
//   - a timed call: inputs made, MPI_Barrier, every rank times its own
//     call, the call's time is the maximum over ranks (gathered once per
//     pass over the cases, so only MPI_Barrier runs between two timed
//     calls: after the check, and before the next call);
//   - the result of every call is checked outside the timed region
//     against the exact answer; a wrong result stops the run after that
//     pass over the cases;
//   - per case: median, MAD, p10, p90, min, max; ratios of medians to the
//     library's default and to its best algorithm (default or forced).
// The library's algorithms are its default and each one it can be forced
// to (library_algorithms.hpp); the hand-written baselines are a plain MPI
// ring and recursive halving/doubling (handwritten.hpp).
//
//   mpirun -np 2 --bind-to none --mca pml ob1 --mca op ^avx build/bin/collc-bench
//       [--sizes 8,64,...,16M] [--trials 31] [--warmups 3] [--seed 1]
//       [--kinds allreduce,...] [--no-forced] [--csv FILE] [--svg FILE] [--quiet]

#include "coll/runtime.hpp"

#include "choose.hpp"
#include "schedules.hpp"

#include "bench_stats.hpp"
#include "bench_svg.hpp"
#include "handwritten.hpp"
#include "library_algorithms.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using collc_bench::LibraryAlgorithm;
using collc_bench::LibraryAlgorithms;
using collc_bench::Summary;

enum class Source { library, hand, collc };

const char* sourceName(Source s) {
  switch (s) {
    case Source::library: return "mpi";
    case Source::hand: return "hand";
    case Source::collc: return "collc";
  }
  return "?";
}

struct Options {
  std::vector<std::size_t> sizes{8, 64, 512, 4096, 32768, 262144, 1048576, 2097152, 16777216};
  int trials = 31;
  int warmups = 3;
  std::uint64_t seed = 1;
  std::set<std::string> kinds;  // empty: all
  bool forced = true;
  bool quiet = false;
  std::string csv, svg;
  std::string corrupt;  // --corrupt ALGORITHM: spoil its results (tests the check)
  bool leaveOutWrong = false;  // --leave-out-wrong: see kUsage
  std::set<std::string> forcedOnly;  // --forced LIST; empty: every forced algorithm
  std::set<std::string> schedules;   // --schedules LIST; empty: every collc and hand one
};

// The buffers every case shares (sized for the largest case) and the
// communicators it runs on.
struct Context {
  int P = 1, rank = 0;
  coll::Comm* comm = nullptr;
  std::vector<double> send, recv, scratch;
};

// One way to run a kind: the timed call for `count` elements.
struct Algorithm {
  std::string name;
  Source source;
  std::function<void(Context&, std::size_t count)> run;
  const LibraryAlgorithm* library = nullptr;
};

constexpr int kRoot = 0;  // rooted kinds: every algorithm's root

// A kind: how its inputs are made and its result checked, the size of its
// buffers (in elements, for `count`), and its algorithms. Values are
// integers well below 2^53, so every sum is exact in any order.
struct Kind {
  std::string name;
  bool sized = true;  // barrier: one case, no data
  std::size_t sendBlocks = 1, recvBlocks = 1;  // buffer sizes in units of count
  std::function<void(Context&, std::size_t count)> prepare;
  // The index of the first wrong element of this rank's result, its value
  // and the expected value; false when all are right.
  std::function<bool(const Context&, std::size_t count, std::size_t& at, double& got, double& want)> wrong;
  std::vector<Algorithm> algorithms;
  std::set<std::string> ownNames;  // its collc and hand-written ones, at any P
};

// Rank r's element i of a reduction's input, and an element that names its
// origin (rank r's element i) for kinds that move data.
double reduced(int r, std::size_t i) { return static_cast<double>(r + 1) + 16.0 * static_cast<double>(i % 509); }
double tagged(int r, std::size_t i) { return static_cast<double>(r) * 1073741824.0 + static_cast<double>(i); }
constexpr double kPoison = -7.5;  // what recv holds before a call

double sumTo(int ranks, std::size_t i) {  // sum over ranks 0..ranks-1 of reduced(r, i)
  return static_cast<double>(ranks) * (ranks + 1) / 2.0 + 16.0 * static_cast<double>(ranks) * static_cast<double>(i % 509);
}

template <class Expect>
bool firstWrong(const double* data, std::size_t n, Expect expect, std::size_t& at, double& got, double& want) {
  for (std::size_t i = 0; i < n; ++i)
    if (data[i] != expect(i)) {
      at = i;
      got = data[i];
      want = expect(i);
      return true;
    }
  return false;
}

bool isPowerOfTwo(int P) { return (P & (P - 1)) == 0; }

int asInt(std::size_t n) { return static_cast<int>(n); }

std::string sizeText(std::size_t bytes) {
  char buffer[32];
  if (bytes >= 1048576 && bytes % 1048576 == 0)
    std::snprintf(buffer, sizeof buffer, "%zu MiB", bytes / 1048576);
  else if (bytes >= 1024 && bytes % 1024 == 0)
    std::snprintf(buffer, sizeof buffer, "%zu KiB", bytes / 1024);
  else
    std::snprintf(buffer, sizeof buffer, "%zu B", bytes);
  return buffer;
}

// The kinds collc has, each with the library's call (default and forced),
// the hand-written baselines and collc's schedules (schedules.coll).
std::vector<Kind> makeKinds(Context& ctx, LibraryAlgorithms& lib, bool forced,
                            const std::set<std::string>& forcedOnly) {
  const int P = ctx.P;
  const MPI_Op sum = lib.sum();
  std::vector<Kind> kinds;
  auto libraryAlgorithms = [&](Kind& kind, const char* mpiName,
                               std::function<void(Context&, std::size_t, MPI_Comm)> call) {
    static std::vector<std::vector<LibraryAlgorithm>> keep;  // Algorithm::library points here
    keep.push_back(lib.algorithms(mpiName, forced));
    for (const LibraryAlgorithm& a : keep.back()) {
      if (a.value != 0 && !forcedOnly.empty() && !forcedOnly.count(a.name)) continue;
      const MPI_Comm comm = a.comm;
      kind.algorithms.push_back({a.name, Source::library,
                                 [call, comm](Context& c, std::size_t n) { call(c, n, comm); }, &a});
    }
  };
  auto collc = [&](Kind& kind, const char* name, bool accepts, std::function<void(Context&, std::size_t)> run) {
    kind.ownNames.insert(name);
    if (accepts) kind.algorithms.push_back({name, Source::collc, std::move(run), nullptr});
  };
  auto hand = [&](Kind& kind, const char* name, bool accepts, std::function<void(Context&, std::size_t)> run) {
    kind.ownNames.insert(name);
    if (accepts) kind.algorithms.push_back({name, Source::hand, std::move(run), nullptr});
  };
  auto fill = [](double* data, std::size_t n, auto value) {
    for (std::size_t i = 0; i < n; ++i) data[i] = value(i);
  };
  auto poison = [](double* data, std::size_t n) { std::fill(data, data + n, kPoison); };
  const std::size_t Pz = static_cast<std::size_t>(P);
  // The usual inputs: the buffers of collective kind `is`, in blocks of
  // count (coll::bufferRule, the runtime's table); send filled from
  // value(rank, i), recv poisoned.
  auto inputs = [fill, poison, P](Kind& kind, coll::Kind is, double (*value)(int, std::size_t)) {
    const coll::BufferRule rule = coll::bufferRule(is);
    const std::size_t sendBlocks = coll::elementsOf(rule.send, P, 1);
    const std::size_t recvBlocks = coll::elementsOf(rule.recv, P, 1);
    kind.sendBlocks = sendBlocks;
    kind.recvBlocks = recvBlocks;
    kind.prepare = [=](Context& c, std::size_t n) {
      fill(c.send.data(), sendBlocks * n, [&](std::size_t i) { return value(c.rank, i); });
      poison(c.recv.data(), recvBlocks * n);
    };
  };

  {  // allreduce
    Kind k;
    k.name = "allreduce";
    inputs(k, coll::Kind::allreduce, reduced);
    k.wrong = [](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      return firstWrong(c.recv.data(), n, [&](std::size_t i) { return sumTo(c.P, i); }, at, got, want);
    };
    libraryAlgorithms(k, "allreduce", [sum](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Allreduce(c.send.data(), c.recv.data(), asInt(n), MPI_DOUBLE, sum, comm);
    });
    hand(k, "ring", true, [](Context& c, std::size_t n) {
      collc_bench::hand::ringAllreduce(c.send.data(), c.recv.data(), n, MPI_COMM_WORLD, c.scratch);
    });
    hand(k, "halving-doubling", isPowerOfTwo(P), [](Context& c, std::size_t n) {
      collc_bench::hand::halvingDoublingAllreduce(c.send.data(), c.recv.data(), n, MPI_COMM_WORLD, c.scratch);
    });
    hand(k, "recursive-doubling", isPowerOfTwo(P), [](Context& c, std::size_t n) {
      collc_bench::hand::doublingAllreduce(c.send.data(), c.recv.data(), n, MPI_COMM_WORLD, c.scratch);
    });
#define COLLC_REDUCING(kind, fn)                                                                \
  collc(kind, #fn, collc::fn##_accepts(P),                                                       \
        [](Context& c, std::size_t n) { collc::fn(*c.comm, c.send.data(), c.recv.data(), n); })
    COLLC_REDUCING(k, allreduce_ring);
    COLLC_REDUCING(k, allreduce_ring_seg4);
    COLLC_REDUCING(k, allreduce_butterfly);
    COLLC_REDUCING(k, allreduce_halving);
    COLLC_REDUCING(k, allreduce_doubling);
    COLLC_REDUCING(k, allreduce_tree);
    COLLC_REDUCING(k, allreduce_trivance);
    COLLC_REDUCING(k, allreduce_choose);
    kinds.push_back(std::move(k));
  }
  {  // reduce_scatter: count elements per block, send holds P blocks
    Kind k;
    k.name = "reduce_scatter";
    inputs(k, coll::Kind::reduce_scatter, reduced);
    k.wrong = [](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      const std::size_t base = static_cast<std::size_t>(c.rank) * n;
      return firstWrong(c.recv.data(), n, [&](std::size_t i) { return sumTo(c.P, base + i); }, at, got, want);
    };
    libraryAlgorithms(k, "reduce_scatter_block", [sum](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Reduce_scatter_block(c.send.data(), c.recv.data(), asInt(n), MPI_DOUBLE, sum, comm);
    });
    hand(k, "ring", true, [](Context& c, std::size_t n) {
      collc_bench::hand::ringReduceScatter(c.send.data(), c.recv.data(), n, MPI_COMM_WORLD, c.scratch);
    });
    COLLC_REDUCING(k, reduce_scatter_ring);
    COLLC_REDUCING(k, reduce_scatter_butterfly);
    COLLC_REDUCING(k, reduce_scatter_halving);
    COLLC_REDUCING(k, reduce_scatter_tree);
    kinds.push_back(std::move(k));
  }
  {  // allgather: count elements per rank, recv holds P blocks
    Kind k;
    k.name = "allgather";
    inputs(k, coll::Kind::allgather, tagged);
    k.wrong = [Pz](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      return firstWrong(c.recv.data(), Pz * n, [&](std::size_t i) { return tagged(static_cast<int>(i / n), i % n); },
                        at, got, want);
    };
    libraryAlgorithms(k, "allgather", [](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Allgather(c.send.data(), asInt(n), MPI_DOUBLE, c.recv.data(), asInt(n), MPI_DOUBLE, comm);
    });
    hand(k, "ring", true, [](Context& c, std::size_t n) {
      collc_bench::hand::ringAllgather(c.send.data(), c.recv.data(), n, MPI_COMM_WORLD);
    });
    COLLC_REDUCING(k, allgather_ring);
    COLLC_REDUCING(k, allgather_butterfly);
    COLLC_REDUCING(k, allgather_doubling);
    COLLC_REDUCING(k, allgather_tree);
    kinds.push_back(std::move(k));
  }
  {  // alltoall: count elements per block; rank r's block d goes to rank d
    Kind k;
    k.name = "alltoall";
    inputs(k, coll::Kind::alltoall, tagged);
    k.wrong = [Pz](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      const std::size_t mine = static_cast<std::size_t>(c.rank) * n;
      return firstWrong(c.recv.data(), Pz * n,
                        [&](std::size_t i) { return tagged(static_cast<int>(i / n), mine + i % n); }, at, got, want);
    };
    libraryAlgorithms(k, "alltoall", [](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Alltoall(c.send.data(), asInt(n), MPI_DOUBLE, c.recv.data(), asInt(n), MPI_DOUBLE, comm);
    });
    COLLC_REDUCING(k, alltoall_direct);
    COLLC_REDUCING(k, alltoall_bruck);
    COLLC_REDUCING(k, alltoall_retri);
    kinds.push_back(std::move(k));
  }
  {  // broadcast from root 0: recv is the buffer
    Kind k;
    k.name = "broadcast";
    k.prepare = [fill, poison](Context& c, std::size_t n) {
      if (c.rank == kRoot)
        fill(c.recv.data(), n, [&](std::size_t i) { return tagged(kRoot, i); });
      else
        poison(c.recv.data(), n);
    };
    k.wrong = [](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      return firstWrong(c.recv.data(), n, [&](std::size_t i) { return tagged(kRoot, i); }, at, got, want);
    };
    libraryAlgorithms(k, "bcast", [](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Bcast(c.recv.data(), asInt(n), MPI_DOUBLE, kRoot, comm);
    });
#define COLLC_BROADCAST(kind, fn) \
  collc(kind, #fn, collc::fn##_accepts(P), [](Context& c, std::size_t n) { collc::fn(*c.comm, c.recv.data(), n); })
    COLLC_BROADCAST(k, broadcast_binomial);
    COLLC_BROADCAST(k, broadcast_chain_seg8);
    COLLC_BROADCAST(k, broadcast_flat);
    COLLC_BROADCAST(k, broadcast_arity4);
    COLLC_BROADCAST(k, broadcast_arity8);
    kinds.push_back(std::move(k));
  }
  {  // reduce to root 0
    Kind k;
    k.name = "reduce";
    inputs(k, coll::Kind::reduce, reduced);
    k.wrong = [](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      if (c.rank != kRoot) return false;
      return firstWrong(c.recv.data(), n, [&](std::size_t i) { return sumTo(c.P, i); }, at, got, want);
    };
    libraryAlgorithms(k, "reduce", [sum](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Reduce(c.send.data(), c.recv.data(), asInt(n), MPI_DOUBLE, sum, kRoot, comm);
    });
    COLLC_REDUCING(k, reduce_binomial);
    COLLC_REDUCING(k, reduce_binomial_seg4);
    COLLC_REDUCING(k, reduce_binomial_seg64);
    COLLC_REDUCING(k, reduce_flat);
    COLLC_REDUCING(k, reduce_arity4);
    kinds.push_back(std::move(k));
  }
  {  // gather to root 0: count elements per rank
    Kind k;
    k.name = "gather";
    inputs(k, coll::Kind::gather, tagged);
    k.wrong = [Pz](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      if (c.rank != kRoot) return false;
      return firstWrong(c.recv.data(), Pz * n, [&](std::size_t i) { return tagged(static_cast<int>(i / n), i % n); },
                        at, got, want);
    };
    libraryAlgorithms(k, "gather", [](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Gather(c.send.data(), asInt(n), MPI_DOUBLE, c.recv.data(), asInt(n), MPI_DOUBLE, kRoot, comm);
    });
    COLLC_REDUCING(k, gather_binomial);
    COLLC_REDUCING(k, gather_flat);
    kinds.push_back(std::move(k));
  }
  {  // scatter from root 0: count elements per rank
    Kind k;
    k.name = "scatter";
    k.sendBlocks = coll::elementsOf(coll::bufferRule(coll::Kind::scatter).send, P, 1);
    k.prepare = [fill, poison, Pz](Context& c, std::size_t n) {
      if (c.rank == kRoot)
        fill(c.send.data(), Pz * n, [&](std::size_t i) { return tagged(static_cast<int>(i / n), i % n); });
      poison(c.recv.data(), n);
    };
    k.wrong = [](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      return firstWrong(c.recv.data(), n, [&](std::size_t i) { return tagged(c.rank, i); }, at, got, want);
    };
    libraryAlgorithms(k, "scatter", [](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Scatter(c.send.data(), asInt(n), MPI_DOUBLE, c.recv.data(), asInt(n), MPI_DOUBLE, kRoot, comm);
    });
    COLLC_REDUCING(k, scatter_binomial);
    COLLC_REDUCING(k, scatter_flat);
    kinds.push_back(std::move(k));
  }
  {  // inclusive scan
    Kind k;
    k.name = "inclusive_scan";
    inputs(k, coll::Kind::inclusive_scan, reduced);
    k.wrong = [](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      return firstWrong(c.recv.data(), n, [&](std::size_t i) { return sumTo(c.rank + 1, i); }, at, got, want);
    };
    libraryAlgorithms(k, "scan", [sum](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Scan(c.send.data(), c.recv.data(), asInt(n), MPI_DOUBLE, sum, comm);
    });
    COLLC_REDUCING(k, scan_doubling);
    COLLC_REDUCING(k, scan_linear);
    kinds.push_back(std::move(k));
  }
  {  // exclusive scan (rank 0's result is undefined, as MPI_Exscan's)
    Kind k;
    k.name = "exclusive_scan";
    inputs(k, coll::Kind::exclusive_scan, reduced);
    k.wrong = [](const Context& c, std::size_t n, std::size_t& at, double& got, double& want) {
      if (c.rank == 0) return false;
      return firstWrong(c.recv.data(), n, [&](std::size_t i) { return sumTo(c.rank, i); }, at, got, want);
    };
    libraryAlgorithms(k, "exscan", [sum](Context& c, std::size_t n, MPI_Comm comm) {
      MPI_Exscan(c.send.data(), c.recv.data(), asInt(n), MPI_DOUBLE, sum, comm);
    });
    COLLC_REDUCING(k, exscan_doubling);
    COLLC_REDUCING(k, exscan_linear);
    kinds.push_back(std::move(k));
  }
  {  // barrier
    Kind k;
    k.name = "barrier";
    k.sized = false;
    k.prepare = [](Context&, std::size_t) {};
    k.wrong = [](const Context&, std::size_t, std::size_t&, double&, double&) { return false; };
    libraryAlgorithms(k, "barrier", [](Context&, std::size_t, MPI_Comm comm) { MPI_Barrier(comm); });
    collc(k, "barrier_binomial", collc::barrier_binomial_accepts(P), [](Context& c, std::size_t) { collc::barrier_binomial(*c.comm); });
    collc(k, "barrier_flat", collc::barrier_flat_accepts(P), [](Context& c, std::size_t) { collc::barrier_flat(*c.comm); });
    collc(k, "barrier_butterfly", collc::barrier_butterfly_accepts(P), [](Context& c, std::size_t) { collc::barrier_butterfly(*c.comm); });
    kinds.push_back(std::move(k));
  }
#undef COLLC_REDUCING
#undef COLLC_BROADCAST
  return kinds;
}

struct Case {
  const Kind* kind;
  const Algorithm* algorithm;
  std::size_t bytes, count;
  std::vector<double> times;  // microseconds, one per trial
  bool leftOut = false;       // --leave-out-wrong: wrong in the first warm-up
};

bool parseSize(const std::string& text, std::size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str()) return false;
  std::string unit(end);
  std::size_t scale = 1;
  if (unit == "K" || unit == "KiB") scale = 1024;
  else if (unit == "M" || unit == "MiB") scale = 1048576;
  else if (!unit.empty() && unit != "B") return false;
  out = static_cast<std::size_t>(v) * scale;
  return true;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) parts.push_back(item);
  return parts;
}

const char* kUsage =
    "usage: collc-bench [--sizes LIST] [--trials N] [--warmups N] [--seed N] [--kinds LIST]\n"
    "                   [--no-forced | --forced LIST] [--leave-out-wrong] [--csv FILE] [--svg FILE]\n"
    "                   [--schedules LIST] [--quiet]\n"
    "  --sizes    bytes per rank (per block for allgather, reduce_scatter, alltoall,\n"
    "             gather, scatter), e.g. 8,4K,1M; default 8,64,512,4K,32K,256K,1M,2M,16M\n"
    "  --trials   timed trials per case (default 31), after --warmups untimed calls (3)\n"
    "  --seed     the seed of the shuffled case order (default 1)\n"
    "  --kinds    allreduce,reduce_scatter,allgather,alltoall,broadcast,reduce,gather,\n"
    "             scatter,inclusive_scan,exclusive_scan,barrier (default all)\n"
    "  --no-forced  only the library's default, not its forced algorithms\n"
    "  --forced LIST  only these of the library's forced algorithms (its names)\n"
    "  --schedules LIST  only these of collc's schedules and the hand-written baselines\n"
    "             (e.g. allreduce_halving,ring; the library's default always runs)\n"
    "  --leave-out-wrong  a forced library algorithm with a wrong result in the first\n"
    "             warm-up is left out, named, instead of ending the run (SMPI's do not\n"
    "             all apply at every P and size)\n"
    "  --csv FILE, --svg FILE  also write every case's statistics, or a log-log plot\n"
    "  --corrupt ALGORITHM  spoil that algorithm's results on the last rank (tests the check)\n";

// Parses argv into `o`; an error text (or "help") when it cannot.
std::string parseOptions(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--help" || a == "-h") return "help";
    if (a == "--no-forced") { o.forced = false; continue; }
    if (a == "--quiet") { o.quiet = true; continue; }
    if (a == "--leave-out-wrong") { o.leaveOutWrong = true; continue; }
    if (a != "--sizes" && a != "--trials" && a != "--warmups" && a != "--seed" && a != "--kinds" &&
        a != "--csv" && a != "--svg" && a != "--corrupt" && a != "--forced" &&
        a != "--schedules")
      return "unknown option '" + a + "'";
    if (!value(v)) return "option '" + a + "' needs a value";
    if (a == "--sizes") {
      o.sizes.clear();
      for (const std::string& s : split(v)) {
        std::size_t bytes = 0;
        if (!parseSize(s, bytes) || bytes < 8 || bytes % 8)
          return "--sizes: '" + s + "' is not a size of whole doubles (8 B or more, a multiple of 8)";
        o.sizes.push_back(bytes);
      }
      if (o.sizes.empty()) return "--sizes: no size given";
    } else if (a == "--trials" || a == "--warmups") {
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (*end || n < (a == "--trials" ? 1 : 0) || n > 100000) return a + ": '" + v + "' is not a valid count";
      (a == "--trials" ? o.trials : o.warmups) = static_cast<int>(n);
    } else if (a == "--seed") {
      char* end = nullptr;
      o.seed = std::strtoull(v.c_str(), &end, 10);
      if (*end || v.empty()) return "--seed: '" + v + "' is not a number";
    } else if (a == "--kinds") {
      for (const std::string& k : split(v)) o.kinds.insert(k);
    } else if (a == "--forced") {
      for (const std::string& name : split(v)) o.forcedOnly.insert(name);
      if (o.forcedOnly.empty()) return "--forced: no algorithm named";
    } else if (a == "--schedules") {
      for (const std::string& name : split(v)) o.schedules.insert(name);
      if (o.schedules.empty()) return "--schedules: no schedule named";
    } else if (a == "--corrupt") {
      o.corrupt = v;
    } else if (a == "--csv") {
      o.csv = v;
    } else {
      o.svg = v;
    }
  }
  return "";
}

// Cases in a shuffled order: Fisher-Yates over a 64-bit Mersenne twister,
// the same on every rank.
void shuffle(std::vector<Case*>& order, std::mt19937_64& rng) {
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
}

struct Progress {
  bool on = false;
  double last = 0;
  void show(int trial, int trials, std::size_t done, std::size_t total, const Case& c) {
    if (!on) return;
    const double now = MPI_Wtime();
    if (now - last < 0.2 && done + 1 < total) return;
    last = now;
    std::fprintf(stderr, "\r\033[Kcollc-bench: %s %d/%d, case %zu/%zu: %s %s %s", trial < 0 ? "warm-up" : "trial",
                 trial < 0 ? -trial : trial + 1, trials, done + 1, total, c.kind->name.c_str(),
                 c.algorithm->name.c_str(), c.kind->sized ? sizeText(c.bytes).c_str() : "");
    std::fflush(stderr);
  }
  void done() {
    if (on) std::fprintf(stderr, "\r\033[K");
  }
};

}  // namespace

int main(int argc, char** argv) {
  // --help before MPI_Init: it needs no mpirun.
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  LibraryAlgorithms::beforeInit();
  MPI_Init(&argc, &argv);
  int rank = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  Options options;
  const std::string error = parseOptions(argc, argv, options);
  if (!error.empty()) {
    if (rank == 0) {
      if (error == "help") std::fputs(kUsage, stdout);
      else std::fprintf(stderr, "collc-bench: error: %s\n%s", error.c_str(), kUsage);
    }
    MPI_Finalize();
    return error == "help" ? 0 : 2;
  }
  int status = 0;
  {
    LibraryAlgorithms lib;
    coll::Comm comm{MPI_COMM_WORLD};
    Context ctx;
    ctx.P = P;
    ctx.rank = rank;
    ctx.comm = &comm;
    std::vector<Kind> kinds = makeKinds(ctx, lib, options.forced, options.forcedOnly);
    for (const std::string& k : options.kinds)
      if (std::none_of(kinds.begin(), kinds.end(), [&](const Kind& kind) { return kind.name == k; })) {
        if (rank == 0) std::fprintf(stderr, "collc-bench: error: --kinds: unknown kind '%s'\n%s", k.c_str(), kUsage);
        MPI_Finalize();
        return 2;
      }
    // --schedules: every name must be a collc schedule or hand-written
    // baseline of some kind (one that does not accept this P runs nowhere).
    for (const std::string& name : options.schedules)
      if (std::none_of(kinds.begin(), kinds.end(), [&](const Kind& kind) { return kind.ownNames.count(name); })) {
        if (rank == 0)
          std::fprintf(stderr, "collc-bench: error: --schedules: unknown schedule '%s'\n%s", name.c_str(), kUsage);
        MPI_Finalize();
        return 2;
      }
    if (!options.schedules.empty())
      for (Kind& k : kinds)
        k.algorithms.erase(std::remove_if(k.algorithms.begin(), k.algorithms.end(),
                                          [&](const Algorithm& a) {
                                            return a.source != Source::library && !options.schedules.count(a.name);
                                          }),
                           k.algorithms.end());
    std::vector<Case> cases;
    std::size_t sendElements = 1, recvElements = 1;
    for (const Kind& k : kinds) {
      if (!options.kinds.empty() && !options.kinds.count(k.name)) continue;
      const std::vector<std::size_t> sizes = k.sized ? options.sizes : std::vector<std::size_t>{0};
      for (std::size_t bytes : sizes) {
        const std::size_t count = bytes / sizeof(double);
        sendElements = std::max(sendElements, count * k.sendBlocks);
        recvElements = std::max(recvElements, count * k.recvBlocks);
        for (const Algorithm& a : k.algorithms) cases.push_back({&k, &a, bytes, count, {}});
      }
    }
    ctx.send.assign(sendElements, 0);
    ctx.recv.assign(recvElements, 0);
    const std::string op = lib.opComponents();
    if (rank == 0) {
      std::printf("collc-bench: %s, P = %d, %zu cases, %d warm-ups + %d trials each, case order shuffled "
                  "(seed %llu)\n",
                  lib.library().c_str(), P, cases.size(), options.warmups, options.trials,
                  static_cast<unsigned long long>(options.seed));
      std::printf("  time of a call = the slowest rank's, after a barrier; medians in microseconds; "
                  "every result checked\n");
      if (!lib.forcedUnavailable().empty())
        std::printf("  the library's forced algorithms are not measured: %s\n", lib.forcedUnavailable().c_str());
      if (lib.library().find("Open MPI") != std::string::npos)
        std::printf("  op components: %s%s\n", op.empty() ? "(all)" : op.c_str(),
                    op.find("^avx") != std::string::npos ? "" : "  (compare with --mca op ^avx: Open MPI's AVX "
                                                                  "reductions saturate 8-bit sums on some CPUs)");
    }
    Progress progress;
    progress.on = rank == 0 && !options.quiet && isatty(STDERR_FILENO);
    std::mt19937_64 rng(options.seed);
    std::vector<Case*> order;
    for (Case& c : cases) order.push_back(&c);
    // Whether a wrong result of `c` in `trial` leaves it out of the run
    // (--leave-out-wrong) rather than ending the run.
    auto mayLeaveOut = [&](const Case& c, int trial) {
      const Algorithm& a = *c.algorithm;
      return options.leaveOutWrong && trial == -1 && a.library && a.library->value != 0;
    };
    // One call of a case: returns this rank's time, after checking the
    // result (a wrong one is reported here, by the rank that saw it).
    auto runOnce = [&](Case& c, int trial, bool& wrong) -> double {
      c.kind->prepare(ctx, c.count);
      const Algorithm& a = *c.algorithm;
      if (a.library) lib.select(*a.library);
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      a.run(ctx, c.count);
      const double mine = MPI_Wtime() - start;
      if (a.library) lib.reset(*a.library);
      if (a.name == options.corrupt && rank == P - 1 && c.count) ctx.recv[0] += 1;
      std::size_t at = 0;
      double got = 0, want = 0;
      wrong = c.kind->wrong(ctx, c.count, at, got, want);
      if (wrong && !mayLeaveOut(c, trial)) {
        progress.done();
        std::fprintf(stderr,
                     "collc-bench: error: wrong result: %s %s %s (%s) at %s %zu, rank %d, element %zu: got %.17g, "
                     "expected %.17g\n",
                     c.kind->name.c_str(), sourceName(a.source), a.name.c_str(), sizeText(c.bytes).c_str(),
                     trial < 0 ? "warm-up" : "trial", static_cast<std::size_t>(trial < 0 ? -trial : trial + 1), rank,
                     at, got, want);
        std::fflush(stderr);
      }
      // All ranks end the case together, as the per-call reduction of the
      // times used to make them: they leave a call and its check at
      // different times (a root last; a 16 MiB check takes milliseconds),
      // and without this barrier small calls on the emulated cluster (more
      // ranks than cores) took 1.5-6 ms in a tenth to half of their
      // trials. A barrier warms only what the one before every call runs.
      MPI_Barrier(MPI_COMM_WORLD);
      return mine;
    };
    // One pass over the cases in `order`. The ranks' times and checks are
    // combined once, after the pass, not after every call: an MPI call
    // between two timed calls would warm its own code for the next one
    // (a per-call MPI_Allreduce of the times kept MPI_Allreduce's lines in
    // cache for the library's timed allreduce, and only for it;
    // docs/history/benchmarks-2026-12.md, "The times gathered once per
    // pass"), so only
    // MPI_Barrier runs between them (after a call's check, and before the
    // next call). A call's time is the slowest rank's; a wrong result on
    // any rank stops every rank after the pass, which they leave through
    // MPI_Finalize (MPI_Abort could kill a rank before its error line was
    // forwarded).
    std::vector<double> mineAndWrong(2 * order.size()), slowestAndWrong(2 * order.size());
    auto runPass = [&](int trial, int trials) -> bool {
      for (std::size_t i = 0; i < order.size(); ++i) {
        progress.show(trial, trials, i, order.size(), *order[i]);
        bool wrong = false;
        mineAndWrong[2 * i] = runOnce(*order[i], trial, wrong);
        mineAndWrong[2 * i + 1] = wrong ? 1.0 : 0.0;
      }
      MPI_Allreduce(mineAndWrong.data(), slowestAndWrong.data(), static_cast<int>(mineAndWrong.size()), MPI_DOUBLE,
                    MPI_MAX, MPI_COMM_WORLD);
      bool leftOut = false;
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (slowestAndWrong[2 * i + 1] == 0) continue;
        if (!mayLeaveOut(*order[i], trial)) return false;
        Case& c = *order[i];
        c.leftOut = leftOut = true;
        if (rank == 0) {
          progress.done();
          std::fprintf(stderr, "collc-bench: left out: %s %s %s (%s): a wrong result in the first warm-up\n",
                       c.kind->name.c_str(), sourceName(c.algorithm->source), c.algorithm->name.c_str(),
                       sizeText(c.bytes).c_str());
        }
      }
      if (leftOut) {  // (every rank leaves out the same cases: the flags are reduced)
        order.erase(std::remove_if(order.begin(), order.end(), [](const Case* c) { return c->leftOut; }),
                    order.end());
        mineAndWrong.resize(2 * order.size());
        slowestAndWrong.resize(2 * order.size());
        return true;  // (a warm-up: no times kept)
      }
      if (trial >= 0)
        for (std::size_t i = 0; i < order.size(); ++i) order[i]->times.push_back(slowestAndWrong[2 * i] * 1e6);
      return true;
    };
    bool ok = true;
    for (int w = 1; ok && w <= options.warmups; ++w) ok = runPass(-w, options.warmups);
    for (int t = 0; ok && t < options.trials; ++t) {
      shuffle(order, rng);
      ok = runPass(t, options.trials);
    }
    progress.done();
    if (!ok) status = 3;

    if (ok && rank == 0) {
      // Per (kind, size): each case's summary, ratios of medians to the
      // library's default and to its best algorithm at that size.
      std::map<const Case*, Summary> summary;
      for (const Case& c : cases)
        if (!c.leftOut) summary[&c] = collc_bench::summarize(c.times);
      struct Group {
        const Kind* kind;
        std::size_t bytes;
        std::vector<const Case*> cases;
        double defaultMedian = 0, bestLibrary = 0;
        std::string bestLibraryName;
      };
      std::vector<Group> groups;
      for (const Case& c : cases) {
        if (c.leftOut) continue;
        if (groups.empty() || groups.back().kind != c.kind || groups.back().bytes != c.bytes)
          groups.push_back({c.kind, c.bytes, {}, 0, 0, ""});
        Group& g = groups.back();
        g.cases.push_back(&c);
        const double m = summary[&c].median;
        if (c.algorithm->source == Source::library) {
          if (c.algorithm->library && c.algorithm->library->value == 0) g.defaultMedian = m;
          if (g.bestLibraryName.empty() || m < g.bestLibrary) {
            g.bestLibrary = m;
            g.bestLibraryName = c.algorithm->name;
          }
        }
      }
      auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
      for (const Group& g : groups) {
        std::printf("\n%s%s%s\n", g.kind->name.c_str(), g.kind->sized ? ", " : "",
                    g.kind->sized ? sizeText(g.bytes).c_str() : "");
        std::printf("  %-6s %-28s %10s %9s %10s %10s %10s %10s %8s %8s\n", "source", "algorithm", "median", "MAD", "p10",
                    "p90", "min", "max", "/default", "/bestlib");
        for (const Case* c : g.cases) {
          const Summary& s = summary[c];
          std::printf("  %-6s %-28s %10.2f %9.2f %10.2f %10.2f %10.2f %10.2f %8.3f %8.3f\n", sourceName(c->algorithm->source),
                      c->algorithm->name.c_str(), s.median, s.mad, s.p10, s.p90, s.min, s.max,
                      ratio(s.median, g.defaultMedian), ratio(s.median, g.bestLibrary));
        }
      }
      // The summary a user reads first: the best collc schedule per size.
      std::printf("\nbest collc schedule per size (ratio of medians; < 1 is faster than the library)\n");
      std::printf("  %-15s %8s  %-26s %10s %10s %8s  %-22s %8s %8s %8s\n", "kind", "size", "best collc", "median",
                  "default", "/default", "best library", "/bestlib", "/hring", "/hhd");
      for (const Group& g : groups) {
        const Case* best = nullptr;
        double hring = 0, hhd = 0;
        for (const Case* c : g.cases) {
          const double m = summary[c].median;
          if (c->algorithm->source == Source::collc && (!best || m < summary[best].median)) best = c;
          if (c->algorithm->source == Source::hand && c->algorithm->name == "ring") hring = m;
          if (c->algorithm->source == Source::hand && c->algorithm->name == "halving-doubling") hhd = m;
        }
        if (!best) continue;
        const double m = summary[best].median;
        std::printf("  %-15s %8s  %-26s %10.2f %10.2f %8.3f  %-22s %8.3f %8s %8s\n", g.kind->name.c_str(),
                    g.kind->sized ? sizeText(g.bytes).c_str() : "-", best->algorithm->name.c_str(), m, g.defaultMedian,
                    ratio(m, g.defaultMedian), g.bestLibraryName.c_str(), ratio(m, g.bestLibrary),
                    hring > 0 ? std::to_string(ratio(m, hring)).substr(0, 5).c_str() : "-",
                    hhd > 0 ? std::to_string(ratio(m, hhd)).substr(0, 5).c_str() : "-");
      }
      if (!options.csv.empty()) {
        std::ofstream csv(options.csv);
        csv << "library,ranks,kind,bytes,source,algorithm,trials,median_us,mad_us,p10_us,p90_us,min_us,max_us,"
               "ratio_to_default,ratio_to_best_library\n";
        for (const Group& g : groups)
          for (const Case* c : g.cases) {
            const Summary& s = summary[c];
            char line[512];
            std::snprintf(line, sizeof line, "\"%s\",%d,%s,%zu,%s,%s,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f\n",
                          lib.library().c_str(), P, g.kind->name.c_str(), g.bytes, sourceName(c->algorithm->source),
                          c->algorithm->name.c_str(), s.trials, s.median, s.mad, s.p10, s.p90, s.min, s.max,
                          ratio(s.median, g.defaultMedian), ratio(s.median, g.bestLibrary));
            csv << line;
          }
        if (!csv.good()) {
          std::fprintf(stderr, "collc-bench: error: cannot write '%s'\n", options.csv.c_str());
          status = 1;
        }
      }
      if (!options.svg.empty()) {
        std::vector<collc_bench::SvgPanel> panels;
        for (const Kind& k : kinds) {
          if (!k.sized || (!options.kinds.empty() && !options.kinds.count(k.name))) continue;
          collc_bench::SvgPanel panel{k.name + " (" + lib.library() + ", P = " + std::to_string(P) + ")", {}};
          for (const Algorithm& a : k.algorithms) {
            collc_bench::SvgSeries series{std::string(sourceName(a.source)) + " " + a.name, a.source == Source::library, {}};
            for (const Case& c : cases)
              if (c.algorithm == &a && !c.leftOut) {
                const Summary& s = summary[&c];
                series.points.push_back({static_cast<double>(c.bytes), s.median, s.p10, s.p90});
              }
            panel.series.push_back(std::move(series));
          }
          panels.push_back(std::move(panel));
        }
        std::ofstream svg(options.svg);
        collc_bench::writeSvg(svg, panels);
        if (!svg.good()) {
          std::fprintf(stderr, "collc-bench: error: cannot write '%s'\n", options.svg.c_str());
          status = 1;
        }
      }
    }
  }
  MPI_Finalize();
  return status;
}
