//===- Topology.cpp - machines as graphs of links -------------------------===//
#include "coll/Passes/Topology.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

using namespace coll;

#ifdef BOOST_NO_EXCEPTIONS
// Built without exceptions, as LLVM's code is, Boost leaves these to the
// program; its graph code reaches them only when memory runs out (an
// optimized build drops the calls, an -O1 sanitizer build keeps them).
void boost::throw_exception(const std::exception &e) {
  llvm::report_fatal_error(llvm::Twine("Boost.Graph: ") + e.what());
}
void boost::throw_exception(const std::exception &e, const boost::source_location &) {
  boost::throw_exception(e);
}
#endif

namespace {
using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                          boost::no_property,
                          boost::property<boost::edge_index_t, int64_t>>;

/// Records, per node reached, the link it was reached by: a BFS tree, so
/// every path in it has the fewest hops.
struct TreeRecorder : boost::default_bfs_visitor {
  std::vector<int64_t> *predecessor;
  void tree_edge(Graph::edge_descriptor e, const Graph &g) const {
    (*predecessor)[boost::target(e, g)] = boost::get(boost::edge_index, g, e);
  }
};
} // namespace

Topology::Topology(int64_t nodes, std::vector<Link> links,
                   std::vector<int64_t> placement)
    : nodes(nodes), links(std::move(links)), placement(std::move(placement)) {
  Graph graph(static_cast<size_t>(nodes));
  for (size_t i = 0; i < this->links.size(); ++i)
    boost::add_edge(static_cast<size_t>(this->links[i].from),
                    static_cast<size_t>(this->links[i].to),
                    static_cast<int64_t>(i), graph);
  // Routes start only where ranks are: one breadth-first search per such
  // node, not per switch.
  rowOf.assign(static_cast<size_t>(nodes), -1);
  int32_t rows = 0;
  for (int64_t node : this->placement)
    if (rowOf[static_cast<size_t>(node)] < 0)
      rowOf[static_cast<size_t>(node)] = rows++;
  lastHop.assign(static_cast<size_t>(rows) * static_cast<size_t>(nodes), -1);
  std::vector<int64_t> predecessor(static_cast<size_t>(nodes));
  for (int64_t s = 0; s < nodes; ++s) {
    const int32_t row = rowOf[static_cast<size_t>(s)];
    if (row < 0)
      continue;
    std::fill(predecessor.begin(), predecessor.end(), -1);
    TreeRecorder recorder;
    recorder.predecessor = &predecessor;
    boost::breadth_first_search(graph, static_cast<size_t>(s),
                                boost::visitor(recorder));
    std::copy(predecessor.begin(), predecessor.end(),
              lastHop.begin() + static_cast<size_t>(row) * static_cast<size_t>(nodes));
  }
}

Topology::~Topology() = default;
Topology::Topology(Topology &&) noexcept = default;
Topology &Topology::operator=(Topology &&) noexcept = default;

std::optional<std::vector<int64_t>> Topology::route(int64_t from,
                                                    int64_t to) const {
  int64_t s = placement[from], t = placement[to];
  const size_t row = static_cast<size_t>(rowOf[static_cast<size_t>(s)]);
  std::vector<int64_t> path;
  for (int64_t v = t; v != s;) {
    int64_t link = lastHop[row * static_cast<size_t>(nodes) + static_cast<size_t>(v)];
    if (link < 0)
      return std::nullopt;
    path.push_back(link);
    v = links[link].from;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

/// Both directions of a link.
static void duplex(std::vector<Link> &links, int64_t a, int64_t b,
                   double latency, double bandwidth) {
  links.push_back({a, b, latency, bandwidth});
  links.push_back({b, a, latency, bandwidth});
}

/// "name" or "name(a, b, ...)" with integer or real arguments.
static bool splitCall(llvm::StringRef spec, llvm::StringRef &name,
                      llvm::SmallVectorImpl<double> &args) {
  spec = spec.trim();
  auto [head, rest] = spec.split('(');
  name = head.trim();
  if (rest.empty())
    return !spec.contains('(');
  if (!rest.consume_back(")"))
    return false;
  llvm::SmallVector<llvm::StringRef> parts;
  rest.split(parts, ',');
  for (llvm::StringRef part : parts) {
    double value;
    if (part.trim().getAsDouble(value))
      return false;
    args.push_back(value);
  }
  return true;
}

std::optional<Topology> Topology::builtin(llvm::StringRef spec, int64_t P,
                                          double latency, double bandwidth,
                                          std::string &error) {
  // full's links grow as P^2, the others' as P; every one has P nodes or
  // a few more (fat_tree, hierarchy: a switch per group and one on top).
  const int64_t most = spec.starts_with("full") ? int64_t(2048) : kMaxNodes / 2;
  if (P < 1 || P > most) {
    error = "topology " + spec.str() + " is built for 1 to " +
            std::to_string(most) + " ranks, not P = " + std::to_string(P);
    return std::nullopt;
  }
  llvm::StringRef name;
  llvm::SmallVector<double> args;
  if (!splitCall(spec, name, args)) {
    error = "cannot read topology '" + spec.str() +
            "'; expected full, ring, torus(a, b), fat_tree(k) or "
            "hierarchy(n, inter_bandwidth)";
    return std::nullopt;
  }
  auto wantArgs = [&](size_t n) {
    if (args.size() == n)
      return true;
    error = "topology " + name.str() + " takes " + std::to_string(n) +
            " arguments, got " + std::to_string(args.size());
    return false;
  };
  std::vector<Link> links;
  std::vector<int64_t> placement(static_cast<size_t>(P));
  for (int64_t r = 0; r < P; ++r)
    placement[r] = r;
  if (name == "full") {
    if (!wantArgs(0))
      return std::nullopt;
    for (int64_t a = 0; a < P; ++a)
      for (int64_t b = a + 1; b < P; ++b)
        duplex(links, a, b, latency, bandwidth);
    return Topology(P, std::move(links), std::move(placement));
  }
  if (name == "ring") {
    if (!wantArgs(0))
      return std::nullopt;
    for (int64_t a = 0; a + 1 < P; ++a)
      duplex(links, a, a + 1, latency, bandwidth);
    if (P > 2)
      duplex(links, P - 1, 0, latency, bandwidth);
    return Topology(P, std::move(links), std::move(placement));
  }
  if (name == "torus") {
    if (!wantArgs(2))
      return std::nullopt;
    int64_t a = static_cast<int64_t>(args[0]), b = static_cast<int64_t>(args[1]);
    if (a < 1 || b < 1 || a * b != P) {
      error = "torus(" + std::to_string(a) + ", " + std::to_string(b) +
              ") has " + std::to_string(a * b) + " nodes, not P = " +
              std::to_string(P);
      return std::nullopt;
    }
    for (int64_t i = 0; i < a; ++i)
      for (int64_t j = 0; j < b; ++j) {
        int64_t x = i * b + j;
        if (b > 1 && (j + 1 < b || b > 2))
          duplex(links, x, i * b + (j + 1) % b, latency, bandwidth);
        if (a > 1 && (i + 1 < a || a > 2))
          duplex(links, x, ((i + 1) % a) * b + j, latency, bandwidth);
      }
    return Topology(P, std::move(links), std::move(placement));
  }
  if (name == "fat_tree" || name == "hierarchy") {
    if (!wantArgs(name == "fat_tree" ? 1 : 2))
      return std::nullopt;
    int64_t k = static_cast<int64_t>(args[0]);
    if (k < 1 || P % k != 0) {
      error = name.str() + " needs a group size that divides P = " +
              std::to_string(P) + ", got " + std::to_string(k);
      return std::nullopt;
    }
    // Ranks 0..P-1, then one switch per group, then the top switch.
    int64_t groups = P / k, top = P + groups;
    double upper = name == "fat_tree" ? bandwidth * static_cast<double>(k)
                                      : args[1];
    if (upper <= 0) {
      error = "hierarchy needs a positive inter-node bandwidth";
      return std::nullopt;
    }
    for (int64_t r = 0; r < P; ++r)
      duplex(links, r, P + r / k, latency, bandwidth);
    for (int64_t g = 0; g < groups; ++g)
      duplex(links, P + g, top, latency, upper);
    return Topology(top + 1, std::move(links), std::move(placement));
  }
  error = "unknown topology '" + name.str() +
          "'; expected full, ring, torus(a, b), fat_tree(k) or "
          "hierarchy(n, inter_bandwidth)";
  return std::nullopt;
}

std::optional<Topology> Topology::parse(llvm::StringRef text,
                                        std::string &error) {
  int64_t nodes = -1;
  std::vector<Link> links;
  std::vector<int64_t> placement;
  int lineNo = 0, nodesLine = 0;
  for (llvm::StringRef rest = text; !rest.empty();) {
    // Not a structured binding: `fail` captures `line`, which clang
    // before 16 does not allow of a binding.
    std::pair<llvm::StringRef, llvm::StringRef> split = rest.split('\n');
    llvm::StringRef line = split.first;
    rest = split.second;
    ++lineNo;
    llvm::SmallVector<llvm::StringRef> words;
    line.split('#').first.split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.empty())
      continue;
    auto fail = [&](llvm::StringRef at, const std::string &message) {
      error = std::to_string(lineNo) + ":" +
              std::to_string(at.data() - line.data() + 1) + ": " + message;
      return std::nullopt;
    };
    auto node = [&](llvm::StringRef word, int64_t &value) {
      return !word.getAsInteger(10, value) && value >= 0 && value < nodes;
    };
    if (words[0] == "nodes") {
      // Once: links and places already read name nodes of the first count.
      if (nodes >= 0)
        return fail(words[0], "'nodes' is given twice (first on line " +
                                  std::to_string(nodesLine) + ")");
      nodesLine = lineNo;
      if (words.size() != 2 || words[1].getAsInteger(10, nodes) || nodes < 1)
        return fail(words[0], "expected 'nodes N' with N >= 1");
      if (nodes > kMaxNodes)
        return fail(words[1], "at most " + std::to_string(kMaxNodes) +
                                  " nodes, got " + std::to_string(nodes));
      continue;
    }
    if (nodes < 0)
      return fail(words[0], "the first statement must be 'nodes N'");
    if (words[0] == "link") {
      Link link{0, 0, 0, 0};
      if (words.size() < 5)
        return fail(words[0], "expected 'link A B latency=US bandwidth=GBPS "
                              "[duplex]'");
      if (!node(words[1], link.from))
        return fail(words[1], "'" + words[1].str() + "' is not a node in [0, " +
                                  std::to_string(nodes) + ")");
      if (!node(words[2], link.to))
        return fail(words[2], "'" + words[2].str() + "' is not a node in [0, " +
                                  std::to_string(nodes) + ")");
      bool both = false, haveLatency = false, haveBandwidth = false;
      for (size_t i = 3; i < words.size(); ++i) {
        auto [key, value] = words[i].split('=');
        double number;
        if (key == "duplex" && value.empty()) {
          both = true;
        } else if ((key == "latency" || key == "bandwidth") &&
                   !value.getAsDouble(number) && number >= 0) {
          if (key == "bandwidth" && number == 0)
            return fail(words[i], "bandwidth must be positive");
          (key == "latency" ? link.latency : link.bandwidth) = number;
          (key == "latency" ? haveLatency : haveBandwidth) = true;
        } else {
          return fail(words[i], "expected latency=US, bandwidth=GBPS or "
                                "duplex, got '" + words[i].str() + "'");
        }
      }
      if (!haveLatency || !haveBandwidth)
        return fail(words[0], "a link needs latency= and bandwidth=");
      if (both)
        duplex(links, link.from, link.to, link.latency, link.bandwidth);
      else
        links.push_back(link);
      continue;
    }
    if (words[0] == "place") {
      // place all N0 N1 ...: rank r on node N_r.
      if (words.size() < 3 || words[1] != "all")
        return fail(words[0], "expected 'place all NODE NODE ...' (one node "
                              "per rank)");
      placement.clear();
      for (size_t i = 2; i < words.size(); ++i) {
        int64_t value;
        if (!node(words[i], value))
          return fail(words[i], "'" + words[i].str() +
                                    "' is not a node in [0, " +
                                    std::to_string(nodes) + ")");
        placement.push_back(value);
      }
      continue;
    }
    return fail(words[0], "unknown statement '" + words[0].str() +
                              "'; expected nodes, link or place");
  }
  if (nodes < 0) {
    error = "1:1: a topology needs 'nodes N'";
    return std::nullopt;
  }
  if (placement.empty())
    for (int64_t r = 0; r < nodes; ++r)
      placement.push_back(r);
  return Topology(nodes, std::move(links), std::move(placement));
}
