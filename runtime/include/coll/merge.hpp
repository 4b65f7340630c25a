#pragma once
// The one merge of the runtime: the value from the lower rank goes first,
// so merges of adjacent rank runs fold a non-commutative operator in rank
// order (what the verifier's operator-legality proof checks).

#include <cstddef>
#include <type_traits>

namespace coll {

// A merge of `elements` elements charged as simulated time: under SimGrid's
// SMPI (COLLC_SMPI, runtime/lib/SimulatedCost.cpp) the computation between
// MPI calls is not timed, and every merge -- collc's here, the hand-written
// baselines' and, through collc-bench's operator, SMPI's own collectives'
// -- pays the same per element (docs/scale.md). Elsewhere nothing.
#if COLLC_SMPI
void chargeSimulatedMerge(std::size_t elements);
#else
inline void chargeSimulatedMerge(std::size_t) {}
#endif

// Merges `in`, which came from rank `from`, into acc on rank `rank`. The
// buffers never overlap (in is a staging buffer), which __restrict tells
// the compiler so that the loops vectorise without a runtime alias check.
template <class T, class Op>
void mergeFrom(int from, int rank, const T* __restrict in, T* __restrict acc, std::size_t n, Op op) {
  chargeSimulatedMerge(n);
  if (from < rank)
    for (std::size_t i = 0; i < n; ++i) acc[i] = op(in[i], acc[i]);
  else
    for (std::size_t i = 0; i < n; ++i) acc[i] = op(acc[i], in[i]);
}

// The same merge with this rank's value read from `mine` (where it starts,
// e.g. the send buffer) and the result written to `out`: one pass instead
// of a copy and a merge.
template <class T, class Op>
void mergeInto(int from, int rank, const T* __restrict in, const T* __restrict mine, T* __restrict out,
               std::size_t n, Op op) {
  chargeSimulatedMerge(n);
  if (from < rank)
    for (std::size_t i = 0; i < n; ++i) out[i] = op(in[i], mine[i]);
  else
    for (std::size_t i = 0; i < n; ++i) out[i] = op(mine[i], in[i]);
}

// The operator of the kinds that only move data (broadcast, gather,
// allgather, alltoall, barrier): no merge ever calls it.
struct NoMerge {
  template <class T>
  T operator()(const T& a, const T&) const {
    return a;
  }
};

// Reduction operators. Generated code takes any callable; these are the
// named ones matching MPI_SUM, MPI_PROD, MPI_MIN and MPI_MAX.
// The casts undo integer promotion for narrow types like int8_t.
struct Sum {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a + b); }
};
struct Prod {
  template <class T>
  T operator()(const T& a, const T& b) const {
    // Narrow types promote to int, where 65535 * 65535 overflows: multiply
    // them as unsigned (the same low bits).
    if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(int))
      return static_cast<T>(static_cast<unsigned>(a) * static_cast<unsigned>(b));
    else
      return static_cast<T>(a * b);
  }
};
struct Min {
  template <class T>
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
struct Max {
  template <class T>
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

// The logical and bitwise operators matching MPI_LAND, MPI_LOR, MPI_LXOR,
// MPI_BAND, MPI_BOR and MPI_BXOR (integer types; a logical result is 0 or
// 1, as MPI's).
struct LogicalAnd {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a != 0 && b != 0); }
};
struct LogicalOr {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a != 0 || b != 0); }
};
struct LogicalXor {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>((a != 0) != (b != 0)); }
};
struct BitAnd {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a & b); }
};
struct BitOr {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a | b); }
};
struct BitXor {
  template <class T>
  T operator()(const T& a, const T& b) const { return static_cast<T>(a ^ b); }
};

// The caller's operator of a `custom noncommutative` collective: the
// generated code passes it so (no cost: the call is inlined), so that a
// recording of the run says its merges must fold in rank order.
template <class Op>
struct InRankOrder {
  Op op;
  template <class T>
  T operator()(const T& a, const T& b) const { return op(a, b); }
};
template <class Op>
InRankOrder<Op> inRankOrder(Op op) { return InRankOrder<Op>{op}; }

// The operator as a recording names it (its coll.program's `op`): the
// named operators by name, NoMerge as sum (it merges nothing), any other
// callable as the caller's (custom), noncommutative when InRankOrder.
enum class RecordedOp { sum, prod, min, max, custom, customInRankOrder };
template <class Op> struct RecordedOpOf { static constexpr RecordedOp value = RecordedOp::custom; };
template <> struct RecordedOpOf<Sum> { static constexpr RecordedOp value = RecordedOp::sum; };
template <> struct RecordedOpOf<NoMerge> { static constexpr RecordedOp value = RecordedOp::sum; };
template <> struct RecordedOpOf<Prod> { static constexpr RecordedOp value = RecordedOp::prod; };
template <> struct RecordedOpOf<Min> { static constexpr RecordedOp value = RecordedOp::min; };
template <> struct RecordedOpOf<Max> { static constexpr RecordedOp value = RecordedOp::max; };
template <class Op>
struct RecordedOpOf<InRankOrder<Op>> { static constexpr RecordedOp value = RecordedOp::customInRankOrder; };

}  // namespace coll
