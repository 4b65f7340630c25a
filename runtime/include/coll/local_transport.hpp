#pragma once
// LocalTransport: P ranks in one process, one thread each, behind the same
// Transport interface as MPI, so a generated collective runs for any P
// without mpirun (tests, translation validation). Sends are buffered
// (copied into the receiver's mailbox), so no order of sends and receives
// within a step deadlocks; a receive that waits longer than the network's
// timeout, or any rank failing, ends every rank's wait with an Error.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "coll/transport.hpp"

namespace coll {

class LocalNetwork {
 public:
  explicit LocalNetwork(int size, std::chrono::milliseconds timeout = std::chrono::seconds(60))
      : size_(size), timeout_(timeout), boxes_(static_cast<std::size_t>(size > 0 ? size : 0)) {}

  int size() const { return size_; }

  void post(int src, int dst, int tag, std::vector<unsigned char> bytes) {
    Mailbox& box = boxes_[static_cast<std::size_t>(dst)];
    {
      std::lock_guard<std::mutex> lock(box.mutex);
      box.mail[{src, tag}].push_back(std::move(bytes));
    }
    box.arrived.notify_one();  // only its owner waits on a mailbox
  }

  std::vector<unsigned char> take(int src, int dst, int tag) {
    Mailbox& box = boxes_[static_cast<std::size_t>(dst)];
    std::unique_lock<std::mutex> lock(box.mutex);
    const Key key{src, tag};
    auto ready = [&] {
      auto it = box.mail.find(key);
      return failed_.load() || (it != box.mail.end() && !it->second.empty());
    };
    if (!box.arrived.wait_for(lock, timeout_, ready))
      throw Error("coll::LocalTransport: rank " + std::to_string(dst) +
                  " waited too long for rank " + std::to_string(src) + "'s message of step " +
                  std::to_string(tag));
    if (failed_) throw Error("coll::LocalTransport: another rank failed");
    auto it = box.mail.find(key);
    std::vector<unsigned char> bytes = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) box.mail.erase(it);
    return bytes;
  }

  // Ends every wait: a rank failed, so its messages never come.
  void fail() {
    failed_ = true;
    for (Mailbox& box : boxes_) {
      { std::lock_guard<std::mutex> lock(box.mutex); }  // a waiter sees failed_ on waking
      box.arrived.notify_all();
    }
  }

 private:
  using Key = std::tuple<int, int>;  // src, tag
  // One per receiving rank, so a message wakes only its receiver.
  struct Mailbox {
    std::mutex mutex;
    std::condition_variable arrived;
    std::map<Key, std::deque<std::vector<unsigned char>>> mail;
  };
  int size_;
  std::chrono::milliseconds timeout_;
  std::vector<Mailbox> boxes_;
  std::atomic<bool> failed_{false};
};

class LocalTransport final : public Transport {
 public:
  LocalTransport(std::shared_ptr<LocalNetwork> network, int rank)
      : network_(std::move(network)), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return network_->size(); }

  void exchange(const SendSegment* sends, std::size_t numSends, int to, const RecvSegment* recvs,
                std::size_t numRecvs, int from, int tag) override {
    const PeerExchange one{sends, numSends, to, recvs, numRecvs, from};
    exchangeAll(&one, 1, tag);
  }

  void exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) override {
    for (std::size_t i = 0; i < n; ++i)
      if (exchanges[i].to != kNoPeer) {
        checkPeer(exchanges[i].to);
        std::vector<unsigned char> bytes;
        for (std::size_t k = 0; k < exchanges[i].numSends; ++k) {
          const auto* p = static_cast<const unsigned char*>(exchanges[i].sends[k].data);
          bytes.insert(bytes.end(), p, p + exchanges[i].sends[k].bytes);
        }
        network_->post(rank_, exchanges[i].to, tag, std::move(bytes));
      }
    for (std::size_t i = 0; i < n; ++i)
      if (exchanges[i].from != kNoPeer) {
        checkPeer(exchanges[i].from);
        std::vector<unsigned char> bytes = network_->take(exchanges[i].from, rank_, tag);
        std::size_t expected = 0;
        for (std::size_t k = 0; k < exchanges[i].numRecvs; ++k) expected += exchanges[i].recvs[k].bytes;
        if (bytes.size() != expected)
          throw Error("coll::LocalTransport: rank " + std::to_string(rank_) + " expected " +
                      std::to_string(expected) + " bytes from rank " +
                      std::to_string(exchanges[i].from) + " at step " + std::to_string(tag) +
                      ", got " + std::to_string(bytes.size()));
        std::size_t at = 0;
        for (std::size_t k = 0; k < exchanges[i].numRecvs; ++k) {
          if (exchanges[i].recvs[k].bytes)
            std::memcpy(exchanges[i].recvs[k].data, bytes.data() + at, exchanges[i].recvs[k].bytes);
          at += exchanges[i].recvs[k].bytes;
        }
      }
  }

 private:
  void checkPeer(int peer) const {
    if (peer < 0 || peer >= size())
      throw Error("coll::LocalTransport: rank " + std::to_string(rank_) + " has no peer " +
                  std::to_string(peer) + " among " + std::to_string(size()) + " ranks");
  }

  std::shared_ptr<LocalNetwork> network_;
  int rank_;
};

// Runs body(comm) on P ranks, one thread each, every comm on one
// LocalNetwork; rethrows the first rank's exception after all have ended.
inline void runLocal(int P, const std::function<void(Comm&)>& body,
                     std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  auto network = std::make_shared<LocalNetwork>(P, timeout);
  std::mutex mutex;
  std::exception_ptr first;  // the failure that ended the others' waits
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r)
    threads.emplace_back([&, r] {
      try {
        Comm comm(std::make_unique<LocalTransport>(network, r));
        body(comm);
      } catch (...) {
        {
          std::lock_guard<std::mutex> lock(mutex);
          if (!first) first = std::current_exception();
        }
        network->fail();
      }
    });
  for (std::thread& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace coll
