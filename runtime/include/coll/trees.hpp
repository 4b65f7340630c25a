#pragma once
// Reduction trees over ranks relative to a root (rel = (rank - root) mod P,
// so the root is rel 0): the naive root (flat), the binomial tree, the chain
// 0 <- 1 <- ... <- P-1 (the pipeline of `segments = S`), and the
// HPX-style hierarchical tree of seed 000 (balanced groups, leftmost member
// represents its group, one flat level below a threshold).
//
// The compiler expands exactly these functions into the step program it
// verifies, and generated code calls them at run time, so the schedule that
// is proven is the one that runs. Plain C++17: no MPI, no exceptions.
//
// A tree is a list of edges in reduction order. In step `step` the subtree
// of relative ranks [child, child + span) sends its partial result to
// `parent`. Every rank is in at most one edge per step, so a step is one
// message per rank; broadcast and scatter run the edges backwards.

#include <algorithm>
#include <vector>

#include "coll/plan.hpp"

namespace coll {

enum class TreeShape { flat, binomial, hierarchical, chain };

struct Tree {
  TreeShape shape = TreeShape::binomial;
  int arity = 2;       // hierarchical: most members of one flat level (>= 2)
  int flatBelow = 16;  // hierarchical: fewer ranks than this -> one flat level
};

struct TreeEdge {
  int step;
  int child;   // relative rank that sends (reduction direction)
  int parent;  // relative rank that receives
  int span;    // the child's subtree is relative ranks [child, child + span)
};

namespace detail {

// Ranks in [lo, lo + n) form one flat level when n fits the arity; HPX
// replaces the arity by the rank count below the threshold, at the top only.
inline int levelArity(const Tree& tree, int n, int depth) {
  return depth == 0 && n < tree.flatBelow ? n : tree.arity;
}

// Group i of `groups` balanced groups of [lo, lo + n): the first n % groups
// get one more rank.
inline int groupStart(int lo, int n, int groups, int i) {
  const int q = n / groups, r = n % groups;
  return lo + i * q + std::min(i, r);
}

// Widest level per depth of the hierarchical tree (members - 1), found from
// the distinct group sizes at each depth (at most two: balanced splits).
inline std::vector<int> levelWidths(const Tree& tree, int P) {
  std::vector<int> widths;
  std::vector<int> sizes{P};
  for (int depth = 0; !sizes.empty(); ++depth) {
    std::vector<int> next;
    int width = 0;
    for (int n : sizes) {
      if (n <= 1) continue;
      const int a = levelArity(tree, n, depth);
      if (n <= a) {
        width = std::max(width, n - 1);
        continue;
      }
      width = std::max(width, a - 1);
      next.push_back(n / a);
      if (n % a) next.push_back(n / a + 1);
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    if (width > 0) widths.push_back(width);
    sizes = next;
  }
  return widths;  // index = depth; every depth with a level has width >= 1
}

// First step of the level at `depth`: deeper levels run first.
inline int levelStart(const std::vector<int>& widths, int depth) {
  int start = 0;
  for (std::size_t d = static_cast<std::size_t>(depth) + 1; d < widths.size(); ++d)
    start += widths[d];
  return start;
}

}  // namespace detail

// Steps of one pass over the tree (reduction or broadcast).
inline int treeSteps(const Tree& tree, int P) {
  if (P <= 1) return 0;
  switch (tree.shape) {
    case TreeShape::flat:
    case TreeShape::chain:
      return P - 1;
    case TreeShape::binomial: {
      int steps = 0;
      while ((1 << steps) < P) ++steps;
      return steps;
    }
    case TreeShape::hierarchical: {
      int steps = 0;
      for (int w : detail::levelWidths(tree, P)) steps += w;
      return steps;
    }
  }
  return 0;
}

// The edges relative rank `rel` takes part in, in step order.
inline std::vector<TreeEdge> treeEdgesOf(const Tree& tree, int P, int rel) {
  std::vector<TreeEdge> edges;
  if (P <= 1 || rel < 0 || rel >= P) return edges;
  switch (tree.shape) {
    case TreeShape::flat:
      if (rel == 0)
        for (int j = 1; j < P; ++j) edges.push_back({j - 1, j, 0, 1});
      else
        edges.push_back({rel - 1, rel, 0, 1});
      return edges;
    case TreeShape::chain:
      // rel sends its subtree [rel, P) to rel - 1 once rel + 1 has sent its
      // own: the last rank first.
      if (rel + 1 < P) edges.push_back({P - 2 - rel, rel + 1, rel, P - rel - 1});
      if (rel > 0) edges.push_back({P - 1 - rel, rel, rel - 1, P - rel});
      return edges;
    case TreeShape::binomial:
      // The subtree of rel is [rel, rel + lowest set bit of rel).
      for (int k = 0; (1 << k) < P; ++k) {
        const int mask = 1 << k;
        if (rel & mask) {
          edges.push_back({k, rel, rel - mask, std::min(mask, P - rel)});
          break;
        }
        if (rel + mask < P) edges.push_back({k, rel + mask, rel, std::min(mask, P - rel - mask)});
      }
      return edges;
    case TreeShape::hierarchical: {
      const std::vector<int> widths = detail::levelWidths(tree, P);
      int lo = 0, n = P;
      for (int depth = 0; n > 1; ++depth) {
        const int a = detail::levelArity(tree, n, depth);
        const int start = detail::levelStart(widths, depth);
        const bool leaf = n <= a;
        const int members = leaf ? n : a;
        auto memberStart = [&](int i) { return leaf ? lo + i : detail::groupStart(lo, n, a, i); };
        auto memberSpan = [&](int i) { return leaf ? 1 : memberStart(i + 1) - memberStart(i); };
        if (rel == lo) {
          for (int i = 1; i < members; ++i)
            edges.push_back({start + i - 1, memberStart(i), lo, memberSpan(i)});
        } else {
          for (int i = 1; i < members; ++i)
            if (rel == memberStart(i)) edges.push_back({start + i - 1, rel, lo, memberSpan(i)});
        }
        if (leaf) break;
        int g = 0;  // the group holding rel
        while (g + 1 < a && memberStart(g + 1) <= rel) ++g;
        const int next = memberStart(g);
        n = memberSpan(g);
        lo = next;
      }
      std::sort(edges.begin(), edges.end(),
                [](const TreeEdge& x, const TreeEdge& y) { return x.step < y.step; });
      return edges;
    }
  }
  return edges;
}

// Every edge of the tree, in step order (each once: from its child's view).
inline std::vector<TreeEdge> treeEdges(const Tree& tree, int P) {
  std::vector<TreeEdge> all;
  for (int rel = 1; rel < P; ++rel)
    for (const TreeEdge& e : treeEdgesOf(tree, P, rel))
      if (e.child == rel) all.push_back(e);
  std::stable_sort(all.begin(), all.end(),
                   [](const TreeEdge& x, const TreeEdge& y) { return x.step < y.step; });
  return all;
}

// Whether a kind's tree moves one part per rank (the blocks of gather,
// scatter, allgather and reduce_scatter) rather than one part in all.
inline bool treeMovesBlocks(Kind kind) {
  return kind == Kind::gather || kind == Kind::scatter || kind == Kind::allgather ||
         kind == Kind::reduce_scatter;
}

// The plan of a tree collective (coll/trees.hpp) for rank `rank` of P: an
// up pass (reduction order: each child's subtree to its parent) that
// combines or gathers, and a down pass (the same edges backwards) that
// broadcasts or scatters; a message carries the child's subtree's blocks,
// or every part. Parts are absolute: block b is rank b's.
inline Plan treePlan(Kind kind, const Tree& tree, int P, int root, int rank) {
  const bool blocks = treeMovesBlocks(kind);
  Plan plan = emptyPlan(kind, P, rank, blocks ? P : 1);
  const bool rooted = kind == Kind::broadcast || kind == Kind::reduce || kind == Kind::gather ||
                      kind == Kind::scatter;
  plan.root = rooted ? root : -1;
  if (!rooted) root = 0;
  if (P <= 1) return plan;
  bool up = false, down = false, upCombines = false, downScatters = false;
  const char* upPhase = "reduce";
  const char* downPhase = "broadcast";
  switch (kind) {
    case Kind::reduce: up = upCombines = true; break;
    case Kind::allreduce: up = upCombines = down = true; break;
    case Kind::barrier:
      up = upCombines = down = true;
      upPhase = "arrive";
      downPhase = "release";
      break;
    case Kind::broadcast: down = true; break;
    case Kind::gather: up = true; upPhase = "gather"; break;
    case Kind::scatter: down = downScatters = true; downPhase = "scatter"; break;
    case Kind::allgather:  // HPX: gather up, broadcast every block down
      up = down = true;
      upPhase = "gather";
      break;
    case Kind::reduce_scatter:
      up = upCombines = down = downScatters = true;
      downPhase = "scatter";
      break;
    default: return plan;  // trees serve no other kind
  }
  const int levels = treeSteps(tree, P);
  auto absolute = [&](int r) { return (r + root) % P; };
  auto allParts = [&] {
    std::vector<int> all(static_cast<std::size_t>(plan.parts));
    for (int b = 0; b < plan.parts; ++b) all[static_cast<std::size_t>(b)] = b;
    return all;
  };
  auto subtree = [&](const TreeEdge& e) {
    std::vector<int> run;
    for (int i = 0; i < e.span; ++i) run.push_back(absolute(e.child + i));
    return run;
  };
  const int rel = (rank - root + P) % P;
  const std::vector<TreeEdge> edges = treeEdgesOf(tree, P, rel);  // in step order
  plan.numSteps = ((up ? 1 : 0) + (down ? 1 : 0)) * levels;
  const int upPhaseIndex = up ? phaseIndex(plan, upPhase) : 0;
  const int downPhaseIndex = down ? phaseIndex(plan, downPhase) : 0;
  // The step numbered `number`, the plan's last or a new one after it.
  auto stepAt = [&](int number, Action action, int phase) -> PlanStep& {
    if (plan.steps.empty() || plan.steps.back().step != number) {
      plan.steps.emplace_back();
      plan.steps.back().step = plan.steps.back().exchange = number;
      plan.steps.back().phase = phase;
      plan.steps.back().action = action;
    }
    return plan.steps.back();
  };
  auto add = [&](const TreeEdge& e, bool sends, int number, Action action, int phase,
                 std::vector<int> parts) {
    PlanStep& step = stepAt(number, action, phase);
    const int peer = absolute(e.child == rel ? e.parent : e.child);
    (sends ? step.sends : step.receives).push_back({peer, parts, parts});
  };
  if (up)
    for (const TreeEdge& e : edges)
      add(e, e.child == rel, e.step, upCombines ? Action::combine : Action::copy, upPhaseIndex,
          blocks && !upCombines ? subtree(e) : allParts());
  const int downBase = up ? levels : 0;
  if (down)  // the edges backwards
    for (auto e = edges.rbegin(); e != edges.rend(); ++e)
      add(*e, e->child != rel, downBase + levels - 1 - e->step, Action::copy, downPhaseIndex,
          downScatters ? subtree(*e) : allParts());
  // The flat tree's passes that only copy run in one exchange (the MPI
  // libraries' linear algorithms): the root posts its P - 1 messages at
  // once instead of waiting for each, and its links carry them together.
  // Allowed, as the executor checks: the root's sends only read, and its
  // receives (a gather) write each child's own parts. A pass that combines
  // at the root stays one step a child (its merges land in one part), and
  // a pipeline regroups the steps into super-steps (coll::pipelinePlan).
  if (tree.shape == TreeShape::flat)
    for (PlanStep& step : plan.steps) {
      const bool inUp = step.step < (up ? levels : 0);
      if (!inUp) step.exchange = downBase;
      else if (!upCombines) step.exchange = 0;
    }
  return plan;
}

}  // namespace coll
