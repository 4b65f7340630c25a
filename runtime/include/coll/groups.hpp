#pragma once
// Abelian groups acting regularly on ranks 0..P-1. Element k moves a
// distributed vector from one placement to another; every method reduces its
// indices mod P, so callers may pass k >= P or negative k. MPI-free and
// exception-free, so the compiler's group algebra (GroupAlgebra) is these
// groups too: a group's preconditions are valid(), which the runtime's run
// functions check (coll::checkGroup) and the verifier proves of a spec.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace coll {

namespace detail {
// Mathematical mod: the result is in [0, P) even for negative k.
inline int wrap(int k, int P) {
  const int m = k % P;
  return m < 0 ? m + P : m;
}

// Element offset of chunk j when `count` elements are cut into P chunks, the
// first count % P one element longer.
inline std::size_t chunkOffset(std::size_t count, int P, int j) {
  const std::size_t p = static_cast<std::size_t>(P), q = count / p, r = count % p;
  const std::size_t jj = static_cast<std::size_t>(j);
  return jj * q + std::min(jj, r);
}

}  // namespace detail

// Z_P acting by rotation: t_k(x) = x + k.
class CyclicGroup {
 public:
  explicit CyclicGroup(int P) : P_(P) {}
  // Whether the group is well formed (P >= 1); the run functions check.
  bool valid() const { return P_ >= 1; }
  int size() const { return P_; }
  int act(int k, int x) const { return detail::wrap(x + detail::wrap(k, P_), P_); }
  int inverse(int k, int x) const { return detail::wrap(x - detail::wrap(k, P_), P_); }
  int position(int part) const { return detail::wrap(part, P_); }
  int compose(int a, int b) const { return detail::wrap(detail::wrap(a, P_) + detail::wrap(b, P_), P_); }
  // The index of t_to t_from^-1 (what moves placement `from` onto `to`).
  int quotient(int to, int from) const { return detail::wrap(detail::wrap(to, P_) - detail::wrap(from, P_), P_); }
  std::uint64_t planKey() const { return 0; }  // its part of a plan's cache key

 private:
  int P_;
};

// (Z_2)^bits acting by xor with the bit-reversed index. The reversal makes
// recursive halving exchange with xor 1 first and keeps every message one
// contiguous memory range (position() applies the same reversal).
class XorGroup {
 public:
  explicit XorGroup(int P) : P_(P), bits_(0) {
    while (P_ >= 1 && (1 << bits_) < P_) ++bits_;
  }
  // Whether the group is well formed (P a power of two); the run
  // functions check.
  bool valid() const { return P_ >= 1 && (P_ & (P_ - 1)) == 0; }
  int size() const { return P_; }
  int act(int k, int x) const { return detail::wrap(x, P_) ^ reverse(detail::wrap(k, P_)); }
  int inverse(int k, int x) const { return act(k, x); }  // every element is its own inverse
  int position(int part) const { return reverse(detail::wrap(part, P_)); }
  int compose(int a, int b) const { return detail::wrap(a, P_) ^ detail::wrap(b, P_); }
  int quotient(int to, int from) const { return compose(to, from); }  // self-inverse
  std::uint64_t planKey() const { return 1; }  // its part of a plan's cache key

 private:
  int reverse(int k) const {
    int r = 0;
    for (int b = 0; b < bits_; ++b) r |= ((k >> b) & 1) << (bits_ - 1 - b);
    return r;
  }
  int P_;
  int bits_;
};

// A group given by its element table, as collc emits it for `group
// generated { ... }` and products such as `cyclic(3) * cyclic(4)`: row k
// holds the images t_k(0), ..., t_k(P-1), in the enumeration the schedule
// was proven with. The table must outlive the group.
class TableGroup {
 public:
  TableGroup(int P, const int* elements) : P_(P), elements_(elements) {
    if (!valid()) return;
    inverse_.resize(static_cast<std::size_t>(P) * static_cast<std::size_t>(P));
    sending0To_.resize(static_cast<std::size_t>(P));
    key_ = 14695981039346656037u;  // FNV-1a over the table
    for (int k = 0; k < P; ++k) {
      for (int x = 0; x < P; ++x) {
        inverse_[index(k, elements_[index(k, x)])] = x;
        key_ = (key_ ^ static_cast<std::uint32_t>(elements_[index(k, x)])) * 1099511628211u;
      }
      sending0To_[static_cast<std::size_t>(elements_[index(k, 0)])] = k;
    }
  }
  // Whether the group is well formed (P >= 1 and a table); the run
  // functions check.
  bool valid() const { return P_ >= 1 && elements_ != nullptr; }
  int size() const { return P_; }
  int act(int k, int x) const { return elements_[index(detail::wrap(k, P_), detail::wrap(x, P_))]; }
  int inverse(int k, int x) const { return inverse_[index(detail::wrap(k, P_), detail::wrap(x, P_))]; }
  int position(int part) const { return detail::wrap(part, P_); }
  // The action is regular: t_a t_b is the element that sends 0 where it does.
  int compose(int a, int b) const { return sending0To_[static_cast<std::size_t>(act(a, act(b, 0)))]; }
  int quotient(int to, int from) const {
    return sending0To_[static_cast<std::size_t>(act(to, inverse(from, 0)))];
  }
  // Its part of a plan's cache key: a 64-bit hash of the table, so equal
  // tables share a plan wherever they live, and a table freed and another
  // made at its address cannot reuse a plan that is not its own.
  std::uint64_t planKey() const { return key_; }

 private:
  std::size_t index(int k, int x) const {
    return static_cast<std::size_t>(k) * static_cast<std::size_t>(P_) + static_cast<std::size_t>(x);
  }
  int P_;
  const int* elements_;
  std::vector<int> inverse_, sending0To_;
  std::uint64_t key_ = 0;
};

}  // namespace coll
