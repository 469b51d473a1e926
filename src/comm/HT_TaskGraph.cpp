#include "comm/HT_TaskGraph.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "comm/HT_Wait.hpp"
#include "comm/impl/HT_GraphPlan.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

std::string edge_name(long from, long to) {
  return "TaskGraph: edge " + std::to_string(from) + " -> " + std::to_string(to);
}

/// A worker of one replay: runs the plan's ready nodes until its part is done.
struct Worker {
  using value_type = void;
  impl::GraphPlan* plan;
  void operator()(TaskMember&) { plan->work(TaskRuntime::worker()); }
};

/// Topological order of the whole graph and each node's depth (longest path
/// from a source); a cycle is refused with its nodes quoted.
void order(const std::vector<std::vector<long>>& preds, std::vector<long>& topo,
           std::vector<long>& depth) {
  const long n = static_cast<long>(preds.size());
  std::vector<long> left(n), succ_begin(n + 1, 0), succ;
  for (long v = 0; v < n; ++v) {
    left[v] = static_cast<long>(preds[v].size());
    for (long p : preds[v]) ++succ_begin[p + 1];
  }
  for (long v = 0; v < n; ++v) succ_begin[v + 1] += succ_begin[v];
  succ.resize(static_cast<std::size_t>(succ_begin[n]));
  std::vector<long> fill(succ_begin.begin(), succ_begin.end() - 1);
  for (long v = 0; v < n; ++v)
    for (long p : preds[v]) succ[fill[p]++] = v;
  topo.clear();
  depth.assign(n, 0);
  for (long v = 0; v < n; ++v)
    if (left[v] == 0) topo.push_back(v);
  for (std::size_t i = 0; i < topo.size(); ++i) {
    const long v = topo[i];
    for (long k = succ_begin[v]; k < succ_begin[v + 1]; ++k) {
      const long s = succ[k];
      depth[s] = std::max(depth[s], depth[v] + 1);
      if (--left[s] == 0) topo.push_back(s);
    }
  }
  if (static_cast<long>(topo.size()) == n) return;
  // Every node left waits on another one left: walk back until a node repeats.
  long v = 0;
  while (left[v] == 0) ++v;
  std::vector<long> seen(n, -1), path;
  while (seen[v] < 0) {
    seen[v] = static_cast<long>(path.size());
    path.push_back(v);
    v = *std::find_if(preds[v].begin(), preds[v].end(), [&](long p) { return left[p] > 0; });
  }
  std::string cycle = std::to_string(v);
  for (long i = static_cast<long>(path.size()) - 1; i >= seen[v]; --i)
    cycle += " -> " + std::to_string(path[i]);
  throw UsageError("TaskGraph: a cycle, " + cycle + ": a task graph must be acyclic");
}

/// A hash of the declared structure, for checking that the ranks agree.
std::uint64_t fingerprint(const std::vector<int>& owner, const std::vector<std::size_t>& bytes,
                          const std::vector<std::vector<long>>& preds) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 1099511628211ull; };
  for (std::size_t v = 0; v < owner.size(); ++v) {
    mix(static_cast<std::uint64_t>(owner[v]));
    mix(bytes[v]);
    for (long p : preds[v]) mix(static_cast<std::uint64_t>(p) + 0x9e3779b97f4a7c15ull);
    mix(0xffffffffull);
  }
  return h;
}

std::size_t lines(std::size_t bytes) {
  return (bytes + sizeof(impl::Line) - 1) / sizeof(impl::Line);
}

// The declared graph, as instantiate() reads it.
struct Declared {
  const std::vector<int>& owner;
  const std::vector<std::size_t>& bytes;
  const std::vector<std::vector<long>>& preds;
  int rank, ranks;
  long size() const { return static_cast<long>(owner.size()); }
};

// Where this rank's plan puts things, found step by step by instantiate().
struct Layout {
  std::vector<int> local;                      // per node: its index on this rank, or -1
  std::vector<std::pair<long, long>> recv_of;  // (depth, producer): a receive each
  std::vector<std::pair<int, long>> send_to;   // (rank, producer): a send each
  std::vector<int> recv_index;                 // per node: its receive, or -1
  std::vector<std::size_t> at;                 // output lines: local nodes, then receives
  std::byte* base = nullptr;                   // the plan's outputs
  std::byte* line(std::size_t slot) const { return base + at[slot] * sizeof(impl::Line); }
};

// Flattens per-item lists into begin offsets and one array.
void flatten(const std::vector<std::vector<int>>& lists, std::vector<int>& begin,
             std::vector<int>& flat) {
  begin.assign(1, 0);
  for (const auto& l : lists) {
    flat.insert(flat.end(), l.begin(), l.end());
    begin.push_back(static_cast<int>(flat.size()));
  }
}

// This rank's nodes, in topological order: their local index.
void number_local_nodes(const Declared& d, const std::vector<long>& topo, impl::GraphPlan& p,
                        Layout& l) {
  l.local.assign(static_cast<std::size_t>(d.size()), -1);
  for (long v : topo)
    if (d.owner[v] == d.rank) {
      l.local[v] = static_cast<int>(p.id.size());
      p.id.push_back(v);
    }
}

// Remote producers with a consumer here (one receive each, shallowest
// first), and this rank's producers with a consumer on another rank (one
// send per producer and rank).
void find_remote_edges(const Declared& d, const std::vector<long>& depth, Layout& l) {
  for (long v = 0; v < d.size(); ++v)
    for (long q : d.preds[v]) {
      if (d.owner[v] == d.rank && d.owner[q] != d.rank) l.recv_of.emplace_back(depth[q], q);
      if (d.owner[v] != d.rank && d.owner[q] == d.rank) l.send_to.emplace_back(d.owner[v], q);
    }
  std::sort(l.recv_of.begin(), l.recv_of.end());
  l.recv_of.erase(std::unique(l.recv_of.begin(), l.recv_of.end()), l.recv_of.end());
  std::sort(l.send_to.begin(), l.send_to.end());
  l.send_to.erase(std::unique(l.send_to.begin(), l.send_to.end()), l.send_to.end());
  l.recv_index.assign(static_cast<std::size_t>(d.size()), -1);
  for (std::size_t r = 0; r < l.recv_of.size(); ++r)
    l.recv_index[l.recv_of[r].second] = static_cast<int>(r);
}

// Outputs: this rank's nodes, then copies of the remote producers' outputs.
void lay_out_outputs(const Declared& d, impl::GraphPlan& p, Layout& l) {
  const std::size_t nl = p.id.size();
  l.at.resize(nl + l.recv_of.size());
  std::size_t total = 0;
  for (std::size_t v = 0; v < nl; ++v)
    l.at[v] = std::exchange(total, total + lines(d.bytes[p.id[v]]));
  for (std::size_t r = 0; r < l.recv_of.size(); ++r)
    l.at[nl + r] = std::exchange(total, total + lines(d.bytes[l.recv_of[r].second]));
  p.outputs.resize(total + 1);
  l.base = reinterpret_cast<std::byte*>(p.outputs.data());
  for (std::size_t v = 0; v < nl; ++v) {
    p.output.push_back(l.line(v));
    p.output_bytes.push_back(d.bytes[p.id[v]]);
  }
}

// Inputs, local successors, receives' consumers, the dependency counters.
void link_inputs(const Declared& d, impl::GraphPlan& p, const Layout& l) {
  const int nl = static_cast<int>(p.id.size());
  p.in_begin.assign(1, 0);
  std::vector<std::vector<int>> succ(nl), recv_succ(l.recv_of.size());
  p.indegree.assign(nl, 0);
  for (int v = 0; v < nl; ++v) {
    const long g = p.id[v];
    for (long q : d.preds[g]) {
      const bool here = d.owner[q] == d.rank;
      const std::size_t slot = here ? l.local[q] : nl + l.recv_index[q];
      p.in_ptr.push_back(l.line(slot));
      p.in_bytes.push_back(d.bytes[q]);
      (here ? succ[l.local[q]] : recv_succ[l.recv_index[q]]).push_back(v);
    }
    p.indegree[v] = static_cast<int>(d.preds[g].size());
    p.in_begin.push_back(static_cast<int>(p.in_ptr.size()));
    if (d.preds[g].empty()) p.sources.push_back(v);
  }
  flatten(succ, p.succ_begin, p.succ);
  flatten(recv_succ, p.recv_begin, p.recv_succ);
  p.pending = std::make_unique<std::atomic<int>[]>(static_cast<std::size_t>(std::max(nl, 1)));
  for (int v = 0; v < nl; ++v) p.pending[v].store(p.indegree[v]);
  p.ready.resize(static_cast<std::size_t>(nl));
}

// Sends and receives, with their tags: a message's rank among the producers
// one rank sends to another, in id order, which both ends compute alike
// (check_tags: they fit).
void number_messages(const Declared& d, impl::GraphPlan& p, const Layout& l) {
  std::vector<std::vector<int>> sends_of(p.id.size());
  std::vector<int> to_rank(static_cast<std::size_t>(d.ranks), 0);
  for (const auto& [to, q] : l.send_to) {  // sorted by rank, then producer id
    sends_of[l.local[q]].push_back(static_cast<int>(p.send_msg.size()));
    p.send_msg.push_back({p.output[l.local[q]], static_cast<int>(d.bytes[q]), to, to_rank[to]++});
  }
  flatten(sends_of, p.send_begin, p.send_of);
  // Receives: the same ordinal, from the producer's side.
  std::vector<int> from_rank(static_cast<std::size_t>(d.ranks), 0);
  std::vector<int> recv_tag(l.recv_of.size());
  for (long q = 0; q < d.size(); ++q)
    if (l.recv_index[q] >= 0) recv_tag[l.recv_index[q]] = from_rank[d.owner[q]]++;
  for (std::size_t r = 0; r < l.recv_of.size(); ++r) {
    const long q = l.recv_of[r].second;
    p.recv_msg.push_back(
        {l.line(p.id.size() + r), static_cast<int>(d.bytes[q]), d.owner[q], recv_tag[r]});
  }
  p.sends.assign(p.send_msg.size(), MPI_REQUEST_NULL);
  p.recvs.assign(p.recv_msg.size(), MPI_REQUEST_NULL);
  p.started.resize(p.sends.size());
  p.received.assign(l.recv_of.size(), 0);
}

}  // namespace

TaskGraph::TaskGraph(MPI_Comm comm, RemoteEdges how) : how_(how) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &ranks_);
}

TaskGraph::~TaskGraph() {
  plan_.reset();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

long TaskGraph::add_node(int owner, std::size_t output_bytes, NodeBody body) {
  const long v = size();
  if (plan_)
    throw UsageError("TaskGraph: node " + std::to_string(v) + " added after instantiate()");
  if (owner < 0 || owner >= ranks_)
    throw UsageError("TaskGraph: node " + std::to_string(v) + ": owner " + std::to_string(owner) +
                     " is not a rank (0 to " + std::to_string(ranks_ - 1) + ")");
  if (output_bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw UsageError("TaskGraph: node " + std::to_string(v) + ": output of " +
                     std::to_string(output_bytes) + " bytes: at most 2^31 - 1");
  if (owner == rank_ && !body)
    throw UsageError("TaskGraph: node " + std::to_string(v) + " has no body");
  owner_.push_back(owner);
  bytes_.push_back(output_bytes);
  preds_.emplace_back();
  body_.push_back(owner == rank_ ? std::move(body) : NodeBody());
  return v;
}

void TaskGraph::add_edge(long from, long to) {
  if (plan_) throw UsageError(edge_name(from, to) + " added after instantiate()");
  for (long v : {from, to})
    if (v < 0 || v >= size())
      throw UsageError(edge_name(from, to) + ": node " + std::to_string(v) +
                       " does not exist (nodes are 0 to " + std::to_string(size() - 1) + ")");
  auto& p = preds_[to];
  if (std::find(p.begin(), p.end(), from) != p.end())
    throw UsageError(edge_name(from, to) + " is given twice");
  p.push_back(from);
}

long TaskGraph::local_size() const { return plan_ ? static_cast<long>(plan_->id.size()) : 0; }
long TaskGraph::sends() const { return plan_ ? static_cast<long>(plan_->sends.size()) : 0; }

std::size_t TaskGraph::pool_bytes() { return TaskRuntime::pool_bytes_for<Worker>(256); }

void TaskGraph::check_tags() const {
  // (producer, consumer rank) once each, then how many a pair of ranks has.
  std::vector<std::pair<long, int>> out;
  for (long v = 0; v < size(); ++v)
    for (long q : preds_[v])
      if (owner_[q] != owner_[v]) out.emplace_back(q, owner_[v]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  std::vector<std::pair<long long, long>> pair;  // (from * ranks + to, producer)
  for (const auto& [q, to] : out)
    pair.emplace_back(static_cast<long long>(owner_[q]) * ranks_ + to, q);
  std::sort(pair.begin(), pair.end());
  int* tag_ub = nullptr;
  int has_ub = 0;
  MPI_Comm_get_attr(comm_, MPI_TAG_UB, &tag_ub, &has_ub);
  const long max_tag = has_ub ? *tag_ub : 32767;
  for (std::size_t i = 0, run = 0; i < pair.size(); ++i) {
    run = i > 0 && pair[i].first == pair[i - 1].first ? run + 1 : 0;
    if (static_cast<long>(run) > max_tag)
      throw UsageError("TaskGraph: node " + std::to_string(pair[i].second) +
                       ": more messages from rank " + std::to_string(owner_[pair[i].second]) +
                       " to one rank than MPI's tags allow (" + std::to_string(max_tag) + ")");
  }
}

void TaskGraph::check_agreement() const {
  // Every rank checks the same graph, so all refuse it together: first they
  // must agree that they declared the same one (node and edge counts exactly,
  // the structure by hash).
  const long n = size();
  long long edges = 0;
  for (const auto& p : preds_) edges += static_cast<long long>(p.size());
  const auto h = static_cast<long long>(fingerprint(owner_, bytes_, preds_) >> 2);
  long long agree[6] = {h, -h, n, -n, edges, -edges};
  all_reduce(agree, 6, MPI_MAX, comm_);
  for (int k = 0; k < 6; k += 2)
    if (agree[k] != -agree[k + 1])
      throw UsageError("TaskGraph: the ranks declared different graphs (" + std::to_string(n) +
                       " nodes and " + std::to_string(edges) + " edges here on rank " +
                       std::to_string(rank_) + ")");
}

void TaskGraph::instantiate() {
  if (plan_) throw UsageError("TaskGraph: instantiate() called twice");
  check_agreement();
  std::vector<long> topo, depth;
  order(preds_, topo, depth);
  check_tags();

  const Declared d{owner_, bytes_, preds_, rank_, ranks_};
  auto plan = std::make_unique<impl::GraphPlan>();
  impl::GraphPlan& p = *plan;
  p.comm = comm_;
  p.how = how_;
  Layout l;
  number_local_nodes(d, topo, p, l);
  find_remote_edges(d, depth, l);
  lay_out_outputs(d, p, l);
  link_inputs(d, p, l);
  number_messages(d, p, l);
  p.body.resize(p.id.size());
  for (std::size_t v = 0; v < p.id.size(); ++v) p.body[v] = std::move(body_[p.id[v]]);
  if (how_ == RemoteEdges::persistent) p.init_persistent();
  plan_ = std::move(plan);
  // The declaration is no longer needed: keep the node count only.
  preds_ = {};
  bytes_ = {};
  body_ = {};
}

void TaskGraph::replay(TaskRuntime& rt, int times) {
  if (!plan_) throw UsageError("TaskGraph: replay() before instantiate()");
  const int workers = Kokkos::DefaultHostExecutionSpace().concurrency();
  for (int t = 0; t < times; ++t) {
    plan_->begin(replays_);
    for (int w = 0; w < workers; ++w) rt.spawn(Worker{plan_.get()});
    rt.wait();
    plan_->end();
    ++replays_;
  }
}

}  // namespace ht
