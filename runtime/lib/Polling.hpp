#pragma once
// How the transports wait: by polling, as MPI libraries do, and yielding
// the core only when the node has more ranks than this process may run on
// (then the rank waited for may need the core; with a core each, a yield
// is a system call in the middle of a short wait).

#include <sched.h>

namespace coll::detail {

// Whether `ranks` ranks on this node are more than the cores this
// process may run on (a system call: ask once, when a transport is made).
inline bool oversubscribed(int ranks) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const int usable = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
  return ranks > usable;
}

class Poller {
 public:
  explicit Poller(bool oversubscribed) : oversubscribed_(oversubscribed) {}
  // Call after each poll: whether it found anything to do.
  void after(bool progressed) {
    if (progressed) {
      idle_ = 0;
    } else if (oversubscribed_ && ++idle_ >= kSpinsBeforeYield) {
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
  bool oversubscribed_ = false;
  int idle_ = 0;
};

}  // namespace coll::detail
