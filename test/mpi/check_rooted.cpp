// End-to-end check of one collc rooted schedule against the MPI library:
// COLLC_BROADCAST (MPI_Bcast), COLLC_REDUCE (MPI_Reduce), COLLC_GATHER
// (MPI_Gather) or COLLC_SCATTER (MPI_Scatter). The root comes from the
// generated header (NAME_root), or with COLLC_ANY_ROOT (a `root = any` spec)
// every rank is the root in turn, passed as the call's argument. Read once
// per example, with COLLC_HEADER and COLLC_FN defined (check_common.hpp); run
// under mpirun with any number of ranks.

#include "check_common.hpp"
#include COLLC_HEADER

// The root argument of a `root = any` schedule's call.
#if defined(COLLC_ANY_ROOT)
#define ROOT_ARGUMENT(root) , root
#else
#define ROOT_ARGUMENT(root)
#endif

COLLC_EXAMPLE_BEGIN

// `inplace` is MPI_IN_PLACE at the root where MPI allows it (reduce,
// gather, scatter); elsewhere non-roots pass null for the buffer MPI
// ignores, which the schedule must accept.
template <class T, class Op>
void runCase(coll::Comm& comm, OpKind kind, [[maybe_unused]] Op op, std::size_t count,
             [[maybe_unused]] bool inplace, const int kRoot) {
  const int rank = comm.rank(), P = comm.size();
  const bool root = rank == kRoot;
  [[maybe_unused]] const std::size_t total = static_cast<std::size_t>(P) * count;
  const MPI_Datatype type = TypeInfo<T>::mpi();
  const int n = static_cast<int>(count);
#if defined(COLLC_BROADCAST)
  std::vector<T> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = input<T>(kind, kRoot, i);
  std::vector<T> expected = root ? in : std::vector<T>(count, T(-7));
  MPI_Bcast(expected.data(), n, type, kRoot, MPI_COMM_WORLD);
  std::vector<T> buffer = root ? in : std::vector<T>(count, T(-12345));
  collc::COLLC_FN(comm, buffer.data(), count ROOT_ARGUMENT(kRoot));
  const T* out = buffer.data();
  const std::size_t checked = count;
  std::vector<T> send = in;  // nothing to keep unmodified
#elif defined(COLLC_REDUCE)
  std::vector<T> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = input<T>(kind, rank, i);
  std::vector<T> expected(count);
  MPI_Reduce(in.data(), expected.data(), n, type, mpiOp(kind), kRoot, MPI_COMM_WORLD);
  std::vector<T> send = in, recv(count, T(-12345));
  T* out = root ? (inplace ? send.data() : recv.data()) : nullptr;
  collc::COLLC_FN(comm, send.data(), out, count ROOT_ARGUMENT(kRoot), op);
  const std::size_t checked = root ? count : 0;
#elif defined(COLLC_GATHER)
  std::vector<T> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = input<T>(kind, rank, i);
  std::vector<T> expected(root ? total : 0);
  MPI_Gather(in.data(), n, type, expected.data(), n, type, kRoot, MPI_COMM_WORLD);
  std::vector<T> send = in, recv(root ? total : 0, T(-12345));
  // In place: the root's block already sits at recv + root * count.
  if (root && inplace) std::copy(in.begin(), in.end(), recv.begin() + static_cast<std::ptrdiff_t>(rank * count));
  const T* from = root && inplace ? recv.data() + rank * count : send.data();
  collc::COLLC_FN(comm, from, root ? recv.data() : nullptr, count ROOT_ARGUMENT(kRoot));
  const T* out = recv.data();
  const std::size_t checked = root ? total : 0;
#else  // COLLC_SCATTER
  std::vector<T> in(root ? total : 0);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = input<T>(kind, rank, i);
  std::vector<T> expected(count);
  MPI_Scatter(in.data(), n, type, expected.data(), n, type, kRoot, MPI_COMM_WORLD);
  std::vector<T> send = in, recv(count, T(-12345));
  // In place: the root's own block stays where it is in send.
  T* out = root && inplace ? send.data() + rank * count : recv.data();
  collc::COLLC_FN(comm, root ? send.data() : nullptr, out, count ROOT_ARGUMENT(kRoot));
  const std::size_t checked = count;
  if (root && inplace) in = send;  // the in-place root's send is its output
#endif
  checkResult(kName, comm, kind, count, inplace, expected.data(), out, checked, in, send);
}

#if defined(COLLC_ANY_ROOT)
// A root outside the communicator is an error on every rank, naming it.
void checkBadRoot(coll::Comm& comm) {
  const int P = comm.size();
  for (int bad : {-1, P}) {
    std::string what;
    std::vector<std::int64_t> buffer(static_cast<std::size_t>(P) * 3, 1), out(buffer.size());
    try {
#if defined(COLLC_BROADCAST)
      collc::COLLC_FN(comm, buffer.data(), 3, bad);
#elif defined(COLLC_REDUCE)
      collc::COLLC_FN(comm, buffer.data(), out.data(), 3, bad, coll::Sum{});
#else
      collc::COLLC_FN(comm, buffer.data(), out.data(), 3, bad);
#endif
    } catch (const coll::Error& e) {
      what = e.what();
    }
    const std::string expected = std::string("collc::") + kName + ": root " + std::to_string(bad) +
                                 " is not a rank of the communicator (P = " + std::to_string(P) + ")";
    if (what != expected) fail("FAIL " + std::string(kName) + ": root " + std::to_string(bad) + " gave '" + what + "', expected '" + expected + "'");
  }
}
#endif

// Returns the number of cases run.
int runAll(coll::Comm& comm) {
  int cases = 0;
  const int P = comm.size();
  std::vector<int> roots;
#if defined(COLLC_ANY_ROOT)
  checkBadRoot(comm);
  for (int root = 0; root < P; ++root) roots.push_back(root);
#else
  roots.push_back(collc::COLLC_CAT(COLLC_FN, _root));
#endif
  for (int root : roots) {
    for (std::size_t count : caseCounts(P)) {
      // Every root with the small counts; the large one with the last root.
      if (count > 1000 && root != roots.back()) continue;
      for (bool inplace : {false, true}) {
#if defined(COLLC_REDUCE)
        cases += forEachReduction([&](auto type, OpKind kind, auto op) {
          runCase<decltype(type)>(comm, kind, op, count, inplace, root);
        });
#else
        runCase<double>(comm, OpKind::Sum, coll::Sum{}, count, inplace, root);
        runCase<std::int64_t>(comm, OpKind::Sum, coll::Sum{}, count, inplace, root);
        cases += 2;
#endif
      }
    }
  }
  return cases;
}

int check() {
  return checkExample(kName, collc::COLLC_CAT(COLLC_FN, _accepts), runAll, [](coll::Comm& comm) {
    std::vector<std::int64_t> buf(static_cast<std::size_t>(comm.size()) * 7, 1),
        out(buf.size());
#if defined(COLLC_BROADCAST)
    collc::COLLC_FN(comm, buf.data(), 7 ROOT_ARGUMENT(0));
#elif defined(COLLC_REDUCE)
    collc::COLLC_FN(comm, buf.data(), out.data(), 7 ROOT_ARGUMENT(0), coll::Sum{});
#else
    collc::COLLC_FN(comm, buf.data(), out.data(), 7 ROOT_ARGUMENT(0));
#endif
  });
}

COLLC_EXAMPLE_END
#undef ROOT_ARGUMENT
