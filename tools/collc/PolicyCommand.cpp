//===- PolicyCommand.cpp - collc policy -----------------------------------===//
//
// Builds a policy for libcollc_mpi.so from .coll files: every collective
// names the MPI call it serves (policy_allreduce serves MPI_Allreduce, ...),
// is proven as `compile` proves it, and is emitted into one header; a
// table of the calls present (policy_calls.h) selects what the policy's
// sources (runtime/mpi/PolicyTable.cpp and Serve*.cpp, shared with the
// library's built-in policy) compile. With -o the command compiles them
// into a shared object the library loads (COLLC_MPI_POLICY).
//
//===----------------------------------------------------------------------===//
#include "PolicyCommand.h"
#include "CostCommand.h"
#include "Arguments.h"
#include "ExitCode.h"
#include "PolicyEntries.h"
#include "CompileCommand.h"
#include "coll/Dialect/CollOps.h"
#include "coll/Frontend/Parser.h"
#include "coll/Passes/Lowering.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#ifndef COLLC_RUNTIME_DIGEST
#error "COLLC_RUNTIME_DIGEST: the digest of the runtime headers (CMakeLists.txt)"
#endif

using namespace mlir;
using namespace coll;
using namespace collc;

namespace {

const char *const kPolicyUsage = R"(usage:
  collc policy FILE... [--model MODEL] -o POLICY.so [--sources DIR]
               [--cxx COMPILER] [-j N] [--proof-cache DIR]
  collc policy FILE... [--model MODEL] --sources DIR [--proof-cache DIR]
      Prove the collectives of the .coll files and build a policy for
      libcollc_mpi.so (docs/preload.md): each collective is named for the
      MPI call it serves (policy_allreduce, policy_reduce_scatter,
      policy_allgather, policy_alltoall, policy_inclusive_scan,
      policy_exclusive_scan, policy_barrier, policy_broadcast, policy_reduce,
      policy_gather, policy_scatter), takes any element type, and the rooted
      ones take MPI's root (root = any). A `choose` takes its thresholds from
      MODEL. -o compiles the policy into a shared object (with COMPILER,
      N compiler runs at once) to load with COLLC_MPI_POLICY=POLICY.so;
      --sources writes the header and the table of calls it is built from.
      --proof-cache reuses and keeps proofs as `collc compile` does.
)";

struct Options {
  std::vector<std::string> inputs;
  std::string model, output, sourcesDir, cxx, proofCache;
  unsigned jobs = 0;
};

int usageError(const llvm::Twine &message) {
  llvm::errs() << "collc: error: " << message << "\n" << kPolicyUsage;
  return collc::kInputError;
}

std::optional<int> parseArgs(int argc, char **argv, Options &opts) {
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto value = [&](llvm::StringRef flag) {
      return collc::flagValue(flag, i, argc, argv);
    };
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << kPolicyUsage;
      return 0;
    }
    if (arg == "-o") {
      if (i + 1 >= argc)
        return usageError("-o needs a file name");
      opts.output = argv[++i];
    } else if (std::optional<std::string> v = value("--model")) {
      opts.model = *v;
    } else if (std::optional<std::string> v = value("--sources")) {
      opts.sourcesDir = *v;
    } else if (std::optional<std::string> v = value("--proof-cache")) {
      opts.proofCache = *v;
    } else if (std::optional<std::string> v = value("--cxx")) {
      opts.cxx = *v;
    } else if (arg.starts_with("-j")) {
      std::string text = arg.size() > 2 ? arg.drop_front(2).str()
                         : i + 1 < argc ? std::string(argv[++i])
                                        : std::string();
      unsigned jobs = 0;
      if (llvm::StringRef(text).getAsInteger(10, jobs) || jobs < 1)
        return usageError("-j needs a positive number of compiler runs, got '" +
                          text + "'");
      opts.jobs = jobs;
    } else if (arg == "--model" || arg == "--sources" || arg == "--cxx" ||
               arg == "--proof-cache") {
      return usageError(arg + " needs a value");
    } else if (arg.starts_with("-") && arg != "-") {
      return usageError("unknown option '" + arg + "'");
    } else {
      opts.inputs.push_back(arg.str());
    }
  }
  if (opts.inputs.empty())
    return usageError("policy needs at least one .coll file");
  if (opts.output.empty() && opts.sourcesDir.empty())
    return usageError("policy needs -o POLICY.so or --sources DIR");
  return std::nullopt;
}

/// Writes `text` to `path` through a temporary file (no partial file).
bool writeFile(llvm::StringRef path, llvm::StringRef text) {
  llvm::Error err =
      llvm::writeToOutput(path, [&](llvm::raw_ostream &out) -> llvm::Error {
        out << text;
        return llvm::Error::success();
      });
  if (!err)
    return true;
  llvm::errs() << "collc: error: cannot write '" << path
               << "': " << llvm::toString(std::move(err)) << "\n";
  return false;
}

/// Where the policy's sources and the runtime headers are: beside an
/// installed collc (PREFIX/share/collc/mpi-policy, PREFIX/include), else
/// in the source tree it was built from.
struct BuildPaths {
  std::string cxx, policySources, runtimeInclude;
};

BuildPaths buildPaths(const char *argv0, const Options &opts) {
  BuildPaths paths{COLLC_POLICY_CXX, COLLC_POLICY_SOURCE_DIR,
                   COLLC_RUNTIME_INCLUDE_DIR};
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&collc::runPolicy));
  llvm::SmallString<256> prefix(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::SmallString<256> share(prefix), include(prefix), table;
  llvm::sys::path::append(share, "share", "collc", "mpi-policy");
  llvm::sys::path::append(include, "include");
  table = share;
  llvm::sys::path::append(table, "PolicyTable.cpp");
  if (llvm::sys::fs::exists(table)) {
    paths.policySources = std::string(share);
    paths.runtimeInclude = std::string(include);
  }
  if (!opts.cxx.empty())
    paths.cxx = opts.cxx;
  // A bare name is looked up on PATH, as a shell would.
  if (!llvm::StringRef(paths.cxx).contains('/'))
    if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(paths.cxx))
      paths.cxx = *found;
  return paths;
}

/// The digest of the runtime headers a policy built from `paths` would be
/// compiled against, as CMakeLists.txt computes COLLC_RUNTIME_DIGEST (the
/// first 16 hex digits of the SHA-256 of coll/*.hpp in name order, then
/// Serve.hpp and Dispatch.hpp); empty if one cannot be read.
std::string runtimeDigest(const BuildPaths &paths) {
  std::vector<std::string> files;
  llvm::SmallString<256> coll(paths.runtimeInclude);
  llvm::sys::path::append(coll, "coll");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(coll, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".hpp"))
      files.push_back(it->path());
  if (ec || files.empty())
    return "";
  llvm::sort(files);
  for (const char *name : {"Serve.hpp", "Dispatch.hpp"}) {
    llvm::SmallString<256> file(paths.policySources);
    llvm::sys::path::append(file, name);
    files.push_back(std::string(file));
  }
  llvm::SHA256 hash;
  for (const std::string &file : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(file);
    if (!text)
      return "";
    hash.update((*text)->getBuffer());
  }
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest), /*LowerCase=*/true)
      .substr(0, 16);
}

/// Runs `args` (up to `jobs` at once); false and a message on the first
/// that fails.
bool runAll(const std::vector<std::vector<std::string>> &commands, unsigned jobs) {
  struct Running {
    llvm::sys::ProcessInfo info;
    const std::vector<std::string> *args;
  };
  std::vector<Running> running;
  bool ok = true;
  auto waitOne = [&] {
    Running job = running.front();
    running.erase(running.begin());
    std::string error;
    llvm::sys::ProcessInfo done =
        llvm::sys::Wait(job.info, std::nullopt, &error);
    if (done.ReturnCode != 0 && ok) {
      ok = false;
      llvm::errs() << "collc: error: the C++ compiler failed (exit "
                   << done.ReturnCode << (error.empty() ? "" : ": " + error)
                   << "):";
      for (const std::string &a : *job.args)
        llvm::errs() << " " << a;
      llvm::errs() << "\n";
    }
  };
  for (const std::vector<std::string> &args : commands) {
    if (running.size() >= jobs)
      waitOne();
    if (!ok)
      break;
    std::vector<llvm::StringRef> refs(args.begin(), args.end());
    std::string error;
    bool failed = false;
    llvm::sys::ProcessInfo info = llvm::sys::ExecuteNoWait(
        args.front(), refs, std::nullopt, {}, 0, &error, &failed);
    if (failed) {
      llvm::errs() << "collc: error: cannot run the C++ compiler '"
                   << args.front() << "': " << error << "\n";
      ok = false;
      break;
    }
    running.push_back({info, &args});
  }
  while (!running.empty())
    waitOne();
  return ok;
}

/// Compiles the policy's sources over `dir` (policy.hpp, policy_calls.h)
/// into `dir`/policy.so.
bool buildSharedObject(llvm::StringRef dir, const BuildPaths &paths, unsigned jobs,
                       std::string &library) {
  // Each source defines the entry points of the calls present among its
  // own (policy_calls.h); one with none of them compiles to nothing.
  const std::vector<std::string> sources = {
      "PolicyTable.cpp", "ServeReductions.cpp", "ServeScans.cpp", "ServeMoves.cpp"};
  std::vector<std::vector<std::string>> compiles;
  std::vector<std::string> objects;
  for (const std::string &source : sources) {
    llvm::SmallString<256> in(paths.policySources), out(dir);
    llvm::sys::path::append(in, source);
    llvm::sys::path::append(out, llvm::sys::path::stem(source).str() + ".o");
    objects.push_back(std::string(out));
    compiles.push_back({paths.cxx, "-std=c++17", "-O3", "-DNDEBUG", "-fPIC",
                        "-fvisibility=hidden", "-fvisibility-inlines-hidden",
                        "-DCOLLC_POLICY_LOADABLE",
                        "-DCOLLC_RUNTIME_DIGEST=\"" COLLC_RUNTIME_DIGEST "\"",
                        "-I" + dir.str(), "-I" + paths.policySources,
                        "-I" + paths.runtimeInclude, "-c", std::string(in),
                        "-o", std::string(out)});
  }
  if (!runAll(compiles, jobs))
    return false;
  // The table alone is exported: the policy's copies of the runtime and
  // of the standard library's templates stay its own.
  llvm::SmallString<256> so(dir), exports(dir);
  llvm::sys::path::append(so, "policy.so");
  llvm::sys::path::append(exports, "exports.map");
  if (!writeFile(exports, "{ global: collc_mpi_policy_v1; local: *; };\n"))
    return false;
  std::vector<std::string> link = {
      paths.cxx, "-shared", "-Wl,-z,defs",
      "-Wl,--version-script=" + std::string(exports), "-o", std::string(so)};
  link.insert(link.end(), objects.begin(), objects.end());
  if (!runAll({link}, 1))
    return false;
  library = std::string(so);
  return true;
}

/// Copies `from` to `to` through a temporary file beside it, so `to` is
/// either the whole policy or untouched.
bool install(llvm::StringRef from, llvm::StringRef to) {
  llvm::SmallString<256> temporary(to);
  temporary += ".tmp-%%%%%%";
  int fd = -1;
  llvm::SmallString<256> path;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(temporary, fd, path)) {
    llvm::errs() << "collc: error: cannot write '" << to << "': "
                 << ec.message() << "\n";
    return false;
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  std::error_code ec = llvm::sys::fs::copy_file(from, path);
  if (!ec)
    ec = llvm::sys::fs::rename(path, to);
  if (ec) {
    llvm::sys::fs::remove(path);
    llvm::errs() << "collc: error: cannot write '" << to << "': "
                 << ec.message() << "\n";
    return false;
  }
  return true;
}

} // namespace

int collc::runPolicy(int argc, char **argv) {
  Options opts;
  if (std::optional<int> code = parseArgs(argc, argv, opts))
    return *code;
  std::optional<MachineModel> model;
  if (!opts.model.empty() && !(model = MachineModel::load(opts.model, llvm::errs())))
    return kInputError;
  // Before the proofs and the compiler's minute: what -o needs.
  BuildPaths paths = buildPaths(argv[0], opts);
  if (!opts.output.empty()) {
    // The library runs the policy's code on its own Comms: the headers
    // compiled here must be the ones its digest names.
    const std::string digest = runtimeDigest(paths);
    if (digest != COLLC_RUNTIME_DIGEST) {
      llvm::errs() << "collc: error: the runtime headers in "
                   << paths.runtimeInclude << " and " << paths.policySources
                   << " are not the ones this collc was built with (digest "
                   << (digest.empty() ? "unreadable" : digest) << ", collc's "
                   << COLLC_RUNTIME_DIGEST
                   << "): rebuild collc, or use the collc installed with them\n";
      return kInputError;
    }
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(opts.output));
    if (dir.empty())
      dir = ".";
    if (!llvm::sys::fs::is_directory(dir) ||
        llvm::sys::fs::access(dir, llvm::sys::fs::AccessMode::Write)) {
      llvm::errs() << "collc: error: cannot write '" << opts.output << "': '"
                   << dir << "' is not a writable directory\n";
      return kInputError;
    }
  }

  MLIRContext context;
  context.printOpOnDiagnostic(false);
  context.getOrLoadDialect<CollDialect>();
  // Diagnostics quote the files they point into (loaded by name).
  llvm::SourceMgr diagnosticSources;
  SourceMgrDiagnosticHandler diagnostics(diagnosticSources, &context);

  OwningOpRef<ModuleOp> policy = ModuleOp::create(UnknownLoc::get(&context));
  std::vector<std::unique_ptr<llvm::SourceMgr>> parsed;
  std::string sources;
  for (const std::string &input : opts.inputs) {
    std::string errorMessage;
    std::unique_ptr<llvm::MemoryBuffer> file =
        openInputFile(input, &errorMessage);
    if (!file) {
      llvm::errs() << "collc: error: " << errorMessage << "\n";
      return kInputError;
    }
    auto sourceMgr = std::make_unique<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    OwningOpRef<ModuleOp> module = parseInputFile(*sourceMgr, &context);
    if (!module || failed(verify(*module)))
      return kInputError;
    parsed.push_back(std::move(sourceMgr));
    for (Operation &op : llvm::make_early_inc_range(*module->getBody())) {
      op.remove();
      policy->getBody()->push_back(&op);
    }
    sources += (sources.empty() ? "" : ", ") +
               llvm::sys::path::filename(input).str();
  }
  if (model)
    sources += " (model " + llvm::sys::path::filename(opts.model).str() + ")";

  PolicyEntries entries;
  if (failed(collectPolicyEntries(*policy, entries)))
    return kInputError;
  if (entries.empty()) {
    llvm::errs() << "collc: error: no collective in " << sources
                 << ": a policy needs one of " << policyCallNames() << "\n";
    return kInputError;
  }
  // The files' symbols share one header: a clash across files (e.g. a
  // candidate `scatter` of policy_reduce against policy_reduce_scatter).
  if (failed(verify(*policy)))
    return kInputError;
  if (int code = runCompilePipeline(*policy, model ? &*model : nullptr,
                                    opts.proofCache))
    return code;

  std::string header;
  llvm::raw_string_ostream headerOut(header);
  if (failed(translateToCpp(*policy, headerOut, "collc_mpi_policy", sources)))
    return kInputError;
  SmallVector<PolicyEntry> list;
  for (auto &[call, entry] : entries)
    list.push_back(entry);
  const std::string calls = policyCallsHeader(list, sources, header);

  auto writeSources = [&](llvm::StringRef dir) {
    llvm::SmallString<256> hpp(dir), table(dir);
    llvm::sys::path::append(hpp, "policy.hpp");
    llvm::sys::path::append(table, "policy_calls.h");
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      llvm::errs() << "collc: error: cannot make '" << dir
                   << "': " << ec.message() << "\n";
      return false;
    }
    return writeFile(hpp, header) && writeFile(table, calls);
  };
  if (opts.output.empty())
    return writeSources(opts.sourcesDir) ? kSuccess : kInputError;

  llvm::SmallString<256> work;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("collc-policy", work)) {
    llvm::errs() << "collc: error: cannot make a temporary directory: "
                 << ec.message() << "\n";
    return kInputError;
  }
  const unsigned jobs =
      opts.jobs ? opts.jobs
                : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  std::string library;
  // (--sources with -o: written once the policy is, so a failed build
  // leaves neither.)
  const bool built = writeSources(work) &&
                     buildSharedObject(work, paths, jobs, library) &&
                     install(library, opts.output) &&
                     (opts.sourcesDir.empty() || writeSources(opts.sourcesDir));
  llvm::sys::fs::remove_directories(work);
  return built ? kSuccess : kInputError;
}
