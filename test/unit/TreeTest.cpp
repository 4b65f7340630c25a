// Structure facts of the trees (runtime/include/coll/trees.hpp, seeds/000):
// the flat root, the binomial tree and the HPX-style hierarchical tree.
#include "coll/trees.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using namespace coll;

namespace {

Tree hierarchical(int arity, int flatBelow) {
  return Tree{TreeShape::hierarchical, arity, flatBelow};
}

/// Checks what every tree must satisfy for P ranks and returns, per parent,
/// the children it receives from in each level (a level = one run of
/// consecutive steps of one parent).
void checkWellFormed(const Tree &tree, int P) {
  CAPTURE(P);
  const std::vector<TreeEdge> edges = treeEdges(tree, P);
  const int steps = treeSteps(tree, P);
  // A tree over P ranks: P - 1 edges, every non-root is a child once.
  REQUIRE(static_cast<int>(edges.size()) == std::max(P - 1, 0));
  std::set<int> children;
  for (const TreeEdge &e : edges) {
    CHECK(e.step >= 0);
    CHECK(e.step < steps);
    CHECK(children.insert(e.child).second);
    CHECK(e.parent < e.child); // the leftmost member represents
    CHECK(e.span >= 1);
  }
  // One message per rank per step.
  std::map<int, std::set<int>> busy;
  for (const TreeEdge &e : edges) {
    CHECK(busy[e.step].insert(e.child).second);
    CHECK(busy[e.step].insert(e.parent).second);
  }
  // Every step is used.
  CHECK(static_cast<int>(busy.size()) == steps);
  // A child sends after every edge into it; its span is its subtree,
  // contiguous: [child, child + span) are its descendants and itself.
  std::vector<int> subtree(P, 1), lastIn(P, -1);
  for (const TreeEdge &e : edges) {
    CHECK(lastIn[e.child] < e.step);
    CHECK(e.span == subtree[e.child]);
    CHECK(e.child == e.parent + subtree[e.parent]); // subtrees abut
    subtree[e.parent] += subtree[e.child];
    lastIn[e.parent] = std::max(lastIn[e.parent], e.step);
  }
  if (P >= 1)
    CHECK(subtree[0] == P);
  // Each rank's own view is its share of the whole, in step order.
  for (int rel = 0; rel < P; ++rel) {
    std::vector<TreeEdge> mine = treeEdgesOf(tree, P, rel);
    std::vector<TreeEdge> expected;
    for (const TreeEdge &e : edges)
      if (e.child == rel || e.parent == rel)
        expected.push_back(e);
    REQUIRE(mine.size() == expected.size());
    for (size_t i = 0; i < mine.size(); ++i) {
      CHECK(mine[i].step == expected[i].step);
      CHECK(mine[i].child == expected[i].child);
      CHECK(mine[i].parent == expected[i].parent);
      CHECK(mine[i].span == expected[i].span);
    }
  }
}

} // namespace

TEST_CASE("every tree is a tree with one message per rank per step, P = 1..200") {
  for (int P = 1; P <= 200; ++P) {
    checkWellFormed(Tree{TreeShape::flat, 2, 16}, P);
    checkWellFormed(Tree{TreeShape::binomial, 2, 16}, P);
    checkWellFormed(Tree{TreeShape::chain, 2, 16}, P);
    for (int arity : {2, 3, 4, 8, 16})
      for (int flatBelow : {0, 16})
        checkWellFormed(hierarchical(arity, flatBelow), P);
  }
}

TEST_CASE("flat takes P - 1 steps, binomial ceil(log2 P)") {
  const int expectedBinomial[] = {0, 0, 1, 2, 2, 3, 3, 3, 3, 4};
  for (int P = 1; P < 10; ++P) {
    CAPTURE(P);
    CHECK(treeSteps(Tree{TreeShape::flat, 2, 16}, P) == P - 1);
    CHECK(treeSteps(Tree{TreeShape::binomial, 2, 16}, P) ==
          expectedBinomial[P]);
  }
  CHECK(treeSteps(Tree{TreeShape::binomial, 2, 16}, 1024) == 10);
  CHECK(treeSteps(Tree{TreeShape::binomial, 2, 16}, 1025) == 11);
}

TEST_CASE("the chain: P - 1 steps, the last rank first, subtrees [rel, P)") {
  const Tree chain{TreeShape::chain, 2, 16};
  CHECK(treeSteps(chain, 1) == 0);
  CHECK(treeSteps(chain, 5) == 4);
  const std::vector<TreeEdge> edges = treeEdges(chain, 5);
  REQUIRE(edges.size() == 4);
  // {step, child, parent, span}: 4 -> 3, 3 -> 2, 2 -> 1, 1 -> 0.
  const int expected[4][4] = {{0, 4, 3, 1}, {1, 3, 2, 2}, {2, 2, 1, 3}, {3, 1, 0, 4}};
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(edges[i].step == expected[i][0]);
    CHECK(edges[i].child == expected[i][1]);
    CHECK(edges[i].parent == expected[i][2]);
    CHECK(edges[i].span == expected[i][3]);
  }
  // A middle rank receives from its right, then sends to its left.
  const std::vector<TreeEdge> mine = treeEdgesOf(chain, 5, 2);
  REQUIRE(mine.size() == 2);
  CHECK(mine[0].child == 3);
  CHECK(mine[1].child == 2);
}

TEST_CASE("the binomial tree of seed 000 on 4 ranks") {
  // Step 0: 1 -> 0 and 3 -> 2; step 1: 2 -> 0 with the sum of {2, 3}.
  const std::vector<TreeEdge> edges = treeEdges(Tree{TreeShape::binomial}, 4);
  REQUIRE(edges.size() == 3);
  CHECK((edges[0].step == 0 && edges[0].child == 1 && edges[0].parent == 0));
  CHECK((edges[1].step == 0 && edges[1].child == 3 && edges[1].parent == 2));
  CHECK((edges[2].step == 1 && edges[2].child == 2 && edges[2].parent == 0 &&
         edges[2].span == 2));
}

/// An independent statement of seed 000's partition: the flat levels
/// (communicators) as member lists, leftmost first.
static void hpxLevels(int lo, int n, int depth, int arity, int flatBelow,
                      std::vector<std::vector<int>> &levels) {
  if (n <= 1)
    return;
  const int a = depth == 0 && n < flatBelow ? n : arity;
  std::vector<int> members;
  if (n <= a) {
    for (int i = 0; i < n; ++i)
      members.push_back(lo + i);
    levels.push_back(members);
    return;
  }
  const int q = n / a, r = n % a;
  std::vector<std::pair<int, int>> groups;
  for (int i = 0, start = lo; i < a; ++i) {
    const int size = q + (i < r ? 1 : 0);
    groups.push_back({start, size});
    members.push_back(start);
    start += size;
  }
  levels.push_back(members);
  for (auto [start, size] : groups)
    hpxLevels(start, size, depth + 1, arity, flatBelow, levels);
}

TEST_CASE("hierarchical: the levels of seed 000, none with more than arity "
          "members (so no representative gets more than arity - 1 children "
          "per level)") {
  for (int arity : {2, 3, 4, 5, 8}) {
    for (int P = 16; P <= 300; ++P) {
      CAPTURE(arity);
      CAPTURE(P);
      std::vector<std::vector<int>> levels;
      hpxLevels(0, P, 0, arity, 16, levels);
      std::set<std::pair<int, int>> expected; // (child, parent)
      for (const std::vector<int> &members : levels) {
        CHECK(members.size() <= static_cast<size_t>(arity));
        for (size_t i = 1; i < members.size(); ++i)
          expected.insert({members[i], members[0]});
      }
      std::set<std::pair<int, int>> actual;
      for (const TreeEdge &e : treeEdges(hierarchical(arity, 16), P))
        actual.insert({e.child, e.parent});
      CHECK(actual == expected);
    }
  }
}

TEST_CASE("hierarchical: balanced groups, the leftmost represents (seed 000: "
          "ten ranks, arity four)") {
  // 10 ranks in 4 groups of 3, 3, 2, 2: representatives 0, 3, 6, 8; inside
  // the groups 1, 2 -> 0; 4, 5 -> 3; 7 -> 6; 9 -> 8.
  const std::vector<TreeEdge> edges = treeEdges(hierarchical(4, 0), 10);
  std::map<int, std::vector<int>> children;
  std::map<int, int> span;
  for (const TreeEdge &e : edges) {
    children[e.parent].push_back(e.child);
    span[e.child] = e.span;
  }
  CHECK(children[0] == std::vector<int>{1, 2, 3, 6, 8});
  CHECK(children[3] == std::vector<int>{4, 5});
  CHECK(children[6] == std::vector<int>{7});
  CHECK(children[8] == std::vector<int>{9});
  CHECK(span[3] == 3);
  CHECK(span[6] == 2);
  CHECK(span[8] == 2);
  // Groups first (2 steps, the widest group has 3 members), then the 4
  // representatives (3 steps).
  CHECK(treeSteps(hierarchical(4, 0), 10) == 5);
}

TEST_CASE("hierarchical: below flat_below it collapses to one flat level") {
  for (int P = 1; P <= 40; ++P) {
    CAPTURE(P);
    const Tree tree = hierarchical(2, 16);
    const std::vector<TreeEdge> edges = treeEdges(tree, P);
    const bool flat = std::all_of(edges.begin(), edges.end(), [](const TreeEdge &e) {
      return e.parent == 0 && e.span == 1 && e.step == e.child - 1;
    });
    CHECK(flat == (P < 16 || P <= 2));
    if (P < 16)
      CHECK(treeSteps(tree, P) == std::max(P - 1, 0));
  }
  // flat_below(0) never collapses: 8 ranks of arity 2 is the binomial
  // depth, three levels of one step.
  CHECK(treeSteps(hierarchical(2, 0), 8) == 3);
  CHECK(treeSteps(hierarchical(2, 0), 800) == 10); // seed 000: depth ten
}
