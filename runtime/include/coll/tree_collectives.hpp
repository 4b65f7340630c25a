#pragma once
// Tree collectives through the one executor: the layout of each kind's
// buffers as parts, the tree's plan (coll::treePlan, the function the
// compiler expands and proves), cached in the Comm, and coll::execute.
// Generated headers call runTree; so do the tests, on LocalTransport.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "coll/executor.hpp"
#include "coll/plan.hpp"
#include "coll/transport.hpp"
#include "coll/trees.hpp"

namespace coll {

// The Comm's cache key of a tree plan: a fixed prefix and the arguments'
// bytes, made on the stack without formatting (a collective called in a
// loop looks its plan up on every call).
struct TreePlanKey {
  static constexpr char kPrefix[] = "coll::treePlan:";
  char bytes[sizeof(kPrefix) - 1 + 5 * sizeof(int)];
  TreePlanKey(Kind kind, const Tree& tree, int root) {
    const int args[5] = {static_cast<int>(kind), static_cast<int>(tree.shape), tree.arity,
                         tree.flatBelow, root};
    std::memcpy(bytes, kPrefix, sizeof(kPrefix) - 1);
    std::memcpy(bytes + sizeof(kPrefix) - 1, args, sizeof(args));
  }
  std::string_view view() const { return {bytes, sizeof(bytes)}; }
};

// Runs the tree collective of `kind` on comm. Buffers, by kind (count
// elements per block):
//   reduce, allreduce:  send (count), recv (count; reduce: the root's only);
//   broadcast:          recv (count) is the buffer, send is ignored;
//   gather:             send (count), recv (P blocks, the root's only);
//   scatter:            send (P blocks, the root's only), recv (count);
//   allgather:          send (count), recv (P blocks);
//   reduce_scatter:     send (P blocks), recv (count);
//   barrier:            no buffers (count 0).
// Block b of a P-block buffer is rank b's. `op` merges the lower rank's
// value first.
template <class T, class Op>
void runTree(Comm& comm, Kind kind, const Tree& tree, int root, const T* send, T* recv,
             std::size_t count, Op op) {
  const int P = comm.size(), rank = comm.rank();
  const Plan& plan = comm.plan<Plan>(TreePlanKey(kind, tree, root).view(), [&] {
    return treePlan(kind, tree, P, root, rank);
  });
  const bool isRoot = rank == root;
  std::vector<T> scratch;
  std::vector<PartView<T>> parts(static_cast<std::size_t>(plan.parts));
  auto block = [&](T* base, int b) { return base + static_cast<std::size_t>(b) * count; };
  switch (kind) {
    case Kind::reduce:
    case Kind::allreduce: {
      T* acc = recv;
      if (kind == Kind::reduce && !isRoot) {
        scratch.resize(count);
        acc = scratch.data();
      }
      if (count && send != acc) std::copy(send, send + count, acc);
      parts[0] = {acc, count};
      break;
    }
    case Kind::broadcast:
      parts[0] = {recv, count};
      break;
    case Kind::barrier:  // empty messages: a part of no elements needs no storage
      parts[0] = {nullptr, 0};
      break;
    case Kind::gather:
    case Kind::allgather: {
      // Every block a rank may hold: the root's or everyone's recv, or
      // scratch for the blocks of the subtree a rank forwards.
      T* blocks = recv;
      if (kind == Kind::gather && !isRoot) {
        scratch.resize(static_cast<std::size_t>(P) * count);
        blocks = scratch.data();
      }
      for (int b = 0; b < P; ++b) parts[static_cast<std::size_t>(b)] = {block(blocks, b), count};
      if (count && send != block(blocks, rank)) std::copy(send, send + count, block(blocks, rank));
      break;
    }
    case Kind::scatter:
    case Kind::reduce_scatter: {
      // The root's blocks (scatter) or every rank's (reduce_scatter) are
      // merged into or forwarded from a copy; a rank's own block ends in
      // recv.
      scratch.resize(static_cast<std::size_t>(P) * count);
      if (count && (kind == Kind::reduce_scatter || isRoot))
        std::copy(send, send + static_cast<std::size_t>(P) * count, scratch.data());
      for (int b = 0; b < P; ++b)
        parts[static_cast<std::size_t>(b)] = {block(scratch.data(), b), count};
      break;
    }
    default:
      throw Error(std::string("coll::runTree: trees do not serve ") + kindName(kind));
  }
  execute(comm.transport(), plan, parts, op, comm.recording(), &comm.executorBuffers());
  if ((kind == Kind::scatter || kind == Kind::reduce_scatter) && count)
    std::copy(block(scratch.data(), rank), block(scratch.data(), rank) + count, recv);
}

}  // namespace coll
