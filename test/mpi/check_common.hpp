// Shared by the MPI checks: deterministic inputs, tolerances, failure
// reports, the rejection check and each example's entry point. A check
// source (check_allreduce.cpp, ...) is read once per example, with
// COLLC_HEADER and COLLC_FN (and its own switches) defined: the examples
// of one program share one translation unit, and so the runtime's
// instantiations (test/CMakeLists.txt, collc_mpi_program).
#pragma once

// First, so mpi.h is read through the runtime's warning-clean include.
#include "coll/runtime.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#define COLLC_CAT_(a, b) a##b
#define COLLC_CAT(a, b) COLLC_CAT_(a, b)
#define COLLC_STR_(x) #x
#define COLLC_STR(x) COLLC_STR_(x)

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::cerr << message << std::endl;
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort should not return
}

template <class T> struct TypeInfo;
template <> struct TypeInfo<std::int64_t> {
  static MPI_Datatype mpi() { return MPI_INT64_T; }
  static const char* name() { return "int64"; }
};
template <> struct TypeInfo<double> {
  static MPI_Datatype mpi() { return MPI_DOUBLE; }
  static const char* name() { return "double"; }
};

enum class OpKind { Sum, Prod, Min, Max };

[[maybe_unused]] MPI_Op mpiOp(OpKind k) {
  switch (k) {
    case OpKind::Sum: return MPI_SUM;
    case OpKind::Prod: return MPI_PROD;
    case OpKind::Min: return MPI_MIN;
    case OpKind::Max: return MPI_MAX;
  }
  return MPI_OP_NULL;
}

[[maybe_unused]] const char* opName(OpKind k) {
  switch (k) {
    case OpKind::Sum: return "sum";
    case OpKind::Prod: return "prod";
    case OpKind::Min: return "min";
    case OpKind::Max: return "max";
  }
  return "?";
}

// Deterministic per (rank, index). Products use {-2,-1,1,2} so nothing
// overflows; doubles for the other ops get a fractional part so that a
// different summation order actually shows up as rounding.
template <class T>
T input(OpKind op, int rank, std::size_t i) {
  const std::int64_t r = rank, n = static_cast<std::int64_t>(i);
  if (op == OpKind::Prod) {
    static const std::int64_t small[4] = {-2, -1, 1, 2};
    return static_cast<T>(small[(r * 3 + n * 7) % 4]);
  }
  const std::int64_t v = ((r * 7919 + n * 104729) % 2001) - 1000;
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v) / 3;
  return static_cast<T>(v);
}

template <class T>
bool close(OpKind op, int P, T expected, T got) {
  if constexpr (std::is_floating_point_v<T>) {
    // Sums may be accumulated in a different order than MPI's, so allow
    // 1e-12 * P * max(1, |expected|); min, max and products of small
    // integers are exact.
    if (op == OpKind::Sum)
      return std::fabs(expected - got) <= 1e-12 * P * std::max<T>(1, std::fabs(expected));
  }
  (void)op;
  (void)P;
  return expected == got;
}

// The counts every check runs: empty, single, below P (some parts empty),
// small, and large and odd (parts of different sizes).
[[maybe_unused]] std::vector<std::size_t> caseCounts(int P) {
  std::vector<std::size_t> counts = {0, 1, static_cast<std::size_t>(P - 1), 7, 1000, 65539};
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

// The (element type, operator) cases of the reduction checks: int64 with
// sum, prod, min and max (exact), double with sum (rounding shows) and max.
// Calls run(T{}, kind, op) for each; returns how many it ran.
template <class Run>
int forEachReduction(Run run) {
  run(std::int64_t{}, OpKind::Sum, coll::Sum{});
  run(std::int64_t{}, OpKind::Prod, coll::Prod{});
  run(std::int64_t{}, OpKind::Min, coll::Min{});
  run(std::int64_t{}, OpKind::Max, coll::Max{});
  run(double{}, OpKind::Sum, coll::Sum{});
  run(double{}, OpKind::Max, coll::Max{});
  return 6;
}

// Compares the first `n` elements of `got` with `expected`, and unless the
// call ran in place checks that `send` still equals `in`; a failure names
// every parameter of the case.
template <class T>
void checkResult(const char* name, coll::Comm& comm, OpKind kind, std::size_t count, bool inplace,
                 const T* expected, const T* got, std::size_t n, const std::vector<T>& in,
                 const std::vector<T>& send) {
  const int rank = comm.rank(), P = comm.size();
  auto where = [&](std::size_t i) {
    std::ostringstream s;
    s << "FAIL " << name << " P=" << P << " type=" << TypeInfo<T>::name() << " op=" << opName(kind)
      << " count=" << count << " inplace=" << (inplace ? 1 : 0) << " rank=" << rank << " index=" << i << ": ";
    s.precision(17);
    return s;
  };
  for (std::size_t i = 0; i < n; ++i)
    if (!close(kind, P, expected[i], got[i])) {
      std::ostringstream s = where(i);
      s << "expected " << expected[i] << ", got " << got[i];
      fail(s.str());
    }
  if (!inplace)
    for (std::size_t i = 0; i < in.size(); ++i)
      if (send[i] != in[i]) {
        std::ostringstream s = where(i);
        s << "send buffer modified: expected " << in[i] << ", got " << send[i];
        fail(s.str());
      }
}

// `call` runs the example `name` on a communicator size its spec does not
// admit; it must throw coll::Error naming the size.
template <class Call>
void checkRejected(const char* name, coll::Comm& comm, Call call) {
  const int P = comm.size();
  const std::string want = "communicator size " + std::to_string(P);
  try {
    call(comm);
  } catch (const coll::Error& e) {
    const std::string message = e.what();
    if (message.find(want) == std::string::npos)
      fail(std::string("FAIL ") + name + " P=" + std::to_string(P) + " rejected with unexpected message: " + message);
    if (comm.rank() == 0) std::cout << "PASS " << name << " P=" << P << " rejected: " << message << std::endl;
    return;
  }
  fail(std::string("FAIL ") + name + " P=" + std::to_string(P) + " was not rejected");
}

// The check of the example `name` (whose spec admits the sizes for which
// `accepts` is true), as its batch program (batch_main.cpp) calls it after
// MPI_Init: every case on an admitted size, the rejection otherwise, and
// one PASS line from rank 0 when every rank got through.
template <class RunAll, class Reject>
int checkExample(const char* name, bool (*accepts)(int), RunAll runAll, Reject reject) {
  int worldRank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  try {
    coll::Comm comm{MPI_COMM_WORLD};
    if (!accepts(comm.size())) {
      checkRejected(name, comm, reject);
    } else {
      const int cases = runAll(comm);
      MPI_Barrier(MPI_COMM_WORLD);  // no PASS line unless every rank got here
      if (comm.rank() == 0) std::cout << "PASS " << name << " P=" << comm.size() << " (" << cases << " cases)" << std::endl;
    }
  } catch (const coll::Error& e) {
    fail(std::string("FAIL ") + name + " rank=" + std::to_string(worldRank) + ": coll::Error: " + e.what());
  }
  return 0;
}

}  // namespace

// A check source's per-example part, around its cases and its `check()`:
// a namespace of the example's own (example_ring, ...), where kName is
// the example's name, and the entry point batch_main.cpp calls, named
// after the example (collc_check_ring, ...).
#define COLLC_EXAMPLE_BEGIN                 \
  namespace {                               \
  namespace COLLC_CAT(example_, COLLC_FN) { \
  [[maybe_unused]] const char* const kName = COLLC_STR(COLLC_FN);
#define COLLC_EXAMPLE_END \
  }                       \
  }                       \
  int COLLC_CAT(collc_check_, COLLC_FN)() { return COLLC_CAT(example_, COLLC_FN)::check(); }
