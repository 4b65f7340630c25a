#pragma once
// Plans: a collective's step program as one rank runs it. Each family's
// plan function lives with the family (coll/trees.hpp, coll/digits.hpp,
// coll/scans.hpp). A plan is what
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

// A step's messages. A receive from this rank itself is a local copy or
// merge of `peerParts` into `parts`, with no send listed. `withNext`: the
// step runs in one exchange with the next (e.g. both ports of a Trivance
// phase, seeds/002); see coll::execute for when that is allowed.
struct PlanStep {
  Action action = Action::copy;
  std::vector<PlanMessage> sends, receives;
  bool withNext = false;
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

// A plan of `kind` for rank `rank` of `ranks` with no steps yet.
inline Plan emptyPlan(Kind kind, int ranks, int rank, int parts = 1, int scratchParts = 0) {
  Plan plan;
  plan.kind = kind;
  plan.ranks = ranks;
  plan.rank = rank;
  plan.parts = parts;
  plan.scratchParts = scratchParts;
  return plan;
}

}  // namespace coll
