//===- collc.cpp - the collc driver ---------------------------------------===//
//
//   collc compile FILE -o OUT.hpp [--namespace NS] [--model M]
//                 [--proof-cache DIR]
//   collc emit FILE --stage=spec|steps [--ranks N]
//   collc trace FILE --ranks N [--count N] [--collective NAME]
//   collc verify FILE [--ranks 2..64|3,7,127] [--collective NAME] [--json]
//                [--no-family] [--replay] [--timeout-ms N] [--cross-check]
//                [--proof-cache DIR]
//   collc cost FILE --model M [--ranks N] [--sizes 64,8K,1M]
//   collc explain FILE --model M [--ranks N|LIST]
//   collc sweep --model M [--retri N] [--bruck N] [--svg OUT.svg]
//   collc calibrate -o MODEL [--quick]
//   collc policy FILE... [--model M] -o POLICY.so | --sources DIR
//   collc families
//
// FILE is a .coll file or MLIR (spec or step ops). Errors go through MLIR's
// diagnostic engine, so they read `file:line:col: error: ...` with the
// source line and a caret; a failed compile writes no output file.
//
//===----------------------------------------------------------------------===//
#include "Arguments.h"
#include "ExitCode.h"
#include "CostCommand.h"
#include "PolicyCommand.h"
#include "SweepCommand.h"
#include "CompileCommand.h"
#include "VerifyCommand.h"
#include "coll/Dialect/Catalogue.h"
#include "coll/Dialect/CollOps.h"
#include "coll/Frontend/Parser.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Verify.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>

using namespace mlir;
using namespace coll;

namespace {

/// Each command's usage, as `collc CMD --help` prints it; `collc --help`
/// prints them all.
struct CommandUsage {
  const char *name, *text;
};
const CommandUsage kCommands[] = {
    {"compile", R"(  collc compile FILE -o OUT.hpp [--namespace NS] [--model MODEL]
                [--proof-cache DIR]
      Prove the schedule (as `verify` does, for every admitted P in 1..64
      when P is symbolic) and write a C++ header. A `choose` block takes
      its size thresholds from MODEL (see cost). With DIR, proofs this
      same collc executable made before are reused, and new ones kept.
)"},
    {"emit", R"(  collc emit FILE --stage=spec|steps|moves [--ranks N]
      Print the spec ops, or the step ops expanded for N ranks (moves:
      group-level moves only, without per-rank transfers).
)"},
    {"trace", R"(  collc trace FILE --ranks N [--count N] [--collective NAME]
      Print every rank's values after every step; rank r starts with
      N (or --count) copies of r + 1.
)"},
    {"verify", R"(  collc verify FILE [--ranks LIST] [--collective NAME] [--json]
               [--no-family] [--replay] [--timeout-ms N] [--cross-check]
               [--proof-cache DIR]
      Prove matching, ownership, coverage and operator legality with Z3,
      for every P in LIST (e.g. 2..64 or 3,7,127; default 2..64) and, for
      closed-form schedules, for all P at once; a step-level .mlir file is
      verified as written. --cross-check also runs the exact simulation
      on every program and fails (exit 4) where it disagrees with Z3.
      --replay decides by the exact replays wherever the verifier has
      one (as it does for long chains and large programs). With DIR, a P
      this same collc executable proved before (compile's proofs too) is
      reported as proven (cached) without Z3, and still simulated by
      --cross-check; new proofs are kept.
)"},
    {"cost", R"(  collc cost FILE --model MODEL [--ranks N] [--sizes 64,8K,128K,1M]
               [--collective NAME]
      Predict each collective's time for each size on an alpha-beta-gamma
      machine (docs/cost-model.md): MODEL is a file of `key = value` lines
      or inline `alpha=0.065,beta=1.717528e-5,gamma=0` (us, us/B, us/B).
)"},
    {"explain", R"(  collc explain FILE --model MODEL [--ranks N|LIST] [--collective NAME]
      Each collective's cost as fixed + per-byte * M, the fastest one per
      size range, and where each pair crosses. With a LIST (2..16), or no
      --ranks on a symbolic P (then 1..64): per P, the fastest by size.
      --collective takes a collective's name or a choose's (its candidates).
)"},
    {"sweep", R"(  collc sweep --model MODEL [--retri N] [--bruck N] [--svg OUT.svg]
      ReTri and Bruck on an optical circuit switch over sizes 1 KiB..256 MiB
      and reconfiguration delays 1 us..50 ms, each with its best R (seed
      002): the speedup ranges, and a heatmap and line plot as SVG.
)"},
    {"policy", R"(  collc policy FILE... [--model MODEL] -o POLICY.so [--sources DIR]
               [--cxx COMPILER] [-j N]
      Prove collectives named for the MPI calls they serve (policy_allreduce,
      ..., policy_scatter) and build a policy for libcollc_mpi.so, loaded
      with COLLC_MPI_POLICY=POLICY.so (`collc policy --help`, docs/preload.md).
)"},
    {"families", R"(  collc families
      The catalogue of algorithm families: how a .coll file selects each,
      the kinds it serves, its parameters, restrictions and runtime plan.
)"},
    {"calibrate", R"(  collc calibrate -o MODEL [--quick]
      Measure alpha, beta and gamma with collc-calibrate on two MPI ranks
      (mpirun -np 2) and write a model file for cost and explain.
)"},
};

const char *const kUsageFooter = R"(FILE is a .coll file or MLIR text.
Exit status (every command): 0 success (verify: every property proven);
1 a property is violated, with a counterexample (verify, compile); 2 a usage
or input error (command line, missing or invalid file, unknown collective,
bad model); 3 nothing is violated but something is not proven (Z3 timeout or
unknown); 4 verify --cross-check: the simulation disagrees with Z3.
)";

/// The usage of `command`, or of every command.
std::string usage(llvm::StringRef command = "") {
  std::string text = "usage:\n";
  for (const CommandUsage &c : kCommands)
    if (command.empty() || command == c.name)
      text += c.text;
  return text + kUsageFooter;
}

struct Options {
  std::string command, input, output, stage, cppNamespace = "collc", collective;
  std::string proofCache;
  std::optional<int64_t> ranks, count;
  collc::VerifyCommandOptions verify;
  collc::CostCommandOptions cost;
};

int usageError(const llvm::Twine &message) {
  llvm::errs() << "collc: error: " << message << "\n" << usage();
  return collc::kInputError;
}

std::optional<int64_t> parsePositive(llvm::StringRef text) {
  int64_t value;
  if (text.getAsInteger(10, value) || value < 1)
    return std::nullopt;
  return value;
}

/// Parses argv; returns an exit code on error.
std::optional<int> parseArgs(int argc, char **argv, Options &opts) {
  if (argc < 2)
    return usageError("no command given");
  opts.command = argv[1];
  if (opts.command == "--help" || opts.command == "-h") {
    llvm::outs() << usage();
    return 0;
  }
  if (llvm::none_of(kCommands, [&](const CommandUsage &c) {
        return opts.command == c.name;
      }))
    return usageError("unknown command '" + opts.command + "'");
  // `collc CMD --help` anywhere among CMD's arguments: CMD's usage (policy
  // prints its own, longer one).
  for (int i = 2; i < argc && opts.command != "policy"; ++i)
    if (llvm::StringRef(argv[i]) == "--help" || llvm::StringRef(argv[i]) == "-h") {
      llvm::outs() << usage(opts.command);
      return 0;
    }
  if (opts.command == "calibrate" || opts.command == "sweep" ||
      opts.command == "families" || opts.command == "policy")
    return std::nullopt; // their own arguments
  bool pricing = opts.command == "cost" || opts.command == "explain";
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto value = [&](llvm::StringRef flag) {
      return collc::flagValue(flag, i, argc, argv);
    };
    if (arg == "-o") {
      if (i + 1 >= argc)
        return usageError("-o needs a file name");
      opts.output = argv[++i];
    } else if (std::optional<std::string> v = value("--namespace")) {
      opts.cppNamespace = *v;
    } else if (std::optional<std::string> v =
                   opts.command == "compile" || opts.command == "verify"
                       ? value("--proof-cache")
                       : std::nullopt) {
      opts.proofCache = *v;
    } else if (std::optional<std::string> v = value("--stage")) {
      opts.stage = *v;
    } else if (std::optional<std::string> v = value("--collective")) {
      opts.collective = *v;
    } else if (std::optional<std::string> v =
                   pricing || opts.command == "compile" ? value("--model")
                                                        : std::nullopt) {
      opts.cost.model = *v;
    } else if (std::optional<std::string> v = pricing ? value("--sizes")
                                                      : std::nullopt) {
      if (std::optional<std::string> error =
              collc::parseSizeList(*v, opts.cost.sizes))
        return usageError(*error);
    } else if (arg == "--json" && opts.command == "verify") {
      opts.verify.json = true;
    } else if (arg == "--cross-check" && opts.command == "verify") {
      opts.verify.crossCheck = true;
    } else if (arg == "--no-family" && opts.command == "verify") {
      opts.verify.family = false;
    } else if (arg == "--replay" && opts.command == "verify") {
      opts.verify.replay = true;
    } else if (std::optional<std::string> v = value("--timeout-ms")) {
      std::optional<int64_t> ms = parsePositive(*v);
      if (!ms || *ms > 3600000)
        return usageError("--timeout-ms needs a positive number of "
                          "milliseconds, got '" +
                          *v + "'");
      opts.verify.timeoutMs = static_cast<unsigned>(*ms);
    } else if (std::optional<std::string> v = value("--ranks")) {
      if (opts.command == "verify" ||
          (opts.command == "explain" && !parsePositive(*v))) {
        if (std::optional<std::string> error = collc::parseRankList(
                *v, opts.command == "verify" ? opts.verify.ranks
                                             : opts.cost.rankList))
          return usageError(*error);
        continue;
      }
      opts.ranks = parsePositive(*v);
      if (!opts.ranks)
        return usageError("--ranks needs a positive integer, got '" + *v + "'");
    } else if (std::optional<std::string> v = value("--count")) {
      int64_t count;
      if (llvm::StringRef(*v).getAsInteger(10, count) || count < 0)
        return usageError("--count needs a non-negative integer, got '" + *v +
                          "'");
      opts.count = count;
    } else if (arg.starts_with("-") && arg != "-") {
      return usageError("unknown option '" + arg + "'");
    } else if (opts.input.empty()) {
      opts.input = arg.str();
    } else {
      return usageError("more than one input file ('" + opts.input + "' and '" +
                        arg + "')");
    }
  }
  if (opts.input.empty())
    return usageError("no input file");
  if (opts.command == "compile" && opts.output.empty())
    return usageError("compile needs -o OUT.hpp");
  if (opts.command == "emit" && opts.stage != "spec" && opts.stage != "steps" &&
      opts.stage != "moves")
    return usageError("emit needs --stage=spec, --stage=steps or "
                      "--stage=moves");
  opts.verify.input = opts.input;
  opts.verify.proofCache = opts.proofCache;
  opts.verify.collective = opts.collective;
  opts.cost.explain = opts.command == "explain";
  opts.cost.ranks = opts.ranks.value_or(0);
  opts.cost.collective = opts.collective;
  return std::nullopt;
}

OwningOpRef<ModuleOp> load(llvm::SourceMgr &sourceMgr, MLIRContext &context) {
  OwningOpRef<ModuleOp> module = parseInputFile(sourceMgr, &context);
  if (module && failed(verify(*module)))
    return nullptr;
  return module;
}

int runCompile(ModuleOp module, const Options &opts) {
  auto specs = llvm::to_vector(module.getOps<CollectiveOp>());
  if (specs.empty()) {
    emitError(module.getLoc(), "no collective to compile");
    return collc::kInputError;
  }
  std::optional<MachineModel> model;
  if (!opts.cost.model.empty() &&
      !(model = MachineModel::load(opts.cost.model, llvm::errs())))
    return collc::kInputError;
  if (int code = collc::runCompilePipeline(module, model ? &*model : nullptr,
                                           opts.proofCache))
    return code;
  std::string header;
  llvm::raw_string_ostream os(header);
  if (failed(translateToCpp(module, os, opts.cppNamespace,
                            llvm::sys::path::filename(opts.input))))
    return collc::kInputError;
  // Written only now, through a temporary file, so a failure leaves none.
  llvm::Error err = llvm::writeToOutput(
      opts.output, [&](llvm::raw_ostream &out) -> llvm::Error {
        out << header;
        return llvm::Error::success();
      });
  if (err) {
    llvm::errs() << "collc: error: cannot write '" << opts.output
                 << "': " << llvm::toString(std::move(err)) << "\n";
    return collc::kInputError;
  }
  return 0;
}

int runTrace(ModuleOp module, const Options &opts) {
  if (failed(expandAllCollectives(module, opts.ranks.value_or(0), "--ranks N")))
    return collc::kInputError;
  auto programs = llvm::to_vector(module.getOps<ProgramOp>());
  ProgramOp chosen;
  for (ProgramOp program : programs)
    if (opts.collective.empty() ? programs.size() == 1
                                : program.getSymName() == opts.collective)
      chosen = program;
  if (!chosen) {
    if (programs.empty())
      emitError(module.getLoc(), "nothing to trace");
    else if (opts.collective.empty())
      emitError(module.getLoc(), "the file has ")
          << programs.size()
          << " collectives; choose one with --collective NAME";
    else
      emitError(module.getLoc(), "no collective named '")
          << opts.collective << "'";
    return collc::kInputError;
  }
  int64_t count = opts.count ? *opts.count : chosen.getNumRanks();
  return failed(printTrace(chosen, count, llvm::outs())) ? collc::kInputError
                                                        : collc::kSuccess;
}

/// `collc calibrate ARGS`: mpirun -np 2 collc-calibrate ARGS, with
/// collc-calibrate from beside this executable.
int runCalibrate(int argc, char **argv) {
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&runCalibrate));
  llvm::SmallString<256> helper(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(helper, "collc-calibrate");
  if (!llvm::sys::fs::can_execute(helper)) {
    llvm::errs() << "collc: error: cannot find collc-calibrate next to collc ("
                 << helper << ")\n";
    return collc::kInputError;
  }
  llvm::ErrorOr<std::string> mpirun = llvm::sys::findProgramByName("mpirun");
  if (!mpirun) {
    llvm::errs() << "collc: error: calibrate needs mpirun on PATH (Open MPI)\n";
    return collc::kInputError;
  }
  std::vector<llvm::StringRef> args = {*mpirun, "-np", "2", "--oversubscribe",
                                       "--bind-to", "none", helper};
  for (int i = 2; i < argc; ++i)
    args.push_back(argv[i]);
  std::string error;
  int code = llvm::sys::ExecuteAndWait(*mpirun, args, std::nullopt, {}, 0, 0,
                                       &error);
  if (code < 0) {
    llvm::errs() << "collc: error: cannot run mpirun: " << error << "\n";
    return collc::kInputError;
  }
  return code;
}

} // namespace

int main(int argc, char **argv) {
  keepHeapForProofs();
  Options opts;
  if (std::optional<int> code = parseArgs(argc, argv, opts))
    return *code;
  if (opts.command == "calibrate")
    return runCalibrate(argc, argv);
  if (opts.command == "sweep")
    return collc::runSweep(argc, argv);
  if (opts.command == "policy")
    return collc::runPolicy(argc, argv);
  if (opts.command == "families") {
    if (argc > 2)
      return usageError("families takes no arguments, got '" +
                        llvm::Twine(argv[2]) + "'");
    llvm::outs() << coll::describeFamilies();
    return 0;
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(opts.input, &errorMessage);
  if (!file) {
    llvm::errs() << "collc: error: " << errorMessage << "\n";
    return collc::kInputError;
  }
  MLIRContext context;
  // Diagnostics point at the user's text; the op's generic form is noise.
  context.printOpOnDiagnostic(false);
  context.getOrLoadDialect<CollDialect>();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = load(sourceMgr, context);
  if (!module)
    return collc::kInputError;

  if (opts.command == "compile")
    return runCompile(*module, opts);
  if (opts.command == "trace")
    return runTrace(*module, opts);
  if (opts.command == "verify")
    return collc::runVerify(*module, opts.verify);
  if (opts.command == "cost" || opts.command == "explain")
    return collc::runCost(*module, opts.cost);
  // emit
  if (opts.stage != "spec" &&
      failed(expandAllCollectives(*module, opts.ranks.value_or(0), "--ranks N",
                                  /*withTransfers=*/opts.stage == "steps")))
    return collc::kInputError;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
