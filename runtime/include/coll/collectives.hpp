#pragma once
// Collectives through the one executor: for each family, the layout of
// each kind's buffers as parts, the family's plan (the function the
// compiler expands and proves: coll::treePlan, digitPlan, trivancePlan,
// scanPlan, groupPlan, butterflyRankPlan, doublingPlan), cached in the Comm, and coll::execute. Generated headers call
// these; so do the tests, on LocalTransport.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "coll/buffers.hpp"
#include "coll/butterfly.hpp"
#include "coll/checked.hpp"
#include "coll/executor.hpp"
#include "coll/digits.hpp"
#include "coll/group_moves.hpp"
#include "coll/groups.hpp"
#include "coll/linkage.hpp"
#include "coll/plan.hpp"
#include "coll/recording.hpp"
#include "coll/scans.hpp"
#include "coll/segments.hpp"
#include "coll/transport.hpp"
#include "coll/trees.hpp"

namespace coll {

// The Comm's cache key of a plan: the family's name and the plan
// function's arguments as bytes, made on the stack without formatting (a
// collective called in a loop looks its plan up on every call).
class PlanKey {
 public:
  // Inline, so that a call's constant family and arguments become a few
  // stores in the caller's code rather than a call into code of its own
  // (a cold call misses every line of code it runs: "Where a cold call
  // waits" in docs/history/benchmarks-2026-12.md).
  [[gnu::always_inline]] PlanKey(std::string_view family, std::initializer_list<int> args) {
    if (__builtin_expect(family.size() + args.size() * sizeof(int) > sizeof(bytes_), 0)) tooLong(family);
    std::memcpy(bytes_, family.data(), family.size());
    size_ = family.size();
    for (int a : args) {
      std::memcpy(bytes_ + size_, &a, sizeof(int));
      size_ += sizeof(int);
    }
  }
  std::string_view view() const { return {bytes_, size_}; }
  // The key of this plan pipelined over `segments` segments (pipelinePlan).
  PlanKey segmented(int segments) const {
    PlanKey key = *this;
    if (key.size_ + sizeof(int) + 1 > sizeof(bytes_))
      throw Error("coll::PlanKey: the key of a segmented plan is too long");
    key.bytes_[key.size_++] = 'S';
    std::memcpy(key.bytes_ + key.size_, &segments, sizeof(int));
    key.size_ += sizeof(int);
    return key;
  }

 private:
  [[noreturn, gnu::noinline, gnu::cold]] static void tooLong(std::string_view family) {
    throw Error("coll::PlanKey: the key of '" + std::string(family) + "' is too long");
  }
  char bytes_[64];
  std::size_t size_ = 0;
};

// The keys of the families' plans in the Comm's cache (the tests use them
// to put a wrong plan there): a short family name and the arguments'
// bytes, so that most keys fit the first line of their cache entry
// (Comm::StoredPlan: 32 bytes of key).
inline PlanKey treePlanKey(Kind kind, const Tree& tree, int root) {
  return PlanKey("treePlan", {static_cast<int>(kind), static_cast<int>(tree.shape), tree.arity,
                              tree.flatBelow, root});
}
inline PlanKey digitPlanKey(const Digits& digits) {
  return PlanKey("digitPlan", {static_cast<int>(digits.system), digits.radix});
}
template <class Group>
PlanKey groupPlanKey(Kind kind, GroupSchedule schedule, const Group& group) {
  const std::uint64_t g = group.planKey();
  return PlanKey("groupPlan", {static_cast<int>(kind), static_cast<int>(schedule),
                               static_cast<int>(g & 0xffffffffu), static_cast<int>(g >> 32)});
}
template <class Group>
PlanKey butterflyPlanKey(Kind kind, int r, const Group& group) {
  const std::uint64_t g = group.planKey();
  return PlanKey("butterflyPlan", {static_cast<int>(kind), r, static_cast<int>(g & 0xffffffffu),
                                   static_cast<int>(g >> 32)});
}
inline PlanKey doublingPlanKey() { return PlanKey("doublingPlan", {}); }
inline PlanKey trivancePlanKey() { return PlanKey("trivancePlan", {}); }
inline PlanKey scanPlanKey(Kind kind, ScanSchedule schedule) {
  return PlanKey("scanPlan", {static_cast<int>(kind), static_cast<int>(schedule)});
}

namespace detail {
int segmentsChecked(const char* who, int segments, std::size_t count, Kind kind,
                    std::initializer_list<Kind> kinds, const char* kindsText);
}  // namespace detail

// The segments a pipelined run of `count` elements uses: `segments`, but
// at most count, so that none is empty (the cost model prices S); 1 for
// no pipelining. `who` and `kinds` name the caller in its errors. No
// pipelining, the common call, is decided inline.
inline int segmentsUsed(const char* who, int segments, std::size_t count, Kind kind,
                        std::initializer_list<Kind> kinds, const char* kindsText) {
  if (__builtin_expect(segments == 1, 1)) return 1;
  return detail::segmentsChecked(who, segments, count, kind, kinds, kindsText);
}

// A callable that makes a Plan, by reference: what makes, checks and
// caches a plan is then one function whatever the caller, not one per
// collective, element type and operator (which multiplied the code a
// header's user compiles: libcollc_mpi.so's reductions held 240 copies).
class PlanMaker {
 public:
  template <class Make>
  explicit PlanMaker(Make& make) : object_(&make), call_(&callAs<Make>) {}
  Plan operator()() const { return call_(object_); }

 private:
  template <class Make>
  static Plan callAs(void* make) {
    return (*static_cast<Make*>(make))();
  }
  void* object_;
  Plan (*call_)(void*);
};

namespace detail {
// checkedPlan's maker: the plan, checked once (checkPlan) with its
// executable form (planCode). One type, so Comm::plan's first-call path
// is compiled once.
struct CheckedPlanMaker {
  PlanMaker make;
  std::string_view key;
  Plan operator()() const;
};
}  // namespace detail

// The plan `make()` from comm's cache under `key`; made (on the first
// call) and checked there once (checkPlan), with its executable form
// (planCode), so the executor skips the checks that read only the plan on
// every later call. A plan put in the
// cache otherwise (a test's wrong plan) is checked on every call.
template <class Make>
const Plan& checkedPlan(Comm& comm, std::string_view key, Make make) {
  return comm.plan<Plan>(key, detail::CheckedPlanMaker{PlanMaker(make), key});
}

namespace detail {
// cachedPlan's pipelined plans, out of the code of a call without segments.
const Plan& segmentedPlan(Comm& comm, const PlanKey& key, int S, PlanMaker make);
}  // namespace detail
// The plan `make()` from comm's cache under `key`, or with S > 1 its
// pipelinePlan over S segments, cached under key.segmented(S). Inline, as
// segmentsUsed's common case and checkGroup's test are: a collective's
// call path is then its own function, the lookup, the executor and the
// transport, with no small functions of its own between (each one more
// code line that a call after other work misses).
template <class Make>
[[gnu::always_inline]] inline const Plan& cachedPlan(Comm& comm, const PlanKey& key, int S, Make make) {
  if (__builtin_expect(S <= 1, 1)) return checkedPlan(comm, key.view(), make);
  return detail::segmentedPlan(comm, key, S, PlanMaker(make));
}

namespace detail {
// checkGroup's error (out of a call's code).
template <class Group>
[[noreturn, gnu::noinline, gnu::cold]] void badGroup(const char* who, const Group& group, int P) {
  if (!group.valid())
    throw Error(std::string(who) + ": the group of size " + std::to_string(group.size()) +
                " is not well formed (xor needs a power-of-two size, a table group its table)");
  throw Error(std::string(who) + ": group size " + std::to_string(group.size()) +
              " does not match communicator size " + std::to_string(P));
}
}  // namespace detail
// Throws unless `group` is well formed (coll/groups.hpp: xor needs a power
// of two, a table group its table) and of the communicator's size P.
template <class Group>
void checkGroup(const char* who, const Group& group, int P) {
  if (__builtin_expect(!group.valid() || group.size() != P, 0)) detail::badGroup(who, group, P);
}

// Parts b = 0 .. P-1 of a buffer of `count` elements laid out by `group`:
// part b is chunk group.position(b) (count cut into P chunks, the first
// count % P one element longer) of data, starting at the same chunk of
// `initial` (null: at data).
template <class T, class Group>
void chunkParts(const Group& group, T* data, const T* initial, std::size_t count,
                PartView<T>* parts, bool keep = true) {
  const int P = group.size();
  for (int b = 0; b < P; ++b) {
    const int chunk = group.position(b);
    const std::size_t at = detail::chunkOffset(count, P, chunk);
    const std::size_t n = detail::chunkOffset(count, P, chunk + 1) - at;
    parts[b] = {data + at, n, initial ? initial + at : nullptr, keep};
  }
}

// A generated call's buffers, checked before it runs (its `count` > 0):
// MPI requires send and recv disjoint unless one is MPI_IN_PLACE, and the
// runtime's in-place forms are MPI's layouts of it: send == recv
// (allreduce, scans, alltoall, the root's reduce), send == recv's own
// block (allgather, the root's gather), recv inside send (reduce_scatter,
// the root's scatter: the own block is merged aside and copied at the
// end). Any other overlap would have the schedule read what it has
// already written: the call throws, naming it. Sizes in elements.
template <class T>
void checkBuffers(const char* fn, Kind kind, int rank, int P, int root, const T* send,
                  const T* recv, std::size_t count) {
  const BufferRule rule = bufferRule(kind);
  const bool isRoot = rank == root;
  if (rule.send == Extent::none || rule.recv == Extent::none) return;  // one buffer or none
  if ((rule.sendAtRootOnly || rule.recvAtRootOnly) && !isRoot) return;  // (the other is the root's only)
  const std::size_t sendSize = elementsOf(rule.send, P, count), recvSize = elementsOf(rule.recv, P, count);
  const char* form = "send == recv";
  bool inPlace = send == recv;
  if (rule.inPlace == InPlace::sendIsOwnBlock) {
    form = "send == recv + rank * count";
    inPlace = send == recv + static_cast<std::size_t>(rank) * count;
  } else if (rule.inPlace == InPlace::recvInSend) {
    form = "recv inside send";
    inPlace = within(recv, send, sendSize);
  }
  if (inPlace) return;
  const std::size_t shared = overlapBytes(send, sendSize * sizeof(T), recv, recvSize * sizeof(T));
  if (shared == 0) return;
  auto elements = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " element" : " elements"); };
  throw Error(std::string(fn) + ": rank " + std::to_string(rank) + "'s send buffer (" + elements(sendSize) +
              ") and receive buffer (" + elements(recvSize) + ") overlap by " +
              elements(shared / sizeof(T)) + ", not in the in-place form (" + form +
              "): MPI requires them disjoint");
}

// A generated call's arguments, checked before it runs (its `count` > 0),
// one rule per kind whatever family serves it (coll::bufferRule): the
// buffers MPI makes significant on this rank are not null (recv of reduce
// and gather, and send of scatter, at the root only; broadcast's one
// buffer is passed as both), then checkBuffers.
template <class T>
void checkArguments(const char* fn, Kind kind, int rank, int P, int root, const T* send,
                    const T* recv, std::size_t count) {
  const BufferRule rule = bufferRule(kind);
  const bool isRoot = rank == root;
  const bool sendRead = rule.send != Extent::none && (!rule.sendAtRootOnly || isRoot);
  const bool recvWritten = rule.recv != Extent::none && (!rule.recvAtRootOnly || isRoot);
  const char* null = sendRead && send == nullptr     ? (rule.recv == Extent::none ? "buffer" : "send")
                     : recvWritten && recv == nullptr ? "recv"
                                                      : nullptr;
  if (null)
    throw Error(std::string(fn) + ": " + null + " is null with count " + std::to_string(count));
  checkBuffers(fn, kind, rank, P, root, send, recv, count);
}

// Where a rank's own block of a P-block-in, one-block-out collective
// (scatter, reduce_scatter) is merged: recv, unless recv lies in send
// (in place: MPI_IN_PLACE puts the result at the start of send, whose
// blocks are still read), where it is merged in `spare` and copied to
// recv by finish().
template <class T>
class OwnBlock {
 public:
  OwnBlock(const T* send, T* recv, std::size_t count, std::size_t blocks, T* spare)
      : recv_(recv), count_(count),
        data_(send && within(static_cast<const T*>(recv), send, blocks * count) ? spare : recv) {}
  T* data() const { return data_; }
  void finish() const {
    if (data_ != recv_ && count_) std::copy(data_, data_ + count_, recv_);
  }

 private:
  T* recv_;
  std::size_t count_;
  T* data_;
};

namespace detail {
// How checked mode prints a generated call's view.
std::string describeGeneratedCall(const CallView& view);

// Checked mode's agreement before a generated call runs `plan`: the kind,
// root and schedule, the element type and operator, and the bytes of the
// plan's data parts.
template <class T>
[[gnu::noinline, gnu::cold]] void checkCall(Comm& comm, const Plan& plan, PartSpan<T> parts,
                                            const Merger& merger) {
  CallView view;
  view.origin = static_cast<std::uint8_t>(CallOrigin::generated);
  view.call = static_cast<std::uint8_t>(plan.kind);
  view.root = plan.root;
  view.schedule = plan.schedule;
  view.element = static_cast<std::uint8_t>(elementCode<T>());
  view.elementSize = sizeof(T);
  view.op = merger.merges ? 1 + static_cast<std::uint8_t>(merger.recorded) : 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(plan.parts) && i < parts.size(); ++i)
    view.bytes += parts[i].n * sizeof(T);
  agreeOnCall(comm, view, describeGeneratedCall);
}

// executeOn with a record file: out of the code of a call without one.
template <class T>
[[gnu::noinline]] void executeRecorded(Comm& comm, const Plan& plan, PartSpan<T> parts,
                                       const Merger& merger) {
  Recording call;
  executeParts(comm.transport(), plan, parts, merger, &call, &comm.executorBuffers());
  if (comm.recording()) comm.recording()->merge(call);
  recordCall(comm, call);
}
}  // namespace detail

// Runs `plan` on comm's transport with its recording and buffers; with a
// record file (Comm::recordTo), records the call into it. Inline (as
// cachedPlan): one function less on a call's path.
template <class T>
[[gnu::always_inline]] inline void executeOn(Comm& comm, const Plan& plan, PartSpan<T> parts,
                                             const Merger& merger) {
  if (__builtin_expect(comm.checked(), 0)) detail::checkCall<T>(comm, plan, parts, merger);
  if (__builtin_expect(!comm.recordFile().empty(), 0))
    return detail::executeRecorded(comm, plan, parts, merger);
  detail::executeParts(comm.transport(), plan, parts, merger, comm.recording(), &comm.executorBuffers());
}

// Runs the tree collective of `kind` on comm. Buffers, by kind (count
// elements per block):
//   reduce, allreduce:  send (count), recv (count; reduce: the root's only);
//   broadcast:          recv (count) is the buffer, send is ignored;
//   gather:             send (count), recv (P blocks, the root's only);
//   scatter:            send (P blocks, the root's only), recv (count);
//   allgather:          send (count), recv (P blocks);
//   reduce_scatter:     send (P blocks), recv (count);
//   barrier:            no buffers (count 0).
// Block b of a P-block buffer is rank b's. `op` merges the lower rank's
// value first. With segments = S > 1 (broadcast, reduce and allreduce)
// the buffer is cut into min(S, count) segments that run the tree's plan
// pipelined (coll::pipelinePlan): segment j runs step t - j in
// super-step t.
namespace detail {
template <class T>
void runTree(Comm& comm, Kind kind, const Tree& tree, int root, const T* send, T* recv,
             std::size_t count, const Merger& merger, int segments) {
  const int P = comm.size(), rank = comm.rank();
  const int S = segmentsUsed("coll::runTree", segments, count, kind,
                             {Kind::broadcast, Kind::reduce, Kind::allreduce},
                             "broadcast, reduce and allreduce");
  const Plan& plan = cachedPlan(comm, treePlanKey(kind, tree, root), S,
                                [&] { return treePlan(kind, tree, P, root, rank); });
  const bool isRoot = rank == root;
  const std::size_t Pz = static_cast<std::size_t>(P);
  Workspace& work = comm.workspace();
  PartView<T>* parts = work.get<PartView<T>>(Workspace::parts, std::max<std::size_t>(
                                                                    static_cast<std::size_t>(plan.parts), Pz));
  auto block = [&](auto* base, int b) { return base + static_cast<std::size_t>(b) * count; };
  // A part starts at `from` unless that is where it lives.
  auto startingAt = [](const T* from, const T* data) { return from == data ? nullptr : from; };
  OwnBlock<T> own(nullptr, recv, 0, 0, nullptr);  // scatter, reduce_scatter: recv's own block
  switch (kind) {
    case Kind::reduce:
    case Kind::allreduce: {
      // A non-root's reduce merges in scratch, read from send until then.
      const bool output = kind == Kind::allreduce || isRoot;
      T* acc = output ? recv : work.get<T>(Workspace::scratch, count);
      parts[0] = {acc, count, startingAt(send, acc), output};
      break;
    }
    case Kind::broadcast:
      parts[0] = {recv, count};
      break;
    case Kind::barrier:  // empty messages: a part of no elements needs no storage
      parts[0] = {nullptr, 0};
      break;
    case Kind::gather:
    case Kind::allgather: {
      // Every block a rank may hold: the root's or everyone's recv, or
      // scratch for the blocks of the subtree a rank forwards; the own
      // block starts in send.
      const bool output = kind == Kind::allgather || isRoot;
      T* blocks = output ? recv : work.get<T>(Workspace::scratch, Pz * count);
      for (int b = 0; b < P; ++b)
        parts[b] = {block(blocks, b), count, b == rank ? startingAt(send, block(blocks, b)) : nullptr, output};
      break;
    }
    case Kind::scatter:
    case Kind::reduce_scatter: {
      // Blocks start in send (the root's for scatter, everyone's for
      // reduce_scatter) and are merged into or forwarded from scratch; the
      // own block lives in recv, unless recv lies in send (in place), where
      // it is merged in scratch and copied at the end.
      const bool hasSend = kind == Kind::reduce_scatter || isRoot;
      T* scratch = work.get<T>(Workspace::scratch, Pz * count);
      own = OwnBlock<T>(hasSend ? send : nullptr, recv, count, Pz, block(scratch, rank));
      for (int b = 0; b < P; ++b)
        parts[b] = {b == rank ? own.data() : block(scratch, b), count,
                    hasSend ? block(send, b) : nullptr, b == rank};
      break;
    }
    default:
      throw Error(std::string("coll::runTree: trees do not serve ") + kindName(kind));
  }
  if (S > 1) {  // the one part cut into segments
    const PartView<T> whole = parts[0];
    const SegmentSplit split{count, static_cast<std::size_t>(S)};
    for (int j = 0; j < S; ++j) {
      const std::size_t at = split.offset(static_cast<std::size_t>(j));
      parts[j] = {whole.data + at, split.length(static_cast<std::size_t>(j)),
                  whole.initial ? whole.initial + at : nullptr, whole.keep};
    }
  }
  executeOn(comm, plan, PartSpan<T>(parts, static_cast<std::size_t>(plan.parts + plan.scratchParts)), merger);
  own.finish();
}
}  // namespace detail
template <class T, class Op>
void runTree(Comm& comm, Kind kind, const Tree& tree, int root, const T* send, T* recv,
             std::size_t count, Op op, int segments = 1) {
  detail::runTree(comm, kind, tree, root, send, recv, count, mergerOf<T>(op), segments);
}

// Runs the digit-routed alltoall (coll::digitPlan) on comm: send and recv
// hold P blocks of count elements, send's block d for rank d, recv's block
// s from rank s. Part j (offset j) starts as send's block rank + j and ends
// as recv's block rank - j; in place (send == recv) the blocks are read
// from a copy.
template <class T>
void runDigitAlltoall(Comm& comm, const Digits& digits, const T* send, T* recv,
                      std::size_t count) {
  const int P = comm.size(), rank = comm.rank();
  const Plan& plan =
      checkedPlan(comm, digitPlanKey(digits).view(), [&] { return digitPlan(digits, P, rank); });
  Workspace& work = comm.workspace();
  const T* from = send;
  if (send == recv) {
    T* copy = work.get<T>(Workspace::copy, static_cast<std::size_t>(P) * count);
    std::copy(send, send + static_cast<std::size_t>(P) * count, copy);
    from = copy;
  }
  PartView<T>* parts = work.get<PartView<T>>(Workspace::parts, static_cast<std::size_t>(P));
  for (int j = 0; j < P; ++j)
    parts[j] = {recv + static_cast<std::size_t>((rank - j + P) % P) * count, count,
                from + static_cast<std::size_t>((rank + j) % P) * count};
  executeOn(comm, plan, PartSpan<T>(parts, static_cast<std::size_t>(P)), mergerOf<T>(NoMerge{}));
}

// Runs the Trivance allreduce (coll::trivancePlan) on comm: send and recv
// hold count elements (in place when send == recv).
namespace detail {
template <class T>
void runTrivance(Comm& comm, const T* send, T* recv, std::size_t count, const Merger& merger) {
  const int P = comm.size(), rank = comm.rank();
  const Plan& plan = checkedPlan(comm, trivancePlanKey().view(), [&] { return trivancePlan(P, rank); });
  Workspace& work = comm.workspace();
  PartView<T>* parts = work.get<PartView<T>>(Workspace::parts, 2);
  parts[0] = {recv, count, send};
  parts[1] = {work.get<T>(Workspace::scratch, count), count, nullptr, false};
  executeOn(comm, plan, PartSpan<T>(parts, 2), merger);
}
}  // namespace detail
template <class T, class Op>
void runTrivance(Comm& comm, const T* send, T* recv, std::size_t count, Op op) {
  detail::runTrivance(comm, send, recv, count, mergerOf<T>(op));
}

// Runs an inclusive or exclusive scan (coll::scanPlan) on comm: send and
// recv hold count elements (in place when send == recv). An exclusive
// scan reads the rank's value from send (in place: from a copy, since recv
// is written), carries prefixes in scratch (the doubling scan in part 0,
// read from send until first merged; the chain in part 2) and leaves rank
// 0's recv as it is.
namespace detail {
template <class T>
void runScan(Comm& comm, Kind kind, ScanSchedule schedule, const T* send, T* recv,
             std::size_t count, const Merger& merger) {
  const int P = comm.size(), rank = comm.rank();
  const Plan& plan = checkedPlan(comm, scanPlanKey(kind, schedule).view(),
                                 [&] { return scanPlan(kind, schedule, P, rank); });
  Workspace& work = comm.workspace();
  PartView<T>* parts = work.get<PartView<T>>(Workspace::parts, 3);
  if (kind == Kind::exclusive_scan) {
    const T* own = send;
    if (send == recv) {
      T* copy = work.get<T>(Workspace::copy, count);
      std::copy(send, send + count, copy);
      own = copy;
    }
    const std::size_t numParts = static_cast<std::size_t>(plan.parts + plan.scratchParts);
    T* scratch = work.get<T>(Workspace::scratch, count * (numParts - 1));
    parts[0] = {scratch, count, own, false};
    parts[1] = {recv, count, nullptr};
    if (numParts == 3) parts[2] = {scratch + count, count, nullptr, false};
    executeOn(comm, plan, PartSpan<T>(parts, numParts), merger);
    return;
  }
  parts[0] = {recv, count, send};
  executeOn(comm, plan, PartSpan<T>(parts, 1), merger);
}
}  // namespace detail
template <class T, class Op>
void runScan(Comm& comm, Kind kind, ScanSchedule schedule, const T* send, T* recv,
             std::size_t count, Op op) {
  detail::runScan(comm, kind, schedule, send, recv, count, mergerOf<T>(op));
}

// An exclusive scan with an init value (std::exclusive_scan's): after
// runScan, rank 0 gets init and rank r op(init, x_0, ..., x_{r-1}).
template <class T, class Op>
void applyScanInit(Comm& comm, T* recv, std::size_t count, Op op, const T& init) {
  const bool first = comm.rank() == 0;
  for (std::size_t i = 0; i < count; ++i) recv[i] = first ? init : op(init, recv[i]);
}

// Runs a group schedule's moves (coll::groupMoves, coll::groupPlan) on
// `group` (a CyclicGroup, XorGroup or TableGroup of comm's size). Buffers, by kind:
//   allreduce:       send, recv (count); part b is chunk group.position(b)
//                    of the buffer (count cut into P chunks, the first
//                    count % P one element longer);
//   reduce_scatter:  send (P blocks of count, block b for rank b), recv
//                    (count); part b is block b, merged in scratch, the
//                    rank's own in recv;
//   allgather:       send (count), recv (P blocks); part b is recv's block b.
// In place when send == recv (allreduce), recv inside send (reduce_scatter:
// MPI_IN_PLACE's recv == send), send == recv + rank * count (allgather).
// With segments = S > 1 (allreduce only) the buffer is cut into
// min(S, count) segments, each laid out as the whole buffer above, that
// run the moves pipelined (coll::pipelinePlan).
namespace detail {
template <class T, class Group>
void runGroup(Comm& comm, Kind kind, GroupSchedule schedule, const Group& group, const T* send,
              T* recv, std::size_t count, const Merger& merger, int segments) {
  const int P = comm.size(), rank = comm.rank();
  checkGroup("coll::runGroup", group, P);
  const int S = segmentsUsed("coll::runGroup", segments, count, kind, {Kind::allreduce},
                             "the allreduce");
  const Plan& plan = cachedPlan(comm, groupPlanKey(kind, schedule, group), S, [&] {
    return groupPlan(kind, groupMoves(schedule, kind, P), group, P, rank);
  });
  Workspace& work = comm.workspace();
  const std::size_t numParts = static_cast<std::size_t>(P) * static_cast<std::size_t>(S);
  PartView<T>* parts = work.get<PartView<T>>(Workspace::parts, numParts);
  OwnBlock<T> own(nullptr, recv, 0, 0, nullptr);  // reduce_scatter: recv's own block
  auto block = [&](auto* base, int b) { return base + static_cast<std::size_t>(b) * count; };
  switch (kind) {
    case Kind::allreduce: {
      const SegmentSplit split{count, static_cast<std::size_t>(S)};
      for (int j = 0; j < S; ++j) {
        const std::size_t base = split.offset(static_cast<std::size_t>(j));
        chunkParts(group, recv + base, send + base, split.length(static_cast<std::size_t>(j)),
                   parts + static_cast<std::size_t>(j) * static_cast<std::size_t>(P));
      }
      break;
    }
    case Kind::reduce_scatter: {
      // Other blocks than the rank's own are scratch: their final values
      // are nobody's.
      T* scratch = work.get<T>(Workspace::scratch, static_cast<std::size_t>(P) * count);
      own = OwnBlock<T>(send, recv, count, static_cast<std::size_t>(P), block(scratch, rank));
      for (int b = 0; b < P; ++b)
        parts[b] = {b == rank ? own.data() : block(scratch, b), count, block(send, b), b == rank};
      break;
    }
    case Kind::allgather:
      for (int b = 0; b < P; ++b) parts[b] = {block(recv, b), count, b == rank ? send : nullptr};
      break;
    default:
      throw Error(std::string("coll::runGroup: group schedules do not serve ") + kindName(kind));
  }
  executeOn(comm, plan, PartSpan<T>(parts, numParts), merger);
  own.finish();
}
}  // namespace detail
template <class T, class Group, class Op>
void runGroup(Comm& comm, Kind kind, GroupSchedule schedule, const Group& group, const T* send,
              T* recv, std::size_t count, Op op, int segments = 1) {
  detail::runGroup(comm, kind, schedule, group, send, recv, count, mergerOf<T>(op), segments);
}

// Runs butterfly(r) for 0 < r (coll::butterflyPlan, butterflyRankPlan) on
// `group` (CyclicGroup, XorGroup or TableGroup of comm's size): send and
// recv hold count elements (in place when send == recv); part b of copy 0
// is chunk group.position(b) of recv, the scratch copies have recv's
// layout. A barrier (kind) runs the same messages with count 0 and no
// buffers.
namespace detail {
template <class T, class Group>
void runButterfly(Comm& comm, int r, const Group& group, const T* send, T* recv,
                  std::size_t count, const Merger& merger, Kind kind) {
  const int P = comm.size(), rank = comm.rank();
  checkGroup("coll::runButterfly", group, P);
  if (kind != Kind::allreduce && (kind != Kind::barrier || count != 0))
    throw Error(std::string("coll::runButterfly: the shifted butterfly serves allreduce and ") +
                "barrier (count 0), not " + kindName(kind) + " of count " + std::to_string(count));
  const Plan& plan = checkedPlan(comm, butterflyPlanKey(kind, r, group).view(), [&] {
    return butterflyRankPlan(butterflyPlan(group, r), group, rank, kind);
  });
  const int copies = 1 + plan.scratchParts / P;
  Workspace& work = comm.workspace();
  T* scratch = work.get<T>(Workspace::scratch, static_cast<std::size_t>(copies - 1) * count);
  const std::size_t numParts = static_cast<std::size_t>(copies) * static_cast<std::size_t>(P);
  PartView<T>* parts = work.get<PartView<T>>(Workspace::parts, numParts);
  chunkParts(group, recv, send, count, parts);
  for (int c = 1; c < copies; ++c)
    chunkParts(group, scratch + static_cast<std::size_t>(c - 1) * count, static_cast<const T*>(nullptr),
               count, parts + static_cast<std::size_t>(c) * static_cast<std::size_t>(P), false);
  executeOn(comm, plan, PartSpan<T>(parts, numParts), merger);
}
}  // namespace detail
template <class T, class Group, class Op>
void runButterfly(Comm& comm, int r, const Group& group, const T* send, T* recv,
                  std::size_t count, Op op, Kind kind = Kind::allreduce) {
  detail::runButterfly(comm, r, group, send, recv, count, mergerOf<T>(op), kind);
}

// Runs recursive doubling (coll::doublingPlan) on comm: send and recv hold
// count elements (in place when send == recv).
namespace detail {
template <class T>
void runDoubling(Comm& comm, const T* send, T* recv, std::size_t count, const Merger& merger) {
  const int P = comm.size(), rank = comm.rank();
  if (P & (P - 1))
    throw Error("coll::runDoubling: recursive doubling needs a power-of-two size, got " +
                std::to_string(P));
  const Plan& plan = checkedPlan(comm, doublingPlanKey().view(), [&] { return doublingPlan(P, rank); });
  PartView<T>* parts = comm.workspace().get<PartView<T>>(Workspace::parts, 1);
  parts[0] = {recv, count, send};
  executeOn(comm, plan, PartSpan<T>(parts, 1), merger);
}
}  // namespace detail
template <class T, class Op>
void runDoubling(Comm& comm, const T* send, T* recv, std::size_t count, Op op) {
  detail::runDoubling(comm, send, recv, count, mergerOf<T>(op));
}

#if COLLC_RUNTIME_DEFINITIONS
namespace detail {
[[gnu::noinline]]
COLLC_RUNTIME_INLINE int segmentsChecked(const char* who, int segments, std::size_t count, Kind kind,
                                         std::initializer_list<Kind> kinds, const char* kindsText) {
  if (segments < 1)
    throw Error(std::string(who) + ": segments must be >= 1, got " + std::to_string(segments));
  const int S = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(segments),
                                                       std::max<std::size_t>(count, 1)));
  if (S > 1 && std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw Error(std::string(who) + ": segments pipeline " + kindsText + ", not " + kindName(kind));
  return S;
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE Plan CheckedPlanMaker::operator()() const {
  Plan plan = make();
  plan.schedule = Comm::keyHash(key);
  checkPlan(plan);
  plan.code = planCode(plan);
  plan.checked = true;
  return plan;
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE const Plan& segmentedPlan(Comm& comm, const PlanKey& key, int S, PlanMaker make) {
  return checkedPlan(comm, key.segmented(S).view(), [&] { return pipelinePlan(make(), S); });
}

COLLC_RUNTIME_INLINE std::string describeGeneratedCall(const CallView& view) {
  static const char* const ops[] = {"sum", "prod", "min", "max", "a custom operator",
                                    "a custom operator in rank order"};
  std::string text = std::string(kindName(static_cast<Kind>(view.call))) + " of " +
                     std::to_string(view.bytes) + " B (" + elementName(static_cast<ElementCode>(view.element));
  if (static_cast<ElementCode>(view.element) == ElementCode::other)
    text += " of " + std::to_string(view.elementSize) + " B";
  if (view.op > 0 && view.op <= sizeof ops / sizeof *ops) text += std::string(", ") + ops[view.op - 1];
  if (view.root >= 0) text += ", root " + std::to_string(view.root);
  char schedule[16];
  std::snprintf(schedule, sizeof schedule, "%08x", static_cast<unsigned>(view.schedule));
  return text + ", schedule " + schedule + ")";
}
}  // namespace detail
#endif  // COLLC_RUNTIME_DEFINITIONS

}  // namespace coll
