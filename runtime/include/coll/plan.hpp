#pragma once
// Plans: a collective's step program as one rank runs it. Each family's
// plan function lives with the family (coll/trees.hpp, coll/digits.hpp,
// coll/scans.hpp). A plan is what
// the compiler expands into the coll.program it proves (every rank's plan,
// step by step) and what the executor (coll/executor.hpp) runs, so the
// schedule that runs is the schedule that was proven. Plain C++17: no MPI,
// no exceptions.
//
// A plan lists one rank's steps of the program: step s of the program is
// step s on every rank, and a rank's plan holds only the steps it sends or
// receives in, each with its number (so a chain of P ranks in S segments
// costs each rank its own few steps, not all S (P - 1) of the program). In
// a step a rank sends some of its parts to peers and receives parts from
// peers; everything a step reads is read before it writes (the program's
// semantics), and a received part is copied over the receiver's (copy) or
// merged into it (combine: the sender hands its value on; fold: the sender
// keeps it, as in scans).

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>


namespace coll {

enum class Action { copy, combine, fold };

// The kinds a plan serves, once: coll::Kind and kindName below are made
// from this list, and the coll dialect's #coll.kind names the same kinds
// with the same values (checked where the compiler converts,
// passes/lib/PlanProgram.cpp). The values are part of a policy's ABI
// (libcollc_mpi.so): new kinds go at the end.
#define COLLC_KINDS(X) \
  X(allreduce)         \
  X(reduce_scatter)    \
  X(allgather)         \
  X(alltoall)          \
  X(broadcast)         \
  X(reduce)            \
  X(gather)            \
  X(scatter)           \
  X(inclusive_scan)    \
  X(exclusive_scan)    \
  X(barrier)

enum class Kind {
#define COLLC_KIND_ENUMERATOR(kind) kind,
  COLLC_KINDS(COLLC_KIND_ENUMERATOR)
#undef COLLC_KIND_ENUMERATOR
};

inline const char* kindName(Kind kind) {
  switch (kind) {
#define COLLC_KIND_NAME(name) \
  case Kind::name:            \
    return #name;
    COLLC_KINDS(COLLC_KIND_NAME)
#undef COLLC_KIND_NAME
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
// merge of `peerParts` into `parts`, with no send listed. Steps with the
// same `exchange` run in one exchange, tagged with that number (e.g. both
// ports of a Trivance phase, seeds/002, or a super-step of a pipeline);
// see coll::execute for when that is allowed.
struct PlanStep {
  int step = 0;      // its number in the program, the same on every rank
  int exchange = 0;  // the first step of its exchange (<= step)
  int phase = 0;     // index into Plan::phases
  Action action = Action::copy;
  std::vector<PlanMessage> sends, receives;
};

// The executor's form of a rank's steps (made by coll::planCode, in
// coll/executor.hpp, from a plan checkPlan passed): the same steps, grouped
// by exchange, with the pairing of sends with receives worked out, and all
// of it -- groups, steps, pairs, messages, part lists -- in ONE block of
// memory. A collective that runs after other work (cold caches) then reads
// a few contiguous cache lines of its plan, not a vector per message and
// per part list.
class PlanCode {
 public:
  struct Message {
    int peer = 0;
    std::uint32_t parts = 0;      // its parts: part(parts .. parts + count)
    std::uint32_t peerParts = 0;  // a local receive's sources, as many (else == parts)
    std::uint32_t count = 0;
    std::uint32_t segment = 0;    // its first segment in its group's send or receive list
  };
  struct Step {
    int step = 0;  // its number in the program (the tag of its recording)
    int phase = 0;
    Action action = Action::copy;
    std::uint32_t firstSend = 0, firstReceive = 0, endReceive = 0;  // into messages
  };
  // One send and one remote receive of a group, run as one PeerExchange
  // (an index of -1: none that way).
  struct Pair {
    std::int32_t send = -1, receive = -1;
  };
  struct Group {
    int exchange = 0;  // its tag
    std::uint32_t firstStep = 0, endStep = 0, firstPair = 0, endPair = 0;
    std::uint32_t receivedParts = 0;  // over its receives, local ones too
    // A lone step whose one receive is a local copy or merge of other parts
    // than it writes: filed straight from its source, not staged.
    bool direct = false;
  };
  // A part-list entry: a part, and for a receive whether the group also
  // sends that part (then it cannot land where it is read from).
  struct PartRef {
    std::int32_t part = 0;
    std::uint32_t sentToo = 0;
  };

  // Lays out the block for these lists (made by planCode).
  PlanCode() = default;
  PlanCode(const std::vector<Group>& groups, const std::vector<Step>& steps, const std::vector<Pair>& pairs,
           const std::vector<Message>& messages, const std::vector<PartRef>& parts,
           const std::vector<std::int32_t>& unwritten) {
    std::size_t bytes = 0;
    auto place = [&](std::uint32_t& at, std::size_t size) {
      at = static_cast<std::uint32_t>(bytes);
      bytes += (size + kAlign - 1) / kAlign * kAlign;
    };
    // In the order a call reads them.
    place(unwritten_, unwritten.size() * sizeof(std::int32_t));
    place(groups_, groups.size() * sizeof(Group));
    place(steps_, steps.size() * sizeof(Step));
    place(pairs_, pairs.size() * sizeof(Pair));
    place(messages_, messages.size() * sizeof(Message));
    place(parts_, parts.size() * sizeof(PartRef));
    block_.assign(bytes, std::byte{0});  // new's alignment, at least kAlign
    auto copy = [&](std::size_t at, const auto& v) {
      using U = std::decay_t<decltype(v[0])>;
      for (std::size_t i = 0; i < v.size(); ++i) new (block_.data() + at + i * sizeof(U)) U(v[i]);
    };
    copy(groups_, groups);
    copy(steps_, steps);
    copy(pairs_, pairs);
    copy(messages_, messages);
    copy(parts_, parts);
    copy(unwritten_, unwritten);
    numGroups = groups.size();
    numUnwritten = unwritten.size();
  }

  // Where the lists start: what a call reads first, for Comm::plan to
  // prefetch along with the plan.
  const void* hotMemory() const { return block_.data(); }
  const Group* groups() const { return at<Group>(groups_); }
  const Step* steps() const { return at<Step>(steps_); }
  const Pair* pairs() const { return at<Pair>(pairs_); }
  const Message* messages() const { return at<Message>(messages_); }
  const PartRef* parts() const { return at<PartRef>(parts_); }
  // The parts no step of the rank writes (it only sends them, if at all).
  const std::int32_t* unwritten() const { return at<std::int32_t>(unwritten_); }

  std::size_t numGroups = 0;  // by increasing step; groups of no messages left out
  std::size_t numUnwritten = 0;
  // The most any group needs, so a call sizes its lists once.
  std::uint32_t maxSendSegments = 0, maxReceiveSegments = 0, maxPairs = 0, maxReceivedParts = 0;

 private:
  static constexpr std::size_t kAlign = alignof(std::uint64_t);
  static_assert(alignof(Group) <= kAlign && alignof(Step) <= kAlign && alignof(Message) <= kAlign,
                "PlanCode's lists are 8-byte aligned");
  template <class U>
  const U* at(std::size_t offset) const {
    return std::launder(reinterpret_cast<const U*>(block_.data() + offset));
  }
  std::vector<std::byte> block_;  // the lists, each at a byte offset
  std::uint32_t groups_ = 0, steps_ = 0, pairs_ = 0, messages_ = 0, parts_ = 0, unwritten_ = 0;
};

struct Plan {
  Kind kind = Kind::allreduce;
  int ranks = 1;
  int rank = 0;
  int root = -1;  // rooted kinds only
  int parts = 1;  // data parts, then scratchParts more
  int scratchParts = 0;
  int numSteps = 0;  // the program's steps, the same on every rank
  // Set once coll::checkPlan passed (the Comm's cache checks a plan when it
  // makes it), with `code` made from the steps: the executor then runs
  // `code` and skips the checks that read only the plan. These fields and
  // the ones above are what a call reads: two adjacent lines.
  bool checked = false;
  PlanCode code;
  std::vector<std::string> phases;  // the names of the steps' phases
  std::vector<PlanStep> steps;      // this rank's steps, by increasing number
  std::uint32_t schedule = 0;       // its cache key's hash (Comm::keyHash), for checked mode

  const void* hotMemory() const { return code.hotMemory(); }
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

// The index of the phase named `name` in plan.phases, added if new.
inline int phaseIndex(Plan& plan, const std::string& name) {
  for (std::size_t i = 0; i < plan.phases.size(); ++i)
    if (plan.phases[i] == name) return static_cast<int>(i);
  plan.phases.push_back(name);
  return static_cast<int>(plan.phases.size()) - 1;
}

// The name of phase `phase` of the plan (e.g. a step's).
inline const std::string& phaseName(const Plan& plan, int phase) {
  static const std::string unnamed = "step";
  return phase >= 0 && static_cast<std::size_t>(phase) < plan.phases.size()
             ? plan.phases[static_cast<std::size_t>(phase)]
             : unnamed;
}
inline const std::string& phaseOf(const Plan& plan, const PlanStep& step) {
  return phaseName(plan, step.phase);
}

// Appends the program's next step, number plan.numSteps, in phase `phase`,
// and returns its number; the rank's plan lists it only if the rank sends
// or receives in it. It runs in the exchange of step `exchange` (an
// earlier step of the same exchange), or in its own if that is negative.
inline int appendStep(Plan& plan, PlanStep step, const std::string& phase, int exchange = -1) {
  const int number = plan.numSteps++;
  if (step.sends.empty() && step.receives.empty()) return number;
  step.step = number;
  step.exchange = exchange >= 0 ? exchange : number;
  step.phase = phaseIndex(plan, phase);
  plan.steps.push_back(std::move(step));
  return number;
}

}  // namespace coll
