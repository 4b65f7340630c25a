// A legal MPI program written without collc whose ranks describe the same
// bytes with different datatypes: MPI requires only matching type
// signatures, so a block of n ints may be n x MPI_INT on one rank and
// 1 x a vector, an indexed type in reverse, a struct with a gap, a resized
// int, ... on the next. Every call libcollc_mpi.so serves runs with each
// rank on its own description (send and receive sides differing, the root
// differing from the others), in place and not, and for the reductions
// (where MPI requires one datatype on every rank) with each description
// on all ranks. Each result is checked element by element against a
// sequential reference, the bytes between a description's elements must
// stay untouched, and each rank prints a digest of every buffer, which
// test/preload/run.sh compares between runs with and without the library.
// MPI defines its predefined operators on predefined types only: the
// reductions of derived types run where the MPI library (MPICH) or
// libcollc_mpi.so takes them, not under Open MPI alone, so they are
// checked against the reference but kept out of the printed digest.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

int failures = 0, checks = 0;
std::uint64_t digest = 1469598103934665603ull;  // FNV-1a over every buffer
bool compared = true;  // whether checks and buffers go into the printed digest

constexpr int kGap = -7;  // what the bytes between a description's elements hold

void mix(const std::vector<int>& data) {
  if (!compared) return;
  for (int v : data)
    for (int b = 0; b < 4; ++b)
      digest = (digest ^ ((static_cast<unsigned>(v) >> (8 * b)) & 0xff)) * 1099511628211ull;
}

void expect(bool ok, const std::string& what, int rank) {
  checks += compared;
  if (!ok && ++failures <= 20) std::printf("FAIL %s (rank %d)\n", what.c_str(), rank);
}

// One description of a block of n ints: `count` x `type`, signature
// element i at int `pos[i]` of the block, blocks `stride` ints apart.
struct Description {
  std::string name;
  MPI_Datatype type = MPI_INT;
  int count = 0;
  std::vector<int> pos;
  std::size_t stride = 0;
  bool owned = false;

  // A buffer of `blocks` blocks, every int kGap.
  std::vector<int> buffer(int blocks) const {
    int last = 0;
    for (int p : pos) last = p > last ? p : last;
    return std::vector<int>(static_cast<std::size_t>(blocks - 1) * stride + last + 1, kGap);
  }
  int& at(std::vector<int>& b, int block, int i) const {
    return b[static_cast<std::size_t>(block) * stride + static_cast<std::size_t>(pos[i])];
  }
  // Whether every int of `b` that is no element of its first `blocks`
  // blocks still holds kGap.
  bool gapsKept(const std::vector<int>& b, int blocks) const {
    std::vector<char> element(b.size(), 0);
    for (int block = 0; block < blocks; ++block)
      for (int p : pos) element[static_cast<std::size_t>(block) * stride + static_cast<std::size_t>(p)] = 1;
    for (std::size_t k = 0; k < b.size(); ++k)
      if (!element[k] && b[k] != kGap) return false;
    return true;
  }
};

MPI_Datatype commit(MPI_Datatype t) {
  MPI_Type_commit(&t);
  return t;
}

// The descriptions of a block of n ints.
std::vector<Description> descriptions(int n) {
  std::vector<Description> all;
  auto add = [&](std::string name, MPI_Datatype type, int count, std::function<int(int)> pos) {
    Description d;
    d.name = std::move(name);
    d.type = type;
    d.count = count;
    d.owned = type != MPI_INT;
    for (int i = 0; i < n; ++i) d.pos.push_back(pos(i));
    MPI_Aint lb = 0, extent = 0;
    MPI_Type_get_extent(type, &lb, &extent);
    d.stride = static_cast<std::size_t>(count) * static_cast<std::size_t>(extent) / sizeof(int);
    all.push_back(std::move(d));
  };
  add("n x MPI_INT", MPI_INT, n, [](int i) { return i; });
  MPI_Datatype t;
  MPI_Type_contiguous(n, MPI_INT, &t);
  add("1 x contiguous", commit(t), 1, [](int i) { return i; });
  MPI_Type_vector(n, 1, 2, MPI_INT, &t);
  add("1 x vector (stride 2)", commit(t), 1, [](int i) { return 2 * i; });
  {
    std::vector<int> lengths(static_cast<std::size_t>(n), 1), displacements;
    for (int i = 0; i < n; ++i) displacements.push_back(n - 1 - i);
    MPI_Type_indexed(n, lengths.data(), displacements.data(), MPI_INT, &t);
    add("1 x indexed (reversed)", commit(t), 1, [n](int i) { return n - 1 - i; });
  }
  {
    const int h = n / 2;
    int lengths[2] = {h, n - h};
    MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>((h + 1) * sizeof(int))};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, lengths, displacements, types, &t);
    add("1 x struct (a gap)", commit(t), 1, [h](int i) { return i < h ? i : i + 1; });
  }
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &t);
  add("n x resized int (extent 8)", commit(t), n, [](int i) { return 2 * i; });
  {
    int k = 2;
    while (n % k) ++k;
    MPI_Type_contiguous(k, MPI_INT, &t);
    add("n/k x contiguous(k)", commit(t), n / k, [](int i) { return i; });
  }
  {
    MPI_Datatype h;
    MPI_Type_create_hvector(n, 1, sizeof(int), MPI_INT, &h);
    MPI_Type_dup(h, &t);
    MPI_Type_free(&h);
    add("1 x dup of a dense hvector", commit(t), 1, [](int i) { return i; });
  }
  {
    int length = n;
    MPI_Aint displacement = 2 * sizeof(int);
    MPI_Type_create_hindexed(1, &length, &displacement, MPI_INT, &t);
    add("1 x hindexed from int 2", commit(t), 1, [](int i) { return i + 2; });
  }
  return all;
}

int value(int rank, int block, int i) { return rank * 1000000 + block * 10000 + i; }

struct World {
  int rank = 0, size = 1;
};

// The data movements, each rank on description (rank + v) % D for its
// own block and the next one for its other side.
void movements(const World& w, const std::vector<Description>& all, int n, int v) {
  const int D = static_cast<int>(all.size()), P = w.size, r = w.rank;
  const Description& mine = all[static_cast<std::size_t>((r + v) % D)];
  const Description& other = all[static_cast<std::size_t>((r + v + 1) % D)];
  const int root = v % P;
  const std::string tag = " (n = " + std::to_string(n) + ", " + mine.name + " / " + other.name +
                          ", root " + std::to_string(root) + ")";

  // MPI_Bcast: the root's description differs from the others'.
  {
    std::vector<int> b = mine.buffer(1);
    if (r == root)
      for (int i = 0; i < n; ++i) mine.at(b, 0, i) = value(root, 0, i);
    MPI_Bcast(b.data(), mine.count, mine.type, root, MPI_COMM_WORLD);
    bool ok = mine.gapsKept(b, 1);
    for (int i = 0; i < n; ++i) ok &= mine.at(b, 0, i) == value(root, 0, i);
    expect(ok, "MPI_Bcast" + tag, r);
    mix(b);
  }
  // MPI_Allgather, and in place.
  for (bool inPlace : {false, true}) {
    std::vector<int> send = mine.buffer(1), recv = other.buffer(P);
    for (int i = 0; i < n; ++i) {
      mine.at(send, 0, i) = value(r, 0, i);
      if (inPlace) other.at(recv, r, i) = value(r, 0, i);
    }
    MPI_Allgather(inPlace ? MPI_IN_PLACE : send.data(), mine.count, mine.type, recv.data(),
                  other.count, other.type, MPI_COMM_WORLD);
    bool ok = other.gapsKept(recv, P);
    for (int j = 0; j < P; ++j)
      for (int i = 0; i < n; ++i) ok &= other.at(recv, j, i) == value(j, 0, i);
    expect(ok, std::string("MPI_Allgather") + (inPlace ? " in place" : "") + tag, r);
    mix(recv);
  }
  // MPI_Alltoall, and in place.
  for (bool inPlace : {false, true}) {
    std::vector<int> send = mine.buffer(P), recv = other.buffer(P);
    for (int j = 0; j < P; ++j)
      for (int i = 0; i < n; ++i) {
        mine.at(send, j, i) = value(r, j, i);
        if (inPlace) other.at(recv, j, i) = value(r, j, i);
      }
    MPI_Alltoall(inPlace ? MPI_IN_PLACE : send.data(), mine.count, mine.type, recv.data(),
                 other.count, other.type, MPI_COMM_WORLD);
    bool ok = other.gapsKept(recv, P);
    for (int j = 0; j < P; ++j)
      for (int i = 0; i < n; ++i) ok &= other.at(recv, j, i) == value(j, r, i);
    expect(ok, std::string("MPI_Alltoall") + (inPlace ? " in place" : "") + tag, r);
    mix(recv);
  }
  // MPI_Gather: every rank sends in its description, the root receives in
  // the next (in place: its own block already there).
  for (bool inPlace : {false, true}) {
    const bool rootInPlace = inPlace && r == root;
    std::vector<int> send = mine.buffer(1), recv = r == root ? other.buffer(P) : std::vector<int>();
    for (int i = 0; i < n; ++i) {
      mine.at(send, 0, i) = value(r, 0, i);
      if (rootInPlace) other.at(recv, r, i) = value(r, 0, i);
    }
    MPI_Gather(rootInPlace ? MPI_IN_PLACE : send.data(), mine.count, mine.type,
               r == root ? recv.data() : nullptr, other.count, other.type, root, MPI_COMM_WORLD);
    if (r == root) {
      bool ok = other.gapsKept(recv, P);
      for (int j = 0; j < P; ++j)
        for (int i = 0; i < n; ++i) ok &= other.at(recv, j, i) == value(j, 0, i);
      expect(ok, std::string("MPI_Gather") + (inPlace ? " in place" : "") + tag, r);
      mix(recv);
    }
  }
  // MPI_Scatter: the root sends in the next description, every rank
  // receives in its own (in place: the root keeps its block).
  for (bool inPlace : {false, true}) {
    const bool rootInPlace = inPlace && r == root;
    std::vector<int> send = r == root ? other.buffer(P) : std::vector<int>(), recv = mine.buffer(1);
    if (r == root)
      for (int j = 0; j < P; ++j)
        for (int i = 0; i < n; ++i) other.at(send, j, i) = value(root, j, i);
    MPI_Scatter(r == root ? send.data() : nullptr, other.count, other.type,
                rootInPlace ? MPI_IN_PLACE : recv.data(), mine.count, mine.type, root,
                MPI_COMM_WORLD);
    bool ok = true;
    if (rootInPlace) {
      ok = other.gapsKept(send, P);
      for (int j = 0; j < P; ++j)
        for (int i = 0; i < n; ++i) ok &= other.at(send, j, i) == value(root, j, i);
      mix(send);
    } else {
      ok = mine.gapsKept(recv, 1);
      for (int i = 0; i < n; ++i) ok &= mine.at(recv, 0, i) == value(root, r, i);
      mix(recv);
    }
    expect(ok, std::string("MPI_Scatter") + (inPlace ? " in place" : "") + tag, r);
  }
}

// The reductions, every rank on description v (MPI: one datatype on
// every rank), with MPI_SUM.
void reductions(const World& w, const std::vector<Description>& all, int n, int v) {
  const int P = w.size, r = w.rank;
  const Description& d = all[static_cast<std::size_t>(v)];
  const std::string tag = " (n = " + std::to_string(n) + ", " + d.name + ")";
  auto sum = [](int block, int i, int ranks) {  // value() summed over ranks 0..ranks-1
    long s = 0;
    for (int q = 0; q < ranks; ++q) s += value(q, block, i);
    return static_cast<int>(s);
  };
  for (bool inPlace : {false, true}) {
    const std::string how = inPlace ? " in place" : "";
    // MPI_Allreduce
    {
      std::vector<int> send = d.buffer(1), recv = d.buffer(1);
      for (int i = 0; i < n; ++i) d.at(inPlace ? recv : send, 0, i) = value(r, 0, i);
      MPI_Allreduce(inPlace ? MPI_IN_PLACE : send.data(), recv.data(), d.count, d.type, MPI_SUM,
                    MPI_COMM_WORLD);
      bool ok = d.gapsKept(recv, 1);
      for (int i = 0; i < n; ++i) ok &= d.at(recv, 0, i) == sum(0, i, P);
      expect(ok, "MPI_Allreduce" + how + tag, r);
      mix(recv);
    }
    // MPI_Reduce (in place at the root; for n = 1001 the root is 0 then:
    // MPICH 4.0.2's own reduce crashes in place at another root from about
    // 4 KiB, in its device collectives)
    {
      const int root = inPlace && n > 256 ? 0 : (v + 1) % P;
      const bool rootInPlace = inPlace && r == root;
      std::vector<int> send = d.buffer(1), recv = d.buffer(1);
      for (int i = 0; i < n; ++i) d.at(rootInPlace ? recv : send, 0, i) = value(r, 0, i);
      MPI_Reduce(rootInPlace ? MPI_IN_PLACE : send.data(), recv.data(), d.count, d.type, MPI_SUM,
                 root, MPI_COMM_WORLD);
      if (r == root) {
        bool ok = d.gapsKept(recv, 1);
        for (int i = 0; i < n; ++i) ok &= d.at(recv, 0, i) == sum(0, i, P);
        expect(ok, "MPI_Reduce" + how + tag, r);
        mix(recv);
      }
    }
    // MPI_Reduce_scatter_block: P blocks in, this rank's sum out (in
    // place: the first block of recv).
    {
      std::vector<int> send = d.buffer(P), recv = d.buffer(inPlace ? P : 1);
      for (int j = 0; j < P; ++j)
        for (int i = 0; i < n; ++i) d.at(inPlace ? recv : send, j, i) = value(r, j, i);
      MPI_Reduce_scatter_block(inPlace ? MPI_IN_PLACE : send.data(), recv.data(), d.count, d.type,
                               MPI_SUM, MPI_COMM_WORLD);
      bool ok = inPlace || d.gapsKept(recv, 1);
      for (int i = 0; i < n; ++i) ok &= d.at(recv, 0, i) == sum(r, i, P);
      expect(ok, "MPI_Reduce_scatter_block" + how + tag, r);
      // (In place, MPI leaves the other blocks undefined.)
      recv.resize(d.buffer(1).size());
      mix(recv);
    }
    // MPI_Scan and MPI_Exscan
    for (bool exclusive : {false, true}) {
      std::vector<int> send = d.buffer(1), recv = d.buffer(1);
      for (int i = 0; i < n; ++i) d.at(inPlace ? recv : send, 0, i) = value(r, 0, i);
      (exclusive ? MPI_Exscan : MPI_Scan)(inPlace ? MPI_IN_PLACE : send.data(), recv.data(),
                                          d.count, d.type, MPI_SUM, MPI_COMM_WORLD);
      if (exclusive && r == 0) continue;  // (rank 0's result: undefined)
      bool ok = d.gapsKept(recv, 1);
      for (int i = 0; i < n; ++i) ok &= d.at(recv, 0, i) == sum(0, i, exclusive ? r : r + 1);
      expect(ok, std::string(exclusive ? "MPI_Exscan" : "MPI_Scan") + how + tag, r);
      mix(recv);
    }
  }
}

}  // namespace

// Whether MPI_SUM of a derived datatype (two ints) is taken: Open MPI
// refuses it (MPI_ERR_OP) before any message, on every rank.
bool derivedReductionsTaken() {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Datatype two;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_commit(&two);
  int in[2] = {1, 2}, out[2] = {0, 0};
  const bool taken = MPI_Allreduce(in, out, 1, two, MPI_SUM, comm) == MPI_SUCCESS;
  MPI_Type_free(&two);
  MPI_Comm_free(&comm);
  return taken;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  const bool derived = derivedReductionsTaken();
  if (w.rank == 0)
    std::fprintf(stderr, "reductions of derived datatypes: %s\n",
                 derived ? "taken, checked" : "refused by MPI, not run");
  // n = 6: counts not divisible by most P; n = 1001: messages of several
  // KiB, pipelined broadcasts.
  for (int n : {6, 1001}) {
    std::vector<Description> all = descriptions(n);
    const int D = static_cast<int>(all.size());
    for (int v = 0; v < D; ++v) {
      movements(w, all, n, v);
      compared = v == 0;  // n x MPI_INT
      if (compared || derived) reductions(w, all, n, v);
      compared = true;
    }
    for (Description& d : all)
      if (d.owned) MPI_Type_free(&d.type);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int failed = 0;
  MPI_Allreduce(&failures, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d checks %d digest %016llx\n", w.rank, checks,
              static_cast<unsigned long long>(digest));
  if (w.rank == 0) std::printf(failed ? "FAILED %d checks\n" : "PASS\n", failed);
  MPI_Finalize();
  return failed ? 1 : 0;
}
