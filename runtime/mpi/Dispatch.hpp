#pragma once
// From an element type and an operator named by value to the C++ type and
// operator the policy's schedules are instantiated with (Serve*.cpp).
//
// Sums, products, and the logical and bitwise operators of a signed type
// run on the unsigned type of its width: the same bits in two's
// complement, and wrap-around instead of signed overflow; min and max keep
// the signedness. That halves what is instantiated.

#include <cstdint>

#include "Serve.hpp"
#include "coll/error.hpp"
#include "coll/merge.hpp"

namespace coll::mpi {

// f(send, recv, op) with the buffers as the element type's pointers.
template <class T, class Op, class F>
void typed(const void* send, void* recv, Op op, F& f) {
  f(static_cast<const T*>(send), static_cast<T*>(recv), op);
}

template <class T, class F>
void withIntegerReduction(Reduction reduction, const void* send, void* recv, F& f) {
  using U = std::make_unsigned_t<T>;
  switch (reduction) {
    case Reduction::sum: return typed<U>(send, recv, Sum{}, f);
    case Reduction::prod: return typed<U>(send, recv, Prod{}, f);
    case Reduction::min: return typed<T>(send, recv, Min{}, f);
    case Reduction::max: return typed<T>(send, recv, Max{}, f);
    case Reduction::land: return typed<U>(send, recv, LogicalAnd{}, f);
    case Reduction::lor: return typed<U>(send, recv, LogicalOr{}, f);
    case Reduction::lxor: return typed<U>(send, recv, LogicalXor{}, f);
    case Reduction::band: return typed<U>(send, recv, BitAnd{}, f);
    case Reduction::bor: return typed<U>(send, recv, BitOr{}, f);
    case Reduction::bxor: return typed<U>(send, recv, BitXor{}, f);
  }
  throw Error("collc_mpi: an unknown operator");
}

template <class T, class F>
void withFloatingReduction(Reduction reduction, const void* send, void* recv, F& f) {
  switch (reduction) {
    case Reduction::sum: return typed<T>(send, recv, Sum{}, f);
    case Reduction::prod: return typed<T>(send, recv, Prod{}, f);
    case Reduction::min: return typed<T>(send, recv, Min{}, f);
    case Reduction::max: return typed<T>(send, recv, Max{}, f);
    default: break;
  }
  throw Error("collc_mpi: a logical or bitwise operator on a floating-point type");
}

// Calls f(static_cast<const T*>(send), static_cast<T*>(recv), op) with
// the pair (T, op) that computes `reduction` on `element`.
template <class F>
void withReduction(Element element, Reduction reduction, const void* send, void* recv, F&& f) {
  switch (element) {
    case Element::i8: return withIntegerReduction<std::int8_t>(reduction, send, recv, f);
    case Element::u8: return withIntegerReduction<std::uint8_t>(reduction, send, recv, f);
    case Element::i16: return withIntegerReduction<std::int16_t>(reduction, send, recv, f);
    case Element::u16: return withIntegerReduction<std::uint16_t>(reduction, send, recv, f);
    case Element::i32: return withIntegerReduction<std::int32_t>(reduction, send, recv, f);
    case Element::u32: return withIntegerReduction<std::uint32_t>(reduction, send, recv, f);
    case Element::i64: return withIntegerReduction<std::int64_t>(reduction, send, recv, f);
    case Element::u64: return withIntegerReduction<std::uint64_t>(reduction, send, recv, f);
    case Element::f32: return withFloatingReduction<float>(reduction, send, recv, f);
    case Element::f64: return withFloatingReduction<double>(reduction, send, recv, f);
    case Element::f80: return withFloatingReduction<long double>(reduction, send, recv, f);
  }
  throw Error("collc_mpi: an unknown element type");
}

}  // namespace coll::mpi
