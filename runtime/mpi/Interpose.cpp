// libcollc_mpi.so: MPI's collectives served by collc's proven schedules,
// for programs that cannot change (docs/preload.md). Preloaded
// (LD_PRELOAD) or linked before the MPI library, it defines the MPI_
// functions below; each either runs the policy's schedule (Serve.hpp) on a
// private duplicate of the communicator or calls the PMPI_ function
// unchanged, and counts which and why.
//
// Every rank of a communicator takes the same decision, from what MPI
// guarantees equal on every rank: the call, the communicator, the
// operator, the root, and the type signature (its bytes, and for
// reductions its element type), never a datatype handle or the buffers'
// layout (Datatypes.hpp); and from three process-wide facts the ranks
// agree on in MPI_Init (COLLC_MPI_DISABLE, MPI_THREAD_MULTIPLE, the policy
// loaded from COLLC_MPI_POLICY).

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "Datatypes.hpp"
#include "Serve.hpp"
#include "coll/buffers.hpp"
#include "coll/checked.hpp"
#include "coll/error.hpp"
#include "coll/mpi_transport.hpp"

#define COLLC_MPI_EXPORT extern "C" __attribute__((visibility("default")))

namespace coll::mpi {
namespace {

// Why a call went to the MPI library.
enum class Pass : unsigned char {
  disabled,        // COLLC_MPI_DISABLE=1
  threadMultiple,  // MPI_THREAD_MULTIPLE
  intercomm,
  datatype,        // a reduction's signature of several element types, or an invalid type
  reduction,       // a pair MPI does not define, or a type the runtime does not reduce
  userOperator,    // MPI_Op_create, MINLOC/MAXLOC, REPLACE, NO_OP
  form,            // MPI_COMM_NULL, or a root outside the communicator
  count,           // negative or too large
  unscheduled,     // no schedule of the policies admits the communicator's size
};
constexpr int kPasses = 9;
const char* passName(Pass pass) {
  switch (pass) {
    case Pass::disabled: return "COLLC_MPI_DISABLE";
    case Pass::threadMultiple: return "MPI_THREAD_MULTIPLE";
    case Pass::intercomm: return "intercommunicator";
    case Pass::datatype: return "datatype without one element type";
    case Pass::reduction: return "operator not defined on the datatype";
    case Pass::userOperator: return "user-defined or pair operator";
    case Pass::form: return "form not served";
    case Pass::count: return "count";
    case Pass::unscheduled: return "no schedule for this P";
  }
  return "?";
}

const char* callName(Call call) {
  switch (call) {
    case Call::allreduce: return "MPI_Allreduce";
    case Call::reduceScatterBlock: return "MPI_Reduce_scatter_block";
    case Call::allgather: return "MPI_Allgather";
    case Call::alltoall: return "MPI_Alltoall";
    case Call::scan: return "MPI_Scan";
    case Call::exscan: return "MPI_Exscan";
    case Call::barrier: return "MPI_Barrier";
    case Call::broadcast: return "MPI_Bcast";
    case Call::reduce: return "MPI_Reduce";
    case Call::gather: return "MPI_Gather";
    case Call::scatter: return "MPI_Scatter";
  }
  return "MPI_?";
}

// The process's state: one per process, made at the first call, ended by
// MPI_Finalize. The keyval caches each user communicator's coll::Comm.
struct Library {
  bool disabled = false;
  bool checked = false;  // COLLC_CHECK on some rank: every call agreed on first
  int verbose = 0;
  bool threadMultiple = false;
  int keyval = MPI_KEYVAL_INVALID;      // a communicator's CommState
  int typeKeyval = MPI_KEYVAL_INVALID;  // a derived datatype's Signature
  std::vector<MPI_Comm> comms;  // those holding our attribute
  // The policy loaded from COLLC_MPI_POLICY (null: the built-in one only),
  // and the calls it served.
  const Policy* loaded = nullptr;
  std::string loadedPath;
  std::array<std::atomic<std::uint64_t>, kCalls> served{}, servedByLoaded{};
  std::array<std::array<std::atomic<std::uint64_t>, kPasses>, kCalls> passed{};
  std::mutex mutex;  // comms, explained
  std::set<std::tuple<const void*, int, int, std::string>> explained;
};

// A user communicator's state (the attribute's value): its Comm and, since
// its size never changes, the policy that serves each call on it (null:
// none has a schedule for its size).
struct CommState {
  std::unique_ptr<Comm> comm;  // null for an intercommunicator
  std::array<const Policy*, kCalls> policies{};
};

// How long a served call waits for its peers in one exchange before it
// fails, naming them (docs/robustness.md), unless COLLC_TIMEOUT_MS says
// otherwise (0: forever): PyTorch's default for NCCL groups, so that
// a dead or diverging rank ends in an error; a program whose ranks reach
// a collective further apart sets COLLC_TIMEOUT_MS=0.
constexpr std::int64_t kDropInTimeoutMs = 600000;

Library* library = nullptr;  // made once, never freed (a delete callback may run late)
std::once_flag libraryMade;
// Set when MPI_Finalize begins: calls made inside PMPI_Finalize (e.g. by a
// library's MPI_COMM_SELF delete callback) go to MPI.
std::atomic<bool> finalizing{false};

int deleteState(MPI_Comm comm, int, void* value, void*) {
  delete static_cast<CommState*>(value);
  if (library) {
    std::lock_guard<std::mutex> lock(library->mutex);
    auto& comms = library->comms;
    comms.erase(std::remove(comms.begin(), comms.end(), comm), comms.end());
  }
  return MPI_SUCCESS;
}

Library& theLibrary() {
  std::call_once(libraryMade, [] {
    library = new Library;
    const char* disable = std::getenv("COLLC_MPI_DISABLE");
    library->disabled = disable && std::strcmp(disable, "0") != 0 && *disable;
    const char* check = std::getenv("COLLC_CHECK");
    library->checked = check && std::strcmp(check, "0") != 0 && *check;
    if (const char* verbose = std::getenv("COLLC_MPI_VERBOSE"))
      library->verbose = std::atoi(verbose);
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    library->threadMultiple = provided == MPI_THREAD_MULTIPLE;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, deleteState, &library->keyval, nullptr);
    library->typeKeyval = makeSignatureKeyval();
  });
  return *library;
}

// The policy in the shared object `path` (COLLC_MPI_POLICY), or null and
// `error` says why not. Never unloaded: its plans live in the Comms.
const Policy* loadPolicy(const char* path, std::string& error) {
  // A file, also when named without a directory (dlopen would search the
  // library path for a bare name).
  const std::string file = std::strchr(path, '/') ? path : std::string("./") + path;
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return error = std::string("cannot load it: ") + dlerror(), nullptr;
  auto entry = reinterpret_cast<const Policy* (*)()>(dlsym(handle, kPolicySymbol));
  if (!entry) {
    dlclose(handle);
    return error = std::string("not a collc policy (no ") + kPolicySymbol +
                   "; build one with `collc policy FILES... -o policy.so`)",
           nullptr;
  }
  const Policy* policy = entry();
  if (!policy || policy->abi != kPolicyAbi || !policy->runtime ||
      std::strcmp(policy->runtime, COLLC_RUNTIME_DIGEST) != 0) {
    error = std::string("built by another collc (runtime ") +
            (policy && policy->runtime ? policy->runtime : "?") + ", this library's " +
            COLLC_RUNTIME_DIGEST + "): rebuild it with the collc policy of this installation";
    return nullptr;  // (not closed: its code may have run)
  }
  if (!policy->accepts || !policy->explain) {
    error = "not a collc policy (its table has no accepts or explain)";
    return nullptr;
  }
  if (!policy->toolchain || std::strcmp(policy->toolchain, COLLC_POLICY_TOOLCHAIN) != 0 ||
      policy->commSize != sizeof(Comm)) {
    error = std::string("built with another C++ library (") +
            (policy->toolchain ? policy->toolchain : "?") + ", sizeof(coll::Comm) " +
            std::to_string(policy->commSize) + "; this library's " + COLLC_POLICY_TOOLCHAIN +
            ", " + std::to_string(sizeof(Comm)) + "): rebuild it with the collc policy of this " +
            "installation";
    return nullptr;
  }
  return policy;
}

// After MPI_Init: what passes every call (COLLC_MPI_DISABLE on a rank, a
// rank at MPI_THREAD_MULTIPLE) passes it on every rank of MPI_COMM_WORLD,
// so that no rank runs collc's schedule while another calls MPI's;
// checked mode (COLLC_CHECK) on one rank is on for all, so that every rank
// takes part in every call's agreement; and
// the policy of COLLC_MPI_POLICY serves only if every rank loaded the same
// one (else every rank serves with the built-in policy, and says why).
void agreeAcrossWorld() {
  Library& lib = theLibrary();
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* path = std::getenv("COLLC_MPI_POLICY");
  const bool asked = path && *path;
  std::string error;
  const Policy* policy = asked ? loadPolicy(path, error) : nullptr;
  // The lowest rank that could not load its policy is ~max(~rank); whether
  // a policy was loaded (l) and its digest (d) agree when max(x) == min(x)
  // == ~max(~x).
  const std::uint64_t loaded = policy ? 1 : 0, digest = policy ? policy->digest : 0;
  std::uint64_t mine[8] = {lib.disabled ? 1u : 0u,
                           lib.threadMultiple ? 1u : 0u,
                           asked && !policy ? ~static_cast<std::uint64_t>(rank) : 0u,
                           digest,
                           ~digest,
                           loaded,
                           ~loaded,
                           lib.checked ? 1u : 0u};
  std::uint64_t most[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  PMPI_Allreduce(mine, most, 8, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  lib.disabled = most[0] != 0;
  lib.threadMultiple = most[1] != 0;
  lib.checked = most[7] != 0;
  if (most[2] != 0) {
    // Said once, by the first rank that failed.
    if (~most[2] == static_cast<std::uint64_t>(rank))
      std::fprintf(stderr,
                   "collc_mpi: COLLC_MPI_POLICY=%s: %s (rank %d); every rank serves with the "
                   "built-in policy\n",
                   path, error.c_str(), rank);
  } else if (most[3] != ~most[4] || most[5] != ~most[6]) {
    if (rank == 0)
      std::fprintf(stderr,
                   "collc_mpi: COLLC_MPI_POLICY: the ranks loaded different policies (or some "
                   "none); every rank serves with the built-in policy\n");
  } else if (policy) {
    lib.loaded = policy;
    lib.loadedPath = path;
  }
}

// The policy that serves `call` on a communicator of `ranks` processes:
// the loaded one where it has a schedule admitting `ranks`, else the
// built-in one; null if neither has. (A table's accepts is false for the
// calls it has no entry for.)
const Policy* policyFor(const Library& lib, Call call, int ranks) {
  if (lib.loaded && lib.loaded->accepts(call, ranks)) return lib.loaded;
  const Policy& builtin = builtinPolicy();
  if (builtin.accepts(call, ranks)) return &builtin;
  return nullptr;
}

// The cached state of `comm`, made at its first served call (collective:
// every rank serves the same first call).
CommState& stateOf(MPI_Comm comm) {
  Library& lib = theLibrary();
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, lib.keyval, &value, &found);
  if (found) return *static_cast<CommState*>(value);
  auto state = std::make_unique<CommState>();
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (!inter) {
    state->comm = std::make_unique<Comm>(makeTransport(comm, kDropInTimeoutMs));
    state->comm->recordTo("");  // COLLC_RECORD is for the program's own Comms
    state->comm->setChecked(false);  // checked here at each call's entry (agreeOnEntry)
    for (int call = 0; call < kCalls; ++call)
      state->policies[call] = policyFor(lib, static_cast<Call>(call), state->comm->size());
  }
  CommState& result = *state;
  PMPI_Comm_set_attr(comm, lib.keyval, state.release());
  std::lock_guard<std::mutex> lock(lib.mutex);
  lib.comms.push_back(comm);
  return result;
}

// The operator, or why it is not served.
bool reductionOf(MPI_Op op, Reduction& reduction) {
  const std::pair<MPI_Op, Reduction> ops[] = {
      {MPI_SUM, Reduction::sum},   {MPI_PROD, Reduction::prod}, {MPI_MIN, Reduction::min},
      {MPI_MAX, Reduction::max},   {MPI_LAND, Reduction::land}, {MPI_LOR, Reduction::lor},
      {MPI_LXOR, Reduction::lxor}, {MPI_BAND, Reduction::band}, {MPI_BOR, Reduction::bor},
      {MPI_BXOR, Reduction::bxor},
  };
  for (auto [o, r] : ops)
    if (o == op) {
      reduction = r;
      return true;
    }
  return false;
}

// One call's decision: served on `comm`, or passed for `why`; and what
// checked mode compares between the ranks (agreeOnEntry): the bytes the
// decision read (per rank, or per block), the root, and a reduction's
// operator (1 + Reduction, kUserOperator) and element type.
constexpr std::uint8_t kUserOperator = 255;
static_assert(static_cast<int>(ElementCode::i8) == 1 + static_cast<int>(Element::i8) &&
                  static_cast<int>(ElementCode::f80) == 1 + static_cast<int>(Element::f80),
              "an Element's code is 1 + the Element");
struct Decision {
  Comm* comm = nullptr;
  const Policy* policy = nullptr;
  Pass why = Pass::form;
  std::uint64_t bytes = kUnknownBytes;
  int root = -1;
  std::uint8_t op = 0;
  ElementCode element = ElementCode::bytes;
};

// The checks every call makes before its own, and the policy that serves
// `call` on `comm`.
bool admitted(Library& lib, Call call, MPI_Comm comm, Decision& d) {
  if (lib.disabled || finalizing.load(std::memory_order_relaxed)) return d.why = Pass::disabled, false;
  if (lib.threadMultiple) return d.why = Pass::threadMultiple, false;
  if (comm == MPI_COMM_NULL) return d.why = Pass::form, false;
  const CommState& state = stateOf(comm);
  d.comm = state.comm.get();
  if (!d.comm) return d.why = Pass::intercomm, false;
  d.policy = state.policies[static_cast<int>(call)];
  if (!d.policy) return d.why = Pass::unscheduled, false;
  return true;
}

// Prints, once per (call site, kind, P, schedule), what runs and why.
void explainOnce(Library& lib, Call call, const void* site, const Decision& d, std::size_t bytes) {
  Comm& comm = *d.comm;
  // (A call of no elements runs nothing: not explained.)
  if (lib.verbose < 1 || comm.rank() != 0 || (bytes == 0 && call != Call::barrier)) return;
  std::string why = d.policy->explain(call, comm.size(), bytes);
  if (d.policy == lib.loaded) why += " [" + lib.loadedPath + "]";
  // The schedule's name alone keys the print: a new size range is a new
  // schedule, the same schedule at another size is not printed again.
  std::string name = why.substr(0, why.find(' '));
  {
    std::lock_guard<std::mutex> lock(lib.mutex);
    if (!lib.explained.insert({site, static_cast<int>(call), comm.size(), name}).second) return;
  }
  Dl_info where{};
  char at[256];
  if (dladdr(site, &where) && where.dli_fname) {
    const char* file = std::strrchr(where.dli_fname, '/');
    file = file ? file + 1 : where.dli_fname;
    if (where.dli_sname)
      std::snprintf(at, sizeof at, "%s(%s+0x%lx)", file, where.dli_sname,
                    static_cast<unsigned long>(static_cast<const char*>(site) -
                                               static_cast<const char*>(where.dli_saddr)));
    else
      std::snprintf(at, sizeof at, "%s+0x%lx", file,
                    static_cast<unsigned long>(static_cast<const char*>(site) -
                                               static_cast<const char*>(where.dli_fbase)));
  } else {
    std::snprintf(at, sizeof at, "%p", site);
  }
  std::fprintf(stderr, "collc_mpi: %s at %s, P = %d, %zu B: %s\n", callName(call), at,
               comm.size(), bytes, why.c_str());
}

// How checked mode prints a view of an MPI call.
std::string describeMpiCall(const CallView& view) {
  static const char* const ops[] = {"MPI_SUM", "MPI_PROD", "MPI_MIN",  "MPI_MAX",  "MPI_LAND",
                                    "MPI_LOR", "MPI_LXOR", "MPI_BAND", "MPI_BOR", "MPI_BXOR"};
  const Call call = static_cast<Call>(view.call);
  std::string text = callName(call);
  if (call == Call::barrier) return text;
  const bool blocks = call == Call::allgather || call == Call::alltoall || call == Call::gather ||
                      call == Call::scatter;
  text += blocks ? " of blocks of " : " of ";
  text += view.bytes == kUnknownBytes ? std::string("an invalid count or datatype")
                                      : std::to_string(view.bytes) + " B";
  std::string details;
  if (view.element != static_cast<std::uint8_t>(ElementCode::bytes))
    details = elementName(static_cast<ElementCode>(view.element));
  if (view.op == kUserOperator)
    details += std::string(details.empty() ? "" : ", ") + "a user-defined or pair operator";
  else if (view.op > 0 && view.op <= sizeof ops / sizeof *ops)
    details += std::string(details.empty() ? "" : ", ") + ops[view.op - 1];
  if (!details.empty()) text += " (" + details + ")";
  if (view.root >= 0) text += ", root " + std::to_string(view.root);
  return text;
}

// Checked mode (COLLC_CHECK): before a call is served or passed, the
// ranks of an intracommunicator agree on what they call (coll/checked.hpp),
// so that a rank calling another collective, count, type, operator or
// root fails on every rank, naming each rank's view, before any rank
// enters a schedule or MPI's call. Every rank reaches this at every call
// it intercepts, as it decides alike what is checked: the communicators
// admitted's first checks give a Comm (not where the library is off, at
// MPI_THREAD_MULTIPLE, on MPI_COMM_NULL or an intercommunicator, or
// while finalizing), whether or not a schedule then serves the call.
void agreeOnEntry(Library& lib, Call call, MPI_Comm comm, const Decision& d) {
  if (__builtin_expect(!lib.checked, 1)) return;
  Comm* served = d.comm;  // set by admitted, when the call came that far
  if (!served) {
    Decision probe;
    admitted(lib, call, comm, probe);
    served = probe.comm;
  }
  if (!served) return;
  CallView view;
  view.origin = static_cast<std::uint8_t>(CallOrigin::dropIn);
  view.call = static_cast<std::uint8_t>(call);
  view.bytes = call == Call::barrier ? 0 : d.bytes;
  view.root = d.root;
  view.op = d.op;
  view.element = static_cast<std::uint8_t>(d.element);
  agreeOnCall(*served, view, describeMpiCall);
}

// Runs `serve` (the policy's schedule) and counts it.
template <class Serve>
int run(Library& lib, Call call, MPI_Comm comm, const Decision& d, Serve&& serve) {
  agreeOnEntry(lib, call, comm, d);
  serve(*d.policy);
  lib.served[static_cast<int>(call)].fetch_add(1, std::memory_order_relaxed);
  if (d.policy == lib.loaded)
    lib.servedByLoaded[static_cast<int>(call)].fetch_add(1, std::memory_order_relaxed);
  return MPI_SUCCESS;
}

// A call's whole body: no exception leaves an MPI function. An error (the
// duplicate's MPI_Comm_split failing, memory) is reported through the
// communicator's error handler, as MPI's own would be; the call cannot be
// retried by MPI, as some messages may have gone.
template <class Body>
int guarded(Call call, MPI_Comm comm, Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "collc_mpi: %s: %s\n", callName(call), e.what());
  } catch (...) {
    std::fprintf(stderr, "collc_mpi: %s: an unknown error\n", callName(call));
  }
  PMPI_Comm_call_errhandler(comm, MPI_ERR_INTERN);  // aborts unless the program set another
  return MPI_ERR_INTERN;
}

// Counts a call passed to MPI (after checked mode's agreement).
void countPassed(Library& lib, Call call, MPI_Comm comm, const Decision& d) {
  agreeOnEntry(lib, call, comm, d);
  lib.passed[static_cast<int>(call)][static_cast<int>(d.why)].fetch_add(1, std::memory_order_relaxed);
}

void printSummary(Library& lib) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) return;
  std::uint64_t served = 0, passed = 0;
  for (int c = 0; c < kCalls; ++c) {
    served += lib.served[c];
    for (int p = 0; p < kPasses; ++p) passed += lib.passed[c][p];
  }
  std::fprintf(stderr, "collc_mpi: summary (rank 0 of %d): %llu calls served by collc, %llu passed to MPI\n",
               size, static_cast<unsigned long long>(served), static_cast<unsigned long long>(passed));
  for (int c = 0; c < kCalls; ++c) {
    std::uint64_t p = 0;
    for (int w = 0; w < kPasses; ++w) p += lib.passed[c][w];
    if (!lib.served[c] && !p) continue;
    std::string reasons;
    for (int w = 0; w < kPasses; ++w)
      if (lib.passed[c][w])
        reasons += (reasons.empty() ? " (" : ", ") + std::string(passName(static_cast<Pass>(w))) +
                   " " + std::to_string(lib.passed[c][w]);
    if (!reasons.empty()) reasons += ")";
    std::fprintf(stderr, "collc_mpi:   %-25s served %llu, passed %llu%s\n",
                 callName(static_cast<Call>(c)), static_cast<unsigned long long>(lib.served[c].load()),
                 static_cast<unsigned long long>(p), reasons.c_str());
  }
  // Which of the served calls the loaded policy ran (the built-in policy
  // the rest).
  if (lib.loaded) {
    std::string calls;
    std::uint64_t total = 0;
    for (int c = 0; c < kCalls; ++c) {
      if (!lib.servedByLoaded[c]) continue;
      total += lib.servedByLoaded[c];
      calls += (calls.empty() ? ": " : ", ") + std::string(callName(static_cast<Call>(c))) + " " +
               std::to_string(lib.servedByLoaded[c]);
    }
    std::fprintf(stderr, "collc_mpi: policy %s (%s) served %llu calls%s\n", lib.loadedPath.c_str(),
                 lib.loaded->sources, static_cast<unsigned long long>(total), calls.c_str());
  }
}

bool sizeFits(int count, std::size_t size, std::size_t& bytes) {
  if (count < 0) return false;
  bytes = static_cast<std::size_t>(count) * size;
  return size == 0 || bytes / size == static_cast<std::size_t>(count);
}

}  // namespace
}  // namespace coll::mpi

using namespace coll::mpi;

namespace {

// The bytes of `count` x `signature`, or false and `d.why`.
bool bytesOf(int count, const Signature& signature, Decision& d, std::size_t& bytes) {
  if (!signature.valid) return d.why = Pass::datatype, false;
  if (!sizeFits(count, signature.size, bytes)) return d.why = Pass::count, false;
  d.bytes = bytes;
  return true;
}

// Whether a call of `bytes` per rank (or block) is served on `comm`:
// then `d.comm`; P blocks of it must fit in memory too (the calls with
// one block per rank). Else `d.why`.
bool servedOn(Library& lib, Call call, MPI_Comm comm, Decision& d, std::size_t bytes) {
  if (!admitted(lib, call, comm, d)) return false;
  std::size_t all = 0;
  if (__builtin_mul_overflow(bytes, static_cast<std::size_t>(d.comm->size()), &all))
    return d.why = Pass::count, false;
  return true;
}

// The bytes of `count` x `signature` where every rank's are the same (a
// block), and whether the call is served on `comm`: then `d.comm` and
// `bytes`; else `d.why`.
bool blocksAdmitted(Library& lib, Call call, int count, const Signature& signature, MPI_Comm comm,
                    Decision& d, std::size_t& bytes) {
  return bytesOf(count, signature, d, bytes) && servedOn(lib, call, comm, d, bytes);
}

// Whether a reduction of `count` x `signature` with `op` on `comm` is
// served: then `d.comm`, `reduction`, `element` and `elements` (of it in
// the count) and `bytes` say how; else `d.why` says why not. A reduction
// of no bytes is served whatever its type (it moves nothing, and every
// rank's signature is empty).
bool reductionAdmitted(Library& lib, Call call, int count, const Signature& signature, MPI_Op op,
                       MPI_Comm comm, Decision& d, Reduction& reduction, Element& element,
                       std::size_t& elements, std::size_t& bytes) {
  if (!reductionOf(op, reduction)) return d.op = kUserOperator, d.why = Pass::userOperator, false;
  d.op = static_cast<std::uint8_t>(1 + static_cast<int>(reduction));
  if (!bytesOf(count, signature, d, bytes)) return false;
  element = Element::u8;
  elements = 0;
  if (bytes > 0) {
    if (signature.basic == MPI_DATATYPE_NULL) return d.why = Pass::datatype, false;
    if (!reducedElement(signature, reduction, element)) return d.why = Pass::reduction, false;
    d.element = static_cast<coll::ElementCode>(1 + static_cast<int>(element));
    elements = static_cast<std::size_t>(count) * signature.basicCount;
  }
  return servedOn(lib, call, comm, d, bytes);
}

// This rank's other side of a block-wise call (its send side where
// `sending`), which MPI requires to have the signature of the side every
// rank passes (`bytes` a block); else the program is erroneous and this
// rank's call fails with an error naming both.
void requireBlockBytes(const Decision& d, bool sending, int count,
                       const Signature& signature, std::size_t bytes) {
  std::size_t mine = 0;
  if (signature.valid && sizeFits(count, signature.size, mine) && mine == bytes) return;
  const std::string described =
      !signature.valid ? std::string("of an invalid datatype")
      : count < 0      ? "of count " + std::to_string(count)
                       : "of " + std::to_string(mine) + " B (" + std::to_string(count) + " x " +
                        std::to_string(signature.size) + " B)";
  // (guarded names the call.)
  throw coll::Error("rank " + std::to_string(d.comm->rank()) + " " +
              (sending ? "sends" : "receives") + " blocks " + described + " but " +
              (sending ? "receives" : "sends") + " blocks of " + std::to_string(bytes) +
              " B: MPI requires their type signatures to match");
}

// MPI requires a call's send and receive buffers to be disjoint unless
// one is MPI_IN_PLACE. Where the schedule would read and write both in
// the program's memory (neither staged), overlapping ones would make it
// read what it has written: the call fails on this rank, naming the
// overlap, rather than return a wrong result. (Staged, it reads a copy.)
void requireDisjoint(const Decision& d, const Run& send, std::size_t sendBytes, const Run& recv,
                     std::size_t recvBytes) {
  if (!send.inBuffer() || !recv.inBuffer()) return;
  const std::size_t shared = coll::overlapBytes(send.data(), sendBytes, recv.data(), recvBytes);
  if (shared == 0) return;
  throw coll::Error("rank " + std::to_string(d.comm->rank()) + "'s send buffer (" +
                    std::to_string(sendBytes) + " B) and receive buffer (" +
                    std::to_string(recvBytes) + " B) overlap by " + std::to_string(shared) +
                    " B without MPI_IN_PLACE: MPI requires them disjoint");
}

// The reductions (MPI_Allreduce, MPI_Reduce_scatter_block, MPI_Scan,
// MPI_Exscan share MPI's signature): the policy's `entry`, or `pmpi`.
// In place, send is recv (reduce_scatter_block: recv holds the P blocks,
// the result is its first).
template <class Pmpi>
int reductionCall(Call call, const void* site, const void* sendbuf, void* recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, ReductionEntry Policy::*entry,
                  Pmpi pmpi) {
  return guarded(call, comm, [&] {
    Library& lib = theLibrary();
    Decision d;
    Reduction reduction{};
    Element element{};
    std::size_t elements = 0, bytes = 0;
    const Signature signature = signatureOf(datatype, lib.typeKeyval);
    if (reductionAdmitted(lib, call, count, signature, op, comm, d, reduction, element, elements,
                          bytes)) {
      explainOnce(lib, call, site, d, bytes);
      return run(lib, call, comm, d, [&](const Policy& policy) {
        const bool inPlace = sendbuf == MPI_IN_PLACE;
        const std::size_t n = static_cast<std::size_t>(count);
        const std::size_t blocks = sendBlocks(call, d.comm->size());
        // (Exscan leaves rank 0's recv as it was: loaded, so staged it stays.)
        Run recv(recvbuf, inPlace ? blocks * n : n, datatype, signature,
                 inPlace || call == Call::exscan);
        std::optional<Run> send;
        if (!inPlace) {
          send.emplace(sendbuf, blocks * n, datatype, signature, true);
          requireDisjoint(d, *send, blocks * bytes, recv, bytes);
        }
        (policy.*entry)(*d.comm, send ? send->data() : recv.data(), recv.data(), elements, element,
                        reduction);
        recv.store(n);
      });
    }
    countPassed(lib, call, comm, d);
    return pmpi(sendbuf, recvbuf, count, datatype, op, comm);
  });
}

// MPI_Allgather and MPI_Alltoall: blocks of bytes, decided on the receive
// side (which every rank passes, in place too). In place, allgather's
// block is at recv + rank * bytes, alltoall's send is recv.
template <class Pmpi>
int movementCall(Call call, const void* site, const void* sendbuf, int sendcount,
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 MPI_Comm comm, BlocksEntry Policy::*entry, Pmpi pmpi) {
  return guarded(call, comm, [&] {
    Library& lib = theLibrary();
    Decision d;
    const Signature recvSignature = signatureOf(recvtype, lib.typeKeyval);
    std::size_t bytes = 0;
    if (blocksAdmitted(lib, call, recvcount, recvSignature, comm, d, bytes)) {
      explainOnce(lib, call, site, d, bytes);
      return run(lib, call, comm, d, [&](const Policy& policy) {
        const bool inPlace = sendbuf == MPI_IN_PLACE;
        const std::size_t ranks = static_cast<std::size_t>(d.comm->size());
        const std::size_t rank = static_cast<std::size_t>(d.comm->rank());
        Run recv(recvbuf, ranks * static_cast<std::size_t>(recvcount), recvtype, recvSignature,
                 inPlace);
        std::optional<Run> send;
        if (!inPlace) {
          const Signature sendSignature = signatureOf(sendtype, lib.typeKeyval);
          requireBlockBytes(d, true, sendcount, sendSignature, bytes);
          const std::size_t blocks = sendBlocks(call, d.comm->size());
          send.emplace(sendbuf, blocks * static_cast<std::size_t>(sendcount), sendtype,
                       sendSignature, true);
          requireDisjoint(d, *send, blocks * bytes, recv, ranks * bytes);
        }
        const char* from = send                        ? send->data()
                           : call == Call::allgather ? recv.data() + rank * bytes
                                                     : recv.data();
        (policy.*entry)(*d.comm, from, recv.data(), bytes);
        recv.store(ranks * static_cast<std::size_t>(recvcount));
      });
    }
    countPassed(lib, call, comm, d);
    return pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  });
}

}  // namespace

COLLC_MPI_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reductionCall(Call::allreduce, __builtin_return_address(0), sendbuf, recvbuf, count,
                       datatype, op, comm, &Policy::allreduce, PMPI_Allreduce);
}

COLLC_MPI_EXPORT int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reductionCall(Call::reduceScatterBlock, __builtin_return_address(0), sendbuf, recvbuf,
                       recvcount, datatype, op, comm, &Policy::reduceScatterBlock,
                       PMPI_Reduce_scatter_block);
}

COLLC_MPI_EXPORT int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm) {
  return reductionCall(Call::scan, __builtin_return_address(0), sendbuf, recvbuf, count, datatype,
                       op, comm, &Policy::scan, PMPI_Scan);
}

COLLC_MPI_EXPORT int MPI_Exscan(const void* sendbuf, void* recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reductionCall(Call::exscan, __builtin_return_address(0), sendbuf, recvbuf, count,
                       datatype, op, comm, &Policy::exscan, PMPI_Exscan);
}

COLLC_MPI_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm) {
  return movementCall(Call::allgather, __builtin_return_address(0), sendbuf, sendcount, sendtype,
                      recvbuf, recvcount, recvtype, comm, &Policy::allgather, PMPI_Allgather);
}

COLLC_MPI_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm) {
  return movementCall(Call::alltoall, __builtin_return_address(0), sendbuf, sendcount, sendtype,
                      recvbuf, recvcount, recvtype, comm, &Policy::alltoall, PMPI_Alltoall);
}

COLLC_MPI_EXPORT int MPI_Barrier(MPI_Comm comm) {
  const Call call = Call::barrier;
  const void* site = __builtin_return_address(0);
  return guarded(call, comm, [&] {
      Library& lib = theLibrary();
      Decision d;
      if (admitted(lib, call, comm, d)) {
        explainOnce(lib, call, site, d, 0);
        return run(lib, call, comm, d, [&](const Policy& policy) { policy.barrier(*d.comm); });
      }
      countPassed(lib, call, comm, d);
      return PMPI_Barrier(comm);
  });
}

namespace {

// Whether `root` names a rank of the served communicator (else MPI reports
// the error).
bool rootServed(int root, const Decision& d) { return root >= 0 && root < d.comm->size(); }

// MPI_Gather and MPI_Scatter, decided on the block every rank passes
// (gather's send, scatter's receive; at an in-place root, the same block
// of its other side). The root's other side holds P blocks of the same
// signature.
template <class Pmpi>
int rootedMovementCall(Call call, const void* site, const void* sendbuf, int sendcount,
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, RootedBlocksEntry Policy::*entry, Pmpi pmpi) {
  return guarded(call, comm, [&] {
    Library& lib = theLibrary();
    Decision d;
    d.root = root;
    const bool isGather = call == Call::gather;
    // In place only at the root: gather's send, scatter's receive.
    const bool inPlace = isGather ? sendbuf == MPI_IN_PLACE : recvbuf == MPI_IN_PLACE;
    const bool ownSideIsSend = isGather != inPlace;  // the block every rank passes
    const int count = ownSideIsSend ? sendcount : recvcount;
    const MPI_Datatype type = ownSideIsSend ? sendtype : recvtype;
    const Signature signature = signatureOf(type, lib.typeKeyval);
    std::size_t bytes = 0;
    if (blocksAdmitted(lib, call, count, signature, comm, d, bytes)) {
      if (rootServed(root, d)) {
        explainOnce(lib, call, site, d, bytes);
        return run(lib, call, comm, d, [&](const Policy& policy) {
          const bool atRoot = d.comm->rank() == root;
          const std::size_t ranks = static_cast<std::size_t>(d.comm->size());
          const std::size_t rootShift = static_cast<std::size_t>(root) * bytes;
          // The root's P blocks: gather's receive, scatter's send.
          std::optional<Run> blocks;
          if (atRoot) {
            const int blocksCount = isGather ? recvcount : sendcount;
            const MPI_Datatype blocksType = isGather ? recvtype : sendtype;
            const Signature blocksSignature =
                inPlace ? signature : signatureOf(blocksType, lib.typeKeyval);
            if (!inPlace)
              requireBlockBytes(d, !isGather, blocksCount, blocksSignature, bytes);
            blocks.emplace(isGather ? static_cast<const void*>(recvbuf) : sendbuf,
                           ranks * static_cast<std::size_t>(blocksCount), blocksType,
                           blocksSignature, !isGather || inPlace);
          }
          // This rank's block (none at an in-place root: it is the root's
          // block of `blocks`).
          std::optional<Run> own;
          if (!(atRoot && inPlace))
            own.emplace(isGather ? sendbuf : static_cast<const void*>(recvbuf),
                        static_cast<std::size_t>(count), type, signature, isGather);
          if (blocks && own) {
            if (isGather) requireDisjoint(d, *own, bytes, *blocks, ranks * bytes);
            else requireDisjoint(d, *blocks, ranks * bytes, *own, bytes);
          }
          const char* send = isGather ? (own ? own->data() : blocks->data() + rootShift)
                                      : (atRoot ? blocks->data() : nullptr);
          char* recv = isGather ? (atRoot ? blocks->data() : nullptr)
                                : (own ? own->data() : blocks->data() + rootShift);
          (policy.*entry)(*d.comm, send, recv, bytes, root);
          if (isGather && atRoot) blocks->store(ranks * static_cast<std::size_t>(recvcount));
          if (!isGather && own) own->store(static_cast<std::size_t>(count));
        });
      }
      d.why = Pass::form;
    }
    countPassed(lib, call, comm, d);
    return pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
}

}  // namespace

COLLC_MPI_EXPORT int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                               MPI_Comm comm) {
  const Call call = Call::broadcast;
  const void* site = __builtin_return_address(0);
  return guarded(call, comm, [&] {
    Library& lib = theLibrary();
    Decision d;
    d.root = root;
    const Signature signature = signatureOf(datatype, lib.typeKeyval);
    std::size_t bytes = 0;
    if (blocksAdmitted(lib, call, count, signature, comm, d, bytes)) {
      if (rootServed(root, d)) {
        explainOnce(lib, call, site, d, bytes);
        return run(lib, call, comm, d, [&](const Policy& policy) {
          const bool atRoot = d.comm->rank() == root;
          Run data(buffer, static_cast<std::size_t>(count), datatype, signature, atRoot);
          policy.broadcast(*d.comm, data.data(), bytes, root);
          if (!atRoot) data.store(static_cast<std::size_t>(count));
        });
      }
      d.why = Pass::form;
    }
    countPassed(lib, call, comm, d);
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  });
}

COLLC_MPI_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  const Call call = Call::reduce;
  const void* site = __builtin_return_address(0);
  return guarded(call, comm, [&] {
    Library& lib = theLibrary();
    Decision d;
    d.root = root;
    Reduction reduction{};
    Element element{};
    std::size_t elements = 0, bytes = 0;
    const Signature signature = signatureOf(datatype, lib.typeKeyval);
    if (reductionAdmitted(lib, call, count, signature, op, comm, d, reduction, element, elements,
                          bytes)) {
      if (rootServed(root, d)) {
        explainOnce(lib, call, site, d, bytes);
        return run(lib, call, comm, d, [&](const Policy& policy) {
          // MPI_IN_PLACE only at the root, whose recv holds its input;
          // recv is insignificant elsewhere.
          const bool atRoot = d.comm->rank() == root;
          const bool inPlace = sendbuf == MPI_IN_PLACE;
          const std::size_t n = static_cast<std::size_t>(count);
          std::optional<Run> recv, send;
          if (atRoot || inPlace) recv.emplace(recvbuf, n, datatype, signature, inPlace);
          if (!inPlace) send.emplace(sendbuf, n, datatype, signature, true);
          if (atRoot && send) requireDisjoint(d, *send, bytes, *recv, bytes);
          policy.reduce(*d.comm, send ? send->data() : recv->data(),
                        atRoot ? recv->data() : nullptr, elements, element, reduction, root);
          if (atRoot) recv->store(n);
        });
      }
      d.why = Pass::form;
    }
    countPassed(lib, call, comm, d);
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  });
}

COLLC_MPI_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                MPI_Comm comm) {
  return rootedMovementCall(Call::gather, __builtin_return_address(0), sendbuf, sendcount,
                            sendtype, recvbuf, recvcount, recvtype, root, comm, &Policy::gather,
                            PMPI_Gather);
}

COLLC_MPI_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                 MPI_Comm comm) {
  return rootedMovementCall(Call::scatter, __builtin_return_address(0), sendbuf, sendcount,
                            sendtype, recvbuf, recvcount, recvtype, root, comm, &Policy::scatter,
                            PMPI_Scatter);
}

COLLC_MPI_EXPORT int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) agreeAcrossWorld();
  return rc;
}

COLLC_MPI_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) agreeAcrossWorld();
  return rc;
}

// Frees every communicator's duplicate while MPI still runs, then
// finalizes (with COLLC_MPI_VERBOSE, after the summary of rank 0).
COLLC_MPI_EXPORT int MPI_Finalize(void) {
  if (library && !finalizing.exchange(true)) {
    Library& lib = *library;
    if (lib.verbose >= 1) printSummary(lib);
    std::vector<MPI_Comm> comms;
    {
      std::lock_guard<std::mutex> lock(lib.mutex);
      comms = lib.comms;
    }
    for (MPI_Comm comm : comms) PMPI_Comm_delete_attr(comm, lib.keyval);
    PMPI_Comm_free_keyval(&lib.keyval);
  }
  return PMPI_Finalize();
}
