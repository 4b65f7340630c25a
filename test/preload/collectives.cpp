// An MPI program written without collc (it includes mpi.h only): every
// collective libcollc_mpi.so serves, on every built-in type with every
// operator MPI defines on it, counts of 0, 1 and not divisible by P, in
// place and not, the rooted ones to roots that move from case to case,
// on MPI_COMM_WORLD and on sub-communicators from
// MPI_Comm_split (one of them with its ranks reversed), while the program's
// own point-to-point messages use the tags 0..3 on the same communicators.
// Each result is compared element by element with a sequential reference;
// each rank prints a digest of all its results, which test/preload/run.sh
// compares between a run with the library preloaded and one without.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

int failures = 0, checks = 0;
std::uint64_t digest = 1469598103934665603ull;  // FNV-1a over every result

void mix(const void* data, std::size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) digest = (digest ^ p[i]) * 1099511628211ull;
}

enum Op { SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR };
const char* opNames[] = {"SUM", "PROD", "MIN", "MAX", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};
MPI_Op mpiOp(Op op) {
  const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_LAND,
                        MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
  return ops[op];
}

// Rank r's element i for `op`: small enough that no sum or product of up
// to 8 ranks overflows (so the reference needs no wrap-around), 0 often
// for the logical operators, any bits for the bitwise ones.
// (C bool values are 0 or 1: `boolean` keeps the logical ones so.)
template <class T, bool boolean = false>
T value(Op op, int r, std::size_t i) {
  const long k = static_cast<long>(i) * 7 + r * 13;
  switch (op) {
    case PROD: return static_cast<T>((i + static_cast<std::size_t>(r)) % 5 == 0 ? 2 : (k % 3 ? 1 : (std::is_signed<T>::value ? -1 : 1)));
    case LAND: case LOR: case LXOR: return static_cast<T>(k % 3 == 0 ? 0 : boolean ? 1 : k % 4 + 1);
    case BAND: case BOR: case BXOR: return static_cast<T>((k * 2654435761u) >> 3);
    default: return static_cast<T>(std::is_signed<T>::value ? k % 9 - 4 : k % 9);
  }
}

template <class T>
T apply(Op op, T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    switch (op) {
      case SUM: return a + b;
      case PROD: return a * b;
      case MIN: return b < a ? b : a;
      default: return a < b ? b : a;
    }
  } else {
    switch (op) {
      case SUM: return static_cast<T>(a + b);
      case PROD: return static_cast<T>(a * b);
      case MIN: return b < a ? b : a;
      case MAX: return a < b ? b : a;
      case LAND: return static_cast<T>(a && b);
      case LOR: return static_cast<T>(a || b);
      case LXOR: return static_cast<T>(!a != !b);
      case BAND: return static_cast<T>(a & b);
      case BOR: return static_cast<T>(a | b);
      default: return static_cast<T>(a ^ b);
    }
  }
}

// op over ranks [first, last] of `ranks` (world ranks in comm order).
template <class T, bool boolean>
T fold(Op op, const std::vector<int>& ranks, int first, int last, std::size_t i) {
  T acc = value<T, boolean>(op, ranks[first], i);
  for (int r = first + 1; r <= last; ++r) acc = apply(op, acc, value<T, boolean>(op, ranks[r], i));
  return acc;
}

struct Context {
  MPI_Comm comm;
  const char* name;
  int rank, size;
  std::vector<int> world;  // world rank of each rank of comm
};

template <class T>
void expect(const Context& c, const char* what, const char* type, Op op, std::size_t count,
            bool inPlace, const T* got, const std::vector<T>& want) {
  ++checks;
  // By value: long double's padding bytes are no part of it.
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double d = static_cast<double>(got[i]);
    mix(&d, sizeof d);
  }
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(got[i] == want[i])) {
      if (++failures <= 10)
        std::printf("FAIL %s on %s (rank %d of %d): %s %s count %zu%s: element %zu: got %.17g, want %.17g\n",
                    what, c.name, c.rank, c.size, type, opNames[op], count,
                    inPlace ? " in place" : "", i, static_cast<double>(got[i]),
                    static_cast<double>(want[i]));
      return;
    }
}

// The program's own traffic on tag `tag`: a message to the right neighbour,
// received from the left after the collective in between.
struct Chatter {
  int out = 0, in = -1;
  MPI_Request requests[2];
  Chatter(const Context& c, int tag) {
    out = c.rank * 1000 + tag;
    MPI_Irecv(&in, 1, MPI_INT, (c.rank + c.size - 1) % c.size, tag, c.comm, &requests[0]);
    MPI_Isend(&out, 1, MPI_INT, (c.rank + 1) % c.size, tag, c.comm, &requests[1]);
  }
  void finish(const Context& c, int tag) {
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    ++checks;
    if (in != ((c.rank + c.size - 1) % c.size) * 1000 + tag && ++failures <= 10)
      std::printf("FAIL point-to-point on %s tag %d: got %d\n", c.name, tag, in);
  }
};

template <class T, bool boolean = false>
void reductions(const Context& c, MPI_Datatype type, const char* typeName,
                const std::vector<Op>& ops) {
  const std::size_t P = static_cast<std::size_t>(c.size);
  for (Op op : ops)
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, 3 * P + 2})
      for (bool inPlace : {false, true}) {
        const int n = static_cast<int>(count);
        std::vector<T> mine(count), want(count), recv(count);
        for (std::size_t i = 0; i < count; ++i) mine[i] = value<T, boolean>(op, c.world[c.rank], i);
        // MPI_Allreduce
        for (std::size_t i = 0; i < count; ++i) want[i] = fold<T, boolean>(op, c.world, 0, c.size - 1, i);
        Chatter chat(c, 0);
        if (inPlace) {
          recv = mine;
          MPI_Allreduce(MPI_IN_PLACE, recv.data(), n, type, mpiOp(op), c.comm);
        } else {
          MPI_Allreduce(mine.data(), recv.data(), n, type, mpiOp(op), c.comm);
        }
        chat.finish(c, 0);
        expect(c, "MPI_Allreduce", typeName, op, count, inPlace, recv.data(), want);
        // MPI_Scan
        for (std::size_t i = 0; i < count; ++i) want[i] = fold<T, boolean>(op, c.world, 0, c.rank, i);
        if (inPlace) {
          recv = mine;
          MPI_Scan(MPI_IN_PLACE, recv.data(), n, type, mpiOp(op), c.comm);
        } else {
          MPI_Scan(mine.data(), recv.data(), n, type, mpiOp(op), c.comm);
        }
        expect(c, "MPI_Scan", typeName, op, count, inPlace, recv.data(), want);
        // MPI_Exscan (rank 0's result is undefined)
        if (c.rank > 0)
          for (std::size_t i = 0; i < count; ++i) want[i] = fold<T, boolean>(op, c.world, 0, c.rank - 1, i);
        recv = mine;
        if (inPlace)
          MPI_Exscan(MPI_IN_PLACE, recv.data(), n, type, mpiOp(op), c.comm);
        else
          MPI_Exscan(mine.data(), recv.data(), n, type, mpiOp(op), c.comm);
        if (c.rank > 0) expect(c, "MPI_Exscan", typeName, op, count, inPlace, recv.data(), want);
        // MPI_Reduce_scatter_block: block b of rank r holds r's values at
        // b * count + i; rank b gets the fold of block b.
        std::vector<T> blocks(P * count), out(count);
        for (std::size_t i = 0; i < P * count; ++i) blocks[i] = value<T, boolean>(op, c.world[c.rank], i);
        for (std::size_t i = 0; i < count; ++i)
          want[i] = fold<T, boolean>(op, c.world, 0, c.size - 1, static_cast<std::size_t>(c.rank) * count + i);
        // MPI_Reduce to a root that moves with the case (in place at the
        // root: its recv holds its input); recv is significant at the root only.
        const int root = static_cast<int>((count + static_cast<std::size_t>(op) + (inPlace ? 1 : 0)) % P);
        std::vector<T> wantReduced(count);
        for (std::size_t i = 0; i < count; ++i) wantReduced[i] = fold<T, boolean>(op, c.world, 0, c.size - 1, i);
        recv.assign(count, T());
        if (inPlace && c.rank == root) {
          recv = mine;
          MPI_Reduce(MPI_IN_PLACE, recv.data(), n, type, mpiOp(op), root, c.comm);
        } else {
          MPI_Reduce(mine.data(), c.rank == root ? recv.data() : nullptr, n, type, mpiOp(op), root, c.comm);
        }
        if (c.rank == root) expect(c, "MPI_Reduce", typeName, op, count, inPlace, recv.data(), wantReduced);
        Chatter chat2(c, 3);
        if (inPlace) {
          MPI_Reduce_scatter_block(MPI_IN_PLACE, blocks.data(), n, type, mpiOp(op), c.comm);
          chat2.finish(c, 3);
          expect(c, "MPI_Reduce_scatter_block", typeName, op, count, inPlace, blocks.data(), want);
        } else {
          MPI_Reduce_scatter_block(blocks.data(), out.data(), n, type, mpiOp(op), c.comm);
          chat2.finish(c, 3);
          expect(c, "MPI_Reduce_scatter_block", typeName, op, count, inPlace, out.data(), want);
        }
      }
}

template <class T>
void moves(const Context& c, MPI_Datatype type, const char* typeName) {
  const std::size_t P = static_cast<std::size_t>(c.size);
  auto v = [](int worldRank, std::size_t i) { return static_cast<T>(worldRank * 31 + static_cast<int>(i % 97)); };
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, 2 * P + 1})
    for (bool inPlace : {false, true}) {
      const int n = static_cast<int>(count);
      // MPI_Allgather: block b from rank b.
      std::vector<T> mine(count), all(P * count), want(P * count);
      for (std::size_t i = 0; i < count; ++i) mine[i] = v(c.world[c.rank], i);
      for (std::size_t b = 0; b < P; ++b)
        for (std::size_t i = 0; i < count; ++i) want[b * count + i] = v(c.world[b], i);
      Chatter chat(c, 1);
      if (inPlace) {
        std::copy(mine.begin(), mine.end(), all.begin() + static_cast<long>(static_cast<std::size_t>(c.rank) * count));
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), n, type, c.comm);
      } else {
        MPI_Allgather(mine.data(), n, type, all.data(), n, type, c.comm);
      }
      chat.finish(c, 1);
      expect(c, "MPI_Allgather", typeName, SUM, count, inPlace, all.data(), want);
      // MPI_Alltoall: block d of rank s for rank d is v(s, d * count + i).
      std::vector<T> send(P * count), recv(P * count);
      for (std::size_t i = 0; i < P * count; ++i) send[i] = v(c.world[c.rank], i);
      for (std::size_t s = 0; s < P; ++s)
        for (std::size_t i = 0; i < count; ++i)
          want[s * count + i] = v(c.world[s], static_cast<std::size_t>(c.rank) * count + i);
      Chatter chat2(c, 2);
      if (inPlace) {
        recv = send;
        MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv.data(), n, type, c.comm);
      } else {
        MPI_Alltoall(send.data(), n, type, recv.data(), n, type, c.comm);
      }
      chat2.finish(c, 2);
      expect(c, "MPI_Alltoall", typeName, SUM, count, inPlace, recv.data(), want);
      // The rooted calls, to a root that moves with the case; the buffers
      // MPI calls insignificant off the root are null there.
      const int root = static_cast<int>((3 * count + (inPlace ? 1 : 0)) % P);
      const bool atRoot = c.rank == root;
      // MPI_Bcast: the root's values everywhere.
      std::vector<T> buffer(count), fromRoot(count);
      for (std::size_t i = 0; i < count; ++i) {
        fromRoot[i] = v(c.world[root], i);
        buffer[i] = atRoot ? fromRoot[i] : T();
      }
      Chatter chat3(c, 0);
      MPI_Bcast(buffer.data(), n, type, root, c.comm);
      chat3.finish(c, 0);
      expect(c, "MPI_Bcast", typeName, SUM, count, false, buffer.data(), fromRoot);
      // MPI_Gather: the root gets block b from rank b (in place: its own
      // block already in place).
      for (std::size_t b = 0; b < P; ++b)
        for (std::size_t i = 0; i < count; ++i) want[b * count + i] = v(c.world[b], i);
      std::vector<T> gathered(atRoot ? P * count : 0);
      if (inPlace && atRoot) {
        std::copy(mine.begin(), mine.end(), gathered.begin() + static_cast<long>(static_cast<std::size_t>(root) * count));
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered.data(), n, type, root, c.comm);
      } else {
        MPI_Gather(mine.data(), n, type, atRoot ? gathered.data() : nullptr, n, type, root, c.comm);
      }
      if (atRoot) expect(c, "MPI_Gather", typeName, SUM, count, inPlace, gathered.data(), want);
      // MPI_Scatter: rank b gets the root's block b (in place at the root:
      // its block stays in the send buffer).
      std::vector<T> blocks(atRoot ? P * count : 0), mineBack(count), wantBlock(count);
      for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i] = v(c.world[root], i);
      for (std::size_t i = 0; i < count; ++i)
        wantBlock[i] = v(c.world[root], static_cast<std::size_t>(c.rank) * count + i);
      const T* scattered = mineBack.data();
      if (inPlace && atRoot) {
        MPI_Scatter(blocks.data(), n, type, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, c.comm);
        scattered = blocks.data() + static_cast<std::size_t>(root) * count;
      } else {
        MPI_Scatter(atRoot ? blocks.data() : nullptr, n, type, mineBack.data(), n, type, root, c.comm);
      }
      expect(c, "MPI_Scatter", typeName, SUM, count, inPlace, scattered, wantBlock);
    }
}

// MPI_Barrier holds every rank until the last arrives: the last rank
// arrives 80 ms after it left the barrier before, and every other rank
// must wait in the barrier. (Ranks leave the first barrier up to a few ms
// apart on a loaded machine, so the bound is 20 ms: a barrier that holds
// nobody lets them go at once.)
void barrierHolds(const Context& c) {
  MPI_Barrier(c.comm);
  const double start = MPI_Wtime();
  if (c.rank == c.size - 1)
    while (MPI_Wtime() - start < 0.08) {
    }
  MPI_Barrier(c.comm);
  ++checks;
  const double waited = MPI_Wtime() - start;
  if (waited < 0.02 && ++failures <= 10)
    std::printf("FAIL MPI_Barrier on %s (rank %d of %d): left after %.3f s, the last rank arrived at 0.08 s\n",
                c.name, c.rank, c.size, waited);
}

// PRELOAD_QUICK=1 (MPICH with more ranks than cores, whose busy-polling
// ranks make each call take milliseconds): MPI_INT with every operator,
// MPI_DOUBLE with two, MPI_CHAR moved.
bool quick() {
  const char* q = std::getenv("PRELOAD_QUICK");
  return q && std::strcmp(q, "1") == 0;
}

void run(const Context& c) {
  const std::vector<Op> integer = {SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR};
  const std::vector<Op> floating = {SUM, PROD, MIN, MAX};
  if (quick()) {
    reductions<int>(c, MPI_INT, "MPI_INT", integer);
    reductions<double>(c, MPI_DOUBLE, "MPI_DOUBLE", {SUM, MAX});
    moves<char>(c, MPI_CHAR, "MPI_CHAR");
    barrierHolds(c);
    return;
  }
  reductions<signed char>(c, MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", integer);
  reductions<unsigned char>(c, MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", integer);
  reductions<short>(c, MPI_SHORT, "MPI_SHORT", integer);
  reductions<unsigned short>(c, MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", integer);
  reductions<int>(c, MPI_INT, "MPI_INT", integer);
  reductions<unsigned>(c, MPI_UNSIGNED, "MPI_UNSIGNED", integer);
  reductions<long>(c, MPI_LONG, "MPI_LONG", integer);
  reductions<unsigned long>(c, MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", integer);
  reductions<long long>(c, MPI_LONG_LONG, "MPI_LONG_LONG", integer);
  reductions<unsigned long long>(c, MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", integer);
  reductions<std::int8_t>(c, MPI_INT8_T, "MPI_INT8_T", integer);
  reductions<std::uint8_t>(c, MPI_UINT8_T, "MPI_UINT8_T", integer);
  reductions<std::int16_t>(c, MPI_INT16_T, "MPI_INT16_T", integer);
  reductions<std::uint16_t>(c, MPI_UINT16_T, "MPI_UINT16_T", integer);
  reductions<std::int32_t>(c, MPI_INT32_T, "MPI_INT32_T", integer);
  reductions<std::uint32_t>(c, MPI_UINT32_T, "MPI_UINT32_T", integer);
  reductions<std::int64_t>(c, MPI_INT64_T, "MPI_INT64_T", integer);
  reductions<std::uint64_t>(c, MPI_UINT64_T, "MPI_UINT64_T", integer);
  reductions<MPI_Aint>(c, MPI_AINT, "MPI_AINT", {SUM, PROD, MIN, MAX, BAND, BOR, BXOR});
  reductions<float>(c, MPI_FLOAT, "MPI_FLOAT", floating);
  reductions<double>(c, MPI_DOUBLE, "MPI_DOUBLE", floating);
  reductions<long double>(c, MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", floating);
  reductions<unsigned char>(c, MPI_BYTE, "MPI_BYTE", {BAND, BOR, BXOR});
  reductions<unsigned char, true>(c, MPI_C_BOOL, "MPI_C_BOOL", {LAND, LOR, LXOR});
  moves<int>(c, MPI_INT, "MPI_INT");
  moves<double>(c, MPI_DOUBLE, "MPI_DOUBLE");
  moves<char>(c, MPI_CHAR, "MPI_CHAR");
  moves<unsigned char>(c, MPI_BYTE, "MPI_BYTE");
  moves<short>(c, MPI_SHORT, "MPI_SHORT");
  barrierHolds(c);
  for (int i = 0; i < 2; ++i) MPI_Barrier(c.comm);
}

Context context(MPI_Comm comm, const char* name) {
  Context c{comm, name, 0, 1, {}};
  MPI_Comm_rank(comm, &c.rank);
  MPI_Comm_size(comm, &c.size);
  int world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  c.world.resize(static_cast<std::size_t>(c.size));
  MPI_Allgather(&world, 1, MPI_INT, c.world.data(), 1, MPI_INT, comm);
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  run(context(MPI_COMM_WORLD, "MPI_COMM_WORLD"));
  MPI_Comm parity, reversed;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
  run(context(parity, "split(rank % 2)"));
  run(context(reversed, "split(0, key P - rank)"));
  MPI_Comm_free(&parity);
  run(context(reversed, "split(0, key P - rank) again"));
  MPI_Comm_free(&reversed);
  run(context(MPI_COMM_SELF, "MPI_COMM_SELF"));
  int failed = 0;
  MPI_Allreduce(&failures, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d digest %016llx checks %d\n", rank, static_cast<unsigned long long>(digest), checks);
  if (rank == 0) std::printf(failed ? "FAILED %d checks\n" : "PASS\n", failed);
  MPI_Finalize();
  return failed ? 1 : 0;
}
