#pragma once
// Abelian groups acting regularly on ranks 0..P-1. Element k moves a
// distributed vector from one placement to another; every method reduces its
// indices mod P, so callers may pass k >= P or negative k.

#include <string>

#include "coll/transport.hpp"  // coll::Error

namespace coll {

namespace detail {
// Mathematical mod: the result is in [0, P) even for negative k.
inline int wrap(int k, int P) {
  const int m = k % P;
  return m < 0 ? m + P : m;
}
}  // namespace detail

// Z_P acting by rotation: t_k(x) = x + k.
class CyclicGroup {
 public:
  explicit CyclicGroup(int P) : P_(P) {
    if (P < 1) throw Error("coll::CyclicGroup: size must be >= 1, got " + std::to_string(P));
  }
  int size() const { return P_; }
  int act(int k, int x) const { return detail::wrap(x + detail::wrap(k, P_), P_); }
  int inverse(int k, int x) const { return detail::wrap(x - detail::wrap(k, P_), P_); }
  int position(int part) const { return detail::wrap(part, P_); }

 private:
  int P_;
};

// (Z_2)^bits acting by xor with the bit-reversed index. The reversal makes
// recursive halving exchange with xor 1 first and keeps every message one
// contiguous memory range (position() applies the same reversal).
class XorGroup {
 public:
  explicit XorGroup(int P) : P_(P), bits_(0) {
    if (P < 1 || (P & (P - 1)) != 0)
      throw Error("coll::XorGroup: size must be a power of two, got " + std::to_string(P));
    while ((1 << bits_) < P) ++bits_;
  }
  int size() const { return P_; }
  int act(int k, int x) const { return detail::wrap(x, P_) ^ reverse(detail::wrap(k, P_)); }
  int inverse(int k, int x) const { return act(k, x); }  // every element is its own inverse
  int position(int part) const { return reverse(detail::wrap(part, P_)); }

 private:
  int reverse(int k) const {
    int r = 0;
    for (int b = 0; b < bits_; ++b) r |= ((k >> b) & 1) << (bits_ - 1 - b);
    return r;
  }
  int P_;
  int bits_;
};

}  // namespace coll
