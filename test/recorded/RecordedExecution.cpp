// recorded-execution: translation validation of the runtime against the
// proof. For every example (every family: the trees, the digit routings
// and Trivance, the scans, the group moves and the shifted butterfly on
// every group, recursive doubling, each pipelined over segments where the
// spec says so) and every P given (a fixed rank count: that P only), the
// example's generated header -- the one `collc compile` wrote, compiled
// into this tool (GeneratedHeaders.h) -- runs on P ranks in this process
// (coll::LocalTransport) with recording on; the recorded program must be
// proven by the verifier AND equal, step by step and transfer by transfer,
// the expansion the verifier proves; and every rank's result must equal a
// sequential reference element by element.
//
//   collc-recorded-execution EXAMPLES_DIR|FILE.coll [--mutant]
//                            [--swap-merges] [--timing] [P ...]
//   (P: N or A..B; --timing: each run's seconds per phase, on stderr)
//
// Prints one line per failure (file, P, what differs) and exits 1 if any.
// --mutant runs a deliberately wrong plan instead (see mutate()), which
// every example must fail; --swap-merges swaps the operator's operands,
// which every noncommutative example must fail.
#include "coll/Dialect/CollDialect.h"
#include "coll/Dialect/CollOps.h"
#include "coll/Frontend/Parser.h"
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/PlanProgram.h"
#include "coll/Passes/TreeSchedule.h"
#include "coll/Passes/Verify.h"

#include "GeneratedHeaders.h"

#include "coll/local_transport.hpp"
#include "coll/collectives.hpp"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

using namespace coll;
using collc_recorded::Merge;

namespace {

/// Elements per block: 3, and for a pipelined spec 2 S + 1, so that its S
/// segments are all there (the runtime uses at most count of them) and of
/// unequal lengths.
size_t countOf(CollectiveOp spec) {
  int64_t S = static_cast<int64_t>(spec.getSegments().value_or(1));
  return S > 1 ? static_cast<size_t>(2 * S + 1) : 3;
}

/// One rank's buffers and what they must hold afterwards.
struct Buffers {
  std::vector<int64_t> send, recv, expected;
  bool checked = true; // false: the rank's recv is not significant
};

Buffers buffersOf(Kind kind, int P, int root, int rank, size_t kCount,
                  const Merge &merge) {
  Buffers b;
  auto input = [&](int r, int block, size_t i) { return merge.input(r, block, i); };
  auto blocks = [&](int r, int n) {
    std::vector<int64_t> v;
    for (int k = 0; k < n; ++k)
      for (size_t i = 0; i < kCount; ++i)
        v.push_back(input(r, k, i));
    return v;
  };
  // Ranks first..last's block `block` merged in rank order.
  auto mergedBlock = [&](int block, int first, int last) {
    std::vector<int64_t> v(kCount);
    for (size_t i = 0; i < kCount; ++i) {
      v[i] = input(first, block, i);
      for (int r = first + 1; r <= last; ++r)
        v[i] = merge(v[i], input(r, block, i));
    }
    return v;
  };
  switch (kind) {
  case Kind::reduce:
  case Kind::allreduce:
    b.send = blocks(rank, 1);
    b.recv.assign(kCount, -1);
    b.expected = mergedBlock(0, 0, P - 1);
    b.checked = kind == Kind::allreduce || rank == root;
    break;
  case Kind::broadcast:
    b.recv = rank == root ? blocks(root, 1) : std::vector<int64_t>(kCount, -1);
    b.expected = blocks(root, 1);
    break;
  case Kind::gather:
  case Kind::allgather: {
    b.send = blocks(rank, 1);
    b.recv.assign(P * kCount, -1);
    for (int r = 0; r < P; ++r)
      for (int64_t x : blocks(r, 1))
        b.expected.push_back(x);
    b.checked = kind == Kind::allgather || rank == root;
    break;
  }
  case Kind::scatter: {
    b.send = rank == root ? blocks(root, P) : std::vector<int64_t>();
    b.recv.assign(kCount, -1);
    std::vector<int64_t> all = blocks(root, P);
    b.expected.assign(all.begin() + rank * kCount,
                      all.begin() + (rank + 1) * kCount);
    break;
  }
  case Kind::reduce_scatter:
    b.send = blocks(rank, P);
    b.recv.assign(kCount, -1);
    b.expected = mergedBlock(rank, 0, P - 1);
    break;
  case Kind::alltoall: // block d of rank r is for rank d
    b.send = blocks(rank, P);
    b.recv.assign(P * kCount, -1);
    for (int s = 0; s < P; ++s)
      for (size_t i = 0; i < kCount; ++i)
        b.expected.push_back(input(s, rank, i));
    break;
  case Kind::inclusive_scan:
  case Kind::exclusive_scan: {
    // Ranks 0..rank (inclusive) or 0..rank-1; rank 0's recv of an
    // exclusive scan is left as it was.
    b.send = blocks(rank, 1);
    b.recv.assign(kCount, -1);
    int last = kind == Kind::inclusive_scan ? rank : rank - 1;
    b.expected = last < 0 ? std::vector<int64_t>(kCount, -1) : mergedBlock(0, 0, last);
    break;
  }
  case Kind::barrier:
    b.checked = false;
    break;
  }
  return b;
}

/// A step's transfers, sorted, as text: the comparison of two programs. A
/// transfer pairs sent with received parts; the order of its pairs is the
/// message's memory order, not its meaning, so the pairs are sorted too.
/// Parts are named as `base` names them (a segment's as the expansion's).
std::vector<std::string> stepText(
    StepOp step, const std::function<int64_t(int64_t)> &base = nullptr) {
  auto name = [&](int64_t p) { return base ? base(p) : p; };
  std::vector<std::string> out;
  for (const Transfer &t : transfersOfStep(step)) {
    std::vector<std::pair<int64_t, int64_t>> pairs;
    for (size_t i = 0; i < t.sent.size(); ++i)
      pairs.push_back({name(t.sent[i]),
                       i < t.received.size() ? name(t.received[i]) : -1});
    llvm::sort(pairs);
    std::string s = std::to_string(t.src) + "->" + std::to_string(t.dst) + " [";
    for (auto [sent, received] : pairs)
      s += std::to_string(sent) + ":" + std::to_string(received) + " ";
    if (t.received.size() != t.sent.size())
      s += "| " + std::to_string(t.received.size()) + " received";
    out.push_back(s + "]");
  }
  llvm::sort(out);
  return out;
}

/// The steps `a` (parts named by `base`) and `b` compared: "" when they
/// have the same kinds, phases and transfers, else the first difference,
/// with `where` naming the step.
std::string differenceOfSteps(std::vector<StepOp> a,
                              const std::function<int64_t(int64_t)> &base,
                              std::vector<StepOp> b,
                              const std::string &where) {
  for (size_t s = 0; s < std::max(a.size(), b.size()); ++s) {
    std::string at = where + "step " + std::to_string(s);
    if (s >= a.size() || s >= b.size())
      return at + ": " +
             (s >= a.size() ? "missing from the recording"
                            : "recorded, not in the expansion");
    if (a[s].getStepKind() != b[s].getStepKind() ||
        a[s].getPhase() != b[s].getPhase()) {
      // The recorded step's transfers name the ranks (the first three).
      std::vector<Transfer> transfers = transfersOfStep(a[s]);
      std::string ranks;
      for (size_t k = 0; k < transfers.size() && k < 3; ++k)
        ranks += (k ? ", " : "") + std::to_string(transfers[k].src) + " -> " +
                 std::to_string(transfers[k].dst);
      if (transfers.size() > 3)
        ranks += ", ...";
      return at + " (" + ranks + "): recorded " +
             stringifyStepKind(a[s].getStepKind()).str() + " \"" +
             a[s].getPhase().str() + "\", expanded " +
             stringifyStepKind(b[s].getStepKind()).str() + " \"" +
             b[s].getPhase().str() + "\"";
    }
    std::vector<std::string> x = stepText(a[s], base), y = stepText(b[s]);
    if (x != y) {
      for (size_t k = 0; k < std::max(x.size(), y.size()); ++k)
        if (k >= x.size() || k >= y.size() || x[k] != y[k])
          return at + ": recorded " + (k < x.size() ? x[k] : "nothing") +
                 ", expanded " + (k < y.size() ? y[k] : "nothing");
    }
  }
  return "";
}

/// "" when the recording is the expansion: the same steps (kind, phase,
/// transfers). A run pipelined over `segments` segments (coll::pipelinePlan
/// numbers segment j's data part p j * data + p, its scratch part q
/// segments * data + j * scratch + q) must be, segment by segment, the
/// expansion on that segment's parts, and each recorded step one
/// segment's.
std::string difference(ProgramOp recorded, ProgramOp expanded, int segments) {
  auto steps = [](ProgramOp program) {
    auto ops = program.getBody().getOps<StepOp>();
    return std::vector<StepOp>(ops.begin(), ops.end());
  };
  std::vector<StepOp> a = steps(recorded), b = steps(expanded);
  int64_t n = static_cast<int64_t>(expanded.getNumParts());
  if (static_cast<int64_t>(recorded.getNumParts()) != n * segments)
    return "num_parts " + std::to_string(recorded.getNumParts()) + " vs " +
           std::to_string(n * segments);
  if (segments <= 1)
    return differenceOfSteps(a, nullptr, b, "");
  int64_t scratch = static_cast<int64_t>(expanded.getNumScratchParts().value_or(0));
  int64_t data = n - scratch, S = segments;
  auto segmentOf = [&](int64_t p) {
    return p < S * data ? p / data : (p - S * data) / scratch;
  };
  auto base = [&](int64_t p) {
    return p < S * data ? p % data : data + (p - S * data) % scratch;
  };
  std::vector<std::vector<StepOp>> bySegment(segments);
  for (size_t s = 0; s < a.size(); ++s) {
    int64_t segment = -1;
    for (const Transfer &t : transfersOfStep(a[s]))
      for (const std::vector<int64_t> *list : {&t.sent, &t.received})
        for (int64_t p : *list) {
          if (segment < 0)
            segment = segmentOf(p);
          if (segmentOf(p) != segment)
            return "recorded step " + std::to_string(s) +
                   " moves parts of segments " + std::to_string(segment) +
                   " and " + std::to_string(segmentOf(p));
        }
    if (segment < 0)
      return "recorded step " + std::to_string(s) + " moves no part";
    bySegment[segment].push_back(a[s]);
  }
  for (int j = 0; j < segments; ++j)
    if (std::string diff = differenceOfSteps(
            bySegment[j], base, b, "segment " + std::to_string(j) + ", ");
        !diff.empty())
      return diff;
  return "";
}

/// A deliberately wrong plan, to show the validation catches one: the
/// first message `sender` sends loses its last part on both sides, or,
/// with one part, its receiver copies where the plan merges (or merges
/// where it copies).
void mutate(Plan &plan, const Plan &sender) {
  for (const PlanStep &sent : sender.steps) {
    if (sent.sends.empty())
      continue;
    const PlanMessage &m = sent.sends.front();
    auto at = llvm::find_if(
        plan.steps, [&](const PlanStep &x) { return x.step == sent.step; });
    if (at == plan.steps.end()) // this rank neither sends nor receives it
      return;
    PlanStep &step = *at;
    bool shorten = m.parts.size() >= 2;
    auto drop = [](PlanMessage &x) {
      x.parts.pop_back();
      x.peerParts.pop_back();
    };
    if (plan.rank == sender.rank && shorten)
      drop(step.sends.front());
    if (plan.rank == m.peer) {
      for (PlanMessage &r : step.receives)
        if (r.peer == sender.rank && shorten)
          drop(r);
      if (!shorten)
        step.action =
            step.action == Action::copy ? Action::combine : Action::copy;
    }
    return;
  }
}

/// The plan a spec's generated header runs, for a rank, and its key in
/// the Comm's cache: what the mutant hook replaces (the header looks the
/// plan up under this key, so a mutant plan is the one it runs).
struct Runner {
  std::function<Plan(int rank)> plan;
  std::string key;
};

Runner unpipelinedRunnerOf(CollectiveOp spec, int P);

/// The runner of `spec` at P ranks.
Runner runnerOf(CollectiveOp spec, int P) {
  Runner runner = unpipelinedRunnerOf(spec, P);
  int S = static_cast<int>(spec.getSegments().value_or(1));
  if (S <= 1)
    return runner;
  // segments = S: the runtime pipelines the family's plan over
  // min(S, count) segments; countOf gives every segment an element.
  auto base = runner.plan;
  runner.plan = [=](int r) { return pipelinePlan(base(r), S); };
  std::string key = runner.key;
  runner.key = key + std::string(PlanKey("", {}).segmented(S).view());
  return runner;
}

Runner unpipelinedRunnerOf(CollectiveOp spec, int P) {
  Kind kind = runtimeKind(spec.getKind());
  if (spec.isTree()) {
    Tree tree = treeOf(spec);
    int root = spec.getRoot() ? static_cast<int>(*spec.getRoot()) : 0;
    return {[=](int r) { return treePlan(kind, tree, P, root, r); },
            std::string(treePlanKey(kind, tree, root).view())};
  }
  if (isScan(spec.getKind())) {
    ScanSchedule schedule = scanScheduleOf(spec);
    return {[=](int r) { return scanPlan(kind, schedule, P, r); },
            std::string(scanPlanKey(kind, schedule).view())};
  }
  if (!spec.isDigitRouting()) { // a group schedule
    if (static_cast<int64_t>(spec.getButterflyR()) == kButterflyMax &&
        spec.getGroup() == GroupKind::xor_)
      return {[=](int r) { return doublingPlan(P, r); },
              std::string(doublingPlanKey().view())};
    GroupSchedule schedule = spec.getSchedule() == ScheduleKind::linear
                                 ? GroupSchedule::linear
                                 : GroupSchedule::butterfly;
    int r = butterflyRuntimeR(spec);
    auto run = [=](auto group) -> Runner {
      if (r != 0)
        return {[=](int x) {
                  return butterflyRankPlan(butterflyPlan(group, r), group, x,
                                           kind);
                },
                std::string(butterflyPlanKey(kind, r, group).view())};
      return {[=](int x) {
                return groupPlan(kind, groupMoves(schedule, kind, P), group, P,
                                 x);
              },
              std::string(groupPlanKey(kind, schedule, group).view())};
    };
    if (spec.getGroup() == GroupKind::cyclic)
      return run(CyclicGroup(P));
    if (spec.getGroup() == GroupKind::xor_)
      return run(XorGroup(P));
    // A generated group: the table the header builds from its generators.
    return run(std::get<TableGroup>(groupOfSpec(spec, P).runtime()));
  }
  if (kind == Kind::allreduce)
    return {[=](int r) { return trivancePlan(P, r); },
            std::string(trivancePlanKey().view())};
  Digits digits = digitsOf(spec);
  return {[=](int r) { return digitPlan(digits, P, r); },
          std::string(digitPlanKey(digits).view())};
}

/// Up to this P a recording is proven with collc verify's default
/// methods (Z3 wherever it applies); beyond it by the exact replay.
constexpr int kLargestZ3Ranks = 256;

/// Seconds per phase of one run, printed with --timing.
struct Timing {
  bool enabled = false;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  std::string text;
  void lap(const char *phase) {
    auto now = std::chrono::steady_clock::now();
    if (enabled)
      text += std::string(" ") + phase + " " +
              std::to_string(std::chrono::duration<double>(now - last).count()) +
              "s";
    last = now;
  }
};

/// Whether a kind's collective may run in place: send == recv, or for
/// allgather send == recv + rank * count (MPI_IN_PLACE's layouts).
bool runsInPlace(Kind kind) {
  return kind == Kind::allreduce || kind == Kind::alltoall ||
         kind == Kind::inclusive_scan || kind == Kind::exclusive_scan ||
         kind == Kind::reduce_scatter || kind == Kind::allgather;
}

/// Runs `spec` at P ranks (in place: runsInPlace); returns the failures
/// and leaves the recorded program in `text`. A recording equal to
/// `checked` (one already proven and compared) is not checked again. With
/// `mutant`, every rank runs mutate()'s wrong plan instead of the proven
/// one; with `swapMerges`, the header's operator takes its operands the
/// other way round (Merge::swapped).
std::vector<std::string> validate(mlir::MLIRContext &context,
                                  CollectiveOp spec, int P, bool mutant,
                                  bool swapMerges, bool inPlace,
                                  const std::string &checked,
                                  std::string &text, Timing &timing) {
  std::vector<std::string> failures;
  Kind kind = runtimeKind(spec.getKind());
  int root = spec.getRoot() ? static_cast<int>(*spec.getRoot()) : 0;
  Runner runner = runnerOf(spec, P);
  const collc_recorded::HeaderRun header =
      collc_recorded::generatedHeader(spec.getSymName().str());
  if (!header) {
    failures.push_back("no generated header runs " + spec.getSymName().str() +
                       " (rebuild collc-recorded-execution)");
    return failures;
  }
  const Merge merge{spec.getNoncommutative(), swapMerges};
  const size_t kCount = countOf(spec);
  // One recording per rank (merged after the run), so the ranks never
  // wait on each other's recording.
  std::vector<std::shared_ptr<Recording>> recordings(P);
  for (auto &r : recordings)
    r = std::make_shared<Recording>();
  std::vector<Buffers> buffers(P);
  for (int r = 0; r < P; ++r) {
    buffers[r] = buffersOf(kind, P, root, r, kCount,
                           Merge{spec.getNoncommutative()});
    if (inPlace && kind == Kind::allgather) { // the own block is in recv
      std::copy(buffers[r].send.begin(), buffers[r].send.end(),
                buffers[r].recv.begin() + r * kCount);
    } else if (inPlace) { // reduce_scatter: the result starts recv (= send)
      buffers[r].recv = buffers[r].send;
      if (kind == Kind::exclusive_scan && r == 0) // left as it was
        buffers[r].expected = buffers[r].send;
    }
  }
  // The mutant's sender: the highest rank that sends at all.
  Plan sender;
  for (int r = P - 1; r >= 0 && mutant; --r) {
    sender = runner.plan(r);
    if (llvm::any_of(sender.steps,
                     [](const PlanStep &s) { return !s.sends.empty(); }))
      break;
  }
  try {
    runLocal(P, [&](Comm &comm) {
      // (a mutant run may leave a rank waiting: give up after 10 s)
      comm.setRecording(recordings[comm.rank()]);
      Buffers &b = buffers[comm.rank()];
      size_t count = kind == Kind::barrier ? 0 : kCount;
      if (mutant) // the plan the runtime will find in the Comm's cache
        comm.plan<Plan>(runner.key, [&] {
          Plan plan = runner.plan(comm.rank());
          mutate(plan, sender);
          return plan;
        });
      int64_t *recv = b.recv.empty() ? nullptr : b.recv.data();
      const int64_t *send =
          inPlace && kind == Kind::allgather ? recv + comm.rank() * kCount
          : inPlace                          ? recv
          : b.send.empty()                   ? nullptr
                                             : b.send.data();
      header(comm, send, recv, count, root, merge);
    }, std::chrono::seconds(mutant ? 10 : 120));
  } catch (const std::exception &e) {
    failures.push_back(std::string("the run failed: ") + e.what());
    return failures;
  }
  for (int r = 0; r < P; ++r)
    if (buffers[r].checked)
      for (size_t i = 0; i < buffers[r].expected.size(); ++i)
        if (buffers[r].recv[i] != buffers[r].expected[i]) {
          failures.push_back("rank " + std::to_string(r) + " element " +
                             std::to_string(i) + " is " +
                             std::to_string(buffers[r].recv[i]) +
                             ", the reference " +
                             std::to_string(buffers[r].expected[i]));
          break;
        }
  if (P == 1)
    return failures; // nothing moves, nothing to record
  Recording recording;
  for (auto &r : recordings) {
    recording.merge(*r);
    r.reset(); // a recording at P = 1024 holds millions of transfers
  }
  for (const std::string &problem : recording.problems())
    failures.push_back("the run is no step program: " + problem);
  timing.lap("run");
  text = recording.program("recorded");
  if (!checked.empty() && text == checked)
    return failures;
  timing.lap("print");
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  timing.lap("parse");
  if (!parsed) {
    failures.push_back("the recording does not parse:\n" + text);
    return failures;
  }
  ProgramOp recorded = *parsed->getOps<ProgramOp>().begin();
  // The run merged with this tool's Merge, which the recording names
  // custom; noncommutative iff the header passed it as coll::InRankOrder,
  // which it must do exactly for a noncommutative spec. Then the spec's
  // operator, so that its proof checks the recorded merges' rank order
  // (the executor merges the lower rank's value first).
  if (recorded.getNoncommutative() != spec.getNoncommutative())
    failures.push_back(std::string("the recording's operator is ") +
                       (recorded.getNoncommutative() ? "" : "not ") +
                       "noncommutative, the spec's is " +
                       (spec.getNoncommutative() ? "" : "not"));
  recorded->setAttr("op", spec->getAttr("op"));
  // A group schedule's recording lists every rank's transfers (the
  // expansion collc verify proves has its moves too): Z3's rank-level
  // queries take minutes there from P = 32 on, the exact replay seconds.
  // A pipelined recording has S times the expansion's steps: the replay
  // too.
  // Beyond P = 256 (tools/recorded-execution.sh) every recording is
  // decided by the replay: Z3's queries over every rank's transfers cost
  // minutes there.
  VerifyOptions options;
  if ((!spec.isTree() && !spec.isDigitRouting() && !isScan(spec.getKind())) ||
      spec.getSegments().value_or(1) > 1)
    options.replayEverywhere();
  if (P > kLargestZ3Ranks) {
    options.replayEverywhere();
    options.replayRankLevel = true;
  }
  for (const PropertyResult &r : verifyProgram(recorded, options))
    if (r.verdict != Verdict::proven)
      failures.push_back(std::string("the recording's ") +
                         propertyName(r.property) + " is " +
                         verdictName(r.verdict) +
                         (r.counterexample
                              ? ": " + describeCounterexample(*r.counterexample)
                              : ""));
  timing.lap("verify");
  mlir::OwningOpRef<mlir::ModuleOp> scratch =
      mlir::ModuleOp::create(spec.getLoc());
  mlir::OpBuilder builder(scratch->getBody(), scratch->getBody()->end());
  ProgramOp expanded = expandCollective(spec, P, builder);
  std::string diff =
      difference(recorded, expanded,
                 static_cast<int>(spec.getSegments().value_or(1)));
  if (!diff.empty())
    failures.push_back("the recording differs from the proven expansion: " +
                       diff);
  timing.lap("expand+compare");
  return failures;
}

} // namespace

const char *const kUsage =
    "usage: collc-recorded-execution EXAMPLES_DIR|FILE.coll [--mutant] "
    "[--swap-merges] [--timing] [--jobs=N] [P|A..B ...]\n"
    "  Run each example's generated collective on the in-process transport\n"
    "  with recording on, for each P (default 1..64), and require the\n"
    "  recorded program to be proven and equal to the expansion; N examples\n"
    "  and rank counts at a time (default: one a core).\n";

int main(int argc, char **argv) {
  coll::keepHeapForProofs();
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::cout << kUsage;
      return 0;
    }
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  std::vector<int> ranks;
  bool mutant = false, swapMerges = false, timing = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--mutant") {
      mutant = true;
      continue;
    }
    if (arg == "--swap-merges") {
      swapMerges = true;
      continue;
    }
    if (arg == "--timing") {
      timing = true;
      continue;
    }
    if (arg.rfind("--jobs=", 0) == 0) {
      const std::string n = arg.substr(7);
      if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos ||
          n.size() > 4 || std::stoi(n) < 1) {
        std::cerr << "collc-recorded-execution: error: '" << arg
                  << "' needs a number of jobs >= 1\n"
                  << kUsage;
        return 2;
      }
      jobs = static_cast<unsigned>(std::stoi(n));
      continue;
    }
    size_t dots = arg.find("..");
    int lo = 0, hi = 0;
    try {
      size_t used = 0;
      lo = std::stoi(arg.substr(0, dots), &used);
      if (used != (dots == std::string::npos ? arg.size() : dots))
        throw std::invalid_argument(arg);
      hi = lo;
      if (dots != std::string::npos) {
        hi = std::stoi(arg.substr(dots + 2), &used);
        if (used != arg.size() - dots - 2)
          throw std::invalid_argument(arg);
      }
    } catch (const std::exception &) {
      std::cerr << "collc-recorded-execution: error: '" << arg
                << "' is no option, rank count or range A..B\n"
                << kUsage;
      return 2;
    }
    for (int P = lo; P <= hi; ++P)
      ranks.push_back(P);
  }
  if (ranks.empty())
    for (int P = 1; P <= 64; ++P)
      ranks.push_back(P);

  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_regular_file(argv[1]))
    files.push_back(argv[1]);
  else
    for (const auto &entry : std::filesystem::directory_iterator(argv[1]))
      if (entry.path().extension() == ".coll")
        files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> sources;
  for (const std::filesystem::path &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file.string());
    if (!buffer) {
      std::cerr << file.string() << ": cannot read\n";
      return 2;
    }
    sources.push_back((*buffer)->getBuffer().str());
  }

  // One task an example and P, each in a context of its own (a context
  // keeps every attribute it ever made, and a recording at P = 1024 makes
  // a million); `jobs` of them at a time, their reports printed in order.
  struct Task {
    size_t file;
    int P;
    std::string out, err;
    int runs = 0, failed = 0;
    bool served = false, unparsed = false;
  };
  std::vector<Task> tasks;
  for (size_t f = 0; f < files.size(); ++f)
    for (int P : ranks)
      tasks.push_back(Task{f, P});
  auto runTask = [&](Task &task) {
    const std::filesystem::path &file = files[task.file];
    const std::string name = file.filename().string();
    mlir::MLIRContext context;
    context.getOrLoadDialect<CollDialect>();
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                                     sources[task.file], file.string()),
                                 llvm::SMLoc());
    mlir::OwningOpRef<mlir::ModuleOp> module =
        parseCollFile(sourceMgr, &context);
    if (!module) {
      task.unparsed = true;
      return;
    }
    const int P = task.P;
    for (CollectiveOp anySpec : module->getOps<CollectiveOp>()) {
      task.served = true;
      if (!anySpec.acceptsRanks(P))
        continue;
      // `root = any`: each root's run against that root's proven
      // expansion (coll::rootInstance); every root up to P = 16, beyond
      // that the first two, the middle and the last.
      std::vector<int> roots = {-1};
      if (anySpec.getAnyRoot()) {
        roots.clear();
        for (int r = 0; r < P; ++r)
          if (P <= 16 || r < 2 || r == P / 2 || r == P - 1)
            roots.push_back(r);
      }
      for (int root : roots) {
        mlir::OwningOpRef<CollectiveOp> instance;
        if (root >= 0)
          instance = rootInstance(anySpec, root);
        CollectiveOp spec = root >= 0 ? *instance : anySpec;
        std::string checked; // the recording out of place, once checked
        for (bool inPlace : {false, true}) {
          if (inPlace &&
              (mutant || !runsInPlace(runtimeKind(spec.getKind()))))
            continue;
          ++task.runs;
          std::string text;
          Timing times;
          times.enabled = timing;
          std::vector<std::string> failures =
              validate(context, spec, P, mutant, swapMerges, inPlace,
                       checked, text, times);
          if (timing)
            task.err += name + " (" + spec.getSymName().str() + ") P = " +
                        std::to_string(P) + (inPlace ? " in place" : "") +
                        ":" + times.text + "\n";
          if (failures.empty())
            checked = text;
          for (const std::string &f : failures) {
            task.out += name + " (" + spec.getSymName().str() + ") at P = " +
                        std::to_string(P) +
                        (root >= 0 ? ", root " + std::to_string(root) : "") +
                        (inPlace ? " in place" : "") + ": " + f + "\n";
            ++task.failed;
          }
        }
      }
    }
  };
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t t; (t = next++) < tasks.size();)
      runTask(tasks[t]);
  };
  std::vector<std::thread> workers;
  for (unsigned j = 1; j < jobs; ++j)
    workers.emplace_back(work);
  work();
  for (std::thread &w : workers)
    w.join();

  int failed = 0, runs = 0;
  std::vector<bool> served(files.size(), false);
  for (const Task &task : tasks) {
    if (task.unparsed) {
      std::cerr << files[task.file].string() << ": does not parse\n";
      return 2;
    }
    std::cerr << task.err;
    std::cout << task.out;
    runs += task.runs;
    failed += task.failed;
    served[task.file] = served[task.file] || task.served;
  }
  const auto examples = std::count(served.begin(), served.end(), true);
  std::cout << "recorded-execution: " << examples << " examples, " << runs
            << " runs, " << failed << " failures";
  std::cout << "\n";
  return failed ? 1 : 0;
}
