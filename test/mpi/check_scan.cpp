// End-to-end check of one collc scan schedule against MPI_Scan, or with
// COLLC_EXCLUSIVE against MPI_Exscan (rank 0's result is not compared: MPI
// leaves it undefined; the init overload is checked against
// std::exclusive_scan's rule instead). Read once per example, with
// COLLC_HEADER and COLLC_FN defined (check_common.hpp); run under mpirun with
// any number of ranks.

#include "check_common.hpp"
#include COLLC_HEADER

COLLC_EXAMPLE_BEGIN

template <class T, class Op>
void runCase(coll::Comm& comm, OpKind kind, Op op, std::size_t count, bool inplace) {
  const int rank = comm.rank(), P = comm.size();
  std::vector<T> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = input<T>(kind, rank, i);
  std::vector<T> expected(count, T(-12345)), send = in, recv(count, T(-12345));
  T* out = inplace ? send.data() : recv.data();
#if defined(COLLC_EXCLUSIVE)
  MPI_Exscan(in.data(), expected.data(), static_cast<int>(count), TypeInfo<T>::mpi(), mpiOp(kind),
             MPI_COMM_WORLD);
  collc::COLLC_FN(comm, send.data(), out, count, op);
  const std::size_t checked = rank == 0 ? 0 : count;
#else
  MPI_Scan(in.data(), expected.data(), static_cast<int>(count), TypeInfo<T>::mpi(), mpiOp(kind),
           MPI_COMM_WORLD);
  collc::COLLC_FN(comm, send.data(), out, count, op);
  const std::size_t checked = count;
#endif
  (void)P;
  checkResult(kName, comm, kind, count, inplace, expected.data(), out, checked, in, send);
}

#if defined(COLLC_EXCLUSIVE)
// With init: rank 0 gets init, rank r op(init, MPI_Exscan's result).
void runInitCase(coll::Comm& comm, std::size_t count) {
  const int rank = comm.rank();
  std::vector<std::int64_t> in(count), exscan(count), recv(count, -12345);
  for (std::size_t i = 0; i < count; ++i) in[i] = input<std::int64_t>(OpKind::Sum, rank, i);
  MPI_Exscan(in.data(), exscan.data(), static_cast<int>(count), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const std::int64_t init = 1000;
  collc::COLLC_FN(comm, in.data(), recv.data(), count, coll::Sum{}, init);
  std::vector<std::int64_t> expected(count);
  for (std::size_t i = 0; i < count; ++i) expected[i] = rank == 0 ? init : init + exscan[i];
  checkResult(kName, comm, OpKind::Sum, count, false, expected.data(), recv.data(), count, in, in);
}
#endif

// Returns the number of cases run.
int runAll(coll::Comm& comm) {
  int cases = 0;
  for (std::size_t count : caseCounts(comm.size())) {
    for (bool inplace : {false, true}) {
      cases += forEachReduction([&](auto type, OpKind kind, auto op) {
        runCase<decltype(type)>(comm, kind, op, count, inplace);
      });
    }
#if defined(COLLC_EXCLUSIVE)
    runInitCase(comm, count);
    ++cases;
#endif
  }
  return cases;
}

int check() {
  return checkExample(kName, collc::COLLC_CAT(COLLC_FN, _accepts), runAll, [](coll::Comm& comm) {
    std::vector<std::int64_t> buf(7, 1), out(7);
    collc::COLLC_FN(comm, buf.data(), out.data(), 7, coll::Sum{});
  });
}

COLLC_EXAMPLE_END
