// One mpirun launch runs the checks of several examples: each example's
// check (check_allreduce.cpp, ...) is read with its own header and macros
// (into units of a few examples each), and this program calls their entry
// points in turn (the list in COLLC_BATCH_LIST, written by
// test/CMakeLists.txt's collc_mpi_program).
// Launching a program costs more than most checks (0.3 s at P = 1, 1 s at
// P = 8 oversubscribed), so one launch a P, not one an example.
//   check_examples [EXAMPLE...]   (none named: every example)
// Each example prints its own PASS line; a failing one aborts the job,
// naming itself. The last line counts the examples run: it is printed only
// when every one passed on every rank.

#include <mpi.h>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#define COLLC_CHECK(name) int collc_check_##name();
#include COLLC_BATCH_LIST
#undef COLLC_CHECK

namespace {

struct Check {
  const char* name;
  int (*run)();
};

const Check kChecks[] = {
#define COLLC_CHECK(name) {#name, collc_check_##name},
#include COLLC_BATCH_LIST
#undef COLLC_CHECK
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Every rank has the same arguments, so every rank takes the same path.
  std::vector<const Check*> selected;
  for (int i = 1; i < argc; ++i) {
    const Check* found = nullptr;
    for (const Check& c : kChecks)
      if (std::strcmp(c.name, argv[i]) == 0) found = &c;
    if (!found) {
      if (rank == 0) {
        std::cerr << argv[0] << ": no check '" << argv[i] << "' in this program; it has:";
        for (const Check& c : kChecks) std::cerr << ' ' << c.name;
        std::cerr << std::endl;
      }
      MPI_Finalize();
      return 2;
    }
    selected.push_back(found);
  }
  if (selected.empty())
    for (const Check& c : kChecks) selected.push_back(&c);
  for (const Check* c : selected) c->run();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::cout << "PASS all " << selected.size() << " checks of " << COLLC_BATCH_NAME << " at P=" << size
              << std::endl;
  MPI_Finalize();
  return 0;
}
