#include "handwritten.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "coll/merge.hpp"

namespace collc_bench::hand {
namespace {

std::size_t chunkOffset(std::size_t count, int P, int chunk) {
  const std::size_t p = static_cast<std::size_t>(P), c = static_cast<std::size_t>(chunk);
  return c * (count / p) + std::min(c, count % p);
}

int mod(int a, int P) { return ((a % P) + P) % P; }

void sendrecv(const double* out, std::size_t outCount, int to, double* in, std::size_t inCount,
              int from, MPI_Comm comm) {
  MPI_Sendrecv(out, static_cast<int>(outCount), MPI_DOUBLE, to, 0, in, static_cast<int>(inCount),
               MPI_DOUBLE, from, 0, comm, MPI_STATUS_IGNORE);
}

// out = a + b (the reduction of one received chunk).
void add(const double* a, const double* b, double* out, std::size_t n) {
  coll::chargeSimulatedMerge(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

// Reads comm's size and this rank; with one rank the result is the input:
// copies it and says so.
bool alone(MPI_Comm comm, int& P, int& r, const double* send, double* recv, std::size_t count) {
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  if (P > 1) return false;
  std::memcpy(recv, send, count * sizeof(double));
  return true;
}

void grow(std::vector<double>& scratch, std::size_t n) {
  if (scratch.size() < n) scratch.resize(n);
}

}  // namespace

void ringAllreduce(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                   std::vector<double>& scratch) {
  int P = 1, r = 0;
  if (alone(comm, P, r, send, recv, count)) return;
  const int next = mod(r + 1, P), prev = mod(r - 1, P);
  grow(scratch, count / static_cast<std::size_t>(P) + 1);
  auto at = [&](int c) { return chunkOffset(count, P, c); };
  auto len = [&](int c) { return chunkOffset(count, P, c + 1) - chunkOffset(count, P, c); };
  // Step s sends chunk r - s (this rank's own from send, then the partial
  // sum it just made) and adds chunk r - s - 1, first touched now.
  for (int s = 0; s < P - 1; ++s) {
    const int out = mod(r - s, P), in = mod(r - s - 1, P);
    const double* from = s == 0 ? send + at(out) : recv + at(out);
    sendrecv(from, len(out), next, scratch.data(), len(in), prev, comm);
    add(send + at(in), scratch.data(), recv + at(in), len(in));
  }
  // Rank r now holds chunk r + 1 complete; pass the complete chunks on.
  for (int s = 0; s < P - 1; ++s) {
    const int out = mod(r + 1 - s, P), in = mod(r - s, P);
    sendrecv(recv + at(out), len(out), next, recv + at(in), len(in), prev, comm);
  }
}

void halvingDoublingAllreduce(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                              std::vector<double>& scratch) {
  int P = 1, r = 0;
  if (alone(comm, P, r, send, recv, count)) return;
  // The first step receives the larger half: chunks [0, P/2) when count
  // is below P (the first count % P chunks hold one element more).
  grow(scratch, chunkOffset(count, P, P / 2));
  auto at = [&](int c) { return chunkOffset(count, P, c); };
  // Recursive halving: this rank's chunk range [lo, hi) halves each step,
  // keeping the half its own chunk r is in.
  int lo = 0, hi = P;
  bool first = true;
  for (int d = P / 2; d >= 1; d /= 2) {
    const int partner = r ^ d, mid = lo + (hi - lo) / 2;
    const bool keepLow = (r & d) == 0;
    const int keepLo = keepLow ? lo : mid, keepHi = keepLow ? mid : hi;
    const int giveLo = keepLow ? mid : lo, giveHi = keepLow ? hi : mid;
    const double* base = first ? send : recv;
    if (at(keepHi) - at(keepLo) > scratch.size()) {  // a sizing slip is not a slow run
      std::fprintf(stderr, "halving-doubling: %zu elements into a scratch of %zu\n", at(keepHi) - at(keepLo),
                   scratch.size());
      MPI_Abort(comm, 4);
    }
    sendrecv(base + at(giveLo), at(giveHi) - at(giveLo), partner, scratch.data(),
             at(keepHi) - at(keepLo), partner, comm);
    add(base + at(keepLo), scratch.data(), recv + at(keepLo), at(keepHi) - at(keepLo));
    lo = keepLo;
    hi = keepHi;
    first = false;
  }
  // Recursive doubling: the range doubles back, received into place.
  for (int d = 1; d < P; d *= 2) {
    const int partner = r ^ d, size = hi - lo;
    const bool low = (r & d) == 0;
    const int otherLo = low ? hi : lo - size, otherHi = low ? hi + size : lo;
    sendrecv(recv + at(lo), at(hi) - at(lo), partner, recv + at(otherLo), at(otherHi) - at(otherLo),
             partner, comm);
    lo = std::min(lo, otherLo);
    hi = std::max(hi, otherHi);
  }
}

void doublingAllreduce(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                       std::vector<double>& scratch) {
  int P = 1, r = 0;
  if (alone(comm, P, r, send, recv, count)) return;
  grow(scratch, count);
  const double* from = send;
  for (int d = 1; d < P; d *= 2) {
    sendrecv(from, count, r ^ d, scratch.data(), count, r ^ d, comm);
    add(from, scratch.data(), recv, count);
    from = recv;
  }
}

void ringAllgather(const double* send, double* recv, std::size_t count, MPI_Comm comm) {
  int P = 1, r = 0;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  std::memcpy(recv + static_cast<std::size_t>(r) * count, send, count * sizeof(double));
  const int next = mod(r + 1, P), prev = mod(r - 1, P);
  for (int s = 0; s < P - 1; ++s) {
    const std::size_t out = static_cast<std::size_t>(mod(r - s, P)), in = static_cast<std::size_t>(mod(r - s - 1, P));
    sendrecv(recv + out * count, count, next, recv + in * count, count, prev, comm);
  }
}

void ringReduceScatter(const double* send, double* recv, std::size_t count, MPI_Comm comm,
                       std::vector<double>& scratch) {
  int P = 1, r = 0;
  if (alone(comm, P, r, send, recv, count)) return;
  grow(scratch, 2 * count);
  double* incoming = scratch.data();
  double* partial = scratch.data() + count;
  const int next = mod(r + 1, P), prev = mod(r - 1, P);
  // Step s sends the partial sum of block r - s - 1 and receives that of
  // block r - s - 2; the last step's is this rank's own block, into recv.
  for (int s = 0; s < P - 1; ++s) {
    const std::size_t out = static_cast<std::size_t>(mod(r - s - 1, P)), in = static_cast<std::size_t>(mod(r - s - 2, P));
    const double* from = s == 0 ? send + out * count : partial;
    sendrecv(from, count, next, incoming, count, prev, comm);
    add(send + in * count, incoming, s == P - 2 ? recv : partial, count);
  }
}

}  // namespace collc_bench::hand
