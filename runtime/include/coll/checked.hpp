#pragma once
// Checked mode (COLLC_CHECK=1, or Comm::setChecked): before a collective
// runs, its ranks exchange what each of them is calling, so that a
// program whose ranks diverge (another collective, count, type, operator
// or root; a call skipped) fails on every rank with an error naming each
// rank's view, instead of hanging or mixing two schedules' messages
// (docs/robustness.md). Generated collectives check in coll::executeOn;
// libcollc_mpi.so checks every MPI call it intercepts, before deciding
// whether to serve it. Plain C++17, no MPI.
//
// The exchange is an all-gather of one 32-byte record per rank by
// dissemination (Bruck et al., IEEE TPDS 1997): ceil(log2 P) rounds, in
// round k each rank sends the records it holds to rank - 2^k and receives
// as many from rank + 2^k. Its messages have the same sizes whatever the
// ranks call, so the exchange itself completes on every rank that checks;
// it uses its own tag (kCheckTag), and a transport's timeout
// (COLLC_TIMEOUT_MS) bounds it as it does a schedule's steps.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "coll/error.hpp"
#include "coll/linkage.hpp"
#include "coll/transport.hpp"

namespace coll {

// What checked mode compares: one rank's view of a call, the same 32
// bytes (plain integers, no padding) on every rank.
struct CallView {
  std::uint64_t bytes = 0;        // what the call moves on this rank (kUnknownBytes: not a size)
  std::uint32_t number = 0;       // the calls checked on this Comm before this one
  std::int32_t root = -1;         // a rooted call's root, else -1
  std::uint32_t schedule = 0;     // a generated call's plan (its cache key's hash); 0 in the drop-in
  std::uint32_t elementSize = 0;  // bytes of one element (0: the call moves bytes)
  std::uint8_t origin = 0;        // CallOrigin
  std::uint8_t call = 0;          // a coll::Kind (generated) or a coll::mpi::Call (drop-in)
  std::uint8_t element = 0;       // ElementCode
  std::uint8_t op = 0;            // the origin's operator code; 0: none
  std::uint32_t reserved = 0;
};
static_assert(sizeof(CallView) == 32 && std::is_trivially_copyable_v<CallView>,
              "a view is 32 bytes on every rank");
constexpr std::uint64_t kUnknownBytes = ~std::uint64_t{0};

enum class CallOrigin : std::uint8_t { generated, dropIn };

// An element type by value, the same code on every rank.
enum class ElementCode : std::uint8_t { bytes, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, f80, other };

template <class T>
constexpr ElementCode elementCode() {
  if constexpr (std::is_floating_point_v<T>) {
    return sizeof(T) == 4 ? ElementCode::f32 : sizeof(T) == 8 ? ElementCode::f64 : ElementCode::f80;
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr bool s = std::is_signed_v<T>;
    switch (sizeof(T)) {
      case 1: return s ? ElementCode::i8 : ElementCode::u8;
      case 2: return s ? ElementCode::i16 : ElementCode::u16;
      case 4: return s ? ElementCode::i32 : ElementCode::u32;
      case 8: return s ? ElementCode::i64 : ElementCode::u64;
      default: return ElementCode::other;
    }
  } else if constexpr (std::is_same_v<T, std::byte> || std::is_same_v<T, bool>) {
    return ElementCode::bytes;
  } else {
    return ElementCode::other;
  }
}

inline const char* elementName(ElementCode code) {
  static const char* const names[] = {"bytes", "int8",  "uint8",   "int16",   "uint16",      "int32",
                                      "uint32", "int64", "uint64", "float32", "float64", "long double",
                                      "other type"};
  const unsigned i = static_cast<unsigned>(code);
  return i < sizeof names / sizeof *names ? names[i] : "?";
}

// The exchange's tag: above the steps of any plan the runtime makes, and
// beside coll::kRecordTag (32767).
constexpr int kCheckTag = 32766;

// How an origin prints a view (without its number), e.g. "MPI_Bcast of
// 4096 B, root 0".
using DescribeCall = std::string (*)(const CallView&);

namespace detail {
// "0", "0-3", "0, 2, 5-7": ranks in increasing order.
std::string rankList(const std::vector<int>& ranks);

// The error every rank raises when the views differ: the same text on
// every rank, each distinct view once with the ranks that hold it.
[[noreturn, gnu::cold]]
void disagreement(const std::vector<CallView>& byRank, DescribeCall describe);
}  // namespace detail

// Checked mode's agreement: numbers `mine` with the calls checked on
// `comm` so far, exchanges it with every rank, and returns if all views
// are the same; otherwise throws, on every rank, the error naming each
// rank's view. A transport's failure (a rank that never calls: its
// timeout) is named with this rank's view.
void agreeOnCall(Comm& comm, CallView mine, DescribeCall describe);

#if COLLC_RUNTIME_DEFINITIONS
namespace detail {
COLLC_RUNTIME_INLINE std::string rankList(const std::vector<int>& ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!text.empty()) text += ", ";
    text += std::to_string(ranks[i]);
    if (j > i) text += (j == i + 1 ? ", " : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

[[gnu::noinline]]
COLLC_RUNTIME_INLINE void disagreement(const std::vector<CallView>& byRank, DescribeCall describe) {
  std::vector<bool> said(byRank.size());
  std::string text = "coll::checked (COLLC_CHECK): the ranks disagree on a collective call: ";
  bool first = true;
  for (std::size_t r = 0; r < byRank.size(); ++r) {
    if (said[r]) continue;
    std::vector<int> same;
    for (std::size_t q = r; q < byRank.size(); ++q)
      if (!said[q] && std::memcmp(&byRank[q], &byRank[r], sizeof(CallView)) == 0) {
        said[q] = true;
        same.push_back(static_cast<int>(q));
      }
    text += std::string(first ? "" : "; ") + (same.size() > 1 ? "ranks " : "rank ") + rankList(same) +
            ": call " + std::to_string(byRank[r].number) + ", " + describe(byRank[r]);
    first = false;
  }
  throw Error(text);
}
}  // namespace detail

COLLC_RUNTIME_INLINE void agreeOnCall(Comm& comm, CallView mine, DescribeCall describe) {
  mine.number = comm.nextCheckedCall();
  const int P = comm.size(), rank = comm.rank();
  if (P == 1) return;
  std::vector<CallView> views(static_cast<std::size_t>(P));  // [i]: rank (rank + i) % P's
  views[0] = mine;
  try {
    for (int d = 1; d < P; d *= 2) {
      const std::size_t n = static_cast<std::size_t>(std::min(d, P - d));
      const SendSegment send{views.data(), n * sizeof(CallView)};
      const RecvSegment recv{views.data() + d, n * sizeof(CallView)};
      comm.transport().exchange(&send, 1, (rank - d + P) % P, &recv, 1, (rank + d) % P, kCheckTag);
    }
  } catch (const Error& e) {
    throw Error("coll::checked (COLLC_CHECK): rank " + std::to_string(rank) + " at call " +
                std::to_string(mine.number) + ", " + describe(mine) + ": " + e.what());
  }
  for (const CallView& view : views)
    if (std::memcmp(&view, &mine, sizeof(CallView)) != 0) {
      std::vector<CallView> byRank(views.size());
      for (int i = 0; i < P; ++i) byRank[static_cast<std::size_t>((rank + i) % P)] = views[static_cast<std::size_t>(i)];
      detail::disagreement(byRank, describe);
    }
}
#endif  // COLLC_RUNTIME_DEFINITIONS

}  // namespace coll
