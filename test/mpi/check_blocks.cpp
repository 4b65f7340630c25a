// End-to-end check of one collc reduce_scatter schedule against
// MPI_Reduce_scatter_block (-DCOLLC_REDUCE_SCATTER) or one allgather
// schedule against MPI_Allgather (-DCOLLC_ALLGATHER). Build with
// -DCOLLC_HEADER="\"schedule.hpp\"" -DCOLLC_FN=schedule and run under
// mpirun with any number of ranks.

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

#if !defined(COLLC_HEADER) || !defined(COLLC_FN)
#error "define COLLC_HEADER (quoted header path) and COLLC_FN (schedule name)"
#endif
#include COLLC_HEADER

#define COLLC_CAT_(a, b) a##b
#define COLLC_CAT(a, b) COLLC_CAT_(a, b)
#define COLLC_STR_(x) #x
#define COLLC_STR(x) COLLC_STR_(x)

namespace {

const char* const kName = COLLC_STR(COLLC_FN);

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

const char* opName(OpKind k) {
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

// `count` elements per block; every rank contributes P blocks
// (reduce_scatter) or one (allgather).
template <class T, class Op>
void runCase(coll::Comm& comm, OpKind kind, [[maybe_unused]] Op op, std::size_t count, bool inplace) {
  const int rank = comm.rank(), P = comm.size();
  const std::size_t total = static_cast<std::size_t>(P) * count;
#if defined(COLLC_REDUCE_SCATTER)
  std::vector<T> in(total);
  for (std::size_t i = 0; i < total; ++i) in[i] = input<T>(kind, rank, i);
  std::vector<T> expected(count);
  MPI_Reduce_scatter_block(in.data(), expected.data(), static_cast<int>(count), TypeInfo<T>::mpi(),
                           mpiOp(kind), MPI_COMM_WORLD);
  // In place: the result lands in the first `count` elements of the input.
  std::vector<T> send = in, recv(count, T(-12345));
  T* out = inplace ? send.data() : recv.data();
  collc::COLLC_FN(comm, send.data(), out, count, op);
  const std::size_t checked = count, sendSize = total;
#else
  std::vector<T> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = input<T>(kind, rank, i);
  std::vector<T> expected(total);
  MPI_Allgather(in.data(), static_cast<int>(count), TypeInfo<T>::mpi(), expected.data(),
                static_cast<int>(count), TypeInfo<T>::mpi(), MPI_COMM_WORLD);
  // In place: the rank's block already sits at recv + rank * count.
  std::vector<T> recv(total, T(-12345)), send = in;
  if (inplace) std::copy(in.begin(), in.end(), recv.begin() + static_cast<std::ptrdiff_t>(rank * count));
  const T* from = inplace ? recv.data() + rank * count : send.data();
  collc::COLLC_FN(comm, from, recv.data(), count);
  T* out = recv.data();
  const std::size_t checked = total, sendSize = count;
#endif

  auto where = [&](std::size_t i) {
    std::ostringstream s;
    s << "FAIL " << kName << " P=" << P << " type=" << TypeInfo<T>::name() << " op=" << opName(kind)
      << " count=" << count << " inplace=" << (inplace ? 1 : 0) << " rank=" << rank << " index=" << i << ": ";
    s.precision(17);
    return s;
  };
  for (std::size_t i = 0; i < checked; ++i)
    if (!close(kind, P, expected[i], out[i])) {
      std::ostringstream s = where(i);
      s << "expected " << expected[i] << ", got " << out[i];
      fail(s.str());
    }
  if (!inplace)
    for (std::size_t i = 0; i < sendSize; ++i)
      if (send[i] != in[i]) {
        std::ostringstream s = where(i);
        s << "send buffer modified: expected " << in[i] << ", got " << send[i];
        fail(s.str());
      }
}

// Returns the number of cases run.
int runAll(coll::Comm& comm) {
  const int P = comm.size();
  std::vector<std::size_t> counts = {0, 1, static_cast<std::size_t>(P - 1), 7, 1000, 65539};
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());

  int cases = 0;
  for (std::size_t count : counts)
    for (bool inplace : {false, true}) {
#if defined(COLLC_REDUCE_SCATTER)
      runCase<std::int64_t>(comm, OpKind::Sum, coll::Sum{}, count, inplace);
      runCase<std::int64_t>(comm, OpKind::Prod, coll::Prod{}, count, inplace);
      runCase<std::int64_t>(comm, OpKind::Min, coll::Min{}, count, inplace);
      runCase<std::int64_t>(comm, OpKind::Max, coll::Max{}, count, inplace);
      runCase<double>(comm, OpKind::Sum, coll::Sum{}, count, inplace);
      runCase<double>(comm, OpKind::Max, coll::Max{}, count, inplace);
      cases += 6;
#else
      runCase<double>(comm, OpKind::Sum, coll::Sum{}, count, inplace);
      cases += 1;
#endif
    }
  return cases;
}

void checkRejected(coll::Comm& comm) {
  const int P = comm.size();
  const std::string want = "communicator size " + std::to_string(P);
  std::vector<std::int64_t> buf(static_cast<std::size_t>(P) * 7, 1);
  try {
#if defined(COLLC_REDUCE_SCATTER)
    collc::COLLC_FN(comm, buf.data(), buf.data(), 7, coll::Sum{});
#else
    collc::COLLC_FN(comm, buf.data(), buf.data(), 7);
#endif
  } catch (const coll::Error& e) {
    const std::string message = e.what();
    if (message.find(want) == std::string::npos)
      fail(std::string("FAIL ") + kName + " P=" + std::to_string(P) + " rejected with unexpected message: " + message);
    if (comm.rank() == 0) std::cout << "PASS " << kName << " P=" << P << " rejected: " << message << std::endl;
    return;
  }
  fail(std::string("FAIL ") + kName + " P=" + std::to_string(P) + " was not rejected");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    int worldRank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
    try {
      coll::Comm comm{MPI_COMM_WORLD};
      if (!collc::COLLC_CAT(COLLC_FN, _accepts)(comm.size())) {
        checkRejected(comm);
      } else {
        const int cases = runAll(comm);
        MPI_Barrier(MPI_COMM_WORLD);  // no PASS line unless every rank got here
        if (comm.rank() == 0) std::cout << "PASS " << kName << " P=" << comm.size() << " (" << cases << " cases)" << std::endl;
      }
    } catch (const coll::Error& e) {
      fail(std::string("FAIL ") + kName + " rank=" + std::to_string(worldRank) + ": coll::Error: " + e.what());
    }
  }
  MPI_Finalize();
  return 0;
}
