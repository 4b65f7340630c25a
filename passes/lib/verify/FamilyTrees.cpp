//===- FamilyTrees.cpp - the binomial and hierarchical trees for all P ----===//
//
// The trees' family proofs (Family.cpp lists them all): the binomial tree
// of every kind by induction over levels, seed 000's hierarchical tree by
// induction over node size; and their closed forms, against which each P's
// program is checked to be the instance.
//
//===----------------------------------------------------------------------===//

#include "FamilyForms.h"
#include "FamilyProof.h"

#include "coll/Dialect/Catalogue.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

using namespace coll;
using namespace coll::verify;

namespace {

/// The hierarchical tree's family proof enumerates a node's members: past
/// this many it leaves the tree to the per-P proofs.
constexpr int64_t kMaxFamilyArity = 64;

} // namespace

/// What a tree of each kind runs: an up pass (reduction order,
/// children to parents) that combines or gathers, and a down pass
/// (broadcast order) that copies every part or scatters the children's
/// subtrees' blocks.
struct TreePasses {
  bool up = false, upCombines = false, down = false, downScatters = false;
};

static std::optional<TreePasses> treePasses(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::reduce:
    return TreePasses{true, true, false, false};
  case CollectiveKind::gather:
    return TreePasses{true, false, false, false};
  case CollectiveKind::broadcast:
    return TreePasses{false, false, true, false};
  case CollectiveKind::scatter:
    return TreePasses{false, false, true, true};
  case CollectiveKind::allreduce:
  case CollectiveKind::barrier:
    return TreePasses{true, true, true, false};
  case CollectiveKind::allgather:
    return TreePasses{true, false, true, false};
  case CollectiveKind::reduce_scatter:
    return TreePasses{true, true, true, true};
  default:
    return std::nullopt;
  }
}

/// A tree's legality, from its coverage induction.
static PropertyResult treeLegality(const std::string &scope,
                                   const TreePasses &passes) {
  if (!passes.upCombines)
    return legalityFromCoverage(
        scope, "nothing is combined: the tree only copies", true);
  return legalityFromCoverage(scope,
                              "the operator is commutative; the coverage "
                              "induction shows each contribution is combined "
                              "once, at the root",
                              /*copiesOnly=*/false);
}

/// The binomial tree, P symbolic, on virtual ranks v = (r - root) mod P.
/// The run of v at mask m is the virtual ranks [v, min(v + m, P)): the
/// contributions of v's partial result, the blocks it has gathered, or the
/// blocks it still has to scatter.
///  - Up pass, level k = 0 .. L-1 (L = ceil(log2 P)), mask m = 2^k: every
///    v = m (mod 2m) sends its run to v - m, which combines or files it.
///    Invariant: before the level exactly the multiples of m are live, each
///    with its run at mask m; senders and receivers are live, a receiver's
///    run and its sender's are disjoint (each contribution is combined
///    once, no gathered block is overwritten) and together are the
///    receiver's run at mask 2m; afterwards exactly the multiples of 2m are
///    live. At level 0 every rank is live with itself; after the last
///    (2m >= P) only the root is, with [0, P).
///  - Down pass, level distance d = 2^(L-1-k): every multiple v of 2d with
///    v + d < P sends to v + d -- every part (broadcast), or the run of
///    v + d at mask d (scatter). Invariant: before the level exactly the
///    multiples of 2d hold, each its run at mask 2d; a sender holds what it
///    sends, no receiver holds anything yet (nothing is overwritten);
///    afterwards exactly the multiples of d hold, each its run at mask d.
///    At the first level (2d >= P) only the root holds, everything; after
///    the last (d = 1) every v holds its run [v, v + 1): its own block, or
///    for a broadcast the one value there is.
/// The up pass ends in the state the down pass starts from (the root holds
/// everything), so the allreduce, allgather, reduce-scatter and barrier
/// are the two inductions in turn. Bit-vectors, P in [2, maxRanks], m = 2^j
/// < P symbolic, v and a run member u symbolic: ownership and coverage for
/// every P at once. Matching: each level's receivers lie within the ranks
/// and no rank both sends and receives in one level (one receiver per
/// sender is the closed form's, compared message by message per P).
/// `form` states the closed form; anything but the default is wrong, for
/// the tests.
std::vector<PropertyResult>
coll::proveBinomialTree(CollectiveKind kind, int64_t maxRanks,
                        const VerifyOptions &options, BinomialForm form) {
  std::vector<PropertyResult> results;
  std::optional<TreePasses> passes = treePasses(kind);
  if (!passes)
    return results;
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  unsigned width =
      llvm::Log2_64_Ceil(static_cast<uint64_t>(maxRanks)) + 3; // 4m fits
  // The breach of one pass's invariant at the level of mask m (symbolic
  // P, m, v and u); `coverage` adds what coverage needs beyond ownership.
  using Breach = std::function<z3::expr(const z3::expr &, const z3::expr &,
                                        const z3::expr &, const z3::expr &,
                                        bool)>;
  auto induction = [&](Property property, const Breach &breach) {
    return addInduction(
        results, property,
        "Z3 (bit-vectors): induction over the levels of the binomial tree, "
        "symbolic P, mask 2^j, virtual ranks and blocks",
        scope, options, "QF_BV", [&](z3::context &ctx, z3::solver &solver) {
          auto num = [&](int64_t v) {
            return ctx.bv_val(static_cast<uint64_t>(v), width);
          };
          z3::expr P = ctx.bv_const("P", width), j = ctx.bv_const("j", width),
                   v = ctx.bv_const("v", width), u = ctx.bv_const("u", width);
          z3::expr m = z3::shl(num(1), j);
          solver.add(z3::uge(P, num(2)) && z3::ule(P, num(maxRanks)));
          solver.add(z3::ult(j, num(width - 3)) && z3::ult(m, P));
          solver.add(z3::ult(v, P) && z3::ult(u, P));
          return breach(P, m, v, u, property == Property::coverage);
        });
  };
  auto multipleOf = [](const z3::expr &x, const z3::expr &m) {
    return (x & (m - 1)) == 0;
  };
  auto run = [](const z3::expr &x, const z3::expr &m, const z3::expr &u) {
    return z3::uge(u, x) && z3::ult(u, x + m); // u < P is a range fact
  };
  auto lagged = [&](const z3::expr &m) {
    return m + m.ctx().bv_val(static_cast<uint64_t>(form.distanceLag),
                              m.get_sort().bv_size());
  };
  auto isZero = [](const z3::expr &x) {
    return x == x.ctx().bv_val(0, x.get_sort().bv_size());
  };
  auto isOne = [](const z3::expr &x) {
    return x == x.ctx().bv_val(1, x.get_sort().bv_size());
  };
  bool upCopies = !passes->upCombines;
  Breach up = [&](const z3::expr &P, const z3::expr &m, const z3::expr &v,
                  const z3::expr &u, bool coverage) {
    z3::expr step = lagged(m);
    auto live = [&](const z3::expr &x) { return multipleOf(x, m); };
    auto sends = [&](const z3::expr &x) {
      return live(x) && !multipleOf(x, 2 * m);
    };
    // v receives from v + step (a sender's parent is x - step).
    z3::expr sender = v + step;
    z3::expr receives = z3::ult(sender, P) && sends(sender);
    z3::expr overlap = run(v, m, u) && run(sender, m, u);
    z3::expr breach =
        (sends(v) && z3::ult(v, step)) || (receives && !live(v)) ||
        ((live(v) && !sends(v)) != multipleOf(v, 2 * m)) ||
        (isOne(m) && !live(v)) ||
        (z3::uge(2 * m, P) && multipleOf(v, 2 * m) != isZero(v));
    if (upCopies || coverage)
      reassign(breach, breach || (receives && overlap));
    if (coverage) {
      z3::expr after = z3::ite(receives, run(v, m, u) || run(sender, m, u),
                               run(v, m, u));
      reassign(breach, breach || (isOne(m) && run(v, m, u) != (u == v)) ||
               (multipleOf(v, 2 * m) && after != run(v, 2 * m, u)) ||
               (z3::uge(2 * m, P) && !run(P - P, 2 * m, u)));
    }
    return breach;
  };
  bool scatters = passes->downScatters;
  Breach down = [&](const z3::expr &P, const z3::expr &m, const z3::expr &v,
                    const z3::expr &u, bool coverage) {
    z3::expr step = lagged(m);
    auto held = [&](const z3::expr &x) { return multipleOf(x, 2 * m); };
    auto sends = [&](const z3::expr &x) {
      return held(x) && z3::ult(x + step, P);
    };
    z3::expr receives = z3::uge(v, step) && sends(v - step);
    // What the level sends v's receiver: the receiver's run at mask m.
    z3::expr sentToNext = scatters ? run(v + step, m, u) : u.ctx().bool_val(true);
    z3::expr breach =
        (receives && held(v)) || ((held(v) || receives) != multipleOf(v, m)) ||
        (z3::uge(2 * m, P) && held(v) != isZero(v));
    if (scatters)
      reassign(breach, breach || (sends(v) && sentToNext && !run(v, 2 * m, u)));
    if (coverage) {
      // The run a rank is left with: a receiver its sender's message, a
      // sender its run less what it sent.
      z3::expr got = scatters ? run(v, m, u) : u.ctx().bool_val(true);
      z3::expr kept = scatters ? run(v, 2 * m, u) &&
                                     !(sends(v) && sentToNext)
                               : u.ctx().bool_val(true);
      z3::expr after = z3::ite(receives, got, kept);
      z3::expr finalRun = scatters ? u == v : u.ctx().bool_val(true);
      reassign(breach, breach ||
               (multipleOf(v, m) && scatters && after != run(v, m, u)) ||
               (z3::uge(2 * m, P) && isZero(v) && !run(v, 2 * m, u)) ||
               (isOne(m) && scatters && run(v, m, u) != finalRun));
    }
    return breach;
  };
  auto both = [&](const z3::expr &P, const z3::expr &m, const z3::expr &v,
                  const z3::expr &u, bool coverage) {
    z3::expr breach = v.ctx().bool_val(false);
    if (passes->up)
      reassign(breach, breach || up(P, m, v, u, coverage));
    if (passes->down)
      reassign(breach, breach || down(P, m, v, u, coverage));
    return breach;
  };
  // Matching: a level's receivers lie within the ranks, and no rank both
  // sends and receives in it. (One receiver per sender and one sender per
  // receiver is the closed form's: each edge's own parent, v -+ m, which
  // the instance check compares message by message.)
  auto matching = [&](const z3::expr &P, const z3::expr &m, const z3::expr &x,
                      const z3::expr &, bool) {
    z3::expr step = lagged(m);
    z3::expr breach = x.ctx().bool_val(false);
    if (passes->up) {
      auto sends = [&](const z3::expr &r) {
        return multipleOf(r, m) && !multipleOf(r, 2 * m);
      };
      z3::expr receives = z3::ult(x + step, P) && sends(x + step);
      reassign(breach, breach || (sends(x) && z3::ult(x, step)) ||
                           (sends(x) && receives));
    }
    if (passes->down) {
      auto sends = [&](const z3::expr &r) {
        return multipleOf(r, 2 * m) && z3::ult(r + step, P);
      };
      z3::expr receives = z3::uge(x, step) && sends(x - step);
      reassign(breach, breach || (sends(x) && receives));
    }
    return breach;
  };
  induction(Property::matching, matching);
  induction(Property::ownership, both);
  Verdict coverage = induction(Property::coverage, both);
  ownershipNeedsCoverage(results);
  if (coverage == Verdict::proven)
    results.push_back(treeLegality(scope, *passes));
  return results;
}

/// The hierarchical tree of seed 000 (`tree arity(a) flat_below(b)`),
/// P symbolic. A node is the virtual ranks [lo, lo + n) at some depth; its
/// arity is n at depth 0 when n < b, else a. A node of n <= arity ranks is
/// a leaf whose members are the single ranks lo + i; otherwise its members
/// are a balanced groups, group i starting at
///   start(i) = lo + i q + min(i, r),  n = a q + r, 0 <= r < a,
/// each a node one depth deeper. Member i >= 1 sends its group to lo in
/// step first(depth) + i - 1, where the levels of deeper nodes come first
/// (first(depth) is the sum of the deeper levels' widths, a level's width
/// its largest node's member count less one): a member's whole subtree
/// has run before it sends, and a node's members send in member order.
/// Induction over the node size n (the groups are smaller nodes):
///   the members partition the node -- start(0) = lo, start(count) =
///   lo + n, every member nonempty and, for a non-leaf, smaller than n --
///   so before member i's edge up the pass lo holds the run
///   [lo, start(i)), the member brings the disjoint [start(i),
///   start(i+1)), and after the last lo holds [lo, lo + n): each
///   contribution combined once, each block gathered once. Down the tree
///   the same intervals in reverse: lo holds [lo, start(i+1)), sends
///   member i its group [start(i), start(i+1)) and keeps [lo, start(i)),
///   down to its own group 0; each member then holds its group, the
///   induction's start for that node. A node of one rank holds itself.
/// One query per property (linear integer arithmetic; the member index is
/// concrete, up to the most members a node has, so i q is linear): n, q,
/// r, lo, a block u and whether the node is the top one symbolic, for
/// every P in [2, maxRanks], the step numbers symbolic too (deeper first,
/// member order within a node). Each P is checked to be the instance
/// (familyCovers), its edges to be run in that order (isValidTreeOrder),
/// and matching stays per P.
std::vector<PropertyResult>
coll::proveHierarchicalTree(CollectiveKind kind, int64_t arity,
                            int64_t flatBelow, int64_t maxRanks,
                            const VerifyOptions &options,
                            HierarchicalForm form) {
  std::vector<PropertyResult> results;
  std::optional<TreePasses> passes = treePasses(kind);
  int64_t most = std::max(arity, flatBelow - 1); // members of any node
  if (!passes || arity < 2 || most > kMaxFamilyArity)
    return results;
  std::string scope = "all P in [2, " + std::to_string(maxRanks) + "]";
  bool copiesUp = !passes->upCombines;
  auto breach = [&](z3::context &ctx, z3::solver &solver, bool coverage) {
    z3::expr n = ctx.int_const("n"), q = ctx.int_const("q"),
             r = ctx.int_const("r"), lo = ctx.int_const("lo"),
             u = ctx.int_const("u"), top = ctx.bool_const("top");
    z3::expr a = ctx.int_val(arity);
    solver.add(n >= 2 && n <= ctx.int_val(maxRanks) && lo >= 0 &&
               lo + n <= ctx.int_val(maxRanks));
    solver.add(n == a * q + r && r >= 0 && r < a);
    z3::expr nodeArity = z3::ite(top && n < ctx.int_val(flatBelow), n, a);
    z3::expr leaf = n <= nodeArity;
    z3::expr count = z3::ite(leaf, n, a);
    auto start = [&](int64_t i) {
      z3::expr I = ctx.int_val(i);
      z3::expr balanced =
          form.dropRemainder ? lo + I * q
                             : lo + I * q + z3::ite(I < r, I, r);
      return z3::ite(leaf, lo + I, balanced);
    };
    auto in = [&](const z3::expr &lo, const z3::expr &hi) {
      return u >= lo && u < hi;
    };
    // The steps: this node's level starts at `first` and is `width` wide
    // (at least count - 1); its children's level, `childFirst` and
    // `childWidth`, comes directly before it (deeper first), and by the
    // induction every step of a child's subtree is before childFirst +
    // childWidth. Member i sends in first + i - 1.
    z3::expr first = ctx.int_const("first"), width = ctx.int_const("width"),
             childFirst = ctx.int_const("childFirst"),
             childWidth = ctx.int_const("childWidth");
    solver.add(width >= count - 1 && childFirst >= 0 && childWidth >= 0);
    solver.add(form.shallowerFirst ? first + width == childFirst
                                   : first == childFirst + childWidth);
    z3::expr b = start(0) != lo;
    for (int64_t i = 0; i <= most; ++i) {
      z3::expr I = ctx.int_val(i);
      z3::expr member = I < count;
      z3::expr size = start(i + 1) - start(i);
      reassign(b, b || (I == count && start(i) != lo + n) ||
                      (member && size < 1) || (member && !leaf && size >= n));
      if (i == 0)
        continue;
      // Member i has its whole group when it sends (and, down the tree,
      // gets it before its group's own level forwards it), and the node's
      // level ends within its width, as its parent's induction needs.
      z3::expr sent = first + I - 1;
      reassign(b, b || (member && !leaf && sent < childFirst + childWidth) ||
                      (member && sent >= first + width));
      z3::expr held = in(lo, start(i)), brought = in(start(i), start(i + 1));
      if (copiesUp || coverage)
        reassign(b, b || (member && held && brought));
      if (coverage)
        reassign(b, b || (member && (held || brought) != in(lo, start(i + 1))));
    }
    return b;
  };
  const char *method = "Z3 (linear integer arithmetic): induction over the "
                       "node size of the hierarchical tree, symbolic P, "
                       "node, group sizes and blocks";
  addInduction(results, Property::ownership, method, scope, options,
               "QF_LIA", [&](z3::context &ctx, z3::solver &solver) {
                 return breach(ctx, solver, false);
               });
  Verdict coverage = addInduction(
      results, Property::coverage, method, scope, options, "QF_LIA",
      [&](z3::context &ctx, z3::solver &solver) {
        return breach(ctx, solver, true);
      });
  ownershipNeedsCoverage(results);
  if (coverage == Verdict::proven)
    results.push_back(treeLegality(scope, *passes));
  return results;
}

namespace {

/// One edge of a tree's closed form, on virtual ranks: in up step `step`
/// the subtree [child, child + span) goes from child to parent.
struct FormEdge {
  int64_t step, child, parent, span;
};

/// proveBinomialTree's closed form: at level k, mask m = 2^k, every
/// v = m (mod 2m) sends [v, min(v + m, P)) to v - m.
std::vector<FormEdge> binomialForm(int64_t P) {
  std::vector<FormEdge> edges;
  for (int64_t k = 0, m = 1; m < P; ++k, m *= 2)
    for (int64_t v = m; v < P; v += 2 * m)
      edges.push_back({k, v, v - m, std::min(m, P - v)});
  return edges;
}

/// proveHierarchicalTree's closed form (see there), its edges by depth
/// first and then ordered by step.
std::vector<FormEdge> hierarchicalForm(int64_t P, int64_t arity,
                                       int64_t flatBelow) {
  struct Member {
    int64_t depth, index, child, parent, span;
  };
  std::vector<Member> members;
  std::vector<int64_t> width; // by depth: most members of a node, less one
  std::function<void(int64_t, int64_t, int64_t)> node =
      [&](int64_t lo, int64_t n, int64_t depth) {
        if (n <= 1)
          return;
        int64_t a = depth == 0 && n < flatBelow ? n : arity;
        bool leaf = n <= a;
        int64_t count = leaf ? n : a, q = n / a, r = n % a;
        auto start = [&](int64_t i) {
          return leaf ? lo + i : lo + i * q + std::min(i, r);
        };
        if (static_cast<int64_t>(width.size()) <= depth)
          width.resize(depth + 1, 0);
        width[depth] = std::max(width[depth], count - 1);
        for (int64_t i = 1; i < count; ++i)
          members.push_back({depth, i, start(i), lo, start(i + 1) - start(i)});
        if (!leaf)
          for (int64_t i = 0; i < count; ++i)
            node(start(i), start(i + 1) - start(i), depth + 1);
      };
  node(0, P, 0);
  std::vector<FormEdge> edges;
  for (const Member &m : members) {
    int64_t first = 0; // deeper levels run first
    for (size_t d = m.depth + 1; d < width.size(); ++d)
      first += width[d];
    edges.push_back({first + m.index - 1, m.child, m.parent, m.span});
  }
  return edges;
}

/// Whether `edges` on P virtual ranks are a tree run in an order the
/// inductions rely on, checked on the edges themselves (O(P log P)) so that
/// the closed forms' step order is not only their definition: every rank
/// but 0 is the child of exactly one edge; the subtrees of a rank's
/// children tile the rest of its own subtree, in order; and every edge into
/// a rank comes in an earlier step than the rank's own edge out, one per
/// step (so it has its whole subtree when it sends, and in a down pass it
/// has the blocks before it forwards them).
bool isValidTreeOrder(const std::vector<FormEdge> &edges, int64_t P) {
  std::vector<const FormEdge *> up(P, nullptr);
  std::vector<std::vector<const FormEdge *>> into(P);
  for (const FormEdge &e : edges) {
    if (e.child <= 0 || e.child >= P || e.parent < 0 || e.parent >= P ||
        e.span < 1 || up[e.child])
      return false;
    up[e.child] = &e;
    into[e.parent].push_back(&e);
  }
  for (int64_t v = 0; v < P; ++v) {
    if (v > 0 && !up[v])
      return false;
    int64_t end = v == 0 ? P : v + up[v]->span;
    llvm::sort(into[v], [](const FormEdge *a, const FormEdge *b) {
      return a->child < b->child;
    });
    int64_t next = v + 1;
    for (const FormEdge *e : into[v]) {
      if (e->child != next || (v > 0 && e->step >= up[v]->step))
        return false;
      next = e->child + e->span;
    }
    if (next != end)
      return false;
    std::vector<int64_t> steps;
    for (const FormEdge *e : into[v])
      steps.push_back(e->step);
    llvm::sort(steps);
    if (std::adjacent_find(steps.begin(), steps.end()) != steps.end())
      return false;
  }
  return true;
}

/// Whether `program` is the closed form `edges` for its P and kind: the up
/// pass's steps in order, each sending every edge of that step from child
/// to parent, then the down pass's in reverse, parent to child; a message
/// carries every part (combining up, broadcasting down) or the subtree's
/// blocks, each filed under its own index; and nothing else.
bool isTreeInstance(ProgramOp program, int64_t root,
                    const std::vector<FormEdge> &edges) {
  int64_t P = program.getNumRanks();
  std::optional<TreePasses> passes = treePasses(program.getKind());
  if (!passes || P < 2 || program.getNumScratchParts().value_or(0) ||
      program.getRoot().value_or(0) != static_cast<uint64_t>(root) ||
      !isValidTreeOrder(edges, P))
    return false;
  CollectiveKind kind = program.getKind();
  bool blocks = kind == CollectiveKind::gather ||
                kind == CollectiveKind::scatter ||
                kind == CollectiveKind::allgather ||
                kind == CollectiveKind::reduce_scatter;
  int64_t parts = program.getNumParts();
  if (parts != (blocks ? P : 1))
    return false;
  auto absolute = [&](int64_t v) { return (root + v) % P; };
  auto subtree = [&](const FormEdge &e) {
    std::vector<int64_t> run;
    for (int64_t u = e.child; u < e.child + e.span; ++u)
      run.push_back(absolute(u));
    llvm::sort(run);
    return run;
  };
  std::vector<int64_t> everyPart(parts);
  for (int64_t b = 0; b < parts; ++b)
    everyPart[b] = b;
  // The up steps' (src, dst, parts), in step order.
  using Message = std::tuple<int64_t, int64_t, std::vector<int64_t>>;
  std::map<int64_t, std::vector<Message>> up, down;
  for (const FormEdge &e : edges) {
    up[e.step].push_back({absolute(e.child), absolute(e.parent),
                          passes->upCombines ? everyPart : subtree(e)});
    down[e.step].push_back({absolute(e.parent), absolute(e.child),
                            passes->downScatters ? subtree(e) : everyPart});
  }
  std::vector<std::pair<StepKind, std::vector<Message>>> levels;
  if (passes->up)
    for (auto &[step, messages] : up)
      levels.push_back({passes->upCombines ? StepKind::combine
                                           : StepKind::copy,
                        messages});
  if (passes->down)
    for (auto it = down.rbegin(); it != down.rend(); ++it)
      levels.push_back({StepKind::copy, it->second});
  auto steps = llvm::to_vector(program.getBody().getOps<StepOp>());
  if (steps.size() != levels.size())
    return false;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (steps[k].getStepKind() != levels[k].first)
      return false;
    std::vector<Message> found;
    for (const Transfer &t : transfersOfStep(steps[k])) {
      if (t.sent != t.received)
        return false;
      std::vector<int64_t> sent = t.sent;
      llvm::sort(sent);
      found.push_back({t.src, t.dst, sent});
    }
    std::vector<Message> expected = levels[k].second;
    llvm::sort(expected);
    llvm::sort(found);
    if (expected != found)
      return false;
  }
  return true;
}

} // namespace

std::vector<PropertyResult>
coll::verify::proveTreeFamily(CollectiveOp spec, int64_t maxRanks,
                              const VerifyOptions &options) {
  if (familyOf(spec) == Family::binomialTree)
    return proveBinomialTree(spec.getKind(), maxRanks, options);
  return proveHierarchicalTree(
      spec.getKind(), static_cast<int64_t>(*spec.getArity()),
      static_cast<int64_t>(*spec.getFlatBelow()), maxRanks, options);
}

bool coll::verify::treeFamilyCovers(CollectiveOp spec, ProgramOp program,
                                    Property property) {
  int64_t P = program.getNumRanks();
  bool binomial = familyOf(spec) == Family::binomialTree;
  return (property != Property::matching || binomial) &&
         !(property == Property::operatorLegality &&
           program.getNoncommutative()) &&
         isTreeInstance(program, spec.getRoot().value_or(0),
                        binomial
                            ? binomialForm(P)
                            : hierarchicalForm(
                                  P, static_cast<int64_t>(*spec.getArity()),
                                  static_cast<int64_t>(*spec.getFlatBelow())));
}

std::vector<PropertyResult>
coll::proveBinomialTree(CollectiveKind kind, int64_t maxRanks,
                        const VerifyOptions &options) {
  return proveBinomialTree(kind, maxRanks, options, BinomialForm{});
}

std::vector<PropertyResult>
coll::proveHierarchicalTree(CollectiveKind kind, int64_t arity,
                            int64_t flatBelow, int64_t maxRanks,
                            const VerifyOptions &options) {
  return proveHierarchicalTree(kind, arity, flatBelow, maxRanks, options,
                               HierarchicalForm{});
}
