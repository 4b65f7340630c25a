// UCX implementation of coll::Transport (UCP tagged messages) and the
// file bootstrap.

#include "coll/ucx_transport.hpp"

#include "Polling.hpp"

#include <ucp/api/ucp.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

namespace coll {
namespace {

// A message's UCP tag: the step's tag above the sender's rank, so a
// receive names both (UCP matches tags, not sources).
std::uint64_t tagOf(std::uint32_t step, int source) {
  return (std::uint64_t{step} << 32) | static_cast<std::uint32_t>(source);
}
constexpr std::uint64_t kFullMask = ~std::uint64_t{0};
// The barrier's step: user tags are non-negative ints, below it.
constexpr std::uint32_t kBarrierTag = 0xffffffffu;

[[noreturn]] void fail(const std::string& what, ucs_status_t status) {
  throw Error("coll::UcxTransport: " + what + " failed: " + ucs_status_string(status));
}

}  // namespace

FileBootstrap::FileBootstrap(std::string directory, int rank, int size, std::chrono::milliseconds timeout)
    : directory_(std::move(directory)), rank_(rank), size_(size), timeout_(timeout) {
  if (size < 1 || rank < 0 || rank >= size)
    throw Error("coll::FileBootstrap: rank " + std::to_string(rank) + " of " + std::to_string(size));
}

// Rank r's file of kind `what` in the directory.
std::string FileBootstrap::file(int r, const std::string& what) const {
  return directory_ + "/" + std::to_string(r) + "." + what;
}

// Writes this rank's file of `what` holding `mine`, waits for every
// rank's, and returns them by rank.
std::vector<std::string> FileBootstrap::publish(const std::string& what, const std::string& mine,
                                                const std::function<void()>& whileWaiting) {
  auto file = [&](int r) { return this->file(r, what); };
  // Written whole under another name, then renamed: a reader never sees
  // half an address.
  const std::string partial = file(rank_) + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(mine.data(), static_cast<std::streamsize>(mine.size()));
    if (!out.good()) throw Error("coll::FileBootstrap: cannot write '" + partial + "'");
  }
  if (std::rename(partial.c_str(), file(rank_).c_str()) != 0)
    throw Error("coll::FileBootstrap: cannot rename '" + partial + "' to '" + file(rank_) + "'");
  std::vector<std::string> all(static_cast<std::size_t>(size_));
  std::vector<bool> have(static_cast<std::size_t>(size_), false);
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (int missing = size_; missing > 0;) {
    for (int r = 0; r < size_; ++r) {
      if (have[static_cast<std::size_t>(r)]) continue;
      std::ifstream in(file(r), std::ios::binary);
      if (!in) continue;
      std::ostringstream bytes;
      bytes << in.rdbuf();
      all[static_cast<std::size_t>(r)] = bytes.str();
      have[static_cast<std::size_t>(r)] = true;
      --missing;
    }
    if (missing == 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      std::string which;
      for (int r = 0; r < size_; ++r)
        if (!have[static_cast<std::size_t>(r)]) which += (which.empty() ? "" : ", ") + std::to_string(r);
      throw Error("coll::FileBootstrap: no " + what + " file from rank(s) " + which + " in '" + directory_ + "' after " +
                  std::to_string(timeout_.count()) + " ms");
    }
    if (whileWaiting) whileWaiting();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return all;
}

std::vector<std::string> FileBootstrap::allGather(const std::string& mine) {
  return publish("address" + std::to_string(rounds_++), mine, nullptr);
}

void FileBootstrap::barrier(const std::function<void()>& whileWaiting) {
  publish("barrier" + std::to_string(rounds_++), "", whileWaiting);
}

struct UcxTransport::State {
  ucp_context_h context = nullptr;
  ucp_worker_h worker = nullptr;
  std::vector<ucp_ep_h> endpoints;  // by rank
  // One side of a step: a send or a receive, its request while pending.
  struct Operation {
    void* request = nullptr;
    bool receive = false;
    int peer = 0;
    std::size_t expected = 0, got = 0;
    ucs_status_t status = UCS_OK;
    bool done = false;
    bool completed = false;  // a pending receive's callback ran (status, got set)
  };
  std::vector<Operation> operations;
  std::vector<ucp_dt_iov_t> iov;  // the step's scattered segments, never moved while posted
  bool failed = false;  // an exchange timed out: a peer may be dead, nothing is flushed

  ~State() {
    if (!failed) closeEndpoints();
    if (worker) ucp_worker_destroy(worker);
    if (context) ucp_cleanup(context);
  }

  void closeEndpoints() {
    for (ucp_ep_h& ep : endpoints) {
      if (!ep) continue;
      ucp_request_param_t param{};
      param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
      param.flags = 0;  // flush what is in flight, then close (a forced close fails on tcp)
      void* request = ucp_ep_close_nbx(ep, &param);
      if (UCS_PTR_IS_PTR(request)) {
        while (ucp_request_check_status(request) == UCS_INPROGRESS) ucp_worker_progress(worker);
        ucp_request_free(request);
      }
      ep = nullptr;
    }
  }

  // Cancels what is still pending and waits for it (buffers are freed
  // while an exception unwinds).
  void abandon() {
    for (Operation& o : operations)
      if (!o.done && o.request) ucp_request_cancel(worker, o.request);
    for (Operation& o : operations) {
      if (o.done || !o.request) continue;
      while (ucp_request_check_status(o.request) == UCS_INPROGRESS) ucp_worker_progress(worker);
      ucp_request_free(o.request);
      o.done = true;
    }
  }
};

UcxTransport::UcxTransport(std::unique_ptr<UcxBootstrap> bootstrap, std::int64_t timeoutMs)
    : bootstrap_(std::move(bootstrap)), timeoutMs_(timeoutMs), state_(std::make_unique<State>()) {
  if (!bootstrap_) throw Error("coll::UcxTransport: null bootstrap");
  rank_ = bootstrap_->rank();
  size_ = bootstrap_->size();
  ucp_config_t* config = nullptr;
  ucs_status_t status = ucp_config_read(nullptr, nullptr, &config);
  if (status != UCS_OK) fail("ucp_config_read", status);
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES;
  params.features = UCP_FEATURE_TAG;
  status = ucp_init(&params, config, &state_->context);
  ucp_config_release(config);
  if (status != UCS_OK) fail("ucp_init", status);
  ucp_worker_params_t workerParams{};
  workerParams.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  workerParams.thread_mode = UCS_THREAD_MODE_SINGLE;
  status = ucp_worker_create(state_->context, &workerParams, &state_->worker);
  if (status != UCS_OK) fail("ucp_worker_create", status);
  ucp_address_t* address = nullptr;
  std::size_t length = 0;
  status = ucp_worker_get_address(state_->worker, &address, &length);
  if (status != UCS_OK) fail("ucp_worker_get_address", status);
  const std::string mine(reinterpret_cast<const char*>(address), length);
  ucp_worker_release_address(state_->worker, address);
  const std::vector<std::string> all = bootstrap_->allGather(mine);
  state_->endpoints.assign(static_cast<std::size_t>(size_), nullptr);
  for (int r = 0; r < size_; ++r) {
    ucp_ep_params_t ep{};
    ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
    ep.address = reinterpret_cast<const ucp_address_t*>(all[static_cast<std::size_t>(r)].data());
    status = ucp_ep_create(state_->worker, &ep, &state_->endpoints[static_cast<std::size_t>(r)]);
    if (status != UCS_OK) fail("ucp_ep_create to rank " + std::to_string(r), status);
  }
}

UcxTransport::~UcxTransport() {
  // Every rank's last message has arrived once all ranks are here; then
  // the endpoints close with nothing in flight (a flush close over TCP
  // needs the peer's worker to progress: every rank keeps progressing in
  // the bootstrap's barrier), and no rank destroys its worker while
  // another still closes toward it.
  if (state_->failed) return;
  try {
    barrier();
    state_->closeEndpoints();
    ucp_worker_h worker = state_->worker;
    bootstrap_->barrier([worker] { ucp_worker_progress(worker); });
  } catch (...) {
    // A destructor must not throw; the program is ending its use of UCX.
  }
}

void UcxTransport::barrier() {
  // Dissemination: round d, to rank + d and from rank - d.
  for (int d = 1; d < size_; d *= 2) {
    const PeerExchange one{nullptr, 0, (rank_ + d) % size_, nullptr, 0, (rank_ - d + size_) % size_};
    runStep(&one, 1, kBarrierTag);
  }
}

void UcxTransport::exchange(const SendSegment* sends, std::size_t numSends, int to, const RecvSegment* recvs,
                            std::size_t numRecvs, int from, int tag) {
  const PeerExchange one{sends, numSends, to, recvs, numRecvs, from};
  exchangeAll(&one, 1, tag);
}

void UcxTransport::exchangeAll(const PeerExchange* exchanges, std::size_t n, int tag) {
  if (tag < 0) throw Error("coll::UcxTransport: negative tag " + std::to_string(tag));
  runStep(exchanges, n, static_cast<std::uint32_t>(tag));
}

void UcxTransport::runStep(const PeerExchange* exchanges, std::size_t n, std::uint32_t tag) {
  State& s = *state_;
  if (s.failed) throw Error("coll::UcxTransport: unusable since an earlier exchange failed (" + failure_ + ")");
  s.operations.clear();
  s.operations.reserve(2 * n);  // a receive's callback holds its address
  s.iov.clear();
  // Room for every scattered segment first: the lists must not move once
  // a request reads them.
  std::size_t segments = 0;
  for (std::size_t e = 0; e < n; ++e) {
    if (exchanges[e].to != kNoPeer && exchanges[e].numSends > 1) segments += exchanges[e].numSends;
    if (exchanges[e].from != kNoPeer && exchanges[e].numRecvs > 1) segments += exchanges[e].numRecvs;
  }
  s.iov.reserve(segments);
  // One side's buffer as UCP takes it: one run as bytes, several as an
  // I/O vector.
  auto describe = [&](const auto* segs, std::size_t count, ucp_request_param_t& param, void*& buffer,
                      std::size_t& length, std::size_t& bytes) {
    param.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
    bytes = 0;
    for (std::size_t i = 0; i < count; ++i) bytes += segs[i].bytes;
    if (count <= 1) {
      param.datatype = ucp_dt_make_contig(1);
      buffer = count ? const_cast<void*>(static_cast<const void*>(segs[0].data)) : nullptr;
      length = bytes;
      return;
    }
    param.datatype = ucp_dt_make_iov();
    buffer = s.iov.data() + s.iov.size();
    for (std::size_t i = 0; i < count; ++i)
      s.iov.push_back({const_cast<void*>(static_cast<const void*>(segs[i].data)), segs[i].bytes});
    length = count;
  };
  auto posted = [&](ucs_status_ptr_t request, State::Operation& o, const char* what) {
    if (UCS_PTR_IS_ERR(request)) {
      s.abandon();
      fail(std::string(what) + (o.receive ? " from" : " to") + " rank " + std::to_string(o.peer),
           UCS_PTR_STATUS(request));
    }
    o.request = request;
    o.done = request == nullptr;
  };
  // Receives first, so what arrives can land in place.
  for (std::size_t e = 0; e < n; ++e) {
    const PeerExchange& x = exchanges[e];
    if (x.from == kNoPeer) continue;
    State::Operation& o = s.operations.emplace_back();
    o.receive = true;
    o.peer = x.from;
    ucp_request_param_t param{};
    // The size arrives with the completion, through the callback: UCX 1.13
    // left recv_info empty on an immediate completion here (so none is
    // allowed) and ucp_tag_recv_request_test's info at 0 after one.
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
    param.cb.recv = [](void*, ucs_status_t status, const ucp_tag_recv_info_t* info, void* user) {
      auto* op = static_cast<State::Operation*>(user);
      op->status = status;
      op->got = info ? info->length : 0;
      op->completed = true;
    };
    param.user_data = &o;
    void* buffer = nullptr;
    std::size_t length = 0;
    describe(x.recvs, x.numRecvs, param, buffer, length, o.expected);
    posted(ucp_tag_recv_nbx(s.worker, buffer, length, tagOf(tag, x.from), kFullMask, &param), o,
           "ucp_tag_recv_nbx");
  }
  for (std::size_t e = 0; e < n; ++e) {
    const PeerExchange& x = exchanges[e];
    if (x.to == kNoPeer) continue;
    State::Operation& o = s.operations.emplace_back();
    o.peer = x.to;
    ucp_request_param_t param{};
    void* buffer = nullptr;
    std::size_t length = 0, bytes = 0;
    describe(x.sends, x.numSends, param, buffer, length, bytes);
    posted(ucp_tag_send_nbx(s.endpoints[static_cast<std::size_t>(x.to)], buffer, length, tagOf(tag, rank_), &param),
           o, "ucp_tag_send_nbx");
  }
  // Progress until every side is complete.
  detail::Poller poller(timeoutMs_);
  for (;;) {
    bool done = true;
    for (State::Operation& o : s.operations) {
      if (o.done) continue;
      if (o.receive) {
        o.status = o.completed ? o.status : UCS_INPROGRESS;
      } else {
        o.status = ucp_request_check_status(o.request);
      }
      if (o.status == UCS_INPROGRESS) {
        done = false;
        continue;
      }
      ucp_request_free(o.request);
      o.request = nullptr;
      o.done = true;
    }
    if (done) break;
    if (poller.after(ucp_worker_progress(s.worker) != 0)) timedOut(tag);
  }
  // A failure, or a message of another size: the two sides disagree.
  for (const State::Operation& o : s.operations) {
    if (o.receive && o.status == UCS_ERR_MESSAGE_TRUNCATED)
      throw Error("coll::UcxTransport: expected " + std::to_string(o.expected) + " bytes from rank " +
                  std::to_string(o.peer) + " (tag " + std::to_string(tag) + "), got more");
    if (o.status != UCS_OK)
      fail(std::string(o.receive ? "a receive from" : "a send to") + " rank " + std::to_string(o.peer), o.status);
    if (o.receive && o.got != o.expected)
      throw Error("coll::UcxTransport: expected " + std::to_string(o.expected) + " bytes from rank " +
                  std::to_string(o.peer) + " (tag " + std::to_string(tag) + "), got " + std::to_string(o.got));
  }
}

void UcxTransport::timedOut(std::uint32_t tag) {
  // The step's pending receives are cancelled; nothing waits for them or
  // for the sends (a send to a dead rank never completes): their requests
  // are released, to be freed by UCX if they ever end. The operations
  // their callbacks write stay with the State, which no later step
  // reuses.
  State& s = *state_;
  std::vector<int> silent, full;
  for (State::Operation& o : s.operations) {
    if (o.done) continue;
    (o.receive ? silent : full).push_back(o.peer);
    if (o.receive) ucp_request_cancel(s.worker, o.request);
    ucp_request_free(o.request);
    o.request = nullptr;
    o.done = true;
  }
  s.failed = true;
  failure_ = detail::waitedTooLong(rank_, timeoutMs_, static_cast<int>(tag), silent, full);
  throw Error("coll::UcxTransport: " + failure_);
}

}  // namespace coll
