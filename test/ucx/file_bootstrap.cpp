// A program without MPI: P processes (started by run_file_bootstrap.sh)
// find each other through files in a directory (coll::FileBootstrap), run
// the ring allreduce of examples/ring.coll and the Bruck alltoall over
// coll::UcxTransport, and check every element against the sequential
// answer.
//   file_bootstrap DIRECTORY RANK P   -> "PASS file-bootstrap rank R of P: N checks"
#include "coll/generated.hpp"
#include "coll/ucx_transport.hpp"
#include "ring.hpp"
#include "alltoall_bruck.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: file_bootstrap DIRECTORY RANK P\n");
    return 2;
  }
  const int rank = std::atoi(argv[2]), P = std::atoi(argv[3]);
  int checks = 0, failures = 0;
  try {
    coll::Comm comm{std::make_unique<coll::UcxTransport>(std::make_unique<coll::FileBootstrap>(argv[1], rank, P))};
    for (std::size_t count : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(65539)}) {
      std::vector<long> in(count), out(count, -1);
      for (std::size_t i = 0; i < count; ++i) in[i] = 1000L * rank + static_cast<long>(i);
      collc::ring(comm, in.data(), out.data(), count);
      for (std::size_t i = 0; i < count; ++i) {
        const long want = 1000L * P * (P - 1) / 2 + static_cast<long>(i) * P;
        if (out[i] != want && failures++ < 5)
          std::printf("FAIL file-bootstrap rank %d: ring count %zu element %zu: got %ld, expected %ld\n", rank, count,
                      i, out[i], want);
      }
      ++checks;
      // Block d of rank r's send is r * 100000 + d * 100 + i; rank r
      // receives block s from rank s.
      std::vector<long> send(count * static_cast<std::size_t>(P)), recv(send.size(), -1);
      for (int d = 0; d < P; ++d)
        for (std::size_t i = 0; i < count; ++i)
          send[static_cast<std::size_t>(d) * count + i] = 100000L * rank + 100L * d + static_cast<long>(i);
      collc::alltoall_bruck(comm, send.data(), recv.data(), count);
      for (int src = 0; src < P; ++src)
        for (std::size_t i = 0; i < count; ++i) {
          const long want = 100000L * src + 100L * rank + static_cast<long>(i);
          const long got = recv[static_cast<std::size_t>(src) * count + i];
          if (got != want && failures++ < 5)
            std::printf("FAIL file-bootstrap rank %d: alltoall count %zu block %d element %zu: got %ld, expected %ld\n",
                        rank, count, src, i, got, want);
        }
      ++checks;
    }
  } catch (const coll::Error& e) {
    std::printf("FAIL file-bootstrap rank %d: %s\n", rank, e.what());
    return 1;
  }
  if (failures) return 1;
  std::printf("PASS file-bootstrap rank %d of %d: %d checks\n", rank, P, checks);
  return 0;
}
