// libcollc_mpi.so's view of MPI datatypes (Datatypes.hpp): signatures for
// the decisions, runs of bytes for the schedules.
#include "Datatypes.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "coll/error.hpp"

namespace coll::mpi {
namespace {

// MPI's error text for `code`.
std::string mpiError(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (PMPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

// What a reduction runs the named type `basic` as (Signature::reducible
// and the fields after it).
void describeElement(MPI_Datatype basic, Signature& s) {
  struct Known {
    MPI_Datatype type;
    bool isSigned, floating;
  };
  // MPI's C integer, multi-language, floating, byte and logical types
  // (MPI_CHAR is none of them: MPI does not reduce it).
  const Known known[] = {
      {MPI_SIGNED_CHAR, true, false},   {MPI_UNSIGNED_CHAR, false, false},
      {MPI_SHORT, true, false},         {MPI_UNSIGNED_SHORT, false, false},
      {MPI_INT, true, false},           {MPI_UNSIGNED, false, false},
      {MPI_LONG, true, false},          {MPI_UNSIGNED_LONG, false, false},
      {MPI_LONG_LONG, true, false},     {MPI_UNSIGNED_LONG_LONG, false, false},
      {MPI_INT8_T, true, false},        {MPI_UINT8_T, false, false},
      {MPI_INT16_T, true, false},       {MPI_UINT16_T, false, false},
      {MPI_INT32_T, true, false},       {MPI_UINT32_T, false, false},
      {MPI_INT64_T, true, false},       {MPI_UINT64_T, false, false},
      {MPI_AINT, true, false},          {MPI_OFFSET, true, false},
      {MPI_COUNT, true, false},         {MPI_FLOAT, true, true},
      {MPI_DOUBLE, true, true},         {MPI_LONG_DOUBLE, true, true},
      {MPI_BYTE, false, false},         {MPI_C_BOOL, false, false},
  };
  for (const Known& k : known) {
    if (k.type != basic) continue;
    s.bitwiseOnly = basic == MPI_BYTE;
    s.logicalOnly = basic == MPI_C_BOOL;
    s.noLogical = basic == MPI_AINT || basic == MPI_OFFSET || basic == MPI_COUNT;
    int size = 0;
    PMPI_Type_size(basic, &size);
    s.reducible = true;
    if (k.floating) {
      if (size == sizeof(float)) s.element = Element::f32;
      else if (size == sizeof(double)) s.element = Element::f64;
      else if (size == sizeof(long double)) s.element = Element::f80;
      else s.reducible = false;
      return;
    }
    switch (size) {
      case 1: s.element = k.isSigned ? Element::i8 : Element::u8; break;
      case 2: s.element = k.isSigned ? Element::i16 : Element::u16; break;
      case 4: s.element = k.isSigned ? Element::i32 : Element::u32; break;
      case 8: s.element = k.isSigned ? Element::i64 : Element::u64; break;
      default: s.reducible = false;
    }
    return;
  }
}

// The signature of `type`, read from MPI (uncached): a named type is its
// own basic type; a derived one is described from its constructor's
// arguments (MPI_Type_get_contents), recursively.
Signature describe(MPI_Datatype type) {
  Signature s;
  int integers = 0, addresses = 0, datatypes = 0, combiner = 0;
  if (type == MPI_DATATYPE_NULL ||
      PMPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS)
    return s;
  MPI_Count size = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED || size < 0) return s;
  MPI_Aint lb = 0, extent = 0, trueLb = 0, trueExtent = 0;
  PMPI_Type_get_extent(type, &lb, &extent);
  PMPI_Type_get_true_extent(type, &trueLb, &trueExtent);
  s.valid = true;
  s.size = static_cast<std::size_t>(size);
  s.extent = extent;
  s.trueLb = trueLb;
  const bool fills = trueExtent >= 0 && static_cast<std::size_t>(trueExtent) == s.size;
  if (size == 0) {  // an empty signature: nothing to move, no element type
    s.dense = true;
    return s;
  }
  // A named type, or one of no constituent types (MPI_Type_create_f90_*):
  // its own basic type, one run where it has no holes (MPI_SHORT_INT has).
  if (combiner == MPI_COMBINER_NAMED || datatypes == 0) {
    s.basic = type;
    s.basicCount = 1;
    describeElement(type, s);
    s.dense = fills;
    return s;
  }
  std::vector<int> ints(static_cast<std::size_t>(integers));
  std::vector<MPI_Aint> addrs(static_cast<std::size_t>(addresses));
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(datatypes));
  if (PMPI_Type_get_contents(type, integers, addresses, datatypes, ints.data(), addrs.data(),
                             types.data()) != MPI_SUCCESS)
    return Signature{};
  std::vector<Signature> parts;
  for (MPI_Datatype t : types) parts.push_back(describe(t));
  // The constituents MPI returns as new handles (the derived ones: those
  // made of other types) are ours to free; named and MPI_Type_create_f90_*
  // types are predefined.
  for (MPI_Datatype t : types) {
    int i = 0, a = 0, d = 0, c = MPI_COMBINER_NAMED;
    PMPI_Type_get_envelope(t, &i, &a, &d, &c);
    if (c != MPI_COMBINER_NAMED && d > 0) PMPI_Type_free(&t);
  }
  // The basic type: the one of every constituent that adds entries (a
  // struct's block of length 0, or of an empty type, adds none).
  bool several = false;
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Signature& p = parts[i];
    if (!p.valid) return Signature{};
    const bool adds = p.size > 0 && (combiner != MPI_COMBINER_STRUCT || ints[i + 1] > 0);
    if (!adds) continue;
    if (p.basic == MPI_DATATYPE_NULL || (basic != MPI_DATATYPE_NULL && basic != p.basic))
      several = true;
    basic = p.basic;
  }
  if (!several && basic != MPI_DATATYPE_NULL) {
    int basicSize = 0;
    PMPI_Type_size(basic, &basicSize);
    s.basic = basic;
    s.basicCount = basicSize > 0 ? s.size / static_cast<std::size_t>(basicSize) : 0;
    describeElement(basic, s);
  }
  // One run in signature order: the constructors whose entries follow
  // each other in memory; every other layout is staged.
  const Signature& child = parts[0];
  switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:  // (moves the bounds, not the entries)
      s.dense = child.dense;
      break;
    case MPI_COMBINER_CONTIGUOUS:
      s.dense = child.runOf(static_cast<std::size_t>(std::max(ints[0], 0)));
      break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
      // Blocks of `length` elements, each starting where the last ended.
      const MPI_Aint blocks = ints[0], length = ints[1];
      const MPI_Aint stride =
          combiner == MPI_COMBINER_VECTOR ? ints[2] * child.extent : addrs[0];
      s.dense = length > 0 && child.runOf(static_cast<std::size_t>(length)) &&
                (blocks <= 1 ||
                 stride == (length - 1) * child.extent + static_cast<MPI_Aint>(child.size));
      break;
    }
    default:
      s.dense = false;
  }
  s.dense = s.dense && fills;
  return s;
}

int deleteSignature(MPI_Datatype, int, void* value, void*) {
  delete static_cast<Signature*>(value);
  return MPI_SUCCESS;
}

// Copies `count` elements between the buffer and the run, at most INT_MAX
// bytes per MPI_Pack/MPI_Unpack.
void transfer(bool pack, const void* buffer, std::size_t count, MPI_Datatype type,
              std::size_t size, MPI_Aint extent, char* run) {
  if (size > static_cast<std::size_t>(INT_MAX))
    throw Error("collc_mpi: a datatype of " + std::to_string(size) +
                " bytes is beyond what MPI_Pack stages");
  const std::size_t chunk = static_cast<std::size_t>(INT_MAX) / size;
  for (std::size_t done = 0; done < count; done += chunk) {
    const std::size_t n = std::min(chunk, count - done);
    char* at = const_cast<char*>(static_cast<const char*>(buffer)) +
               static_cast<MPI_Aint>(done) * extent;
    char* bytes = run + done * size;
    const int length = static_cast<int>(n * size);
    int position = 0;
    const int rc = pack ? PMPI_Pack(at, static_cast<int>(n), type, bytes, length, &position,
                                    MPI_COMM_SELF)
                        : PMPI_Unpack(bytes, length, &position, at, static_cast<int>(n), type,
                                      MPI_COMM_SELF);
    if (rc != MPI_SUCCESS)
      throw Error(std::string("collc_mpi: ") + (pack ? "MPI_Pack" : "MPI_Unpack") + " of " +
                  std::to_string(n) + " elements failed: " + mpiError(rc));
  }
}

}  // namespace

int makeSignatureKeyval() {
  int keyval = MPI_KEYVAL_INVALID;
  PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, deleteSignature, &keyval, nullptr);
  return keyval;
}

Signature signatureOf(MPI_Datatype type, int keyval) {
  // Named types never change nor go: the last few looked up, per thread
  // (one thread-local object: one look-up of this library's block).
  struct Entry {
    MPI_Datatype type;
    Signature signature;
  };
  constexpr std::size_t kNamed = 16;
  struct Named {
    Entry entries[kNamed];
    std::size_t used = 0, next = 0;
  };
  thread_local Named cache;
  Entry* named = cache.entries;
  std::size_t& used = cache.used;
  std::size_t& next = cache.next;
  for (std::size_t i = 0; i < used; ++i)
    if (named[i].type == type) return named[i].signature;
  int integers = 0, addresses = 0, datatypes = 0, combiner = 0;
  if (type == MPI_DATATYPE_NULL ||
      PMPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS)
    return Signature{};
  if (combiner == MPI_COMBINER_NAMED) {
    Entry& e = named[next];
    next = (next + 1) % kNamed;
    used = std::min(used + 1, kNamed);
    e = Entry{type, describe(type)};
    return e.signature;
  }
  // A derived type: described once, kept in its attribute.
  void* value = nullptr;
  int found = 0;
  if (PMPI_Type_get_attr(type, keyval, &value, &found) == MPI_SUCCESS && found)
    return *static_cast<const Signature*>(value);
  auto* signature = new Signature(describe(type));
  const Signature result = *signature;
  // (Where MPI keeps no attribute on the type, it is described on every call.)
  if (PMPI_Type_set_attr(type, keyval, signature) != MPI_SUCCESS) delete signature;
  return result;
}

bool reducedElement(const Signature& signature, Reduction reduction, Element& element) {
  const bool logical = reduction == Reduction::land || reduction == Reduction::lor ||
                       reduction == Reduction::lxor;
  const bool bitwise = reduction == Reduction::band || reduction == Reduction::bor ||
                       reduction == Reduction::bxor;
  if (!signature.reducible || (signature.logicalOnly && !logical) ||
      (signature.bitwiseOnly && !bitwise) || (signature.noLogical && logical) ||
      !reduces(signature.element, reduction))
    return false;
  element = signature.element;
  return true;
}

void Run::stage(std::size_t count, bool load) {
  staged_.reset(new char[count * size_]);
  data_ = staged_.get();
  if (load) transfer(true, buffer_, count, type_, size_, extent_, data_);
}

void Run::unstage(std::size_t count) const {
  transfer(false, buffer_, count, type_, size_, extent_, data_);
}

}  // namespace coll::mpi
