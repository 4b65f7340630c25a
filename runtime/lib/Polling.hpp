#pragma once
// How the transports wait: by polling, as MPI libraries do, and yielding
// the core after 256 idle polls, since the rank waited for may need it
// (more ranks than cores, or, with ranks unbound, two ranks the kernel put
// on one core). Polling without ever yielding when the ranks fit the
// cores measured up to 1.25x slower at 2 ranks on this 2-core VM
// (docs/benchmarks.md, "The lean call path").

#include <sched.h>

namespace coll::detail {

class Poller {
 public:
  // Call after each poll: whether it found anything to do.
  void after(bool progressed) {
    if (progressed) {
      idle_ = 0;
    } else if (++idle_ >= kSpinsBeforeYield) {
      sched_yield();
    } else {
      relax();
    }
  }

 private:
  static constexpr int kSpinsBeforeYield = 256;
  static void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  int idle_ = 0;
};

}  // namespace coll::detail
