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

template <class T, class F>
void withIntegerReduction(Reduction reduction, F&& f) {
  using U = std::make_unsigned_t<T>;
  switch (reduction) {
    case Reduction::sum: return f(static_cast<U*>(nullptr), Sum{});
    case Reduction::prod: return f(static_cast<U*>(nullptr), Prod{});
    case Reduction::min: return f(static_cast<T*>(nullptr), Min{});
    case Reduction::max: return f(static_cast<T*>(nullptr), Max{});
    case Reduction::land: return f(static_cast<U*>(nullptr), LogicalAnd{});
    case Reduction::lor: return f(static_cast<U*>(nullptr), LogicalOr{});
    case Reduction::lxor: return f(static_cast<U*>(nullptr), LogicalXor{});
    case Reduction::band: return f(static_cast<U*>(nullptr), BitAnd{});
    case Reduction::bor: return f(static_cast<U*>(nullptr), BitOr{});
    case Reduction::bxor: return f(static_cast<U*>(nullptr), BitXor{});
  }
  throw Error("collc_mpi: an unknown operator");
}

template <class T, class F>
void withFloatingReduction(Reduction reduction, F&& f) {
  switch (reduction) {
    case Reduction::sum: return f(static_cast<T*>(nullptr), Sum{});
    case Reduction::prod: return f(static_cast<T*>(nullptr), Prod{});
    case Reduction::min: return f(static_cast<T*>(nullptr), Min{});
    case Reduction::max: return f(static_cast<T*>(nullptr), Max{});
    default: break;
  }
  throw Error("collc_mpi: a logical or bitwise operator on a floating-point type");
}

// Calls f(static_cast<T*>(nullptr), op) with the pair that computes
// `reduction` on `element`.
template <class F>
void withReduction(Element element, Reduction reduction, F&& f) {
  switch (element) {
    case Element::i8: return withIntegerReduction<std::int8_t>(reduction, f);
    case Element::u8: return withIntegerReduction<std::uint8_t>(reduction, f);
    case Element::i16: return withIntegerReduction<std::int16_t>(reduction, f);
    case Element::u16: return withIntegerReduction<std::uint16_t>(reduction, f);
    case Element::i32: return withIntegerReduction<std::int32_t>(reduction, f);
    case Element::u32: return withIntegerReduction<std::uint32_t>(reduction, f);
    case Element::i64: return withIntegerReduction<std::int64_t>(reduction, f);
    case Element::u64: return withIntegerReduction<std::uint64_t>(reduction, f);
    case Element::f32: return withFloatingReduction<float>(reduction, f);
    case Element::f64: return withFloatingReduction<double>(reduction, f);
    case Element::f80: return withFloatingReduction<long double>(reduction, f);
  }
  throw Error("collc_mpi: an unknown element type");
}

}  // namespace coll::mpi
