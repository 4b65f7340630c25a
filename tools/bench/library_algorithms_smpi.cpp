// LibraryAlgorithms under SimGrid's SMPI (docs/scale.md): the default is
// the algorithm the launch selected (--cfg=smpi/coll-selector:ompi, or
// smpi/<coll>:NAME); the forced ones are every algorithm SMPI has for the
// collective, set by name around the timed call. SMPI 3.32 has no MPI tool
// interface; its own setters are exported by libsimgrid but not declared
// in its installed headers, so they are declared here as its source
// (src/smpi/include/smpi_coll.hpp) declares them.
#include "library_algorithms.hpp"

#include <xbt/config.hpp>

#include "coll/merge.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace simgrid::smpi {
struct s_mpi_coll_description_t {
  std::string name;
  std::string description;
  void* coll;
};
namespace colls {
std::vector<s_mpi_coll_description_t>* get_smpi_coll_descriptions(const std::string& name);
void set_gather(const std::string& name);
void set_allgather(const std::string& name);
void set_reduce(const std::string& name);
void set_allreduce(const std::string& name);
void set_reduce_scatter(const std::string& name);
void set_scatter(const std::string& name);
void set_barrier(const std::string& name);
void set_bcast(const std::string& name);
void set_alltoall(const std::string& name);
}  // namespace colls
}  // namespace simgrid::smpi

namespace collc_bench {
namespace {

namespace colls = simgrid::smpi::colls;
using Setter = void (*)(const std::string&);

// SMPI's setting for each collective the benchmark names (MPI_Reduce_scatter_block
// runs SMPI's reduce_scatter); scan and exscan have one algorithm only.
const std::map<std::string, std::pair<std::string, Setter>>& settings() {
  static const std::map<std::string, std::pair<std::string, Setter>> table{
      {"allreduce", {"allreduce", colls::set_allreduce}},
      {"reduce_scatter_block", {"reduce_scatter", colls::set_reduce_scatter}},
      {"allgather", {"allgather", colls::set_allgather}},
      {"alltoall", {"alltoall", colls::set_alltoall}},
      {"bcast", {"bcast", colls::set_bcast}},
      {"reduce", {"reduce", colls::set_reduce}},
      {"gather", {"gather", colls::set_gather}},
      {"scatter", {"scatter", colls::set_scatter}},
      {"barrier", {"barrier", colls::set_barrier}},
  };
  return table;
}

// What the launch selected for `setting`.
std::string launched(const std::string& setting) {
  const std::string& own = simgrid::config::get_value<std::string>("smpi/" + setting);
  if (!own.empty()) return own;
  const std::string& selector = simgrid::config::get_value<std::string>("smpi/coll-selector");
  return selector.empty() ? "default" : selector;
}

// MPI_SUM of doubles, each merged element charged as collc's are. It is
// commutative, so the selectors choose what they choose for MPI_SUM.
void chargedSum(void* in, void* inout, int* length, MPI_Datatype*) {
  const std::size_t n = static_cast<std::size_t>(*length);
  coll::chargeSimulatedMerge(n);
  const double* a = static_cast<const double*>(in);
  double* b = static_cast<double*>(inout);
  for (std::size_t i = 0; i < n; ++i) b[i] += a[i];
}

// Names that select a library's decision, not one algorithm.
bool isSelector(const std::string& name) {
  return name == "default" || name == "ompi" || name == "mpich" || name == "mvapich2" ||
         name == "impi" || name == "automatic";
}

}  // namespace

void LibraryAlgorithms::beforeInit() {}

LibraryAlgorithms::LibraryAlgorithms() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  // "SMPI Version 3.32. Copyright ..." -> "SMPI 3.32 (ompi selector)".
  std::string text(version, static_cast<std::size_t>(length));
  std::string number;
  if (const std::size_t at = text.find("Version "); at != std::string::npos)
    number = text.substr(at + 8, text.find_first_of(" \n,", at + 8) - (at + 8));
  while (!number.empty() && number.back() == '.') number.pop_back();
  MPI_Op_create(chargedSum, 1, &sum_);
  library_ = "SMPI " + number + " (" + simgrid::config::get_value<std::string>("smpi/coll-selector") +
             " selector)";
}

LibraryAlgorithms::~LibraryAlgorithms() {
  for (MPI_Comm& c : comms_) MPI_Comm_free(&c);
  MPI_Op_free(&sum_);
}

std::string LibraryAlgorithms::opComponents() const { return ""; }

std::vector<LibraryAlgorithm> LibraryAlgorithms::algorithms(const std::string& collective, bool forced) {
  std::vector<LibraryAlgorithm> out;
  MPI_Comm world;
  MPI_Comm_dup(MPI_COMM_WORLD, &world);
  comms_.push_back(world);
  const auto setting = settings().find(collective);
  const bool settable = setting != settings().end();  // (not scan, exscan)
  out.push_back({"default", 0, world, -1, settable ? collective : ""});
  if (!forced || !settable) return out;
  const std::vector<simgrid::smpi::s_mpi_coll_description_t>* descriptions =
      colls::get_smpi_coll_descriptions(setting->second.first);
  if (!descriptions) return out;
  int value = 0;
  for (const auto& d : *descriptions) {
    ++value;
    if (!isSelector(d.name)) out.push_back({d.name, value, world, -1, collective});
  }
  return out;
}

// The setting is one for all simulated ranks (libsimgrid is loaded once),
// so every case sets its own, the default too, and nothing is put back
// after the call: each rank writes before the barrier that precedes the
// timed call, and the simulated ranks switch only inside MPI calls, so
// once that barrier is passed every write of the case is done and no rank
// has yet entered the call. (Putting it back after the call could switch
// a rank that has not entered it yet.)
void LibraryAlgorithms::select(const LibraryAlgorithm& a) const {
  if (a.setting.empty()) return;
  const auto& [setting, set] = settings().at(a.setting);
  set(a.name == "default" ? launched(setting) : a.name);
}

void LibraryAlgorithms::reset(const LibraryAlgorithm&) const {}

}  // namespace collc_bench
