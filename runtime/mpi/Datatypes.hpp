#pragma once
// What libcollc_mpi.so reads of an MPI datatype. Its decisions (serve or
// pass, which schedule) read only the type signature, the sequence of
// basic types the typemap lists, which MPI guarantees to match across the
// ranks of a collective; never the handle, which may differ from rank to
// rank for the same bytes (n x MPI_INT on one rank, 1 x a contiguous type
// of n ints on another). The layout in memory decides only how this rank
// reaches its own bytes: in place where `count` elements are one run in
// signature order, else through a staging copy packed (and unpacked) by
// MPI_Pack (docs/preload.md, "Every rank decides alike").

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "Serve.hpp"

namespace coll::mpi {

// A datatype's signature, and its layout as far as this rank needs it.
struct Signature {
  bool valid = false;    // a datatype MPI describes (not MPI_DATATYPE_NULL, size defined)
  std::size_t size = 0;  // bytes of one element's signature (MPI_Type_size)
  // The one named type every entry of the signature is, or
  // MPI_DATATYPE_NULL (entries of several types, or none), and how many
  // entries one element holds.
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  std::size_t basicCount = 0;
  // What a reduction runs `basic` as, if the runtime reduces it: MPI's C
  // integer, multi-language, floating, byte and logical types (not
  // MPI_CHAR, not the pair types), and which operators MPI defines on it.
  bool reducible = false;
  Element element = Element::u8;
  bool logicalOnly = false, bitwiseOnly = false;  // MPI_C_BOOL, MPI_BYTE
  bool noLogical = false;  // the multi-language types (MPI_AINT, MPI_OFFSET, MPI_COUNT)
  // Whether one element's bytes lie at [trueLb, trueLb + size) in
  // signature order; `extent` is the stride between elements.
  bool dense = false;
  MPI_Aint trueLb = 0, extent = 0;

  // Whether `count` elements are one run of count * size bytes from the
  // buffer's true lower bound.
  bool runOf(std::size_t count) const {
    return size == 0 ||
           (dense && (count <= 1 || (extent > 0 && static_cast<std::size_t>(extent) == size)));
  }
};

// The signature of `type`, described once per datatype: predefined types
// in a table of this thread's, derived types in an attribute MPI deletes
// with the type (so a freed handle reused for another type is described
// anew). `keyval` is the library's datatype keyval.
Signature signatureOf(MPI_Datatype type, int keyval);

// The datatype keyval signatureOf keeps its descriptions under.
int makeSignatureKeyval();

// Whether MPI defines `reduction` on the elements of `signature` and the
// runtime reduces them: then `element` is what they run as.
bool reducedElement(const Signature& signature, Reduction reduction, Element& element);

// `count` x `type` at `buffer` as one run of bytes in signature order: the
// buffer itself where its layout is one run, else a staging copy of this
// rank's (packed from the buffer when `load`, and written back by store).
// Either way every rank sees the same bytes, so the decision never
// depends on which.
class Run {
 public:
  // (Inline where the buffer is the run, every small call's case: only
  // staging is out of line.)
  Run(const void* buffer, std::size_t count, MPI_Datatype type, const Signature& signature,
      bool load)
      : buffer_(buffer), type_(type), size_(signature.size), extent_(signature.extent) {
    if (signature.runOf(count))
      data_ = buffer ? const_cast<char*>(static_cast<const char*>(buffer)) + signature.trueLb
                     : nullptr;
    else
      stage(count, load);
  }
  char* data() const { return data_; }
  // Whether data() is the buffer's own memory (not a staging copy).
  bool inBuffer() const { return !staged_; }
  // Writes the first `count` elements of the staging copy back to the
  // buffer (nothing where the buffer is the run).
  void store(std::size_t count) const {
    if (staged_) unstage(count);
  }

 private:
  void stage(std::size_t count, bool load);
  void unstage(std::size_t count) const;

  const void* buffer_;
  MPI_Datatype type_;
  std::size_t size_;  // the signature's, for staging
  MPI_Aint extent_;
  std::unique_ptr<char[]> staged_;
  char* data_ = nullptr;
};

}  // namespace coll::mpi
