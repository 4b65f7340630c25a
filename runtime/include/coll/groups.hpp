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
#include <memory>
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

// Where a move of the vector at placement `from` onto placement `to` takes
// rank x's part: to rank t_to t_from^-1(x) (design.md 3.1). Every group
// family's peers are this (coll::vectorStep, which the plans and the
// compiler's reading of a step's moves share).
template <class Group>
int movePeer(const Group& group, int from, int to, int x) {
  return static_cast<int>(group.act(to, group.inverse(from, x)));
}

// The element table of the abelian group that `generators` (count rows of P
// images each) generate, acting regularly on 0..P-1: row i holds the images
// of the element that sends rank 0 to order[i] (order == nullptr: to i).
// Regular means an element is known by where it sends rank 0, so the closure
// walks at most P elements: O(count P^2). Empty if the generators reach
// fewer than P elements, two of them send 0 to the same rank, or `order` is
// not a permutation of 0..P-1. The compiler builds its tables here too, so
// the table a schedule is proven with and the one a header runs on are one.
inline std::vector<int> generatedTable(int P, const int* generators, int count,
                                       const int* order) {
  if (P < 1 || count < 0 || (count > 0 && generators == nullptr)) return {};
  const std::size_t p = static_cast<std::size_t>(P);
  for (std::size_t i = 0; i < static_cast<std::size_t>(count) * p; ++i)
    if (generators[i] < 0 || generators[i] >= P) return {};
  std::vector<int> byImage(p * p, -1);  // row k: the element sending 0 to k
  for (int x = 0; x < P; ++x) byImage[static_cast<std::size_t>(x)] = x;
  std::vector<int> reached{0};
  for (std::size_t next = 0; next < reached.size(); ++next) {
    const int* e = &byImage[static_cast<std::size_t>(reached[next]) * p];
    for (int g = 0; g < count; ++g) {
      const int* gen = generators + static_cast<std::size_t>(g) * p;
      int* row = &byImage[static_cast<std::size_t>(gen[e[0]]) * p];
      const bool known = row[0] != -1;
      for (std::size_t x = 0; x < p; ++x) {  // gen after e
        if (known && row[x] != gen[e[x]]) return {};
        row[x] = gen[e[x]];
      }
      if (!known) reached.push_back(row[0]);
    }
  }
  if (reached.size() != p) return {};
  if (order == nullptr) return byImage;
  std::vector<int> table(p * p);
  std::vector<bool> listed(p, false);
  for (std::size_t i = 0; i < p; ++i) {
    if (order[i] < 0 || order[i] >= P || listed[static_cast<std::size_t>(order[i])]) return {};
    listed[static_cast<std::size_t>(order[i])] = true;
    std::copy_n(&byImage[static_cast<std::size_t>(order[i]) * p], p, &table[i * p]);
  }
  return table;
}

// A group given by its element table: row k holds the images t_k(0), ...,
// t_k(P-1), in the enumeration the schedule was proven with. collc's headers
// make one with generatedBy (the spec's generators and that enumeration),
// so a header holds O(generators P) numbers, not the P^2 of the table.
// Copies share the table.
class TableGroup {
 public:
  // A copy of `elements` (P rows of P images); invalid if it is null or
  // holds an image outside 0..P-1.
  TableGroup(int P, const int* elements) : P_(P) {
    if (P >= 1 && elements != nullptr)
      build(P, std::vector<int>(elements, elements + static_cast<std::size_t>(P) * static_cast<std::size_t>(P)));
  }
  // The group generatedTable(P, generators, count, order) lists; invalid
  // if that is empty.
  static TableGroup generatedBy(int P, const int* generators, int count, const int* order) {
    TableGroup group;
    group.P_ = P;
    std::vector<int> elements = generatedTable(P, generators, count, order);
    if (!elements.empty()) group.build(P, std::move(elements));
    return group;
  }
  // Whether the group is well formed (a table of P >= 1 rows); the run
  // functions check.
  bool valid() const { return table_ != nullptr; }
  int size() const { return P_; }
  int act(int k, int x) const { return table_->elements[index(detail::wrap(k, P_), detail::wrap(x, P_))]; }
  int inverse(int k, int x) const { return table_->inverse[index(detail::wrap(k, P_), detail::wrap(x, P_))]; }
  int position(int part) const { return detail::wrap(part, P_); }
  // The action is regular: t_a t_b is the element that sends 0 where it does.
  int compose(int a, int b) const { return table_->sending0To[static_cast<std::size_t>(act(a, act(b, 0)))]; }
  int quotient(int to, int from) const {
    return table_->sending0To[static_cast<std::size_t>(act(to, inverse(from, 0)))];
  }
  // Its part of a plan's cache key: a 64-bit hash of the table, so equal
  // tables share a plan wherever they live, and a table freed and another
  // made at its address cannot reuse a plan that is not its own.
  std::uint64_t planKey() const { return table_ ? table_->key : 0; }
  // The table, row by row (empty if invalid).
  const std::vector<int>& elements() const {
    static const std::vector<int> none;
    return table_ ? table_->elements : none;
  }

 private:
  struct Table {
    std::vector<int> elements, inverse, sending0To;
    std::uint64_t key = 14695981039346656037u;  // FNV-1a over the elements
  };
  TableGroup() = default;
  void build(int P, std::vector<int> elements) {
    auto table = std::make_shared<Table>();
    const std::size_t p = static_cast<std::size_t>(P);
    table->inverse.resize(p * p);
    table->sending0To.resize(p);
    for (std::size_t k = 0; k < p; ++k) {
      for (std::size_t x = 0; x < p; ++x) {
        const int image = elements[k * p + x];
        if (image < 0 || image >= P) return;  // not a table: stays invalid
        table->inverse[k * p + static_cast<std::size_t>(image)] = static_cast<int>(x);
        table->key = (table->key ^ static_cast<std::uint32_t>(image)) * 1099511628211u;
      }
      table->sending0To[static_cast<std::size_t>(elements[k * p])] = static_cast<int>(k);
    }
    table->elements = std::move(elements);
    table_ = std::move(table);
  }
  std::size_t index(int k, int x) const {
    return static_cast<std::size_t>(k) * static_cast<std::size_t>(P_) + static_cast<std::size_t>(x);
  }
  int P_ = 0;
  std::shared_ptr<const Table> table_;
};

}  // namespace coll
