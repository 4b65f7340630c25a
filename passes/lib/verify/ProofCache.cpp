//===- ProofCache.cpp - proofs kept across runs --------------------------===//
#include "coll/Passes/ProofCache.h"
#include "coll/Dialect/CollOps.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <elf.h>
#include <link.h>

#include <array>

using namespace coll;

namespace {

/// The first line of every cache file; a new format changes it.
constexpr llvm::StringLiteral kFormat = "collc proof cache 1";

std::string hexDigest(llvm::SHA256 &hash) {
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest), /*LowerCase=*/true);
}

/// The main program's NT_GNU_BUILD_ID note, in hex; empty without one.
std::string gnuBuildId() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *out) -> int {
        // The first object is the main program.
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_NOTE)
            continue;
          const char *at =
              reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr);
          const char *end = at + segment.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            const auto *note = reinterpret_cast<const ElfW(Nhdr) *>(at);
            const char *name = at + sizeof(ElfW(Nhdr));
            const char *desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                llvm::StringRef(name, 3) == "GNU" &&
                desc + note->n_descsz <= end) {
              *static_cast<std::string *>(out) = llvm::toHex(
                  llvm::ArrayRef<uint8_t>(
                      reinterpret_cast<const uint8_t *>(desc), note->n_descsz),
                  /*LowerCase=*/true);
              return 1;
            }
            at = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &id);
  return id;
}

} // namespace

std::string coll::proofKey(CollectiveOp spec) {
  mlir::NamedAttrList attrs(spec->getAttrDictionary());
  attrs.erase(spec.getSymNameAttrName());
  attrs.erase(spec.getChoiceOfAttrName());
  attrs.erase(spec.getSegmentsAttrName());
  std::string key;
  llvm::raw_string_ostream os(key);
  attrs.getDictionary(spec.getContext()).print(os);
  return key;
}

std::string coll::executableIdentity() {
  if (std::string id = gnuBuildId(); !id.empty())
    return "build-id " + id;
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&executableIdentity));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(self, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (self.empty() || !text)
    return "";
  llvm::SHA256 hash;
  hash.update((*text)->getBuffer());
  return "sha256 " + hexDigest(hash);
}

std::optional<std::string> ProvenSchedules::useDirectory(llvm::StringRef dir) {
  identity = executableIdentity();
  if (identity.empty())
    return std::string("cannot identify this executable (no build ID, and "
                       "its file cannot be read) to key a proof cache");
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return "cannot make the proof cache directory '" + dir.str() +
           "': " + ec.message();
  directory = dir.str();
  return std::nullopt;
}

std::string ProvenSchedules::path(const std::string &key) const {
  llvm::SHA256 hash;
  hash.update(identity);
  hash.update(llvm::StringRef("\0", 1));
  hash.update(key);
  llvm::SmallString<256> file(directory);
  llvm::sys::path::append(file, hexDigest(hash).substr(0, 32) + ".proofs");
  return std::string(file);
}

// A file reads:
//   collc proof cache 1
//   build-id 3f1c...            (the identity)
//   key {fold = ..., ...}       (proofKey: one line)
//   proven 1 2 3 ... 64
void ProvenSchedules::load(const std::string &key) {
  if (directory.empty() || !loaded.insert(key).second)
    return;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(path(key));
  if (!text)
    return;
  llvm::SmallVector<llvm::StringRef> lines;
  (*text)->getBuffer().split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (lines.size() != 4 || lines[0] != kFormat || lines[1] != identity ||
      lines[2] != "key " + key || !lines[3].consume_front("proven "))
    return;
  llvm::SmallVector<llvm::StringRef> counts;
  lines[3].split(counts, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::set<int64_t> parsed;
  for (llvm::StringRef count : counts) {
    int64_t P;
    if (count.getAsInteger(10, P) || P < 1)
      return; // not ours: believe none of it
    parsed.insert(P);
  }
  for (int64_t P : parsed)
    proven.insert({key, P});
}

bool ProvenSchedules::contains(const std::string &key, int64_t P) {
  load(key);
  return proven.count({key, P}) != 0;
}

void ProvenSchedules::insert(const std::string &key, int64_t P) {
  proven.insert({key, P});
}

void ProvenSchedules::save(const std::string &key) {
  // A key of several lines would not read back as one; it is not cached.
  if (directory.empty() || llvm::StringRef(key).contains('\n'))
    return;
  load(key);
  std::string text = (kFormat + "\n" + identity + "\nkey " + key + "\nproven").str();
  for (auto it = proven.lower_bound({key, 0});
       it != proven.end() && it->first == key; ++it)
    text += " " + std::to_string(it->second);
  text += "\n";
  // Through a temporary file and a rename: a concurrent reader sees a
  // whole file. A failure to write only loses the entry.
  llvm::Error error =
      llvm::writeToOutput(path(key), [&](llvm::raw_ostream &out) {
        out << text;
        return llvm::Error::success();
      });
  llvm::consumeError(std::move(error));
}
