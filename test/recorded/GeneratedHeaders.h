//===- GeneratedHeaders.h - the examples' headers, by collective ---------===//
//
// collc-recorded-execution runs each example as its generated header does:
// the header collc compiled (test/CMakeLists.txt), called through this
// table (written by make-registry.py), with int64_t elements and Merge.
//
//===----------------------------------------------------------------------===//
#ifndef COLLC_TEST_RECORDED_GENERATEDHEADERS_H
#define COLLC_TEST_RECORDED_GENERATEDHEADERS_H

#include "coll/transport.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace collc_recorded {

/// What a run merges with: the sum, or for a noncommutative spec the
/// composition of affine maps x -> a x + b (mod 2^32; a in an element's
/// high half, b in its low half), the lower rank's map first. It is
/// associative and not commutative, so a merge out of rank order shows in
/// the values, apart from the proof of the recording.
struct Merge {
  bool affine = false;
  bool swapped = false; // --swap-merges: the higher rank's value first
  std::int64_t operator()(std::int64_t x, std::int64_t y) const {
    if (swapped)
      std::swap(x, y);
    if (!affine)
      return x + y;
    const std::uint64_t low = 0xffffffffu;
    std::uint64_t ax = std::uint64_t(x) >> 32, bx = std::uint64_t(x) & low;
    std::uint64_t ay = std::uint64_t(y) >> 32, by = std::uint64_t(y) & low;
    std::uint64_t a = (ax * ay) & low, b = (ay * bx + by) & low;
    return static_cast<std::int64_t>((a << 32) | b);
  }
  /// Rank r's element i of block b before the collective (b = 0 for the
  /// kinds of one block); as a map, an odd a and a b that is no multiple
  /// of a - 1 (maps with b / (a - 1) alike commute).
  std::int64_t input(int r, int b, std::size_t i) const {
    std::int64_t v = 1000000 * (r + 1) + 1000 * b + std::int64_t(i);
    if (!affine)
      return v;
    std::uint64_t a = (2 * std::uint64_t(v) * 2654435761u + 1) & 0xffffffffu;
    std::uint64_t c = (std::uint64_t(v) * std::uint64_t(v) + 1) & 0xffffffffu;
    return static_cast<std::int64_t>((a << 32) | c);
  }
};

/// One collective of a generated header, called as an application calls
/// it: (comm, send, recv, count[, root], op) with the arguments its kind
/// takes (broadcast: recv is the buffer; barrier: none; `root` only for a
/// `root = any` spec).
using HeaderRun = void (*)(coll::Comm &, const std::int64_t *send,
                           std::int64_t *recv, std::size_t count, int root,
                           const Merge &);

/// The generated function of the collective named `name`, or null.
HeaderRun generatedHeader(const std::string &name);

} // namespace collc_recorded

#endif // COLLC_TEST_RECORDED_GENERATEDHEADERS_H
