#pragma once
// `segments = S`: how a buffer of `count` elements is cut into S
// consecutive segments, the first count % S one element longer (empty ones
// when count < S). Shared by coll::runPipelined and coll::runTreePipelined.
// Plain C++17: no MPI, no exceptions.

#include <algorithm>
#include <cstddef>

namespace coll {

struct SegmentSplit {
  std::size_t count, segments;
  std::size_t offset(std::size_t j) const {
    return j * (count / segments) + std::min(j, count % segments);
  }
  std::size_t length(std::size_t j) const {
    return count / segments + (j < count % segments ? 1 : 0);
  }
  std::size_t longest() const { return length(0); }
};

}  // namespace coll
