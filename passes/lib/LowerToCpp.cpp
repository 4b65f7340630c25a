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

static void emitSchedule(CollectiveOp spec, llvm::raw_ostream &os) {
  switch (spec.getSchedule()) {
  case ScheduleKind::linear:
    os << "  // reduce-scatter: the vector at placement s moves to s + 1 and "
          "is combined there.\n"
          "  for (int s = 0; s + 1 < P; ++s)\n"
          "    ws.combine(s, s + 1, 1, op);\n"
          "  // all-gather: the sum at placement P - 1 is copied around the "
          "ring.\n"
          "  for (int s = 0; s + 1 < P; ++s)\n"
          "    ws.copy((s + P - 1) % P, s, 1);\n";
    return;
  case ScheduleKind::butterfly:
    os << "  // reduce-scatter: with n vectors left, the upper n / 2 move "
          "onto the lower\n"
          "  // ones and are combined; an odd leftover waits.\n"
          "  struct Halving {\n"
          "    int kept, moved;\n"
          "  } halvings[32];\n"
          "  int depth = 0;\n"
          "  for (int n = P; n > 1; n = (n + 1) / 2) {\n"
          "    halvings[depth] = Halving{(n + 1) / 2, n / 2};\n"
          "    ws.combine(halvings[depth].kept, 0, halvings[depth].moved, "
          "op);\n"
          "    ++depth;\n"
          "  }\n"
          "  // all-gather: replay the halvings in reverse, copying instead "
          "of combining.\n"
          "  while (depth-- > 0)\n"
          "    ws.copy(0, halvings[depth].kept, halvings[depth].moved);\n";
    return;
  }
}

static void emitCollective(CollectiveOp spec, llvm::raw_ostream &os,
                           StringRef ns) {
  StringRef name = spec.getSymName();
  bool cyclic = spec.getGroup() == GroupKind::cyclic;
  std::optional<Type> elementType = spec.getElementType();
  std::string type = elementType ? cppType(*elementType) : "T";
  const char *opName = stringifyReduceOp(spec.getOp()).data();

  os << "/// " << name << ": allreduce, " << opName << " by default, "
     << (elementType ? "element type " + type : std::string("any element type"))
     << ", " << spec.describeRanks() << ".\n";
  os << "/// group " << (cyclic ? "cyclic(P)" : "xor(P)") << ", schedule "
     << (spec.getSchedule() == ScheduleKind::linear
             ? "linear: 2(P - 1) steps"
             : "butterfly(r = 0): 2 ceil(log2 P) steps")
     << ", each rank sends 2(P - 1) parts.\n";
  os << "constexpr bool " << name << "_accepts(int ranks) noexcept { return "
     << acceptsExpression(spec) << "; }\n\n";

  std::string templateHead = elementType ? "template <class Op>\n"
                                         : "template <class T, class Op>\n";
  os << templateHead << "void " << name << "(coll::Comm &comm, const " << type
     << " *send, " << type << " *recv, std::size_t count, Op op) {\n";
  os << "  const int P = comm.size();\n";
  os << "  if (!" << name << "_accepts(P))\n";
  os << "    throw coll::Error(\"" << ns << "::" << name
     << ": communicator size \" + std::to_string(P) +\n"
     << "                      \" is not allowed (requires "
     << spec.describeRanks() << ")\");\n";
  std::string group = cyclic ? "coll::CyclicGroup" : "coll::XorGroup";
  os << "  coll::Workspace<" << type << ", " << group << "> ws(comm, " << group
     << "(P), send, recv, count);\n";
  emitSchedule(spec, os);
  os << "}\n\n";

  if (!elementType)
    os << "template <class T>\n";
  else
    os << "inline ";
  os << "void " << name << "(coll::Comm &comm, const " << type << " *send, "
     << type << " *recv, std::size_t count) {\n";
  os << "  " << name << "(comm, send, recv, count, " << cppOperator(spec.getOp())
     << "{});\n";
  os << "}\n\n";
}

LogicalResult coll::emitCppHeader(ModuleOp module, llvm::raw_ostream &os,
                                  StringRef cppNamespace, StringRef source) {
  os << "// Generated by collc from " << source << ". Do not edit.\n";
  os << "#pragma once\n\n";
  os << "#include \"coll/runtime.hpp\"\n\n";
  os << "#include <cstddef>\n#include <cstdint>\n#include <string>\n\n";
  os << "namespace " << cppNamespace << " {\n\n";
  for (CollectiveOp spec : module.getOps<CollectiveOp>())
    emitCollective(spec, os, cppNamespace);
  os << "} // namespace " << cppNamespace << "\n";
  return success();
}
