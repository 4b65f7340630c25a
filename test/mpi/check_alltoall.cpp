// End-to-end check of one collc alltoall schedule against MPI_Alltoall, out
// of place and in place (send == recv). Read once per example, with
// COLLC_HEADER and COLLC_FN defined (check_common.hpp); run under mpirun with
// any number of ranks.

#include "check_common.hpp"
#include COLLC_HEADER

#include <algorithm>

COLLC_EXAMPLE_BEGIN

template <class T>
void runCase(coll::Comm& comm, std::size_t count, bool inplace) {
  const int rank = comm.rank(), P = comm.size();
  const std::size_t total = static_cast<std::size_t>(P) * count;
  std::vector<T> in(total);
  for (std::size_t i = 0; i < total; ++i) in[i] = input<T>(OpKind::Sum, rank, i);
  std::vector<T> expected(total);
  MPI_Alltoall(in.data(), static_cast<int>(count), TypeInfo<T>::mpi(), expected.data(),
               static_cast<int>(count), TypeInfo<T>::mpi(), MPI_COMM_WORLD);
  std::vector<T> send = in, recv(total, T(-12345));
  T* out = inplace ? send.data() : recv.data();
  collc::COLLC_FN(comm, send.data(), out, count);
  checkResult(kName, comm, OpKind::Sum, count, inplace, expected.data(), out, total, in, send);
}

// Returns the number of cases run.
int runAll(coll::Comm& comm) {
  int cases = 0;
  for (std::size_t count : caseCounts(comm.size()))
    for (bool inplace : {false, true}) {
      runCase<double>(comm, count, inplace);
      runCase<std::int64_t>(comm, count, inplace);
      cases += 2;
    }
#ifdef COLLC_SWITCH_SETTINGS
  // reconfigure auto: the switch is set before phase 0, then at increasing
  // phases; one node has no phases at all.
  for (std::size_t bytes : {std::size_t{1024}, std::size_t{1} << 28}) {
    const std::vector<int> at = collc::COLLC_CAT(COLLC_FN, _switch_settings)(comm.size(), bytes);
    const bool ok = comm.size() == 1 ? at.empty()
                                     : !at.empty() && at.front() == 0 && std::is_sorted(at.begin(), at.end());
    if (!ok) throw coll::Error("switch settings out of order for P = " + std::to_string(comm.size()));
    ++cases;
  }
#endif
  return cases;
}

int check() {
  return checkExample(kName, collc::COLLC_CAT(COLLC_FN, _accepts), runAll, [](coll::Comm& comm) {
    std::vector<std::int64_t> buf(static_cast<std::size_t>(comm.size()) * 7, 1);
    collc::COLLC_FN(comm, buf.data(), buf.data(), 7);
  });
}

COLLC_EXAMPLE_END
