#pragma once
/// \file HT_GraphPlan.hpp
/// \brief The replay structure of an ht::TaskGraph on one rank (built by
/// instantiate) and the workers that run it.  Internal: see HT_TaskGraph.hpp.
///
/// Local nodes are numbered in topological order.  Per replay, every local
/// node is pushed once onto a queue of fixed capacity (an array with atomic
/// ends), so the queue needs no allocation and no node is lost; a worker keeps
/// one newly ready successor for itself (the next link of a chain stays in its
/// cache) and pushes the others.  Receives are polled in a window ordered by
/// their producers' depth in the graph, so a poll tests a few requests, not
/// all of them, and the shallowest message a node can be waiting for is
/// always inside it; receives are started a few ahead of that window.
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "comm/HT_OneCaller.hpp"
#include "comm/HT_TaskGraph.hpp"

namespace ht::impl {

/// A fixed-capacity multi-producer multi-consumer queue of node indices in
/// which every index is pushed at most once between two reset()s.
class OnceQueue {
 public:
  void resize(std::size_t n);
  /// Empties it; only while no thread uses it.
  void reset();
  void push(int v) {
    const long t = tail_.fetch_add(1, std::memory_order_acq_rel);
    slot_[t].store(v, std::memory_order_release);
  }
  /// An index, or -1 when none is ready now.
  int pop();
  bool empty() const {
    return head_.load(std::memory_order_acquire) >= tail_.load(std::memory_order_acquire);
  }

 private:
  std::unique_ptr<std::atomic<int>[]> slot_;
  std::size_t capacity_ = 0;
  alignas(64) std::atomic<long> head_{0};
  alignas(64) std::atomic<long> tail_{0};
};

/// A cache line of outputs: node outputs start on their own line, so that two
/// workers writing two outputs never share one.
struct alignas(64) Line {
  std::byte b[64];
};

struct GraphPlan {
  MPI_Comm comm = MPI_COMM_NULL;
  // Local nodes, in topological order.
  std::vector<long> id;
  std::vector<NodeBody> body;
  std::vector<int> indegree;  // local producers + remote ones
  std::unique_ptr<std::atomic<int>[]> pending;
  std::vector<Line> outputs;  // local outputs, then remote producers' copies
  std::vector<std::byte*> output;
  std::vector<std::size_t> output_bytes;
  std::vector<int> in_begin;  // CSR: inputs of local node v
  std::vector<const std::byte*> in_ptr;
  std::vector<std::size_t> in_bytes;
  std::vector<int> succ_begin, succ;     // CSR: local successors
  std::vector<int> send_begin, send_of;  // CSR: sends of v
  std::vector<int> sources;              // nodes with no producer
  /// One message: its buffer, its size, the peer, the tag.
  struct Message {
    std::byte* buffer;
    int bytes, peer, tag;
  };
  RemoteEdges how = RemoteEdges::messages;
  std::vector<Message> send_msg, recv_msg;  // recvs ordered by producer depth
  std::vector<MPI_Request> sends, recvs;    // persistent, or posted per replay
  std::vector<int> recv_begin, recv_succ;   // CSR: local consumers of a recv

  // Replay state.  What every worker writes sits on a line of its own: the
  // idle workers' turn-taking must not evict the counter all of them read.
  OnceQueue ready;
  OnceQueue started;                           // sends to start
  std::vector<char> received;                  // per receive, seen this replay (under mpi)
  alignas(64) std::atomic<long> remaining{0};  // local nodes + receives not yet seen
  alignas(64) OneCaller mpi;
  std::size_t window = 0;  // first receive not yet seen (under mpi)
  std::size_t posted = 0;  // receives started this replay (under mpi)
  alignas(64) long replay = 0;

  ~GraphPlan();
  /// Makes the persistent requests (RemoteEdges::persistent); the messages
  /// are known.
  void init_persistent();
  /// Resets the counters and queues and starts the receives (host, between
  /// replays).
  void begin(long replay_index);
  /// A worker's loop: runs ready nodes until this rank's part is done.
  void work(int worker);
  /// Starts the sends still queued and waits for all (host, after the
  /// workers).
  void end();
  /// Receives tested per poll, and started ahead of the first one not seen:
  /// a message that comes earlier waits in MPI's unexpected queue, while
  /// thousands of receives started at once cost a replay ~0.2 us each and
  /// lengthen MPI's matching.
  static constexpr std::size_t kWindow = 4, kPosted = 16;

 private:
  /// Runs \p v and counts down its successors; returns one that became ready,
  /// or -1.
  int run(int v, int worker);
  /// One successor's counter down; true when it reached zero.
  bool count_down(int s) {
    if (pending[s].fetch_sub(1, std::memory_order_acq_rel) != 1) return false;
    pending[s].store(indegree[s], std::memory_order_relaxed);  // for the next replay
    return true;
  }
  /// Starts queued sends and takes in completed receives, if no other thread
  /// is at it; true when it found something to do.
  bool poll();
  void start_send(int r);
  /// Starts receives [posted, upto).
  void start_recvs(std::size_t upto);
  bool messages_ = false;  // whether this rank sends or receives at all
};

}  // namespace ht::impl
