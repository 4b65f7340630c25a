#pragma once
// Plans: a collective's step program as one rank runs it. A plan is what
// the compiler expands into the coll.program it proves (every rank's plan,
// step by step) and what the executor (coll/executor.hpp) runs, so the
// schedule that runs is the schedule that was proven. Plain C++17: no MPI,
// no exceptions.
//
// Step s of a plan is step s of the program on every rank; a rank with no
// part in it has an empty step. In a step a rank sends some of its parts to
// peers and receives parts from peers; everything a step reads is read
// before it writes (the program's semantics), and a received part is
// copied over the receiver's (copy) or merged into it (combine: the sender
// hands its value on; fold: the sender keeps it, as in scans).

#include <string>
#include <vector>

#include "coll/trees.hpp"

namespace coll {

enum class Action { copy, combine, fold };

// The kinds a plan serves, spelled as the coll dialect's #coll.kind.
enum class Kind {
  allreduce,
  reduce_scatter,
  allgather,
  alltoall,
  broadcast,
  reduce,
  gather,
  scatter,
  inclusive_scan,
  exclusive_scan,
  barrier
};

inline const char* kindName(Kind kind) {
  switch (kind) {
    case Kind::allreduce: return "allreduce";
    case Kind::reduce_scatter: return "reduce_scatter";
    case Kind::allgather: return "allgather";
    case Kind::alltoall: return "alltoall";
    case Kind::broadcast: return "broadcast";
    case Kind::reduce: return "reduce";
    case Kind::gather: return "gather";
    case Kind::scatter: return "scatter";
    case Kind::inclusive_scan: return "inclusive_scan";
    case Kind::exclusive_scan: return "exclusive_scan";
    case Kind::barrier: return "barrier";
  }
  return "?";
}

// One message of a step, from this rank's side: for a send, `parts` are
// this rank's parts it reads and `peerParts` where the receiver files them;
// for a receive, `parts` are this rank's parts it writes and `peerParts`
// the sender's parts they came from. Part i of one side pairs with part i
// of the other.
struct PlanMessage {
  int peer = 0;  // absolute rank
  std::vector<int> parts, peerParts;
};

struct PlanStep {
  Action action = Action::copy;
  std::vector<PlanMessage> sends, receives;
};

struct Plan {
  Kind kind = Kind::allreduce;
  int ranks = 1;
  int rank = 0;
  int root = -1;  // rooted kinds only
  int parts = 1;  // data parts, then scratchParts more
  int scratchParts = 0;
  std::vector<std::string> phases;  // per step, the same on every rank
  std::vector<PlanStep> steps;
};

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
// or every part. Parts are absolute: block b is rank b's. Every step of the
// program is in the plan, empty or not.
inline Plan treePlan(Kind kind, const Tree& tree, int P, int root, int rank) {
  Plan plan;
  plan.kind = kind;
  plan.ranks = P;
  plan.rank = rank;
  const bool rooted = kind == Kind::broadcast || kind == Kind::reduce || kind == Kind::gather ||
                      kind == Kind::scatter;
  plan.root = rooted ? root : -1;
  if (!rooted) root = 0;
  const bool blocks = treeMovesBlocks(kind);
  plan.parts = blocks ? P : 1;
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
  const std::vector<TreeEdge> edges = treeEdgesOf(tree, P, rel);
  const int passes = (up ? 1 : 0) + (down ? 1 : 0);
  plan.steps.resize(static_cast<std::size_t>(passes * levels));
  for (int s = 0; s < passes * levels; ++s)
    plan.phases.push_back(up && s < levels ? upPhase : downPhase);
  const int downBase = up ? levels : 0;
  for (const TreeEdge& e : edges) {
    const bool child = e.child == rel;  // this rank is the edge's child
    const int peer = absolute(child ? e.parent : e.child);
    if (up) {
      PlanStep& step = plan.steps[static_cast<std::size_t>(e.step)];
      step.action = upCombines ? Action::combine : Action::copy;
      std::vector<int> parts = blocks && !upCombines ? subtree(e) : allParts();
      (child ? step.sends : step.receives).push_back({peer, parts, parts});
    }
    if (down) {
      PlanStep& step = plan.steps[static_cast<std::size_t>(downBase + levels - 1 - e.step)];
      std::vector<int> parts = downScatters ? subtree(e) : allParts();
      (child ? step.receives : step.sends).push_back({peer, parts, parts});
    }
  }
  return plan;
}

}  // namespace coll
