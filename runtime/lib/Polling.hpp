#pragma once
// How the transports wait: by polling, as MPI libraries do, and yielding
// the core after 256 idle polls, since the rank waited for may need it
// (more ranks than cores, or, with ranks unbound, two ranks the kernel put
// on one core). Polling without ever yielding when the ranks fit the
// cores measured up to 1.25x slower at 2 ranks on this 2-core VM
// (docs/history/benchmarks-2026-12.md, "The lean call path").

#include <sched.h>
#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "coll/error.hpp"

namespace coll::detail {

// COLLC_TIMEOUT_MS if set (0: no limit), else `fallback`; `who` names the
// transport in the error for a value that is not a number.
inline std::int64_t timeoutFromEnvironment(const char* who, std::int64_t fallback) {
  const char* ms = std::getenv("COLLC_TIMEOUT_MS");
  if (!ms || !*ms) return fallback;
  char* end = nullptr;
  const long long n = std::strtoll(ms, &end, 10);
  if (*end != '\0' || n < 0)
    throw Error(std::string(who) + ": COLLC_TIMEOUT_MS='" + ms +
                "' is not a number of milliseconds (0: no limit)");
  return n;
}

// What every transport says of a wait past its limit: the rank, the
// limit, the exchange, the peers not heard from (`silent`) and those not
// taking this rank's messages (`full`).
inline std::string waitedTooLong(int rank, std::int64_t limitMs, int tag, const std::vector<int>& silent,
                                 const std::vector<int>& full) {
  auto ranks = [](const std::vector<int>& list) {
    std::string text = list.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < list.size(); ++i) text += (i ? ", " : "") + std::to_string(list[i]);
    return text;
  };
  std::string what = "rank " + std::to_string(rank) + " waited " + std::to_string(limitMs) +
                     " ms (COLLC_TIMEOUT_MS) in exchange " + std::to_string(tag) + ": ";
  if (!silent.empty()) what += "no message from " + ranks(silent);
  if (!full.empty()) what += (silent.empty() ? "" : "; ") + ranks(full) + " took none of its messages";
  return what;
}

class Poller {
 public:
  Poller() = default;
  // A wait that gives up after `limitMs` milliseconds without progress
  // (0: never).
  explicit Poller(std::int64_t limitMs) : limitMs_(limitMs) {}

  // Call after each poll: whether it found anything to do. Returns whether
  // the wait has gone `limitMs` without progress, counted from its first
  // idle poll that yields the core: a wait that progresses, or ends within
  // its first idle polls, reads no clock.
  bool after(bool progressed) {
    if (progressed) {
      idle_ = 0;
      idleSince_ = 0;
    } else if (++idle_ >= kSpinsBeforeYield) {
      sched_yield();
      if (limitMs_ > 0) {
        const std::int64_t now = nowMs();
        if (idleSince_ == 0) idleSince_ = now;
        return now - idleSince_ >= limitMs_;
      }
    } else {
      relax();
    }
    return false;
  }

 private:
  static constexpr int kSpinsBeforeYield = 256;
  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  static std::int64_t nowMs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
  }
  int idle_ = 0;
  std::int64_t limitMs_ = 0, idleSince_ = 0;
};

}  // namespace coll::detail
