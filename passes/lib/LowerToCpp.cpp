//===- LowerToCpp.cpp - coll.collective to a C++ header -------------------===//
//
// The header holds, per collective, a function whose loops are the group
// schedule's closed forms in P, so one header serves every communicator
// size the spec admits and its size does not grow with P. The loops are
// the same moves expandGroupSchedule() builds for one P (checked by the
// dataflow check before the header is written); the runtime's
// coll::Workspace turns each move into one exchange per rank. Tree
// schedules call the runtime's coll/trees.hpp, the functions the tree
// expansion verified, and run each edge with coll::PeerSteps.
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/Lowering.h"
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/TreeSchedule.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace coll;

static const char *cppOperator(ReduceOp op) {
  switch (op) {
  case ReduceOp::sum:
    return "coll::Sum";
  case ReduceOp::prod:
    return "coll::Prod";
  case ReduceOp::min:
    return "coll::Min";
  case ReduceOp::max:
    return "coll::Max";
  case ReduceOp::custom:
    return nullptr; // the caller passes it
  }
  return "coll::Sum";
}

static std::string cppType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  auto integer = cast<IntegerType>(type);
  return (integer.isUnsigned() ? "std::uint" : "std::int") +
         std::to_string(integer.getWidth()) + "_t";
}

static std::string acceptsExpression(CollectiveOp spec) {
  if (std::optional<uint64_t> fixed = spec.getNumRanks())
    return "ranks == " + std::to_string(*fixed);
  // A root k needs at least k + 1 ranks.
  int64_t atLeast = spec.getRoot() ? static_cast<int64_t>(*spec.getRoot()) + 1
                                   : 1;
  std::string least = "ranks >= " + std::to_string(atLeast);
  if (spec.getRankConstraint() == RankConstraint::power_of_two)
    return least + " && (ranks & (ranks - 1)) == 0";
  return least;
}

/// The group moves of the schedule as loops in P; the same moves
/// expandGroupSchedule() builds for one P.
static void emitSchedule(CollectiveOp spec, llvm::raw_ostream &os) {
  CollectiveKind kind = spec.getKind();
  bool reduces = kind != CollectiveKind::allgather;
  bool copies = kind != CollectiveKind::reduce_scatter;
  switch (spec.getSchedule()) {
  case ScheduleKind::linear:
    if (kind == CollectiveKind::allreduce) {
      os << "  // reduce-scatter: the vector at placement s moves to s + 1 "
            "and is combined there.\n"
            "  for (int s = 0; s + 1 < P; ++s)\n"
            "    ws.combine(s, s + 1, 1, op);\n"
            "  // all-gather: the sum at placement P - 1 is copied around the "
            "ring.\n"
            "  for (int s = 0; s + 1 < P; ++s)\n"
            "    ws.copy((s + P - 1) % P, s, 1);\n";
      return;
    }
    if (reduces)
      os << "  // reduce-scatter: placements 1 -> 2 -> ... -> P - 1 -> 0, "
            "combining.\n"
            "  for (int s = 1; s < P; ++s)\n"
            "    ws.combine(s, (s + 1) % P, 1, op);\n";
    if (copies)
      os << "  // all-gather: placement 0 is copied 0 -> 1 -> ... -> P - 1.\n"
            "  for (int s = 0; s + 1 < P; ++s)\n"
            "    ws.copy(s, s + 1, 1);\n";
    return;
  case ScheduleKind::butterfly:
    os << "  // With n vectors left, the upper n / 2 move onto the lower ones "
          "(an odd\n"
          "  // leftover waits); the all-gather replays the halvings in "
          "reverse.\n"
          "  struct Halving {\n"
          "    int kept, moved;\n"
          "  } halvings[32];\n"
          "  int depth = 0;\n"
          "  for (int n = P; n > 1; n = (n + 1) / 2) {\n"
          "    halvings[depth] = Halving{(n + 1) / 2, n / 2};\n";
    if (reduces)
      os << "    ws.combine(halvings[depth].kept, 0, halvings[depth].moved, "
            "op);\n";
    os << "    ++depth;\n"
          "  }\n";
    if (copies)
      os << "  while (depth-- > 0)\n"
            "    ws.copy(0, halvings[depth].kept, halvings[depth].moved);\n";
    return;
  }
}

static std::string describeSchedule(CollectiveOp spec) {
  std::string root =
      spec.getRoot() ? ", root " + std::to_string(*spec.getRoot()) : "";
  switch (spec.getSchedule()) {
  case ScheduleKind::linear:
    if (!spec.getGroup())
      return "schedule linear (a chain)";
    [[fallthrough]];
  case ScheduleKind::butterfly:
    return std::string("group ") +
           (spec.getGroup() == GroupKind::cyclic ? "cyclic(P)" : "xor(P)") +
           ", schedule " +
           (spec.getSchedule() == ScheduleKind::linear ? "linear"
            : spec.getButterflyR() == kButterflyMax
                ? (spec.getGroup() == GroupKind::xor_
                       ? "butterfly(r = max) (recursive doubling)"
                       : "butterfly(r = max) (shifted reductions)")
            : spec.getButterflyR() == 0
                ? "butterfly(r = 0)"
                : "butterfly(r = " + std::to_string(spec.getButterflyR()) +
                      ") (shifted reductions)");
  case ScheduleKind::flat:
    return "tree flat" + root;
  case ScheduleKind::binomial:
    return "tree binomial" + root;
  case ScheduleKind::hierarchical:
    return "tree arity(" + std::to_string(*spec.getArity()) + ") flat_below(" +
           std::to_string(*spec.getFlatBelow()) + ")" + root;
  case ScheduleKind::direct:
    return "schedule direct (pairwise exchange)";
  case ScheduleKind::radix:
    return "digits radix(" + std::to_string(*spec.getRadix()) + ") (Bruck)";
  case ScheduleKind::balanced_ternary:
    return "digits balanced_ternary (ReTri)";
  case ScheduleKind::doubling:
    return "schedule doubling (recursive doubling)";
  }
  return "";
}

/// The coll::Tree initializer of a tree-scheduled spec.
static std::string treeInitializer(CollectiveOp spec) {
  Tree tree = treeOf(spec);
  const char *shape = tree.shape == TreeShape::flat       ? "flat"
                      : tree.shape == TreeShape::binomial ? "binomial"
                                                          : "hierarchical";
  return std::string("coll::Tree{coll::TreeShape::") + shape + ", " +
         std::to_string(tree.arity) + ", " + std::to_string(tree.flatBelow) +
         "}";
}

/// Walks this rank's tree edges backwards (broadcast, scatter): receive
/// from the parent, then send to each child. `last` is the step number of
/// the first edge backwards.
static void emitDownward(llvm::raw_ostream &os, StringRef last,
                         StringRef fromParent, StringRef toChild,
                         StringRef size) {
  os << "  for (auto e = edges.rbegin(); e != edges.rend(); ++e) {\n"
     << "    const int step = " << last << " - e->step;\n";
  if (!size.empty())
    os << "    const std::size_t n = " << size << ";\n";
  os << "    if (e->child == rel)\n"
     << "      steps.receive(step, absolute(e->parent), " << fromParent
     << ");\n"
     << "    else\n"
     << "      steps.send(step, absolute(e->child), " << toChild << ");\n"
     << "  }\n";
}

/// The body of a tree-scheduled collective: each rank walks its own edges
/// of the tree (coll::treeEdgesOf, the function the expansion verified)
/// with coll::PeerSteps. The step number is the message tag.
static void emitTreeBody(CollectiveOp spec, llvm::raw_ostream &os,
                         StringRef type, StringRef qualified) {
  CollectiveKind kind = spec.getKind();
  auto nullCheck = [&](StringRef condition, StringRef what) {
    os << "  if (" << condition << ")\n"
       << "    throw coll::Error(\"" << qualified << ": " << what
       << " is null with count \" + std::to_string(count));\n";
  };
  os << "  const int rank = comm.rank();\n"
     << "  const int root = " << (spec.getRoot() ? *spec.getRoot() : 0)
     << ";\n"
     << "  const int rel = (rank - root + P) % P;  // rank relative to the "
        "root\n"
     << "  auto absolute = [&](int r) { return (r + root) % P; };\n"
     << "  const coll::Tree tree = " << treeInitializer(spec) << ";\n";
  std::string peerSteps = "  coll::PeerSteps<" + type.str() + "> steps(comm);\n";
  std::string myEdges = "  const std::vector<coll::TreeEdge> edges = "
                        "coll::treeEdgesOf(tree, P, rel);\n";
  switch (kind) {
  case CollectiveKind::broadcast:
    nullCheck("count > 0 && buffer == nullptr", "buffer");
    os << "  if (count == 0 || P == 1)\n    return;\n"
       << peerSteps << myEdges
       << "  const int last = coll::treeSteps(tree, P) - 1;\n"
       << "  // The reduction's edges backwards: from the parent, then to "
          "each child.\n";
    emitDownward(os, "last", "buffer, count", "buffer, count", "");
    return;
  case CollectiveKind::reduce:
  case CollectiveKind::allreduce: {
    bool all = kind == CollectiveKind::allreduce;
    nullCheck("count > 0 && send == nullptr", "send");
    nullCheck(all ? "count > 0 && recv == nullptr"
                  : "count > 0 && rank == root && recv == nullptr",
              "recv");
    if (all)
      os << "  " << type << " *acc = recv;\n";
    else
      os << "  // Only the root's recv is significant; the others reduce in "
            "scratch.\n"
         << "  std::vector<" << type << "> scratch;\n"
         << "  " << type << " *acc = recv;\n"
         << "  if (rank != root) {\n"
         << "    scratch.resize(count);\n"
         << "    acc = scratch.data();\n"
         << "  }\n";
    os << "  if (count > 0 && send != acc)\n"
       << "    std::copy(send, send + count, acc);\n"
       << "  if (count == 0 || P == 1)\n    return;\n"
       << peerSteps << myEdges
       << "  // Up the tree: combine each child's subtree, then send to the "
          "parent.\n"
       << "  for (const coll::TreeEdge &e : edges) {\n"
       << "    if (e.child == rel)\n"
       << "      steps.send(e.step, absolute(e.parent), acc, count);\n"
       << "    else\n"
       << "      steps.receiveCombine(e.step, absolute(e.child), acc, count, "
          "op);\n"
       << "  }\n";
    if (all) {
      os << "  // Down the same tree: the result from rank 0 to every rank.\n"
         << "  const int last = 2 * coll::treeSteps(tree, P) - 1;\n";
      emitDownward(os, "last", "acc, count", "acc, count", "");
    }
    return;
  }
  case CollectiveKind::gather:
  case CollectiveKind::scatter: {
    bool gather = kind == CollectiveKind::gather;
    nullCheck(gather ? "count > 0 && send == nullptr"
                     : "count > 0 && rank == root && send == nullptr",
              "send");
    nullCheck(gather ? "count > 0 && rank == root && recv == nullptr"
                     : "count > 0 && recv == nullptr",
              "recv");
    os << "  if (count == 0)\n    return;\n"
       << myEdges
       << "  // This rank's subtree is relative ranks [rel, rel + span); "
          "block(r) holds\n"
       << "  // relative rank r's block.\n"
       << "  int span = P;\n"
       << "  for (const coll::TreeEdge &e : edges)\n"
       << "    if (e.child == rel)\n"
       << "      span = e.span;\n"
       << "  std::vector<" << type
       << "> blocks(static_cast<std::size_t>(span) * count);\n"
       << "  auto block = [&](int r) { return blocks.data() + "
          "static_cast<std::size_t>(r - rel) * count; };\n"
       << peerSteps;
    if (gather) {
      os << "  std::copy(send, send + count, block(rel));\n"
         << "  // Up the tree: each child's subtree blocks, then ours to the "
            "parent.\n"
         << "  for (const coll::TreeEdge &e : edges) {\n"
         << "    const std::size_t n = static_cast<std::size_t>(e.span) * "
            "count;\n"
         << "    if (e.child == rel)\n"
         << "      steps.send(e.step, absolute(e.parent), blocks.data(), n);\n"
         << "    else\n"
         << "      steps.receive(e.step, absolute(e.child), block(e.child), "
            "n);\n"
         << "  }\n"
         << "  if (rank == root)\n"
         << "    for (int r = 0; r < P; ++r)\n"
         << "      std::copy(block(r), block(r) + count,\n"
         << "                recv + static_cast<std::size_t>(absolute(r)) * "
            "count);\n";
    } else {
      os << "  if (rank == root)\n"
         << "    for (int r = 0; r < P; ++r) {\n"
         << "      const " << type
         << " *from = send + static_cast<std::size_t>(absolute(r)) * count;\n"
         << "      std::copy(from, from + count, block(r));\n"
         << "    }\n"
         << "  const int last = coll::treeSteps(tree, P) - 1;\n"
         << "  // Down the tree: our subtree's blocks from the parent, then "
            "each child's.\n";
      emitDownward(os, "last", "blocks.data(), n", "block(e->child), n",
                   "static_cast<std::size_t>(e->span) * count");
      os << "  std::copy(block(rel), block(rel) + count, recv);\n";
    }
    return;
  }
  case CollectiveKind::allgather: {
    // Root 0: relative ranks are ranks, so every subtree's blocks are one
    // contiguous range of recv.
    nullCheck("count > 0 && (send == nullptr || recv == nullptr)", "a buffer");
    os << "  if (count == 0)\n    return;\n"
       << "  auto block = [&](int r) { return recv + "
          "static_cast<std::size_t>(r) * count; };\n"
       << "  if (send != block(rank))\n"
       << "    std::copy(send, send + count, block(rank));\n"
       << peerSteps << myEdges
       << "  // Up the tree: each child's subtree blocks; then ours to the "
          "parent.\n"
       << "  for (const coll::TreeEdge &e : edges) {\n"
       << "    const std::size_t n = static_cast<std::size_t>(e.span) * "
          "count;\n"
       << "    if (e.child == rank)\n"
       << "      steps.send(e.step, e.parent, block(rank), n);\n"
       << "    else\n"
       << "      steps.receive(e.step, e.child, block(e.child), n);\n"
       << "  }\n"
       << "  // Down the same tree: every block.\n"
       << "  const std::size_t total = static_cast<std::size_t>(P) * count;\n"
       << "  const int last = 2 * coll::treeSteps(tree, P) - 1;\n";
    emitDownward(os, "last", "recv, total", "recv, total", "");
    return;
  }
  case CollectiveKind::reduce_scatter: {
    nullCheck("count > 0 && (send == nullptr || recv == nullptr)", "a buffer");
    os << "  if (count == 0)\n    return;\n"
       << "  const std::size_t total = static_cast<std::size_t>(P) * count;\n"
       << "  std::vector<" << type << "> work(send, send + total);\n"
       << "  auto block = [&](int r) { return work.data() + "
          "static_cast<std::size_t>(r) * count; };\n"
       << peerSteps << myEdges
       << "  // Up the tree: every block, combined (the lower rank's first).\n"
       << "  for (const coll::TreeEdge &e : edges) {\n"
       << "    if (e.child == rank)\n"
       << "      steps.send(e.step, e.parent, work.data(), total);\n"
       << "    else\n"
       << "      steps.receiveCombine(e.step, e.child, work.data(), total, "
          "op);\n"
       << "  }\n"
       << "  // Down the same tree: each child's subtree blocks.\n"
       << "  const int last = 2 * coll::treeSteps(tree, P) - 1;\n";
    emitDownward(os, "last", "block(rank), n", "block(e->child), n",
                 "static_cast<std::size_t>(e->span) * count");
    os << "  std::copy(block(rank), block(rank) + count, recv);\n";
    return;
  }
  case CollectiveKind::alltoall:
  case CollectiveKind::inclusive_scan:
  case CollectiveKind::exclusive_scan:
  case CollectiveKind::barrier:
    return; // the spec verifier keeps trees away from these kinds
  }
}

/// The coll::Digits initializer of a digit-routed spec.
static std::string digitsInitializer(CollectiveOp spec) {
  Digits digits = digitsOf(spec);
  const char *system = digits.system == DigitSystem::direct  ? "direct"
                       : digits.system == DigitSystem::radix ? "radix"
                                                             : "balancedTernary";
  return std::string("coll::Digits{coll::DigitSystem::") + system + ", " +
         std::to_string(digits.radix) + "}";
}

/// The body of a digit-routed alltoall: work block j is the block at
/// offset j (ours for rank + j at the start, that of rank - j at the end);
/// every step of coll::digitSteps (the function the expansion verified)
/// sends a set of offsets to rank + offset and receives them from
/// rank - offset.
static void emitDigitBody(CollectiveOp spec, llvm::raw_ostream &os,
                          StringRef type, StringRef qualified) {
  os << "  if (count > 0 && (send == nullptr || recv == nullptr))\n"
     << "    throw coll::Error(\"" << qualified
     << ": null buffer with count \" + std::to_string(count));\n"
     << "  if (count == 0)\n    return;\n"
     << "  const int rank = comm.rank();\n"
     << "  const std::vector<coll::DigitStep> routing = coll::digitSteps("
     << digitsInitializer(spec) << ", P);\n"
     << "  auto at = [&](auto *buffer, int block) { return buffer + "
        "static_cast<std::size_t>(block) * count; };\n"
     << "  coll::PeerSteps<" << type << "> steps(comm);\n";
  if (spec.getSchedule() == ScheduleKind::direct)
    os << "  if (send != recv) {\n"
       << "    // Out of place, each block goes straight from send to its "
          "peer's recv.\n"
       << "    std::copy(at(send, rank), at(send, rank) + count, at(recv, "
          "rank));\n"
       << "    for (std::size_t s = 0; s < routing.size(); ++s) {\n"
       << "      const int to = (rank + routing[s].offset) % P, from = "
          "(rank - routing[s].offset + P) % P;\n"
       << "      steps.exchange(static_cast<int>(s), to, at(send, to), count, "
          "from, at(recv, from), count);\n"
       << "    }\n"
       << "    return;\n"
       << "  }\n";
  os << "  std::vector<" << type
     << "> work(static_cast<std::size_t>(P) * count);\n"
     << "  for (int j = 0; j < P; ++j)\n"
     << "    std::copy(at(send, (rank + j) % P), at(send, (rank + j) % P) + "
        "count, at(work.data(), j));\n"
     << "  for (std::size_t s = 0; s < routing.size(); ++s)\n"
     << "    steps.exchangeBlocks(static_cast<int>(s), (rank + "
        "routing[s].offset) % P,\n"
     << "                         (rank - routing[s].offset + P) % P, "
        "work.data(), count, routing[s].blocks);\n"
     << "  for (int j = 0; j < P; ++j)\n"
     << "    std::copy(at(work.data(), j), at(work.data(), j) + count, "
        "at(recv, (rank - j + P) % P));\n";
}

/// The body of a scan: fold the prefixes of lower ranks along the chain or
/// by recursive doubling (the steps ExpandScans verified), then, for an
/// exclusive scan, shift each inclusive prefix one rank up.
static void emitScanBody(CollectiveOp spec, llvm::raw_ostream &os,
                         StringRef type, StringRef qualified) {
  bool exclusive = spec.getKind() == CollectiveKind::exclusive_scan;
  os << "  if (count > 0 && (send == nullptr || recv == nullptr))\n"
     << "    throw coll::Error(\"" << qualified
     << ": null buffer with count \" + std::to_string(count));\n"
     << "  if (count == 0)\n    return;\n"
     << "  const int rank = comm.rank();\n";
  if (exclusive)
    os << "  // The inclusive prefix travels in `carry`; recv gets the "
          "exclusive one.\n"
       << "  std::vector<" << type << "> carry(send, send + count);\n"
       << "  " << type << " *acc = carry.data();\n";
  else
    os << "  " << type << " *acc = recv;\n"
       << "  if (send != recv)\n"
       << "    std::copy(send, send + count, recv);\n";
  os << "  coll::PeerSteps<" << type << "> steps(comm);\n";
  if (spec.getSchedule() == ScheduleKind::linear) {
    os << "  // Step k: rank k's prefix to rank k + 1.\n"
       << "  if (rank > 0)\n"
       << "    steps.receiveCombine(rank - 1, rank - 1, acc, count, op);\n"
       << "  if (rank + 1 < P)\n"
       << "    steps.send(rank, rank + 1, acc, count);\n";
    if (exclusive)
      os << "  const int shift = P - 1;\n";
  } else {
    os << "  // Step k: to rank + 2^k, from rank - 2^k (Hillis-Steele).\n"
       << "  int step = 0;\n"
       << "  for (int d = 1; d < P; d *= 2, ++step)\n"
       << "    steps.exchangeCombine(step, rank + d < P ? rank + d : "
          "coll::kNoPeer,\n"
       << "                          rank - d >= 0 ? rank - d : coll::kNoPeer, "
          "acc, count, op);\n";
    if (exclusive)
      os << "  const int shift = step;\n";
  }
  if (exclusive)
    os << "  // Rank r's inclusive prefix is rank r + 1's result; rank 0's "
          "recv is left\n"
       << "  // as it is (MPI_Exscan leaves it undefined).\n"
       << "  steps.exchange(shift, rank + 1 < P ? rank + 1 : coll::kNoPeer, "
          "acc, count,\n"
       << "                 rank > 0 ? rank - 1 : coll::kNoPeer, recv, "
          "count);\n";
}

/// A barrier: an allreduce of nothing up and down the tree (zero-byte
/// messages), so no rank leaves before every rank has arrived.
static void emitBarrierBody(CollectiveOp spec, llvm::raw_ostream &os) {
  os << "  const int rank = comm.rank();\n"
     << "  const coll::Tree tree = " << treeInitializer(spec) << ";\n"
     << "  const std::vector<coll::TreeEdge> edges = coll::treeEdgesOf(tree, "
        "P, rank);\n"
     << "  coll::PeerSteps<char> steps(comm);\n"
     << "  for (const coll::TreeEdge &e : edges) {  // arrive\n"
     << "    if (e.child == rank)\n"
     << "      steps.send(e.step, e.parent, nullptr, 0);\n"
     << "    else\n"
     << "      steps.receive(e.step, e.child, nullptr, 0);\n"
     << "  }\n"
     << "  const int last = 2 * coll::treeSteps(tree, P) - 1;\n"
     << "  for (auto e = edges.rbegin(); e != edges.rend(); ++e) {  // "
        "release\n"
     << "    if (e->child == rank)\n"
     << "      steps.receive(last - e->step, e->parent, nullptr, 0);\n"
     << "    else\n"
     << "      steps.send(last - e->step, e->child, nullptr, 0);\n"
     << "  }\n";
}

/// The body of a group-scheduled collective: recursive doubling with
/// PeerSteps, or the group moves with a Workspace (directly on the user's
/// buffers for allreduce; through a work buffer of P blocks for
/// reduce_scatter and allgather).
static void emitGroupBody(CollectiveOp spec, llvm::raw_ostream &os,
                          StringRef type, StringRef qualified) {
  CollectiveKind kind = spec.getKind();
  bool cyclic = spec.getGroup() == GroupKind::cyclic;
  std::string group = cyclic ? "coll::CyclicGroup" : "coll::XorGroup";
  std::string workspace = "coll::Workspace<" + type.str() + ", " + group + ">";
  int64_t r = static_cast<int64_t>(spec.getButterflyR());
  if (r != 0 && !(r == kButterflyMax && !cyclic)) {
    os << "  // butterfly(r = " << (r == kButterflyMax ? "max" : std::to_string(r))
       << "): the shifted reductions of coll/butterfly.hpp, the plan\n"
          "  // `coll-expand-group-schedules` expanded and the verifier proved.\n"
          "  const coll::ButterflyPlan plan = coll::butterflyPlan(P, "
       << (r == kButterflyMax || r > 64 ? std::string("coll::kLatencyOptimal")
                                        : std::to_string(r))
       << ", coll::GroupShape::" << (cyclic ? "cyclic" : "xor_") << ");\n"
       << "  coll::VectorSteps<" << type << ", " << group << "> steps(comm, "
       << group << "(P), send, recv, count, plan.copies);\n"
          "  for (const coll::ButterflyStep &step : plan.steps)\n"
          "    steps.run(step, op);\n";
  } else if (r == kButterflyMax) {
    os << "  // butterfly(r = max) on xor(P): recursive doubling, whole vectors "
          "exchanged\n"
          "  // with rank xor 2^i and combined (the lower rank's first).\n"
          "  if (count > 0 && (send == nullptr || recv == nullptr))\n"
          "    throw coll::Error(\"" << qualified
       << ": null buffer with count \" + std::to_string(count));\n"
          "  if (count > 0 && send != recv)\n"
          "    std::copy(send, send + count, recv);\n"
          "  if (count == 0)\n    return;\n"
          "  coll::PeerSteps<" << type << "> steps(comm);\n"
          "  int step = 0;\n"
          "  for (int mask = 1; mask < P; mask *= 2, ++step)\n"
          "    steps.exchangeCombine(step, comm.rank() ^ mask, comm.rank() ^ "
          "mask, recv, count, op);\n";
  } else if (kind == CollectiveKind::allreduce) {
    os << "  " << workspace << " ws(comm, " << group
       << "(P), send, recv, count);\n";
    emitSchedule(spec, os);
  } else {
    // P blocks of `count`; part b lives in chunk group.position(b) of a work
    // buffer (the xor group bit-reverses). Placement 0 is part x on rank x:
    // reduce_scatter's result, allgather's input.
    bool scatter = kind == CollectiveKind::reduce_scatter;
    os << "  const " << group << " group(P);\n"
       << "  const std::size_t total = static_cast<std::size_t>(P) * count;\n"
       << "  std::vector<" << type << "> work(total);\n";
    if (scatter)
      os << "  for (int b = 0; b < P && count > 0; ++b)\n"
            "    std::copy(send + b * count, send + (b + 1) * count,\n"
            "              work.data() + group.position(b) * count);\n";
    else
      os << "  if (count > 0)\n"
            "    std::copy(send, send + count,\n"
            "              work.data() + group.position(comm.rank()) * "
            "count);\n";
    os << "  " << workspace
       << " ws(comm, group, work.data(), work.data(), total);\n";
    emitSchedule(spec, os);
    if (scatter)
      os << "  const std::size_t mine = static_cast<std::size_t>("
            "group.position(comm.rank())) * count;\n"
            "  std::copy(work.data() + mine, work.data() + mine + count, "
            "recv);\n";
    else
      os << "  for (int b = 0; b < P && count > 0; ++b)\n"
            "    std::copy(work.data() + group.position(b) * count,\n"
            "              work.data() + (group.position(b) + 1) * count, "
            "recv + b * count);\n";
  }

}

static void emitCollective(CollectiveOp spec, llvm::raw_ostream &os,
                           StringRef ns) {
  StringRef name = spec.getSymName();
  CollectiveKind kind = spec.getKind();
  std::optional<Type> elementType = spec.getElementType();
  std::string type = elementType ? cppType(*elementType) : "T";
  const char *opName = stringifyReduceOp(spec.getOp()).data();
  bool hasOp = kind == CollectiveKind::allreduce ||
               kind == CollectiveKind::reduce_scatter ||
               kind == CollectiveKind::reduce || isScan(kind);
  StringRef kindName = stringifyCollectiveKind(kind);
  std::string qualified = (ns + "::" + name).str();

  bool custom = spec.getOp() == ReduceOp::custom;
  os << "/// " << name << ": " << kindName;
  if (hasOp && custom)
    os << (spec.getNoncommutative()
               ? ", the caller's associative operator, folded in rank order "
                 "(noncommutative)"
               : ", the caller's associative, commutative operator");
  else if (hasOp)
    os << ", " << opName << " by default";
  if (kind != CollectiveKind::barrier)
    os << ", "
       << (elementType ? "element type " + type
                       : std::string("any element type"));
  os << ", " << spec.describeRanks() << ".\n";
  if (kind == CollectiveKind::reduce_scatter)
    os << "/// send: P * count elements, block b for rank b; recv: count "
          "elements,\n/// the reduction of every rank's block `rank`.\n";
  if (kind == CollectiveKind::allgather)
    os << "/// send: count elements; recv: P * count elements, block b from "
          "rank b\n/// (in place when send == recv + rank * count).\n";
  if (kind == CollectiveKind::broadcast)
    os << "/// buffer: count elements, the root's copied to every rank.\n";
  if (kind == CollectiveKind::reduce)
    os << "/// send: count elements; recv: count elements, significant at "
          "the root\n/// only (may be null elsewhere; in place when send == "
          "recv).\n";
  if (kind == CollectiveKind::gather)
    os << "/// send: count elements; recv: P * count elements at the root, "
          "block b from\n/// rank b (may be null elsewhere).\n";
  if (kind == CollectiveKind::inclusive_scan)
    os << "/// send, recv: count elements; rank r gets op over ranks 0..r in "
          "rank order\n/// (MPI_Scan; in place when send == recv).\n";
  if (kind == CollectiveKind::exclusive_scan)
    os << "/// send, recv: count elements; rank r >= 1 gets op over ranks "
          "0..r-1 in rank\n/// order (MPI_Exscan; in place when send == "
          "recv). Rank 0's recv is left as it\n/// is, unless an init value "
          "is given: then rank 0 gets init and rank r\n/// op(init, x_0, "
          "..., x_{r-1}), as std::exclusive_scan.\n";
  if (kind == CollectiveKind::barrier)
    os << "/// Returns on every rank only after every rank has entered.\n";
  if (kind == CollectiveKind::alltoall)
    os << "/// send: P * count elements, block d for rank d; recv: P * count "
          "elements,\n/// block s from rank s (in place when send == recv).\n";
  if (kind == CollectiveKind::scatter)
    os << "/// send: P * count elements at the root, block b for rank b (may "
          "be null\n/// elsewhere); recv: count elements.\n";
  os << "/// " << describeSchedule(spec) << ".\n";
  os << "constexpr bool " << name << "_accepts(int ranks) noexcept { return "
     << acceptsExpression(spec) << "; }\n";
  if (std::optional<uint64_t> root = spec.getRoot())
    os << "constexpr int " << name << "_root = " << *root << ";\n";
  os << "\n";

  std::string head = elementType ? (hasOp ? "template <class Op>\n" : "inline ")
                                 : (hasOp ? "template <class T, class Op>\n"
                                          : "template <class T>\n");
  if (kind == CollectiveKind::barrier)
    os << "inline void " << name << "(coll::Comm &comm) {\n";
  else if (kind == CollectiveKind::broadcast)
    os << head << "void " << name << "(coll::Comm &comm, " << type
       << " *buffer, std::size_t count) {\n";
  else
    os << head << "void " << name << "(coll::Comm &comm, const " << type
       << " *send, " << type << " *recv, std::size_t count"
       << (hasOp ? ", Op op" : "") << ") {\n";
  os << "  const int P = comm.size();\n";
  os << "  if (!" << name << "_accepts(P))\n";
  os << "    throw coll::Error(\"" << ns << "::" << name
     << ": communicator size \" + std::to_string(P) +\n"
     << "                      \" is not allowed (requires "
     << spec.describeRanks() << ")\");\n";
  if (kind == CollectiveKind::barrier)
    emitBarrierBody(spec, os);
  else if (isScan(kind))
    emitScanBody(spec, os, type, qualified);
  else if (spec.isTree())
    emitTreeBody(spec, os, type, qualified);
  else if (spec.isDigitRouting())
    emitDigitBody(spec, os, type, qualified);
  else
    emitGroupBody(spec, os, type, qualified);
  os << "}\n\n";

  if (kind == CollectiveKind::exclusive_scan) {
    os << "/// With an init value: rank 0 gets init, rank r op(init, x_0, ..., "
          "x_{r-1}).\n";
    os << (elementType ? "template <class Op>\n"
                       : "template <class T, class Op>\n")
       << "void " << name << "(coll::Comm &comm, const " << type << " *send, "
       << type << " *recv, std::size_t count, Op op, const " << type
       << " &init) {\n"
       << "  " << name << "(comm, send, recv, count, op);\n"
       << "  for (std::size_t i = 0; i < count; ++i)\n"
       << "    recv[i] = comm.rank() == 0 ? init : op(init, recv[i]);\n"
       << "}\n\n";
  }
  if (!hasOp || custom)
    return; // no default operator to call with
  if (!elementType)
    os << "template <class T>\n";
  else
    os << "inline ";
  os << "void " << name << "(coll::Comm &comm, const " << type << " *send, "
     << type << " *recv, std::size_t count) {\n";
  os << "  " << name << "(comm, send, recv, count, "
     << cppOperator(spec.getOp()) << "{});\n";
  os << "}\n\n";
}

LogicalResult coll::emitCppHeader(ModuleOp module, llvm::raw_ostream &os,
                                  StringRef cppNamespace, StringRef source) {
  os << "// Generated by collc from " << source << ". Do not edit.\n";
  os << "#pragma once\n\n";
  os << "#include \"coll/runtime.hpp\"\n\n";
  os << "#include <algorithm>\n#include <cstddef>\n#include <cstdint>\n"
        "#include <string>\n#include <vector>\n\n";
  os << "namespace " << cppNamespace << " {\n\n";
  for (CollectiveOp spec : module.getOps<CollectiveOp>())
    emitCollective(spec, os, cppNamespace);
  os << "} // namespace " << cppNamespace << "\n";
  return success();
}
