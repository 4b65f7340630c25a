#pragma once
// The executor: runs one rank's Plan (coll/plan.hpp) on a Transport, over
// parts laid out by the caller, and optionally records what it actually
// sent, received and merged (coll::Recording), step by step, as the
// coll.program that `collc verify` reads.

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "coll/peer_steps.hpp"
#include "coll/plan.hpp"
#include "coll/transport.hpp"

namespace coll {

// Where part i of this rank lives: n elements at data.
template <class T>
struct PartView {
  T* data = nullptr;
  std::size_t n = 0;
};

// What every rank of a run sent and received, by step, gathered from the
// executors that share it (ranks in one process, e.g. on LocalTransport).
// Each message is recorded twice, by its sender (the parts it read) and by
// its receiver (the parts it wrote and how), and printed as one transfer.
class Recording {
 public:
  void sent(int step, int src, int dst, const std::vector<int>& parts) {
    std::lock_guard<std::mutex> lock(mutex_);
    sends_[{step, src, dst}].push_back(parts);
  }
  void received(int step, int src, int dst, const std::vector<int>& parts, Action action,
                const std::string& phase) {
    std::lock_guard<std::mutex> lock(mutex_);
    receives_[{step, src, dst}].push_back({parts, action});
    phases_[step] = phase;
  }
  void describe(const Plan& plan) {
    std::lock_guard<std::mutex> lock(mutex_);
    kind_ = plan.kind;
    ranks_ = plan.ranks;
    root_ = plan.root;
    parts_ = plan.parts;
    scratchParts_ = plan.scratchParts;
  }

  // What the run did that no coll.program can say, one line each: a step
  // whose receivers file with different actions, a message sent and not
  // received or received and not sent. Empty for a faithful run.
  std::vector<std::string> problems() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    std::map<int, Action> first;
    for (const auto& [key, received] : receives_) {
      auto [step, src, dst] = key;
      for (const Received& r : received) {
        auto [it, fresh] = first.try_emplace(step, r.action);
        if (!fresh && it->second != r.action)
          out.push_back("step " + std::to_string(step) + ": rank " + std::to_string(dst) +
                        " files rank " + std::to_string(src) +
                        "'s message with another action than the step's other receivers");
      }
      auto s = sends_.find(key);
      if (s == sends_.end() || s->second.size() != received.size())
        out.push_back("step " + std::to_string(step) + ": rank " + std::to_string(dst) +
                      " received " + std::to_string(received.size()) + " message(s) from rank " +
                      std::to_string(src) + ", which sent " +
                      std::to_string(s == sends_.end() ? 0 : s->second.size()));
    }
    for (const auto& [key, sent] : sends_)
      if (!receives_.count(key)) {
        auto [step, src, dst] = key;
        out.push_back("step " + std::to_string(step) + ": rank " + std::to_string(src) +
                      " sent rank " + std::to_string(dst) + " a message it never received");
      }
    return out;
  }

  // The recorded run as a coll.program named `name` with operator attribute
  // `op` (e.g. "#coll.op<sum>"). A message sent and never received (or the
  // other way round) is printed with the side that was seen, and so fails
  // the proof.
  std::string program(const std::string& name, const std::string& op = "#coll.op<sum>") const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::ostringstream os;
    os << "coll.program @" << name << " attributes {kind = #coll.kind<" << kindName(kind_)
       << ">, num_parts = " << parts_ + scratchParts_ << " : i64";
    if (scratchParts_) os << ", num_scratch_parts = " << scratchParts_ << " : i64";
    os << ", num_ranks = " << ranks_ << " : i64, op = " << op;
    if (root_ >= 0) os << ", root = " << root_ << " : i64";
    os << "} {\n";
    std::map<int, std::vector<std::string>> steps;
    std::map<int, Action> actions;
    auto list = [](const std::vector<int>& parts) {
      std::string s = "[";
      for (std::size_t i = 0; i < parts.size(); ++i)
        s += (i ? ", " : "") + std::to_string(parts[i]);
      return s + "]";
    };
    auto keys = [&] {
      std::vector<Key> all;
      for (const auto& [key, v] : sends_) all.push_back(key);
      for (const auto& [key, v] : receives_) all.push_back(key);
      std::sort(all.begin(), all.end());
      all.erase(std::unique(all.begin(), all.end()), all.end());
      return all;
    }();
    for (const Key& key : keys) {
      auto [step, src, dst] = key;
      auto s = sends_.find(key);
      auto r = receives_.find(key);
      std::size_t n = std::max(s == sends_.end() ? 0 : s->second.size(),
                               r == receives_.end() ? 0 : r->second.size());
      for (std::size_t i = 0; i < n; ++i) {
        const std::vector<int>* sent =
            s != sends_.end() && i < s->second.size() ? &s->second[i] : nullptr;
        const Received* got = r != receives_.end() && i < r->second.size() ? &r->second[i] : nullptr;
        std::string text = std::to_string(src) + " -> " + std::to_string(dst) + " " +
                           list(sent ? *sent : got->parts);
        if (sent && got && got->parts != *sent) text += " into " + list(got->parts);
        steps[step].push_back(text);
        if (got) actions[step] = got->action;
      }
    }
    for (const auto& [step, transfers] : steps) {
      auto action = actions.count(step) ? actions.at(step) : Action::copy;
      auto phase = phases_.count(step) ? phases_.at(step) : std::string("step");
      os << "  coll.step \"" << phase << "\" "
         << (action == Action::copy ? "copy" : action == Action::combine ? "combine" : "fold")
         << " {";
      for (std::size_t i = 0; i < transfers.size(); ++i) os << (i ? ", " : "") << transfers[i];
      os << "}\n";
    }
    os << "}\n";
    return os.str();
  }

 private:
  using Key = std::tuple<int, int, int>;  // step, src, dst
  struct Received {
    std::vector<int> parts;
    Action action;
  };
  mutable std::mutex mutex_;
  std::map<Key, std::vector<std::vector<int>>> sends_;
  std::map<Key, std::vector<Received>> receives_;
  std::map<int, std::string> phases_;
  Kind kind_ = Kind::allreduce;
  int ranks_ = 1, root_ = -1, parts_ = 1, scratchParts_ = 0;
};

// Runs `plan` on `transport` (whose rank and size must be the plan's) over
// `parts` (plan.parts + plan.scratchParts of them), merging with `op`
// (the lower rank's value first, as the verifier's rank order assumes).
// Step s is message tag s. With `recording`, every message is recorded.
// `buffers` (reused across calls when given, e.g. Comm::executorBuffers())
// hold the step's segment lists and what arrives to be merged, or to be
// copied over a part the step also sends; other copies land in place.
template <class T, class Op>
void execute(Transport& transport, const Plan& plan, const std::vector<PartView<T>>& parts, Op op,
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
  if (recording) recording->describe(plan);
  auto part = [&](int i) -> const PartView<T>& {
    if (i < 0 || static_cast<std::size_t>(i) >= parts.size())
      throw Error("coll::execute: the plan names part " + std::to_string(i) + " of " +
                  std::to_string(parts.size()));
    const PartView<T>& view = parts[static_cast<std::size_t>(i)];
    if (!view.data && view.n)
      throw Error("coll::execute: rank " + std::to_string(rank) + " has no storage for part " +
                  std::to_string(i) + ", which the plan moves");
    return view;
  };
  ExecutorBuffers local;
  ExecutorBuffers& b = buffers ? *buffers : local;
  std::vector<unsigned char>& buffer = b.staging;
  std::vector<char>& sentNow = b.sentNow;
  sentNow.assign(parts.size(), 0);
  std::vector<SendSegment>& sendSegs = b.sendSegs;
  std::vector<RecvSegment>& recvSegs = b.recvSegs;
  std::vector<PeerExchange>& exchanges = b.exchanges;
  std::vector<std::size_t>& sendStart = b.sendStart;
  std::vector<std::size_t>& recvStart = b.recvStart;
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const PlanStep& step = plan.steps[s];
    if (step.sends.empty() && step.receives.empty()) continue;
    const int tag = static_cast<int>(s);
    // Sends read the parts in place: nothing is written before the
    // exchange completes. A received part lands in place when the step
    // copies it and does not also send it; otherwise in `buffer` first.
    for (const PlanMessage& m : step.sends)
      for (int p : m.parts) {
        part(p);  // a part the plan names must exist before it is flagged
        sentNow[static_cast<std::size_t>(p)] = 1;
      }
    const bool copies = step.action == Action::copy;
    auto inPlace = [&](int p) { return copies && !sentNow[static_cast<std::size_t>(p)]; };
    std::size_t total = 0;
    for (const PlanMessage& m : step.receives)
      for (int p : m.parts)
        if (!inPlace(p)) total += part(p).n;
    if (buffer.size() < total * sizeof(T)) buffer.resize(total * sizeof(T));
    T* incoming = reinterpret_cast<T*>(buffer.data());
    sendSegs.clear();
    recvSegs.clear();
    sendStart.clear();
    recvStart.clear();
    for (const PlanMessage& m : step.sends) {
      sendStart.push_back(sendSegs.size());
      for (int p : m.parts) sendSegs.push_back({part(p).data, part(p).n * sizeof(T)});
    }
    std::size_t offset = 0;
    for (const PlanMessage& m : step.receives) {
      recvStart.push_back(recvSegs.size());
      for (int p : m.parts) {
        if (inPlace(p)) {
          recvSegs.push_back({part(p).data, part(p).n * sizeof(T)});
          continue;
        }
        recvSegs.push_back({incoming + offset, part(p).n * sizeof(T)});
        offset += part(p).n;
      }
    }
    sendStart.push_back(sendSegs.size());
    recvStart.push_back(recvSegs.size());
    exchanges.clear();
    const std::size_t n = std::max(step.sends.size(), step.receives.size());
    for (std::size_t i = 0; i < n; ++i) {
      PeerExchange e{nullptr, 0, kNoPeer, nullptr, 0, kNoPeer};
      if (i < step.sends.size())
        e = {sendSegs.data() + sendStart[i], sendStart[i + 1] - sendStart[i], step.sends[i].peer,
             nullptr, 0, kNoPeer};
      if (i < step.receives.size()) {
        e.recvs = recvSegs.data() + recvStart[i];
        e.numRecvs = recvStart[i + 1] - recvStart[i];
        e.from = step.receives[i].peer;
      }
      exchanges.push_back(e);
    }
    transport.exchangeAll(exchanges.data(), exchanges.size(), tag);
    // File what was staged, in the order of the plan.
    offset = 0;
    for (const PlanMessage& m : step.receives) {
      for (int p : m.parts) {
        if (inPlace(p)) continue;
        const PartView<T>& into = part(p);
        const T* in = incoming + offset;
        if (copies)
          std::copy(in, in + into.n, into.data);
        else
          mergeFrom(m.peer, rank, in, into.data, into.n, op);
        offset += into.n;
      }
      if (recording)
        recording->received(tag, m.peer, rank, m.parts, step.action,
                            s < plan.phases.size() ? plan.phases[s] : "step");
    }
    if (recording)
      for (const PlanMessage& m : step.sends) recording->sent(tag, rank, m.peer, m.parts);
    for (const PlanMessage& m : step.sends)
      for (int p : m.parts) sentNow[static_cast<std::size_t>(p)] = 0;
  }
}

}  // namespace coll
