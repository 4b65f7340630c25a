#pragma once
// The policy side of libcollc_mpi.so (docs/preload.md): the MPI calls the
// library serves, as calls of the policy's proven schedules (policy.coll,
// compiled by collc at build time) on an element type and an operator
// named by value. Interpose.cpp decides what is served and maps MPI's
// datatypes and operators to these; nothing here knows MPI.

#include <cstddef>
#include <string>

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

// The served calls. Buffers as MPI's with MPI_IN_PLACE resolved (in place:
// send == recv, allgather's send == recv + rank * bytes); counts in
// elements (reductions) or bytes (the kinds that only move data).
void allreduce(Comm& comm, const void* send, void* recv, std::size_t count, Element, Reduction);
void reduceScatterBlock(Comm& comm, const void* send, void* recv, std::size_t count, Element,
                        Reduction);
void inclusiveScan(Comm& comm, const void* send, void* recv, std::size_t count, Element,
                   Reduction);
void exclusiveScan(Comm& comm, const void* send, void* recv, std::size_t count, Element,
                   Reduction);
void allgather(Comm& comm, const void* send, void* recv, std::size_t bytes);
void alltoall(Comm& comm, const void* send, void* recv, std::size_t bytes);
void barrier(Comm& comm);
// The rooted calls, root in [0, P). The buffers MPI calls insignificant
// (reduce's and gather's recv, scatter's send, off the root) are null; in
// place at the root: reduce's send == recv, gather's send == recv + root *
// bytes, scatter's recv == send + root * bytes.
void broadcast(Comm& comm, void* buffer, std::size_t bytes, int root);
void reduce(Comm& comm, const void* send, void* recv, std::size_t count, Element, Reduction,
            int root);
void gather(Comm& comm, const void* send, void* recv, std::size_t bytes, int root);
void scatter(Comm& comm, const void* send, void* recv, std::size_t bytes, int root);

// The calls the library serves, for explain() and the summary.
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
const char* callName(Call call);  // "MPI_Allreduce", ...

// Which schedule the policy runs for `call` at P ranks and `bytes` per
// rank (per block for allgather, alltoall, reduce_scatter_block, gather and
// scatter), and
// why: the model's predicted time of each candidate.
std::string explain(Call call, int ranks, std::size_t bytes);

}  // namespace coll::mpi
