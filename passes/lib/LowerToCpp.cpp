//===- LowerToCpp.cpp - coll.collective to a C++ header -------------------===//
//
// The header holds, per collective, a function whose loops are the group
// schedule's closed forms in P, so one header serves every communicator
// size the spec admits and its size does not grow with P. The loops are
// the same moves expandGroupSchedule() builds for one P (checked by the
// dataflow check before the header is written); the runtime's
// coll::Workspace turns each move into one exchange per rank.
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/Lowering.h"

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
  if (spec.getRankConstraint() == RankConstraint::power_of_two)
    return "ranks >= 1 && (ranks & (ranks - 1)) == 0";
  return "ranks >= 1";
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

static void emitCollective(CollectiveOp spec, llvm::raw_ostream &os,
                           StringRef ns) {
  StringRef name = spec.getSymName();
  CollectiveKind kind = spec.getKind();
  bool cyclic = spec.getGroup() == GroupKind::cyclic;
  std::optional<Type> elementType = spec.getElementType();
  std::string type = elementType ? cppType(*elementType) : "T";
  const char *opName = stringifyReduceOp(spec.getOp()).data();
  bool hasOp = kind != CollectiveKind::allgather;
  StringRef kindName = stringifyCollectiveKind(kind);

  os << "/// " << name << ": " << kindName;
  if (hasOp)
    os << ", " << opName << " by default";
  os << ", "
     << (elementType ? "element type " + type : std::string("any element type"))
     << ", " << spec.describeRanks() << ".\n";
  if (kind == CollectiveKind::reduce_scatter)
    os << "/// send: P * count elements, block b for rank b; recv: count "
          "elements,\n/// the reduction of every rank's block `rank`.\n";
  if (kind == CollectiveKind::allgather)
    os << "/// send: count elements; recv: P * count elements, block b from "
          "rank b\n/// (in place when send == recv + rank * count).\n";
  os << "/// group " << (cyclic ? "cyclic(P)" : "xor(P)") << ", schedule "
     << (spec.getSchedule() == ScheduleKind::linear ? "linear"
                                                    : "butterfly(r = 0)")
     << ".\n";
  os << "constexpr bool " << name << "_accepts(int ranks) noexcept { return "
     << acceptsExpression(spec) << "; }\n\n";

  std::string head = elementType ? (hasOp ? "template <class Op>\n" : "inline ")
                                 : (hasOp ? "template <class T, class Op>\n"
                                          : "template <class T>\n");
  os << head << "void " << name << "(coll::Comm &comm, const " << type
     << " *send, " << type << " *recv, std::size_t count"
     << (hasOp ? ", Op op" : "") << ") {\n";
  os << "  const int P = comm.size();\n";
  os << "  if (!" << name << "_accepts(P))\n";
  os << "    throw coll::Error(\"" << ns << "::" << name
     << ": communicator size \" + std::to_string(P) +\n"
     << "                      \" is not allowed (requires "
     << spec.describeRanks() << ")\");\n";
  std::string group = cyclic ? "coll::CyclicGroup" : "coll::XorGroup";
  std::string workspace = "coll::Workspace<" + type + ", " + group + ">";
  if (kind == CollectiveKind::allreduce) {
    os << "  " << workspace << " ws(comm, " << group
       << "(P), send, recv, count);\n";
    emitSchedule(spec, os);
    os << "}\n\n";
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
    os << "}\n\n";
  }

  if (!hasOp)
    return;
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
