#pragma once
// The UCX transport: collc's messages over UCP tagged messaging (UCX's
// shared memory, TCP, InfiniBand, ... as UCX_TLS allows), one UCP context
// and worker per transport, so two transports' messages never meet.
//
// The ranks learn each other's worker addresses through a bootstrap: over
// MPI (coll::mpiBootstrap in coll/mpi_transport.hpp, or COLLC_TRANSPORT=ucx
// for every Comm{MPI_Comm}), or, for programs without MPI, through a
// directory every rank can read (coll::FileBootstrap). This header needs
// neither MPI nor UCX's headers.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "coll/transport.hpp"

namespace coll {

// How the ranks of a UcxTransport exchange their worker addresses before
// the first message.
class UcxBootstrap {
 public:
  virtual ~UcxBootstrap() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `mine`, by rank (collective).
  virtual std::vector<std::string> allGather(const std::string& mine) = 0;
  // Returns once every rank has called it (collective), calling
  // `whileWaiting` as it waits (the transport's progress: a peer may need
  // it to finish closing its endpoint to this rank).
  virtual void barrier(const std::function<void()>& whileWaiting) = 0;
};

// A bootstrap through files: for its k-th call rank r writes
// DIRECTORY/r.address<k> (or r.barrier<k>) and waits (at most `timeout`)
// until every rank's file is there. The directory must exist, be shared by
// the ranks (one machine, or a shared file system) and be used by one job
// only; the files stay (remove the directory after the job).
class FileBootstrap final : public UcxBootstrap {
 public:
  FileBootstrap(std::string directory, int rank, int size,
                std::chrono::milliseconds timeout = std::chrono::seconds(60));
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> allGather(const std::string& mine) override;
  void barrier(const std::function<void()>& whileWaiting) override;

 private:
  std::string file(int rank, const std::string& what) const;
  std::vector<std::string> publish(const std::string& what, const std::string& mine,
                                   const std::function<void()>& whileWaiting);
  std::string directory_;
  int rank_, size_;
  std::chrono::milliseconds timeout_;
  int rounds_ = 0;
};

class UcxTransport final : public Transport {
 public:
  // Collective over the bootstrap's ranks: makes a UCP context and worker
  // (UCX's configuration from the environment, e.g. UCX_TLS), exchanges
  // worker addresses and connects to every rank. An exchange that waits
  // `timeoutMs` without progress (0: no limit) throws a coll::Error
  // naming the peers not heard from, and the transport is not used again
  // (docs/robustness.md, "Waits have a limit").
  explicit UcxTransport(std::unique_ptr<UcxBootstrap> bootstrap, std::int64_t timeoutMs = 0);
  // Collective: waits for every rank (so no message is in flight), closes
  // the endpoints, waits again (through the bootstrap) and closes the
  // worker. After a failed exchange it does nothing collective (a peer
  // may be dead): the worker goes with its endpoints unflushed.
  ~UcxTransport() override;
  UcxTransport(const UcxTransport&) = delete;
  UcxTransport& operator=(const UcxTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void exchange(const SendSegment* sends, std::size_t numSends, int to, const RecvSegment* recvs,
                std::size_t numRecvs, int from, int tag) override;
  void exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) override;

 private:
  struct State;  // UCX's handles and a step's requests (UcxTransport.cpp)
  void barrier();
  void runStep(const PeerExchange* exchanges, std::size_t n, std::uint32_t tag);
  [[noreturn]] void timedOut(std::uint32_t tag);
  std::unique_ptr<UcxBootstrap> bootstrap_;
  int rank_ = 0, size_ = 1;
  std::int64_t timeoutMs_ = 0;
  std::string failure_;  // why an exchange failed (then the transport refuses more)
  std::unique_ptr<State> state_;
};

}  // namespace coll
