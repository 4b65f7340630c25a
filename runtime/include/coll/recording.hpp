#pragma once
// What collectives actually did, as the coll.program that `collc verify`
// reads: coll::Recording (filled by the executor, coll/executor.hpp), and
// the recording of every call on a Comm into a file (Comm::recordTo,
// COLLC_RECORD), gathered over the Comm's own transport.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "coll/error.hpp"
#include "coll/linkage.hpp"
#include "coll/merge.hpp"
#include "coll/plan.hpp"
#include "coll/transport.hpp"

namespace coll {

// What every rank of a run sent and received, by step, gathered from the
// executors that share it (ranks in one process, e.g. on LocalTransport).
// Each message is recorded twice, by its sender (the parts it read) and by
// its receiver (the parts it wrote and how), and printed as one transfer.
class Recording {
 public:
  // The `count` parts at `parts`, read by src for dst in `step`.
  void sent(int step, int src, int dst, const int* parts, std::size_t count);
  // The `count` parts at `parts`, written by dst from src's message of `step`.
  void received(int step, int src, int dst, const int* parts, std::size_t count, Action action,
                const std::string& phase);
  void describe(const Plan& plan, RecordedOp op = RecordedOp::sum) {
    std::lock_guard<std::mutex> lock(mutex_);
    op_ = op;
    kind_ = plan.kind;
    ranks_ = plan.ranks;
    root_ = plan.root;
    parts_ = plan.parts;
    scratchParts_ = plan.scratchParts;
  }

  // The recorded collective's kind (that of the plan last described).
  Kind kind() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return kind_;
  }

  // Adds what `other` recorded (e.g. another rank's part of one run).
  void merge(const Recording& other);

  // The recording as integers, for sending to another rank (decode reads
  // it back).
  std::vector<std::int64_t> encode() const;

  // Adds the recording encode() wrote; throws on anything else.
  void mergeEncoded(const std::int64_t* data, std::size_t n);

  // What the run did that no coll.program can say, one line each: a step
  // whose receivers file with different actions, a message sent and not
  // received or received and not sent. Empty for a faithful run.
  std::vector<std::string> problems() const;

  // The recorded run as a coll.program named `name`, with the operator the
  // run was given (coll::RecordedOpOf: e.g. `op = #coll.op<max>`, or
  // `op = #coll.op<custom>, noncommutative` for coll::InRankOrder). A
  // message sent and never received (or the other way round) is printed
  // with the side that was seen, and so fails the proof.
  std::string program(const std::string& name) const;

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
  RecordedOp op_ = RecordedOp::sum;
  int ranks_ = 1, root_ = -1, parts_ = 1, scratchParts_ = 0;
};

// The tag of the messages that gather a call's record to rank 0: MPI's
// guaranteed tag upper bound, above any step of a plan that records.
constexpr int kRecordTag = 32767;

// Gathers a call's record to rank 0: every rank but 0 sends its record
// (`mine`); rank 0 adds its own and every other rank's to `all`. Every
// rank of `transport` must call it, after the same call.
void gatherRecording(Transport& transport, const Recording& mine, Recording& all);

// Records one call on `comm` into comm.recordFile(): gathers the ranks'
// records (`mine` is this rank's) and, on rank 0, writes the call's
// program, replacing the file for the Comm's first recorded call.
void recordCall(Comm& comm, const Recording& mine);

#if COLLC_RUNTIME_DEFINITIONS
COLLC_RUNTIME_INLINE void Recording::sent(int step, int src, int dst, const int* parts, std::size_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  sends_[{step, src, dst}].emplace_back(parts, parts + count);
}

COLLC_RUNTIME_INLINE void Recording::received(int step, int src, int dst, const int* parts, std::size_t count,
                                              Action action, const std::string& phase) {
  std::lock_guard<std::mutex> lock(mutex_);
  receives_[{step, src, dst}].push_back({std::vector<int>(parts, parts + count), action});
  phases_[step] = phase;
}

COLLC_RUNTIME_INLINE void Recording::merge(const Recording& other) {
  if (&other == this) return;
  std::scoped_lock lock(mutex_, other.mutex_);
  for (const auto& [key, lists] : other.sends_)
    sends_[key].insert(sends_[key].end(), lists.begin(), lists.end());
  for (const auto& [key, lists] : other.receives_)
    receives_[key].insert(receives_[key].end(), lists.begin(), lists.end());
  for (const auto& [step, phase] : other.phases_) phases_[step] = phase;
  kind_ = other.kind_;
  op_ = other.op_;
  ranks_ = other.ranks_;
  root_ = other.root_;
  parts_ = other.parts_;
  scratchParts_ = other.scratchParts_;
}

COLLC_RUNTIME_INLINE std::vector<std::int64_t> Recording::encode() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::int64_t> out{static_cast<std::int64_t>(kind_), static_cast<std::int64_t>(op_),
                                ranks_, root_, parts_, scratchParts_};
  auto key = [&](const Key& k) {
    out.push_back(std::get<0>(k));
    out.push_back(std::get<1>(k));
    out.push_back(std::get<2>(k));
  };
  auto list = [&](const std::vector<int>& parts) {
    out.push_back(static_cast<std::int64_t>(parts.size()));
    out.insert(out.end(), parts.begin(), parts.end());
  };
  out.push_back(static_cast<std::int64_t>(sends_.size()));
  for (const auto& [k, lists] : sends_) {
    key(k);
    out.push_back(static_cast<std::int64_t>(lists.size()));
    for (const auto& parts : lists) list(parts);
  }
  out.push_back(static_cast<std::int64_t>(receives_.size()));
  for (const auto& [k, lists] : receives_) {
    key(k);
    out.push_back(static_cast<std::int64_t>(lists.size()));
    for (const Received& r : lists) {
      out.push_back(static_cast<std::int64_t>(r.action));
      list(r.parts);
    }
  }
  out.push_back(static_cast<std::int64_t>(phases_.size()));
  for (const auto& [step, phase] : phases_) {
    out.push_back(step);
    out.push_back(static_cast<std::int64_t>(phase.size()));
    out.insert(out.end(), phase.begin(), phase.end());
  }
  return out;
}

COLLC_RUNTIME_INLINE void Recording::mergeEncoded(const std::int64_t* data, std::size_t n) {
  std::size_t at = 0;
  auto next = [&]() -> std::int64_t {
    if (at >= n) throw Error("coll::Recording::mergeEncoded: the record ends early");
    return data[at++];
  };
  auto count = [&] {
    std::int64_t c = next();
    if (c < 0 || static_cast<std::size_t>(c) > n - at)
      throw Error("coll::Recording::mergeEncoded: a count of " + std::to_string(c) +
                  " in a record of " + std::to_string(n));
    return static_cast<std::size_t>(c);
  };
  auto toInt = [](std::int64_t v) { return static_cast<int>(v); };
  auto key = [&] {
    int step = toInt(next()), src = toInt(next()), dst = toInt(next());
    return Key{step, src, dst};
  };
  auto list = [&] {
    std::vector<int> parts(count());
    for (int& p : parts) p = toInt(next());
    return parts;
  };
  std::lock_guard<std::mutex> lock(mutex_);
  Recording& r = *this;
  r.kind_ = static_cast<Kind>(next());
  const std::int64_t op = next();
  if (op < 0 || op > static_cast<std::int64_t>(RecordedOp::customInRankOrder))
    throw Error("coll::Recording::mergeEncoded: operator " + std::to_string(op));
  r.op_ = static_cast<RecordedOp>(op);
  r.ranks_ = toInt(next());
  r.root_ = toInt(next());
  r.parts_ = toInt(next());
  r.scratchParts_ = toInt(next());
  for (std::size_t k = count(); k > 0; --k) {
    auto& lists = r.sends_[key()];
    for (std::size_t i = count(); i > 0; --i) lists.push_back(list());
  }
  for (std::size_t k = count(); k > 0; --k) {
    auto& lists = r.receives_[key()];
    for (std::size_t i = count(); i > 0; --i) {
      auto action = static_cast<Action>(next());
      lists.push_back({list(), action});
    }
  }
  for (std::size_t k = count(); k > 0; --k) {
    int step = toInt(next());
    std::string phase(count(), ' ');
    for (char& c : phase) c = static_cast<char>(next());
    r.phases_[step] = phase;
  }
  if (at != n) throw Error("coll::Recording::mergeEncoded: " + std::to_string(n - at) + " values left over");
}

COLLC_RUNTIME_INLINE std::vector<std::string> Recording::problems() const {
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

COLLC_RUNTIME_INLINE std::string Recording::program(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  static const char* const names[] = {"sum", "prod", "min", "max", "custom", "custom"};
  std::string op = std::string("#coll.op<") + names[static_cast<int>(op_)] + ">";
  if (op_ == RecordedOp::customInRankOrder) op += ", noncommutative";
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

COLLC_RUNTIME_INLINE void gatherRecording(Transport& transport, const Recording& mine, Recording& all) {
  const int rank = transport.rank(), P = transport.size();
  if (rank != 0) {
    std::vector<std::int64_t> record = mine.encode();
    std::int64_t n = static_cast<std::int64_t>(record.size());
    SendSegment size{&n, sizeof n}, data{record.data(), record.size() * sizeof(std::int64_t)};
    transport.exchange(&size, 1, 0, nullptr, 0, kNoPeer, kRecordTag);
    transport.exchange(&data, 1, 0, nullptr, 0, kNoPeer, kRecordTag);
    return;
  }
  all.merge(mine);
  for (int src = 1; src < P; ++src) {
    std::int64_t n = 0;
    RecvSegment size{&n, sizeof n};
    transport.exchange(nullptr, 0, kNoPeer, &size, 1, src, kRecordTag);
    if (n < 0)
      throw Error("coll::gatherRecording: rank " + std::to_string(src) + " sent a record of " +
                  std::to_string(n) + " values");
    std::vector<std::int64_t> record(static_cast<std::size_t>(n));
    RecvSegment data{record.data(), record.size() * sizeof(std::int64_t)};
    transport.exchange(nullptr, 0, kNoPeer, &data, 1, src, kRecordTag);
    all.mergeEncoded(record.data(), record.size());
  }
}

COLLC_RUNTIME_INLINE void recordCall(Comm& comm, const Recording& mine) {
  Recording all;
  gatherRecording(comm.transport(), mine, all);
  int& calls = comm.callsRecorded();
  const int call = calls++;
  if (comm.rank() != 0) return;
  std::ofstream out(comm.recordFile(), call == 0 ? std::ios::trunc : std::ios::app);
  if (out)
    out << "// collc recording: call " << call << " on " << comm.size() << " ranks\n"
        << all.program(std::string(kindName(all.kind())) + "_" + std::to_string(call));
  if (!out) throw Error("coll: cannot write the recording to '" + comm.recordFile() + "'");
}
#endif  // COLLC_RUNTIME_DEFINITIONS

}  // namespace coll
