//===- Topology.h - machines as graphs of links -----------------*- C++ -*-===//
//
// The topology model of design.md 5 (issue 5): nodes joined by directed
// links with a latency (us) and a bandwidth (GB/s), ranks placed on nodes.
// Messages follow shortest paths (fewest hops; among those, the first a
// breadth-first search over links in the order they were added finds), and
// a step costs its startup, the latency of its longest path and the load
// of its most loaded link. Boost.Graph holds and searches the graph; its
// headers stay in Topology.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_TOPOLOGY_H
#define COLL_PASSES_TOPOLOGY_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coll {

struct Link {
  int64_t from, to;
  double latency;   // microseconds
  double bandwidth; // GB/s (1e3 bytes per microsecond)
};

class Topology {
public:
  /// `nodes` nodes, `links` (each direction its own link), rank r on node
  /// placement[r].
  Topology(int64_t nodes, std::vector<Link> links,
           std::vector<int64_t> placement);
  ~Topology();
  Topology(Topology &&) noexcept;
  Topology &operator=(Topology &&) noexcept;

  /// A built-in for P ranks, every link `latency` us and `bandwidth` GB/s:
  /// full, ring, torus(a, b), fat_tree(k) (k ranks per leaf switch, leaves
  /// under one spine with k times the bandwidth), hierarchy(n, bw_inter)
  /// (n ranks per node switch at `bandwidth`, node switches under one top
  /// switch at bw_inter GB/s). nullopt and `error` on bad text.
  static std::optional<Topology> builtin(llvm::StringRef spec, int64_t P,
                                         double latency, double bandwidth,
                                         std::string &error);
  /// The text format (docs/cost-model.md): `nodes N`, `link A B latency=L
  /// bandwidth=W [duplex]`, `place R NODE` or `place all A B ...`. Errors
  /// are "LINE:COL: message".
  static std::optional<Topology> parse(llvm::StringRef text, std::string &error);

  int64_t numNodes() const { return nodes; }
  int64_t numRanks() const { return static_cast<int64_t>(placement.size()); }
  const std::vector<Link> &getLinks() const { return links; }
  int64_t nodeOf(int64_t rank) const { return placement[rank]; }

  /// The links (indices) of the path from rank `from`'s node to rank `to`'s.
  /// Empty when both share a node. nullopt when no path exists.
  std::optional<std::vector<int64_t>> route(int64_t from, int64_t to) const;

  /// The most nodes a topology has (ranks' nodes and switches): its route
  /// table holds a row of int32 per node that holds ranks, so at most
  /// 256 MiB; it fits P = 4096 on a fat-tree or dragonfly with its switches.
  static constexpr int64_t kMaxNodes = 8192;

private:
  int64_t nodes;
  std::vector<Link> links;
  std::vector<int64_t> placement;
  // Per node holding ranks (its row, rowOf[node]; -1 for the others): the
  // link that reaches each node t on its breadth-first tree, or -1.
  std::vector<int32_t> rowOf;
  std::vector<int32_t> lastHop;
};

} // namespace coll

#endif
