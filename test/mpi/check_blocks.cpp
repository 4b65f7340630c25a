// End-to-end check of one collc reduce_scatter schedule against
// MPI_Reduce_scatter_block (COLLC_REDUCE_SCATTER) or one allgather schedule
// against MPI_Allgather (COLLC_ALLGATHER). Read once per example, with
// COLLC_HEADER and COLLC_FN defined (check_common.hpp); run under mpirun with
// any number of ranks.

#include "check_common.hpp"
#include COLLC_HEADER

COLLC_EXAMPLE_BEGIN

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
  const std::size_t checked = count;
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
  const std::size_t checked = total;
#endif

  checkResult(kName, comm, kind, count, inplace, expected.data(), out, checked, in, send);
}

// Returns the number of cases run.
int runAll(coll::Comm& comm) {
  int cases = 0;
  for (std::size_t count : caseCounts(comm.size()))
    for (bool inplace : {false, true}) {
#if defined(COLLC_REDUCE_SCATTER)
      cases += forEachReduction([&](auto type, OpKind kind, auto op) {
        runCase<decltype(type)>(comm, kind, op, count, inplace);
      });
#else
      runCase<double>(comm, OpKind::Sum, coll::Sum{}, count, inplace);
      cases += 1;
#endif
    }
  return cases;
}

int check() {
  return checkExample(kName, collc::COLLC_CAT(COLLC_FN, _accepts), runAll, [](coll::Comm& comm) {
    std::vector<std::int64_t> buf(static_cast<std::size_t>(comm.size()) * 7, 1);
#if defined(COLLC_REDUCE_SCATTER)
    collc::COLLC_FN(comm, buf.data(), buf.data(), 7, coll::Sum{});
#else
    collc::COLLC_FN(comm, buf.data(), buf.data(), 7);
#endif
  });
}

COLLC_EXAMPLE_END
