#pragma once
// The executor: runs one rank's Plan (coll/plan.hpp) on a Transport, over
// parts laid out by the caller, and optionally records what it actually
// sent, received and merged (coll/recording.hpp).

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "coll/merge.hpp"
#include "coll/plan.hpp"
#include "coll/recording.hpp"
#include "coll/transport.hpp"

namespace coll {

// Where part i of this rank lives: n elements at data, where it is written
// and where its value ends. A part may start elsewhere, at `initial` (e.g.
// a block of the send buffer): it is read there until it is first written
// and copied to data at the end if it never is (an initial equal to data
// is no other start), unless the part is scratch (`keep` false: its value
// at the end is nobody's result). Data regions are disjoint from each
// other and from every other part's initial region.
template <class T>
struct PartView {
  T* data = nullptr;
  std::size_t n = 0;
  const T* initial = nullptr;  // null or == data: the part starts at data
  bool keep = true;            // false: scratch, its final value is not wanted

  // Where the part starts, if not at data.
  const T* startsElsewhere() const { return initial != data ? initial : nullptr; }
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
inline void checkPlan(const Plan& plan) {
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

template <class T, class Op>
void execute(Transport& transport, const Plan& plan, PartSpan<T> parts, Op op,
             Recording* recording = nullptr, ExecutorBuffers* buffers = nullptr) {
  static_assert(std::is_trivially_copyable_v<T>, "coll::execute needs a trivially copyable T");
  const int rank = transport.rank();
  if (rank != plan.rank || transport.size() != plan.ranks)
    throw Error("coll::execute: the plan is for rank " + std::to_string(plan.rank) + " of " +
                std::to_string(plan.ranks) + ", the transport is rank " + std::to_string(rank) +
                " of " + std::to_string(transport.size()));
  if (parts.size() != static_cast<std::size_t>(plan.parts + plan.scratchParts))
    throw Error("coll::execute: the plan has " + std::to_string(plan.parts + plan.scratchParts) +
                " parts, the layout " + std::to_string(parts.size()));
  if (!plan.checked) checkPlan(plan);
  if (recording) recording->describe(plan, RecordedOpOf<Op>::value);
  std::optional<ExecutorBuffers> local;  // only when the caller keeps none
  ExecutorBuffers& b = buffers ? *buffers : local.emplace();
  std::vector<char>& sentNow = b.sentNow;
  std::vector<char>& moved = b.moved;
  sentNow.assign(parts.size(), 0);
  moved.assign(parts.size(), 0);
  // Part indices are in range (checkPlan); whether a part has storage is
  // the layout's.
  auto part = [&](int i) -> const PartView<T>& {
    const PartView<T>& view = parts[static_cast<std::size_t>(i)];
    if (!view.data && view.n)
      throw Error("coll::execute: rank " + std::to_string(rank) + " has no storage for part " +
                  std::to_string(i) + ", which the plan moves");
    return view;
  };
  // Where part p's value is now.
  auto source = [&](int p) -> const T* {
    const PartView<T>& view = part(p);
    return view.startsElsewhere() && !moved[static_cast<std::size_t>(p)] ? view.initial : view.data;
  };
  auto isLocal = [&](const PlanMessage& m) { return m.peer == rank; };
  std::vector<unsigned char>& buffer = b.staging;
  std::vector<SendSegment>& sendSegs = b.sendSegs;
  std::vector<RecvSegment>& recvSegs = b.recvSegs;
  std::vector<PeerExchange>& exchanges = b.exchanges;
  std::vector<std::size_t>& sendStart = b.sendStart;
  std::vector<std::size_t>& recvStart = b.recvStart;
  const std::vector<PlanStep>& steps = plan.steps;
  const std::size_t numSteps = steps.size();
  for (std::size_t first = 0; first < numSteps;) {
    std::size_t last = first + 1;  // the group [first, last) runs in one exchange
    const int exchange = steps[first].exchange;
    while (last < numSteps && steps[last].exchange == exchange) ++last;
    // Every part a send reads, flagged before anything is written (no
    // step of a group touches what an earlier one writes: checkPlan).
    bool empty = true;
    for (std::size_t s = first; s < last; ++s) {
      const PlanStep& step = steps[s];
      empty &= step.sends.empty() && step.receives.empty();
      for (const PlanMessage& m : step.sends)
        for (int p : m.parts) {
          part(p);  // a part the plan sends must have storage
          sentNow[static_cast<std::size_t>(p)] = 1;
        }
    }
    if (empty) {
      first = last;
      continue;
    }
    // A lone step whose one receive is local (a copy or merge between two
    // of this rank's parts, e.g. a scan's carry) reads its source in place
    // when it files, not through `buffer`: nothing else of the group
    // writes in between, provided it reads none of the parts it writes.
    const PlanMessage* direct = nullptr;
    if (last - first == 1 && steps[first].receives.size() == 1 &&
        isLocal(steps[first].receives[0])) {
      const PlanMessage& m = steps[first].receives[0];
      bool disjoint = true;
      for (int p : m.parts)
        disjoint &= std::find(m.peerParts.begin(), m.peerParts.end(), p) == m.peerParts.end();
      if (disjoint) direct = &m;
    }
    // A received part lands in place when its step copies it and the
    // group does not also send it from there; otherwise in `buffer` first.
    // Decided once per received part, in the group's order, before
    // anything is filed (filing changes what is sent and where parts are).
    std::vector<char>& landsInPlace = b.landsInPlace;
    landsInPlace.clear();
    std::size_t total = 0;
    for (std::size_t s = first; s < last; ++s)
      for (const PlanMessage& m : steps[s].receives)
        for (int p : m.parts) {
          const bool here = steps[s].action == Action::copy && !isLocal(m) &&
                            !(sentNow[static_cast<std::size_t>(p)] && source(p) == part(p).data);
          landsInPlace.push_back(here);
          if (!here && !direct) total += part(p).n;
        }
    if (buffer.size() < total * sizeof(T)) buffer.resize(total * sizeof(T));
    T* incoming = reinterpret_cast<T*>(buffer.data());
    sendSegs.clear();
    recvSegs.clear();
    sendStart.clear();
    recvStart.clear();
    exchanges.clear();
    std::size_t offset = 0, k = 0;  // k: index into landsInPlace
    for (std::size_t s = first; s < last; ++s) {
      for (const PlanMessage& m : steps[s].sends) {
        sendStart.push_back(sendSegs.size());
        for (int p : m.parts) sendSegs.push_back({source(p), part(p).n * sizeof(T)});
      }
      for (const PlanMessage& m : steps[s].receives) {
        if (isLocal(m)) {
          // Read now, before the exchange writes anything in place (or,
          // direct, when filed).
          for (std::size_t i = 0; i < m.parts.size(); ++i) {
            const PartView<T>& from = part(m.peerParts[i]);
            if (from.n != part(m.parts[i]).n)
              throw Error("coll::execute: step " + std::to_string(steps[s].step) + " of rank " +
                          std::to_string(rank) + " copies part " +
                          std::to_string(m.peerParts[i]) + " into part " +
                          std::to_string(m.parts[i]) + " of another size");
            if (direct) continue;
            const T* in = source(m.peerParts[i]);
            std::copy(in, in + from.n, incoming + offset);
            offset += from.n;
          }
          k += m.parts.size();
          continue;
        }
        recvStart.push_back(recvSegs.size());
        for (int p : m.parts) {
          if (landsInPlace[k++]) {
            recvSegs.push_back({part(p).data, part(p).n * sizeof(T)});
            continue;
          }
          recvSegs.push_back({incoming + offset, part(p).n * sizeof(T)});
          offset += part(p).n;
        }
      }
    }
    sendStart.push_back(sendSegs.size());
    recvStart.push_back(recvSegs.size());
    // Pair the group's sends and remote receives into exchanges, in order.
    struct Cursor {
      std::size_t step, message, index;
    };
    Cursor out{first, 0, 0}, in{first, 0, 0};
    auto advance = [&](Cursor& c, bool sends) -> const PlanMessage* {
      for (; c.step < last; ++c.step, c.message = 0) {
        const std::vector<PlanMessage>& list =
            sends ? steps[c.step].sends : steps[c.step].receives;
        while (c.message < list.size()) {
          const PlanMessage& m = list[c.message++];
          if (sends || !isLocal(m)) return &m;
        }
      }
      return nullptr;
    };
    for (;;) {
      const PlanMessage* to = advance(out, true);
      const PlanMessage* from = advance(in, false);
      if (!to && !from) break;
      PeerExchange e{nullptr, 0, kNoPeer, nullptr, 0, kNoPeer};
      if (to) {
        e.sends = sendSegs.data() + sendStart[out.index];
        e.numSends = sendStart[out.index + 1] - sendStart[out.index];
        e.to = to->peer;
        ++out.index;
      }
      if (from) {
        e.recvs = recvSegs.data() + recvStart[in.index];
        e.numRecvs = recvStart[in.index + 1] - recvStart[in.index];
        e.from = from->peer;
        ++in.index;
      }
      exchanges.push_back(e);
    }
    if (!exchanges.empty()) transport.exchangeAll(exchanges.data(), exchanges.size(), exchange);
    // File what was staged, in the order of the plan.
    offset = 0;
    k = 0;
    for (std::size_t s = first; s < last; ++s) {
      const PlanStep& step = steps[s];
      const int tag = step.step;
      for (const PlanMessage& m : step.receives) {
        for (std::size_t i = 0; i < m.parts.size(); ++i) {
          const int p = m.parts[i];
          const PartView<T>& into = part(p);
          if (!landsInPlace[k++]) {  // staged, or a direct local copy or merge
            const T* in = direct ? source(m.peerParts[i]) : incoming + offset;
            if (step.action == Action::copy)
              std::copy(in, in + into.n, into.data);
            else if (into.startsElsewhere() && !moved[static_cast<std::size_t>(p)])
              mergeInto(m.peer, rank, in, into.initial, into.data, into.n, op);  // first write: one pass
            else
              mergeFrom(m.peer, rank, in, into.data, into.n, op);
            if (!direct) offset += into.n;
          }
          moved[static_cast<std::size_t>(p)] = 1;
        }
        if (recording) {
          const std::string& phase = phaseOf(plan, step);
          if (isLocal(m)) recording->sent(tag, rank, rank, m.peerParts);
          recording->received(tag, m.peer, rank, m.parts, step.action, phase);
        }
      }
      if (recording)
        for (const PlanMessage& m : step.sends) recording->sent(tag, rank, m.peer, m.parts);
    }
    for (std::size_t s = first; s < last; ++s)
      for (const PlanMessage& m : steps[s].sends)
        for (int p : m.parts) sentNow[static_cast<std::size_t>(p)] = 0;
    first = last;
  }
  // A part never written ends where it started: copy it to its data
  // (unless it is scratch).
  for (std::size_t p = 0; p < parts.size(); ++p)
    if (parts[p].keep && parts[p].startsElsewhere() && !moved[p] && parts[p].n)
      std::copy(parts[p].initial, parts[p].initial + parts[p].n, parts[p].data);
}

// The same over a vector of parts.
template <class T, class Op>
void execute(Transport& transport, const Plan& plan, const std::vector<PartView<T>>& parts, Op op,
             Recording* recording = nullptr, ExecutorBuffers* buffers = nullptr) {
  execute(transport, plan, PartSpan<T>(parts), op, recording, buffers);
}

}  // namespace coll
