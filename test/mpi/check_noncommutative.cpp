// End-to-end check of a collc schedule declared `custom noncommutative` with
// decimal concatenation (associative, not commutative: 12 op 3 = 123) against
// the MPI library with the same operator created non-commutative (MPI then
// folds in rank order): COLLC_REDUCE (MPI_Reduce to rank 0), COLLC_ALLREDUCE
// (MPI_Allreduce), COLLC_SCAN (MPI_Scan) or COLLC_EXSCAN (MPI_Exscan; rank
// 0's result is undefined). Read once per example, with COLLC_HEADER and
// COLLC_FN defined (check_common.hpp); run under mpirun with up to 8 ranks
// (one digit per rank fits in int64).

#include "check_common.hpp"
#include COLLC_HEADER

COLLC_EXAMPLE_BEGIN

// a op b = the digits of a followed by those of b (b > 0).
struct Concat {
  std::int64_t operator()(std::int64_t a, std::int64_t b) const {
    std::int64_t shift = 1;
    for (std::int64_t v = b; v > 0; v /= 10) shift *= 10;
    return a * shift + b;
  }
};

void concatFn(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::int64_t*>(in);  // the lower ranks
  auto* b = static_cast<std::int64_t*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = Concat{}(a[i], b[i]);
}

void runCase(coll::Comm& comm, MPI_Op mpiConcat, std::size_t count, bool inplace) {
  const int rank = comm.rank();
  std::vector<std::int64_t> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = (rank * 7 + static_cast<std::int64_t>(i)) % 9 + 1;
  std::vector<std::int64_t> expected(count, -1), send = in, recv(count, -12345);
  const int n = static_cast<int>(count);
#if defined(COLLC_REDUCE)
  MPI_Reduce(in.data(), expected.data(), n, MPI_INT64_T, mpiConcat, 0, MPI_COMM_WORLD);
  std::int64_t* out = rank != 0 ? nullptr : inplace ? send.data() : recv.data();
  collc::COLLC_FN(comm, send.data(), out, count, Concat{});
  const std::size_t checked = rank == 0 ? count : 0;
#elif defined(COLLC_ALLREDUCE)
  MPI_Allreduce(in.data(), expected.data(), n, MPI_INT64_T, mpiConcat, MPI_COMM_WORLD);
  std::int64_t* out = inplace ? send.data() : recv.data();
  collc::COLLC_FN(comm, send.data(), out, count, Concat{});
  const std::size_t checked = count;
#elif defined(COLLC_EXSCAN)
  MPI_Exscan(in.data(), expected.data(), n, MPI_INT64_T, mpiConcat, MPI_COMM_WORLD);
  std::int64_t* out = inplace ? send.data() : recv.data();
  collc::COLLC_FN(comm, send.data(), out, count, Concat{});
  const std::size_t checked = rank == 0 ? 0 : count;
#else
  MPI_Scan(in.data(), expected.data(), n, MPI_INT64_T, mpiConcat, MPI_COMM_WORLD);
  std::int64_t* out = inplace ? send.data() : recv.data();
  collc::COLLC_FN(comm, send.data(), out, count, Concat{});
  const std::size_t checked = count;
#endif
  checkResult(kName, comm, OpKind::Sum, count, inplace, expected.data(), out, checked, in, send);
}

int runAll(coll::Comm& comm) {
  MPI_Op mpiConcat;
  MPI_Op_create(concatFn, /*commute=*/0, &mpiConcat);
  int cases = 0;
  for (std::size_t count : caseCounts(comm.size()))
    for (bool inplace : {false, true}) {
      runCase(comm, mpiConcat, count, inplace);
      ++cases;
    }
  MPI_Op_free(&mpiConcat);
  return cases;
}

int check() {
  return checkExample(kName, collc::COLLC_CAT(COLLC_FN, _accepts), runAll, [](coll::Comm& comm) {
    std::vector<std::int64_t> buf(7, 1), out(7);
    collc::COLLC_FN(comm, buf.data(), out.data(), 7, Concat{});
  });
}

COLLC_EXAMPLE_END
