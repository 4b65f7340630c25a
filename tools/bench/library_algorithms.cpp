#include "library_algorithms.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace collc_bench {
namespace {

int findCvar(const std::string& want) {
  int n = 0;
  if (MPI_T_cvar_get_num(&n) != MPI_SUCCESS) return -1;
  for (int i = 0; i < n; ++i) {
    char name[256];
    int nameLength = sizeof name, verbosity = 0, bind = 0, scope = 0;
    MPI_Datatype type;
    MPI_T_enum enumType;
    if (MPI_T_cvar_get_info(i, name, &nameLength, &verbosity, &type, &enumType, nullptr, nullptr,
                            &bind, &scope) != MPI_SUCCESS)
      continue;
    if (want == name) return i;
  }
  return -1;
}

struct CvarInfo {
  MPI_T_enum enumType = MPI_T_ENUM_NULL;
  std::string description;
};

CvarInfo cvarInfo(int index) {
  char name[256];
  int nameLength = sizeof name, descriptionLength = 0, verbosity = 0, bind = 0, scope = 0;
  MPI_Datatype type;
  CvarInfo info;
  MPI_T_cvar_get_info(index, name, &nameLength, &verbosity, &type, &info.enumType, nullptr,
                      &descriptionLength, &bind, &scope);
  std::string description(static_cast<std::size_t>(descriptionLength) + 1, '\0');
  nameLength = sizeof name;
  int length = descriptionLength + 1;
  MPI_T_cvar_get_info(index, name, &nameLength, &verbosity, &type, &info.enumType,
                      description.data(), &length, &bind, &scope);
  info.description = description.c_str();
  return info;
}

void writeInt(int index, int value) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS)
    throw std::runtime_error("collc-bench: cannot open MPI_T control variable " + std::to_string(index));
  const int rc = MPI_T_cvar_write(handle, &value);
  MPI_T_cvar_handle_free(&handle);
  if (rc != MPI_SUCCESS)
    throw std::runtime_error("collc-bench: cannot write MPI_T control variable " + std::to_string(index));
}

std::string readString(int index) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return "";
  std::string value(static_cast<std::size_t>(count > 0 ? count : 1) + 1, '\0');
  MPI_T_cvar_read(handle, value.data());
  MPI_T_cvar_handle_free(&handle);
  return value.c_str();
}

// MPICH lists an algorithm variable's values in its description, in the
// order of their numbers, as "name<padding>- explanation" glued together:
// "...algorithmauto - Internal ... FILE)brucks             - Force brucks
// algorithmnb                 - Force ...". Value 0 is auto. The other names
// are padded to one column width W, so a name is the last W - (its padding)
// characters before its padding; W is the smallest (identifier run + padding)
// over the entries, exact for the first (it follows "...FILE)").
std::vector<std::string> mpichValueNames(const std::string& description) {
  struct Entry {
    std::size_t end, padding, run;  // the name ends at `end`, before `padding` spaces
  };
  std::vector<Entry> entries;
  for (std::size_t dash = description.find("- "); dash != std::string::npos;
       dash = description.find("- ", dash + 2)) {
    std::size_t end = dash;
    while (end > 0 && description[end - 1] == ' ') --end;
    const std::size_t padding = dash - end;
    if (padding == 0) continue;  // a hyphen inside a word, not a separator
    std::size_t start = end;
    while (start > 0 && (std::islower(static_cast<unsigned char>(description[start - 1])) ||
                         std::isdigit(static_cast<unsigned char>(description[start - 1])) ||
                         description[start - 1] == '_'))
      --start;
    if (start == end) continue;
    entries.push_back({end, padding, end - start});
  }
  if (entries.empty() || description.compare(entries[0].end - 4, 4, "auto") != 0) return {};
  std::vector<std::string> names{"auto"};
  std::size_t width = std::string::npos;
  for (std::size_t i = 1; i < entries.size(); ++i)
    width = std::min(width, entries[i].run + entries[i].padding);
  for (std::size_t i = 1; i < entries.size(); ++i) {
    if (width <= entries[i].padding) return names;
    const std::size_t length = width - entries[i].padding;
    names.push_back(description.substr(entries[i].end - length, length));
  }
  return names;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

void LibraryAlgorithms::beforeInit() {
#if defined(OPEN_MPI)
  // Forced algorithms need Open MPI's dynamic rules; without a rules file
  // and with no algorithm forced, the dynamic decision is the fixed one
  // (the library's default).
  if (!std::getenv("OMPI_MCA_coll_tuned_use_dynamic_rules"))
    setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 1);
#endif
}

LibraryAlgorithms::LibraryAlgorithms() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  library_ = std::string(version, static_cast<std::size_t>(length));
  library_ = library_.substr(0, library_.find_first_of("\n,"));
  openMpi_ = library_.find("Open MPI") != std::string::npos;
  mpich_ = library_.find("MPICH") != std::string::npos;
  if (mpich_) {
    const std::size_t v = library_.find("Version:");
    if (v != std::string::npos) library_ = "MPICH " + library_.substr(library_.find_first_not_of(" \t", v + 8));
  }
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
    forcedUnavailable_ = "the MPI tool interface does not start";
    return;
  }
  if (openMpi_) {
    const int rules = findCvar("coll_tuned_use_dynamic_rules");
    int on = 0;
    if (rules >= 0) {
      MPI_T_cvar_handle handle;
      int count = 0;
      if (MPI_T_cvar_handle_alloc(rules, nullptr, &handle, &count) == MPI_SUCCESS) {
        MPI_T_cvar_read(handle, &on);
        MPI_T_cvar_handle_free(&handle);
      }
    }
    if (!on) forcedUnavailable_ = "coll_tuned_use_dynamic_rules is off";
  } else if (!mpich_) {
    forcedUnavailable_ = "neither Open MPI nor MPICH";
  }
}

LibraryAlgorithms::~LibraryAlgorithms() {
  for (MPI_Comm& c : comms_) MPI_Comm_free(&c);
  MPI_T_finalize();
}

std::string LibraryAlgorithms::opComponents() const {
  if (!openMpi_) return "";
  const int op = findCvar("op");
  return op >= 0 ? readString(op) : "";
}

std::vector<LibraryAlgorithm> LibraryAlgorithms::algorithms(const std::string& collective, bool forced) {
  std::vector<LibraryAlgorithm> out;
  MPI_Comm world;
  MPI_Comm_dup(MPI_COMM_WORLD, &world);
  comms_.push_back(world);
  out.push_back({"default", 0, world, -1, ""});
  if (!forced || !forcedUnavailable_.empty()) return out;
  if (openMpi_) {
    const int index = findCvar("coll_tuned_" + collective + "_algorithm");
    if (index < 0) return out;
    const CvarInfo info = cvarInfo(index);
    if (info.enumType == MPI_T_ENUM_NULL) return out;
    int items = 0;
    char enumName[256];
    int enumNameLength = sizeof enumName;
    MPI_T_enum_get_info(info.enumType, &items, enumName, &enumNameLength);
    for (int i = 0; i < items; ++i) {
      int value = 0;
      char name[256];
      int nameLength = sizeof name;
      MPI_T_enum_get_item(info.enumType, i, &value, name, &nameLength);
      if (value == 0) continue;  // "ignore": the default
      writeInt(index, value);
      MPI_Comm comm;
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
      writeInt(index, 0);
      comms_.push_back(comm);
      out.push_back({name, value, comm, -1, ""});
    }
    return out;
  }
  if (mpich_) {
    const int index = findCvar("MPIR_CVAR_" + upper(collective) + "_INTRA_ALGORITHM");
    if (index < 0) return out;
    const std::vector<std::string> names = mpichValueNames(cvarInfo(index).description);
    for (std::size_t v = 1; v < names.size(); ++v) out.push_back({names[v], static_cast<int>(v), world, index, ""});
  }
  return out;
}

void LibraryAlgorithms::select(const LibraryAlgorithm& a) const {
  if (a.cvar >= 0) writeInt(a.cvar, a.value);
}

void LibraryAlgorithms::reset(const LibraryAlgorithm& a) const {
  if (a.cvar >= 0) writeInt(a.cvar, 0);
}

}  // namespace collc_bench
