#pragma once
// The executor: runs one rank's Plan (coll/plan.hpp) on a Transport, over
// parts laid out by the caller, and optionally records what it actually
// sent, received and merged (coll/recording.hpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "coll/linkage.hpp"
#include "coll/merge.hpp"
#include "coll/plan.hpp"
#include "coll/recording.hpp"
#include "coll/transport.hpp"

namespace coll {

// Where part i of this rank lives: n elements at data, where it is written
// and where its value ends. A part may start elsewhere, at `initial` (e.g.
// a block of the send buffer): it is read there until it is first written,
// and copied to data before the first step if no step writes it (an
// initial equal to data is no other start), unless the part is scratch
// (`keep` false: its value at the end is nobody's result). Data regions
// are disjoint from each other and from every other part's initial region.
template <class T>
struct PartView {
  T* data = nullptr;
  std::size_t n = 0;
  const T* initial = nullptr;  // null or == data: the part starts at data
  bool keep = true;            // false: scratch, its final value is not wanted
};

// Runs `plan` on `transport` (whose rank and size must be the plan's) over
// `parts` (plan.parts + plan.scratchParts of them), merging with `op`
// (the lower rank's value first, as the verifier's rank order assumes).
// The rank's steps run in the order of their numbers; steps that share an
// exchange number run in one exchange, tagged with it, which is the same as
// running them in turn only if no step of the group reads or writes, on
// this rank, a part an earlier step of the group writes: the executor
// checks that (checkPlan, once for a plan marked checked) and throws
// otherwise. A
// message from this rank to itself (a receive from `rank`) is a local copy
// or merge. With `recording`, every message is recorded. `buffers` (reused
// across calls when given, e.g. Comm::executorBuffers()) hold the step's
// segment lists and what arrives to be merged, or to be copied over a part
// the step also sends; other copies land in place.
// The parts of one call: a view of the caller's array (e.g. in the Comm's
// Workspace) or of a vector.
template <class T>
struct PartSpan {
  const PartView<T>* views = nullptr;
  std::size_t count = 0;
  PartSpan(const PartView<T>* v, std::size_t n) : views(v), count(n) {}
  explicit PartSpan(const std::vector<PartView<T>>& v) : views(v.data()), count(v.size()) {}
  std::size_t size() const { return count; }
  const PartView<T>& operator[](std::size_t i) const { return views[i]; }
};

// Throws unless `plan` can run as coll::execute runs it, by what the plan
// alone says (its parts are plan.parts + plan.scratchParts): steps listed
// by increasing number inside the program, each in its own exchange or an
// earlier step's, no step of an exchange touching a part that an earlier
// step of it writes, every part named in range, and every local copy
// pairing as many parts as it reads. Sizes and storage are the layout's,
// checked on every call.
void checkPlan(const Plan& plan);

// The executor's form of `plan` (PlanCode), which checkPlan passed: its
// steps grouped by exchange, each group's sends paired with its remote
// receives in order (the i-th send with the i-th receive from another
// rank), each message's first segment in its group's lists, and for each
// received part whether its group also sends it.
PlanCode planCode(const Plan& plan);

namespace detail {
// Checks and lowers a plan not marked checked (a test's hand-made plan),
// on every call; out of the executor's hot path.
const PlanCode& uncheckedCode(const Plan& plan, std::optional<PlanCode>& code);

[[noreturn, gnu::cold]]
void noStorage(int rank, int part);

[[noreturn, gnu::cold]]
void otherSize(int step, int rank, int from, int into);

// A copy of a part's bytes (std::copy's memmove; a part of none may have
// no storage).
inline void copyBytes(unsigned char* to, const unsigned char* from, std::size_t bytes) {
  if (bytes) std::memmove(to, from, bytes);
}

// Zeroes the state of n parts (ExecutorBuffers::prepare gives whole
// 16-byte blocks): a few parts, the common case, in one store rather than
// a call into the C library's memset, whose code is cold on a call after
// other work.
inline void clearPartState(unsigned char* state, std::size_t n) {
  if (n <= 16)
    std::memset(state, 0, 16);
  else
    std::memset(state, 0, n);
}

// The parts of `count` entries at `refs`, as the recording takes them.
std::vector<int> partsOf(const PlanCode::PartRef* refs, std::uint32_t count);

// Records what `step` of `rank` received (and, for a local copy or merge,
// sent itself) and then sent, once its group is filed. Out of line and
// cold: a call without a recording runs none of it, and its code stays
// out of the lines the executor's loops run.
[[gnu::cold]]
void recordStep(Recording& recording, const Plan& plan, int rank,
                const PlanCode::Step& step, const PlanCode::Message* messages,
                const PlanCode::PartRef* partList);

// A transport's failure (a wait past COLLC_TIMEOUT_MS, a message of
// another size, MPI's or UCX's error) named with the collective and step.
[[noreturn, gnu::cold]]
void failedExchange(const Plan& plan, int step, const Error& e);

[[noreturn, gnu::cold]]
void mismatch(const Plan& plan, int rank, int size, std::size_t parts);
}  // namespace detail

// The element type and operator of a call, as the executor merges: its
// one body (detail::executeBytes) is compiled once, not once per element
// type and operator, and calls these for each merge of a received part.
struct Merger {
  const void* op;  // the caller's operator, for the duration of the call
  RecordedOp recorded;
  bool merges;  // false: NoMerge, the operator of the kinds that only move data
  void (*from)(const void* op, int from, int rank, const unsigned char* in, unsigned char* acc,
               std::size_t bytes);
  void (*into)(const void* op, int from, int rank, const unsigned char* in, const unsigned char* mine,
               unsigned char* out, std::size_t bytes);
};

namespace detail {
template <class T, class Op>
void mergeFromBytes(const void* op, int from, int rank, const unsigned char* in, unsigned char* acc,
                    std::size_t bytes) {
  mergeFrom(from, rank, reinterpret_cast<const T*>(in), reinterpret_cast<T*>(acc), bytes / sizeof(T),
            *static_cast<const Op*>(op));
}
template <class T, class Op>
void mergeIntoBytes(const void* op, int from, int rank, const unsigned char* in, const unsigned char* mine,
                    unsigned char* out, std::size_t bytes) {
  mergeInto(from, rank, reinterpret_cast<const T*>(in), reinterpret_cast<const T*>(mine),
            reinterpret_cast<T*>(out), bytes / sizeof(T), *static_cast<const Op*>(op));
}

// coll::execute on parts in bytes (the caller's `count` of them at
// `parts`) with `buffers`.
void executeBytes(Transport& transport, const Plan& plan, const BytePart* parts, std::size_t count,
                  const Merger& merger, Recording* recording, ExecutorBuffers& buffers);
}  // namespace detail

// The Merger of element type T and operator `op`, valid while op lives.
template <class T, class Op>
Merger mergerOf(const Op& op) {
  return Merger{&op, RecordedOpOf<Op>::value, !std::is_same_v<Op, NoMerge>,
                &detail::mergeFromBytes<T, Op>, &detail::mergeIntoBytes<T, Op>};
}

namespace detail {
// coll::execute with the operator as a Merger: once per element type.
template <class T>
void executeParts(Transport& transport, const Plan& plan, PartSpan<T> parts, const Merger& merger,
                  Recording* recording, ExecutorBuffers* buffers) {
  static_assert(std::is_trivially_copyable_v<T>, "coll::execute needs a trivially copyable T");
  std::optional<ExecutorBuffers> local;  // only when the caller keeps none
  ExecutorBuffers& b = buffers ? *buffers : local.emplace();
  BytePart* bytes = b.byteParts(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const PartView<T>& view = parts[i];
    bytes[i] = {reinterpret_cast<unsigned char*>(view.data), view.n * sizeof(T),
                reinterpret_cast<const unsigned char*>(view.initial), view.keep};
  }
  executeBytes(transport, plan, bytes, parts.size(), merger, recording, b);
}
}  // namespace detail

template <class T, class Op>
void execute(Transport& transport, const Plan& plan, PartSpan<T> parts, Op op,
             Recording* recording = nullptr, ExecutorBuffers* buffers = nullptr) {
  detail::executeParts(transport, plan, parts, mergerOf<T>(op), recording, buffers);
}

// The same over a vector of parts.
template <class T, class Op>
void execute(Transport& transport, const Plan& plan, const std::vector<PartView<T>>& parts, Op op,
             Recording* recording = nullptr, ExecutorBuffers* buffers = nullptr) {
  execute(transport, plan, PartSpan<T>(parts), op, recording, buffers);
}

#if COLLC_RUNTIME_DEFINITIONS
COLLC_RUNTIME_INLINE void checkPlan(const Plan& plan) {
  const int rank = plan.rank;
  const std::size_t numParts = static_cast<std::size_t>(plan.parts + plan.scratchParts);
  const std::vector<PlanStep>& steps = plan.steps;
  std::vector<char> written(numParts, 0);
  for (std::size_t first = 0; first < steps.size();) {
    std::size_t last = first + 1;  // the group [first, last) runs in one exchange
    const int exchange = steps[first].exchange;
    while (last < steps.size() && steps[last].exchange == exchange) ++last;
    for (std::size_t s = first; s < last; ++s) {
      const PlanStep& step = steps[s];
      if (step.step >= plan.numSteps || step.step < 0)
        throw Error("coll::execute: rank " + std::to_string(rank) + "'s plan has step " +
                    std::to_string(step.step) + " of a program of " +
                    std::to_string(plan.numSteps) + " steps");
      if (s > 0 && step.step <= steps[s - 1].step)
        throw Error("coll::execute: rank " + std::to_string(rank) + "'s plan lists step " +
                    std::to_string(step.step) + " after step " + std::to_string(steps[s - 1].step));
      if (exchange > step.step || (s == first && s > 0 && exchange <= steps[s - 1].step))
        throw Error("coll::execute: rank " + std::to_string(rank) + "'s step " +
                    std::to_string(step.step) + " runs in the exchange of step " +
                    std::to_string(exchange));
    }
    for (std::size_t s = first; s < last; ++s) {
      const PlanStep& step = steps[s];
      auto touch = [&](int p) {
        if (p < 0 || static_cast<std::size_t>(p) >= numParts)
          throw Error("coll::execute: the plan names part " + std::to_string(p) + " of " +
                      std::to_string(numParts));
        if (written[static_cast<std::size_t>(p)])
          throw Error("coll::execute: step " + std::to_string(step.step) + " of rank " +
                      std::to_string(rank) + " touches part " + std::to_string(p) +
                      ", which an earlier step of its group writes");
      };
      for (const PlanMessage& m : step.sends)
        for (int p : m.parts) touch(p);
      for (const PlanMessage& m : step.receives) {
        if (m.peer == rank)
          for (int p : m.peerParts) touch(p);
        for (int p : m.parts) touch(p);
      }
      if (last - first > 1)
        for (const PlanMessage& m : step.receives)
          for (int p : m.parts) written[static_cast<std::size_t>(p)] = 1;
    }
    for (std::size_t s = first; s < last; ++s)
      for (const PlanMessage& m : steps[s].receives)
        if (m.peer == rank && m.parts.size() != m.peerParts.size())
          throw Error("coll::execute: step " + std::to_string(steps[s].step) + " of rank " +
                      std::to_string(rank) + " copies " + std::to_string(m.peerParts.size()) +
                      " part(s) into " + std::to_string(m.parts.size()));
    for (std::size_t s = first; s < last; ++s)
      for (const PlanMessage& m : steps[s].receives)
        for (int p : m.parts) written[static_cast<std::size_t>(p)] = 0;
    first = last;
  }
}

COLLC_RUNTIME_INLINE PlanCode planCode(const Plan& plan) {
  std::vector<PlanCode::Group> groups;
  std::vector<PlanCode::Step> codeSteps;
  std::vector<PlanCode::Pair> pairs;
  std::vector<PlanCode::Message> messages;
  std::vector<PlanCode::PartRef> parts;
  std::uint32_t maxSendSegments = 0, maxReceiveSegments = 0, maxPairs = 0, maxReceivedParts = 0;
  const std::vector<PlanStep>& steps = plan.steps;
  std::vector<int> sentInGroup;  // the parts the current group sends
  auto add = [&](const PlanMessage& m, bool local, std::uint32_t segment, bool receive) {
    PlanCode::Message message;
    message.peer = m.peer;
    message.count = static_cast<std::uint32_t>(m.parts.size());
    message.parts = message.peerParts = static_cast<std::uint32_t>(parts.size());
    message.segment = segment;
    for (int p : m.parts) {
      const bool sentToo = receive && std::find(sentInGroup.begin(), sentInGroup.end(), p) != sentInGroup.end();
      parts.push_back({p, sentToo ? 1u : 0u});
    }
    if (local) {
      message.peerParts = static_cast<std::uint32_t>(parts.size());
      for (int p : m.peerParts) parts.push_back({p, 0});
    }
    messages.push_back(message);
    return static_cast<std::int32_t>(messages.size() - 1);
  };
  std::vector<std::int32_t> sends, receives;  // the group's remote messages, in order
  for (std::size_t first = 0; first < steps.size();) {
    std::size_t last = first + 1;  // the group [first, last) runs in one exchange
    while (last < steps.size() && steps[last].exchange == steps[first].exchange) ++last;
    bool empty = true;
    for (std::size_t s = first; s < last; ++s)
      empty &= steps[s].sends.empty() && steps[s].receives.empty();
    if (empty) {
      first = last;
      continue;
    }
    sentInGroup.clear();
    for (std::size_t s = first; s < last; ++s)
      for (const PlanMessage& m : steps[s].sends) sentInGroup.insert(sentInGroup.end(), m.parts.begin(), m.parts.end());
    PlanCode::Group group;
    group.exchange = steps[first].exchange;
    group.firstStep = static_cast<std::uint32_t>(codeSteps.size());
    std::uint32_t sendSegments = 0, receiveSegments = 0;
    sends.clear();
    receives.clear();
    for (std::size_t s = first; s < last; ++s) {
      const PlanStep& step = steps[s];
      PlanCode::Step out;
      out.step = step.step;
      out.phase = step.phase;
      out.action = step.action;
      out.firstSend = static_cast<std::uint32_t>(messages.size());
      for (const PlanMessage& m : step.sends) {
        sends.push_back(add(m, false, sendSegments, false));
        sendSegments += static_cast<std::uint32_t>(m.parts.size());
      }
      out.firstReceive = static_cast<std::uint32_t>(messages.size());
      for (const PlanMessage& m : step.receives) {
        const bool local = m.peer == plan.rank;
        const std::int32_t index = add(m, local, local ? 0 : receiveSegments, true);
        if (!local) {
          receives.push_back(index);
          receiveSegments += static_cast<std::uint32_t>(m.parts.size());
        }
        group.receivedParts += static_cast<std::uint32_t>(m.parts.size());
      }
      out.endReceive = static_cast<std::uint32_t>(messages.size());
      codeSteps.push_back(out);
    }
    group.endStep = static_cast<std::uint32_t>(codeSteps.size());
    group.firstPair = static_cast<std::uint32_t>(pairs.size());
    for (std::size_t i = 0; i < std::max(sends.size(), receives.size()); ++i)
      pairs.push_back({i < sends.size() ? sends[i] : -1, i < receives.size() ? receives[i] : -1});
    group.endPair = static_cast<std::uint32_t>(pairs.size());
    if (last - first == 1 && steps[first].receives.size() == 1 &&
        steps[first].receives[0].peer == plan.rank) {
      const PlanMessage& m = steps[first].receives[0];
      group.direct = true;
      for (int p : m.parts)
        group.direct &= std::find(m.peerParts.begin(), m.peerParts.end(), p) == m.peerParts.end();
    }
    maxSendSegments = std::max(maxSendSegments, sendSegments);
    maxReceiveSegments = std::max(maxReceiveSegments, receiveSegments);
    maxPairs = std::max(maxPairs, group.endPair - group.firstPair);
    maxReceivedParts = std::max(maxReceivedParts, group.receivedParts);
    groups.push_back(group);
    first = last;
  }
  std::vector<char> written(static_cast<std::size_t>(plan.parts + plan.scratchParts), 0);
  for (const PlanStep& step : steps)
    for (const PlanMessage& m : step.receives)
      for (int p : m.parts) written[static_cast<std::size_t>(p)] = 1;
  std::vector<std::int32_t> unwritten;
  for (std::size_t p = 0; p < written.size(); ++p)
    if (!written[p]) unwritten.push_back(static_cast<std::int32_t>(p));
  PlanCode code(groups, codeSteps, pairs, messages, parts, unwritten);
  code.maxSendSegments = maxSendSegments;
  code.maxReceiveSegments = maxReceiveSegments;
  code.maxPairs = maxPairs;
  code.maxReceivedParts = maxReceivedParts;
  return code;
}

namespace detail {
[[gnu::noinline]]
COLLC_RUNTIME_INLINE const PlanCode& uncheckedCode(const Plan& plan, std::optional<PlanCode>& code) {
  checkPlan(plan);
  return code.emplace(planCode(plan));
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE void noStorage(int rank, int part) {
  throw Error("coll::execute: rank " + std::to_string(rank) + " has no storage for part " +
              std::to_string(part) + ", which the plan moves");
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE void otherSize(int step, int rank, int from, int into) {
  throw Error("coll::execute: step " + std::to_string(step) + " of rank " + std::to_string(rank) +
              " copies part " + std::to_string(from) + " into part " + std::to_string(into) +
              " of another size");
}

COLLC_RUNTIME_INLINE std::vector<int> partsOf(const PlanCode::PartRef* refs, std::uint32_t count) {
  std::vector<int> parts(count);
  for (std::uint32_t j = 0; j < count; ++j) parts[j] = refs[j].part;
  return parts;
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE void recordStep(Recording& recording, const Plan& plan, int rank,
                                     const PlanCode::Step& step, const PlanCode::Message* messages,
                                     const PlanCode::PartRef* partList) {
  const std::string& phase = phaseName(plan, step.phase);
  for (std::uint32_t i = step.firstReceive; i < step.endReceive; ++i) {
    const PlanCode::Message& m = messages[i];
    if (m.peer == rank) {
      const std::vector<int> from = partsOf(partList + m.peerParts, m.count);
      recording.sent(step.step, rank, rank, from.data(), m.count);
    }
    const std::vector<int> into = partsOf(partList + m.parts, m.count);
    recording.received(step.step, m.peer, rank, into.data(), m.count, step.action, phase);
  }
  for (std::uint32_t i = step.firstSend; i < step.firstReceive; ++i) {
    const std::vector<int> sent = partsOf(partList + messages[i].parts, messages[i].count);
    recording.sent(step.step, rank, messages[i].peer, sent.data(), messages[i].count);
  }
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE void failedExchange(const Plan& plan, int step, const Error& e) {
  throw Error(std::string("coll::execute: ") + kindName(plan.kind) + " on rank " +
              std::to_string(plan.rank) + " of " + std::to_string(plan.ranks) + ", step " +
              std::to_string(step) + ": " + e.what());
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE void mismatch(const Plan& plan, int rank, int size, std::size_t parts) {
  if (rank != plan.rank || size != plan.ranks)
    throw Error("coll::execute: the plan is for rank " + std::to_string(plan.rank) + " of " +
                std::to_string(plan.ranks) + ", the transport is rank " + std::to_string(rank) +
                " of " + std::to_string(size));
  throw Error("coll::execute: the plan has " + std::to_string(plan.parts + plan.scratchParts) +
              " parts, the layout " + std::to_string(parts));
}

// The executor's one body: coll::execute's comment says what it does.
COLLC_RUNTIME_INLINE void executeBytes(Transport& transport, const Plan& plan, const BytePart* parts,
                                       std::size_t count, const Merger& merger, Recording* recording,
                                       ExecutorBuffers& b) {
  const int rank = transport.rank();
  if (rank != plan.rank || transport.size() != plan.ranks ||
      count != static_cast<std::size_t>(plan.parts + plan.scratchParts))
    mismatch(plan, rank, transport.size(), count);
  std::optional<PlanCode> unchecked;  // made on every call for a plan not marked checked
  const PlanCode& code = plan.checked ? plan.code : uncheckedCode(plan, unchecked);
  if (__builtin_expect(recording != nullptr, 0)) recording->describe(plan, merger.recorded);
  const ExecutorBuffers::Lists lists = b.prepare(count, code.maxSendSegments, code.maxReceiveSegments,
                                                 code.maxPairs, code.maxReceivedParts);
  // Per part: written since the start (moved off its initial).
  unsigned char* moved = lists.partState;
  clearPartState(moved, count);
  SendSegment* sendSegs = lists.sendSegs;
  RecvSegment* recvSegs = lists.recvSegs;
  PeerExchange* exchanges = lists.exchanges;
  unsigned char* landsInPlace = lists.landsInPlace;
  const PlanCode::Message* messages = code.messages();
  const PlanCode::PartRef* partList = code.parts();
  // Part indices are in range (checkPlan); whether a part has storage is
  // the layout's.
  auto part = [&](int i) -> const BytePart& {
    const BytePart& view = parts[static_cast<std::size_t>(i)];
    if (!view.data && view.bytes) noStorage(rank, i);
    return view;
  };
  // Where part p's value is now.
  auto source = [&](int p) -> const unsigned char* {
    const BytePart& view = part(p);
    return view.startsElsewhere() && !moved[p] ? view.initial : view.data;
  };
  // A part that starts elsewhere and no step writes ends where it started:
  // it is copied there first and its sends read the copy (as a
  // hand-written collective copies its own block, then sends it from
  // cache: MPICH's 16 MiB allgather was 1.15-1.27x the hand ring copying
  // last). Scratch is not copied.
  const std::int32_t* unwritten = code.unwritten();
  for (std::size_t i = 0; i < code.numUnwritten; ++i) {
    const int p = unwritten[i];
    const BytePart& view = parts[static_cast<std::size_t>(p)];
    if (!view.keep || !view.startsElsewhere() || !view.bytes) continue;
    copyBytes(part(p).data, view.initial, view.bytes);
    moved[p] = 1;
  }
  std::vector<unsigned char>& buffer = b.staging;
  const PlanCode::Group* groups = code.groups();
  for (std::size_t g = 0; g < code.numGroups; ++g) {
    const PlanCode::Group& group = groups[g];
    const PlanCode::Step* steps = code.steps() + group.firstStep;
    const std::size_t numSteps = group.endStep - group.firstStep;
    // What the sends read, and where each received part lands: in place
    // when its step copies it and the group does not also send it from
    // there; otherwise in `buffer` first (a direct local copy or merge:
    // read from its source when filed). Decided in the group's order
    // before anything is filed (filing changes where parts are).
    std::size_t total = 0, k = 0;  // k: index into landsInPlace
    for (std::size_t s = 0; s < numSteps; ++s) {
      for (std::uint32_t i = steps[s].firstSend; i < steps[s].firstReceive; ++i) {
        const PlanCode::Message& m = messages[i];
        for (std::uint32_t j = 0; j < m.count; ++j) {
          const int p = partList[m.parts + j].part;
          sendSegs[m.segment + j] = {source(p), part(p).bytes};
        }
      }
      for (std::uint32_t i = steps[s].firstReceive; i < steps[s].endReceive; ++i) {
        const PlanCode::Message& m = messages[i];
        const bool copyHere = steps[s].action == Action::copy && m.peer != rank;
        for (std::uint32_t j = 0; j < m.count; ++j) {
          const PlanCode::PartRef& ref = partList[m.parts + j];
          const bool here = copyHere && !(ref.sentToo && source(ref.part) == part(ref.part).data);
          landsInPlace[k++] = here;
          if (!here && !group.direct) total += part(ref.part).bytes;
        }
      }
    }
    if (buffer.size() < total) buffer.resize(total);
    unsigned char* incoming = buffer.data();
    std::size_t offset = 0;
    k = 0;
    for (std::size_t s = 0; s < numSteps; ++s)
      for (std::uint32_t i = steps[s].firstReceive; i < steps[s].endReceive; ++i) {
        const PlanCode::Message& m = messages[i];
        if (m.peer == rank) {
          // Read now, before the exchange writes anything in place (or,
          // direct, when filed).
          for (std::uint32_t j = 0; j < m.count; ++j) {
            const int from = partList[m.peerParts + j].part, into = partList[m.parts + j].part;
            if (part(from).bytes != part(into).bytes) otherSize(steps[s].step, rank, from, into);
            if (group.direct) continue;
            copyBytes(incoming + offset, source(from), part(from).bytes);
            offset += part(from).bytes;
          }
          k += m.count;
          continue;
        }
        for (std::uint32_t j = 0; j < m.count; ++j) {
          const BytePart& into = part(partList[m.parts + j].part);
          if (landsInPlace[k++]) {
            recvSegs[m.segment + j] = {into.data, into.bytes};
          } else {
            recvSegs[m.segment + j] = {incoming + offset, into.bytes};
            offset += into.bytes;
          }
        }
      }
    // The group's sends and remote receives, paired into exchanges.
    const std::size_t numPairs = group.endPair - group.firstPair;
    const PlanCode::Pair* pairs = code.pairs() + group.firstPair;
    for (std::size_t i = 0; i < numPairs; ++i) {
      PeerExchange e{nullptr, 0, kNoPeer, nullptr, 0, kNoPeer};
      if (pairs[i].send >= 0) {
        const PlanCode::Message& m = messages[pairs[i].send];
        e.sends = sendSegs + m.segment;
        e.numSends = m.count;
        e.to = m.peer;
      }
      if (pairs[i].receive >= 0) {
        const PlanCode::Message& m = messages[pairs[i].receive];
        e.recvs = recvSegs + m.segment;
        e.numRecvs = m.count;
        e.from = m.peer;
      }
      exchanges[i] = e;
    }
    if (numPairs) {
      try {
        transport.exchangeAll(exchanges, numPairs, group.exchange);
      } catch (const Error& e) {
        failedExchange(plan, steps[0].step, e);
      }
    }
    // File what was staged, in the order of the plan.
    offset = 0;
    k = 0;
    for (std::size_t s = 0; s < numSteps; ++s) {
      const PlanCode::Step& step = steps[s];
      for (std::uint32_t i = step.firstReceive; i < step.endReceive; ++i) {
        const PlanCode::Message& m = messages[i];
        for (std::uint32_t j = 0; j < m.count; ++j) {
          const int p = partList[m.parts + j].part;
          const BytePart& into = part(p);
          if (!landsInPlace[k++]) {  // staged, or a direct local copy or merge
            const unsigned char* in = group.direct ? source(partList[m.peerParts + j].part) : incoming + offset;
            if (step.action == Action::copy)
              copyBytes(into.data, in, into.bytes);
            else if (into.startsElsewhere() && !moved[p])  // first write: one pass
              merger.into(merger.op, m.peer, rank, in, into.initial, into.data, into.bytes);
            else
              merger.from(merger.op, m.peer, rank, in, into.data, into.bytes);
            if (!group.direct) offset += into.bytes;
          }
          moved[p] = 1;
        }
      }
      if (__builtin_expect(recording != nullptr, 0))
        recordStep(*recording, plan, rank, step, messages, partList);
    }
  }
}
}  // namespace detail
#endif  // COLLC_RUNTIME_DEFINITIONS

}  // namespace coll
