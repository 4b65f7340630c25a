// End-to-end check of one collc allreduce schedule against MPI_Allreduce.
// Read once per example, with COLLC_HEADER and COLLC_FN defined
// (check_common.hpp); run under mpirun with any number of ranks.

#include "check_common.hpp"
#include COLLC_HEADER

COLLC_EXAMPLE_BEGIN

template <class T, class Op>
void runCase(coll::Comm& comm, OpKind kind, Op op, std::size_t count, bool inplace) {
  const int rank = comm.rank();
  std::vector<T> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = input<T>(kind, rank, i);

  std::vector<T> expected(count);
  MPI_Allreduce(in.data(), expected.data(), static_cast<int>(count), TypeInfo<T>::mpi(), mpiOp(kind),
                MPI_COMM_WORLD);

  std::vector<T> send = in, recv(count, T(-12345));
  T* out = inplace ? send.data() : recv.data();
  collc::COLLC_FN(comm, send.data(), out, count, op);

  checkResult(kName, comm, kind, count, inplace, expected.data(), out, count, in, send);
}

// Returns the number of cases run.
int runAll(coll::Comm& comm) {
  int cases = 0;
  for (std::size_t count : caseCounts(comm.size()))
    for (bool inplace : {false, true}) {
      cases += forEachReduction([&](auto type, OpKind kind, auto op) {
        runCase<decltype(type)>(comm, kind, op, count, inplace);
      });
      runCase<double>(comm, OpKind::Prod, coll::Prod{}, count, inplace);
      runCase<double>(comm, OpKind::Min, coll::Min{}, count, inplace);
      cases += 2;
    }
  // Send and recv overlapping outside the in-place form (send == recv):
  // refused on every rank before any message, naming the overlap.
  std::vector<double> buf(9, 1.0);
  const std::string want = ": rank " + std::to_string(comm.rank()) +
                           "'s send buffer (8 elements) and receive buffer (8 elements) overlap by 7 "
                           "elements, not in the in-place form (send == recv): MPI requires them disjoint";
  try {
    collc::COLLC_FN(comm, buf.data(), buf.data() + 1, 8, coll::Sum{});
    fail(std::string("FAIL ") + kName + ": overlapping buffers were not refused");
  } catch (const coll::Error& e) {
    const std::string got = e.what();
    if (got.rfind("collc::", 0) != 0 || got.size() < want.size() ||
        got.compare(got.size() - want.size(), want.size(), want) != 0)
      fail(std::string("FAIL ") + kName + ": overlapping buffers: " + got);
  }
  return cases + 1;
}

int check() {
  return checkExample(kName, collc::COLLC_CAT(COLLC_FN, _accepts), runAll, [](coll::Comm& comm) {
    std::vector<std::int64_t> buf(7, 1);
    collc::COLLC_FN(comm, buf.data(), buf.data(), buf.size(), coll::Sum{});
  });
}

COLLC_EXAMPLE_END
