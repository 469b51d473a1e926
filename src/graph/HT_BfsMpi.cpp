// Level-synchronous top-down BFS, MPI only: one worker per rank expands its
// share of the frontier; discoveries of remote vertices go to their owners
// through the coalescing exchange, which is polled while expanding.
// (The Graph500 reference "bfs_simple", with coalescing buffers.)
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
        q_(g.range.local_count()) {}

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = g_.range;
    res_.reset(r.local_count());
    q_.restart(r, root, res_.pred);

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
    std::vector<std::int64_t>& newq = q_.newq;
    const bool peers = r.size > 1;
    std::size_t since_poll = 0;
    for (const std::int64_t i : q_.oldq) {
      const std::int64_t u = first + i;
      for (std::int64_t k = offsets[i], k_end = offsets[i + 1]; k < k_end; ++k) {
        const std::int64_t v = targets[k];
        if (v >= first && v < end) {
          const std::int64_t j = v - first;
          const std::uint64_t bit = std::uint64_t(1) << (j & 63);
          if (!(bits[j >> 6] & bit)) {
            bits[j >> 6] |= bit;
            parent[j] = u;
            newq.push_back(j);
          }
        } else {
          ex_.push(r.owner(v), {v, u}, visit_remote);
        }
      }
      if (peers && ++since_poll == 64) {  // take arrivals now and then: keeps peers' sends moving
        ex_.poll(visit_remote);
        since_poll = 0;
      }
    }
  }

  const Csr& g_;
  MPI_Comm comm_;
  Profile& profile_;
  int searches_ = 0;
  Exchange ex_;
  BfsResult res_;
  LevelQueues q_;
};

}  // namespace

std::unique_ptr<Bfs> make_bfs_mpi(const Csr& g, const BfsOptions& opt, TaskRuntime&,
                                  MPI_Comm comm) {
  return std::make_unique<BfsMpi>(g, opt, comm);
}

}  // namespace ht::impl
