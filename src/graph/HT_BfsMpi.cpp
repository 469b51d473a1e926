// Level-synchronous top-down BFS, MPI only: one worker per rank expands its
// share of the frontier; discoveries of remote vertices go to their owners
// through the coalescing exchange, which is polled while expanding.
// (The Graph500 reference "bfs_simple", with coalescing buffers.)
// A remote vertex is sent at most once per search: its owner marks it
// visited in the level it first arrives, so any later find of it is moot.
// On two ranks half the edges are remote and most of them lead to vertices
// already found: without this filter every remote edge cost a 16-byte item
// sent, received and rejected, and two ranks were slower than one.
#include "comm/HT_Exchange.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
#include "graph/impl/HT_LevelQueues.hpp"
#include "profile/HT_Profile.hpp"

namespace ht::impl {

namespace {

class BfsMpi final : public Bfs {
 public:
  BfsMpi(const Csr& g, const BfsOptions& opt, MPI_Comm comm)
      : g_(g),
        comm_(comm),
        profile_(profile_of(opt)),
        ex_(comm, opt.buffer_items),
        q_(g.range.local_count()),
        known_(g.range.size > 1 ? static_cast<std::size_t>((g.range.n_global + 63) / 64) : 0) {}

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = g_.range;
    res_.reset(r.local_count());
    q_.restart(r, root, res_.pred);
    std::fill(known_.begin(), known_.end(), 0);

    const Exchange::Handler visit_remote = [this](const Exchange::Item* items, std::size_t n) {
      for (std::size_t k = 0; k < n; ++k)
        q_.visit(g_.range.local(items[k].vertex), items[k].parent, res_.pred);
    };
    const int group = searches_++;
    for (int level = 0;; ++level) {
      ex_.begin_level(level);
      // The rank is one lane: its record shows the imbalance across ranks.
      TaskRecord record;
      TaskClock clock(profile_, record, profile_.begin_iteration(group, level, 1), 0, 0);
      expand(visit_remote);
      clock.items(static_cast<std::int64_t>(q_.oldq.size()));
      clock.stop();
      if (profile_.enabled()) {
        profile_.reserve(1);
        profile_.merge(record);
      }
      ex_.end_level(visit_remote);
      if (!next_level(res_, ex_, static_cast<std::int64_t>(q_.newq.size()), comm_)) break;
      q_.advance();
    }
    return res_;
  }

 private:
  void expand(const Exchange::Handler& visit_remote) {
    // Locals, not members: the stores into pred and seen could alias them
    // and force a reload per edge.
    const VertexRange& r = g_.range;
    const std::int64_t first = r.first(), end = first + r.local_count();
    const std::int64_t* const offsets = g_.offsets.data();
    const std::int64_t* const targets = g_.targets.data();
    std::int64_t* const parent = res_.pred.data();
    std::uint64_t* const bits = q_.seen.data();
    std::uint64_t* const known = known_.data();
    std::vector<std::int64_t>& newq = q_.newq;
    const bool peers = r.size > 1;
    std::size_t since_poll = 0;
    for (const std::int64_t i : q_.oldq) {
      const std::int64_t u = first + i;
      const std::int64_t k_begin = offsets[i], k_end = offsets[i + 1];
      if (!peers) {
        for (std::int64_t k = k_begin; k < k_end; ++k)
          visit(targets[k] - first, u, bits, parent, newq);
        continue;
      }
      for (std::int64_t k = k_begin; k < k_end; ++k) {
        // Local or remote is a coin toss per edge on two ranks; one bitmap
        // over all vertices, set for every vertex this rank took or sent,
        // leaves that branch to new vertices only.
        const std::int64_t v = targets[k];
        if (test_and_set(known, v)) continue;
        if (v >= first && v < end)
          visit(v - first, u, bits, parent, newq);
        else
          ex_.push(r.owner(v), {v, u}, visit_remote);
      }
      if (++since_poll == 64) {  // take arrivals now and then: keeps peers' sends moving
        ex_.poll(visit_remote);
        since_poll = 0;
      }
    }
  }

  static void visit(std::int64_t j, std::int64_t u, std::uint64_t* bits, std::int64_t* parent,
                    std::vector<std::int64_t>& newq) {
    if (test_and_set(bits, j)) return;
    parent[j] = u;
    newq.push_back(j);
  }

  const Csr& g_;
  MPI_Comm comm_;
  Profile& profile_;
  int searches_ = 0;
  Exchange ex_;
  BfsResult res_;
  LevelQueues q_;
  // Vertices taken or sent this search, one bit each (all N; none on one rank).
  std::vector<std::uint64_t> known_;
};

}  // namespace

std::unique_ptr<Bfs> make_bfs_mpi(const Csr& g, const BfsOptions& opt, TaskRuntime&,
                                  MPI_Comm comm) {
  return std::make_unique<BfsMpi>(g, opt, comm);
}

}  // namespace ht::impl
