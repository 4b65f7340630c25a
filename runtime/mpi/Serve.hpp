#pragma once
// The policy side of libcollc_mpi.so (docs/preload.md): the MPI calls the
// library serves, as calls of a policy's proven schedules on an element
// type and an operator named by value. A policy is a table of entry points
// (Policy below), built by `collc policy` from .coll files: the built-in
// one from policy.coll into the library at build time, a user's into a
// policy.so the library loads at MPI_Init (COLLC_MPI_POLICY). Both are the
// same sources (Serve*.cpp, PolicyTable.cpp) over the header collc
// generated. Interpose.cpp decides what is served and maps MPI's datatypes
// and operators to these; nothing here knows MPI.

#include <cstddef>
#include <cstdint>
#include <string>

#include "coll/buffers.hpp"
#include "coll/transport.hpp"

namespace coll::mpi {

// The element types a reduction runs on (MPI's C integer, multi-language,
// byte and logical types map to a width and a signedness).
enum class Element : unsigned char { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, f80 };
// MPI's predefined operators the runtime reduces with (coll/merge.hpp).
enum class Reduction : unsigned char { sum, prod, min, max, land, lor, lxor, band, bor, bxor };

// Whether `reduction` is defined on `element` (floating types: sum, prod,
// min and max), as MPI's table of valid pairs says; Dispatch.hpp
// instantiates exactly these pairs.
constexpr bool reduces(Element element, Reduction reduction) {
  const bool floating = element == Element::f32 || element == Element::f64 || element == Element::f80;
  return !floating || reduction == Reduction::sum || reduction == Reduction::prod ||
         reduction == Reduction::min || reduction == Reduction::max;
}

// The calls the library serves, each one entry of a policy.
enum class Call : unsigned char {
  allreduce,
  reduceScatterBlock,
  allgather,
  alltoall,
  scan,
  exscan,
  barrier,
  broadcast,
  reduce,
  gather,
  scatter,
};
constexpr int kCalls = 11;

// The collective kind an MPI call is: its buffers are coll::bufferRule's.
constexpr Kind kindOf(Call call) {
  switch (call) {
    case Call::allreduce: return Kind::allreduce;
    case Call::reduceScatterBlock: return Kind::reduce_scatter;
    case Call::allgather: return Kind::allgather;
    case Call::alltoall: return Kind::alltoall;
    case Call::scan: return Kind::inclusive_scan;
    case Call::exscan: return Kind::exclusive_scan;
    case Call::barrier: return Kind::barrier;
    case Call::broadcast: return Kind::broadcast;
    case Call::reduce: return Kind::reduce;
    case Call::gather: return Kind::gather;
    case Call::scatter: return Kind::scatter;
  }
  return Kind::barrier;
}

// The blocks a call's send buffer holds on `ranks` ranks (coll::bufferRule:
// P for reduce_scatter_block and alltoall, one for the others).
constexpr std::size_t sendBlocks(Call call, int ranks) {
  return elementsOf(bufferRule(kindOf(call)).send, ranks, 1);
}

// A policy's entry points. Buffers as MPI's with MPI_IN_PLACE resolved (in
// place: send == recv, allgather's send == recv + rank * bytes); counts in
// elements (reductions) or bytes (the kinds that only move data, per block
// for allgather, alltoall, gather and scatter). The rooted calls take a
// root in [0, P); the buffers MPI calls insignificant (reduce's and
// gather's recv, scatter's send, off the root) are null; in place at the
// root: reduce's send == recv, gather's send == recv + root * bytes,
// scatter's recv == send + root * bytes.
using ReductionEntry = void (*)(Comm&, const void* send, void* recv, std::size_t count, Element,
                                Reduction);
using RootedReductionEntry = void (*)(Comm&, const void* send, void* recv, std::size_t count,
                                      Element, Reduction, int root);
using BlocksEntry = void (*)(Comm&, const void* send, void* recv, std::size_t bytes);
using RootedBlocksEntry = void (*)(Comm&, const void* send, void* recv, std::size_t bytes,
                                   int root);
using BroadcastEntry = void (*)(Comm&, void* buffer, std::size_t bytes, int root);
using BarrierEntry = void (*)(Comm&);

// The C++ library facts the layout of a Comm (vectors, strings, shared
// pointers) depends on beyond the runtime's headers; the library and a
// policy must agree on them.
#define COLLC_POLICY_STRING2(x) #x
#define COLLC_POLICY_STRING(x) COLLC_POLICY_STRING2(x)
#if defined(_LIBCPP_VERSION)
#define COLLC_POLICY_TOOLCHAIN "libc++ " COLLC_POLICY_STRING(_LIBCPP_VERSION)
#elif defined(__GLIBCXX__)
#if defined(_GLIBCXX_DEBUG)
#define COLLC_POLICY_GLIBCXX_DEBUG " debug"
#else
#define COLLC_POLICY_GLIBCXX_DEBUG ""
#endif
#define COLLC_POLICY_TOOLCHAIN                                                       \
  "libstdc++ " COLLC_POLICY_STRING(__GLIBCXX__) " cxx11-abi " COLLC_POLICY_STRING( \
      _GLIBCXX_USE_CXX11_ABI) COLLC_POLICY_GLIBCXX_DEBUG
#else
#define COLLC_POLICY_TOOLCHAIN "unknown C++ library"
#endif

// The table a policy.so exports (kPolicySymbol). The library and the
// policy share the runtime's types (a Comm is made by the library and run
// by the policy's code), so a policy is loaded only if it was compiled
// against the same runtime headers (runtime, COLLC_RUNTIME_DIGEST), the
// same C++ library (toolchain, commSize) and the same table layout (abi).
struct Policy {
  std::uint32_t abi;
  const char* runtime;    // the digest of the runtime headers it was built with
  std::uint64_t digest;   // of its schedules: every rank must load the same
  const char* sources;    // "a.coll, b.coll (model m.model)"
  const char* toolchain;  // COLLC_POLICY_TOOLCHAIN where it was compiled
  std::size_t commSize;   // sizeof(Comm) there
  // Null where the policy has no schedule for the call (the built-in one
  // then serves it).
  ReductionEntry allreduce, reduceScatterBlock, scan, exscan;
  BlocksEntry allgather, alltoall;
  BarrierEntry barrier;
  BroadcastEntry broadcast;
  RootedReductionEntry reduce;
  RootedBlocksEntry gather, scatter;
  // Whether its schedule for `call` admits a communicator of `ranks`
  // processes (false where the entry is null).
  bool (*accepts)(Call call, int ranks);
  // Which schedule runs `call` at P ranks and `bytes` (per rank, per block
  // for the block-wise kinds), and why: the model's predicted time of each
  // candidate.
  std::string (*explain)(Call call, int ranks, std::size_t bytes);
};
constexpr std::uint32_t kPolicyAbi = 2;
// The symbol of a policy.so: extern "C" const Policy* collc_mpi_policy_v1().
constexpr const char* kPolicySymbol = "collc_mpi_policy_v1";

// The library's own policy (runtime/mpi/policy.coll).
const Policy& builtinPolicy();

// The entry points of one policy (Serve*.cpp, over the generated header);
// each is defined where the policy has the call's schedule.
namespace entries {
void allreduce(Comm&, const void*, void*, std::size_t, Element, Reduction);
void reduceScatterBlock(Comm&, const void*, void*, std::size_t, Element, Reduction);
void scan(Comm&, const void*, void*, std::size_t, Element, Reduction);
void exscan(Comm&, const void*, void*, std::size_t, Element, Reduction);
void allgather(Comm&, const void*, void*, std::size_t);
void alltoall(Comm&, const void*, void*, std::size_t);
void barrier(Comm&);
void broadcast(Comm&, void*, std::size_t, int);
void reduce(Comm&, const void*, void*, std::size_t, Element, Reduction, int);
void gather(Comm&, const void*, void*, std::size_t, int);
void scatter(Comm&, const void*, void*, std::size_t, int);
}  // namespace entries

}  // namespace coll::mpi
