// Level-synchronous top-down BFS, MPI only: one worker per rank expands its
// share of the frontier; discoveries of remote vertices go to their owners
// through the coalescing exchange, which is polled while expanding.
// (The Graph500 reference "bfs_simple", with coalescing buffers, and the
// sent filter of impl/HT_EdgeScan.hpp.)
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_EdgeScan.hpp"
#include "graph/bfs/impl/HT_QueueBfs.hpp"

namespace ht::impl {

namespace {

class BfsMpi final : public QueueBfs {
 public:
  BfsMpi(const Csr& g, const BfsOptions& opt, TaskRuntime&, MPI_Comm comm)
      : QueueBfs(g, opt, comm), known_(g.range.size > 1 ? g.range.n_global : 0) {}

 private:
  void expand_level(int group, int level) override {
    if (level == 0) known_.clear();
    // The rank is one lane: its record shows the imbalance across ranks.
    TaskRecord record;
    TaskClock clock(profile_, record, profile_.begin_iteration(group, level, 1), 0, 0);
    expand();
    clock.items(static_cast<std::int64_t>(oldq_.size()));
    clock.stop();
    if (profile_.enabled()) {
      profile_.reserve(1);
      profile_.merge(record);
    }
  }

  void expand() {
    const VertexRange& r = g_.range;
    const std::int64_t* const offsets = g_.offsets.data();
    const auto first_time = [this](std::int64_t v) { return known_.set_new(v); };
    const auto local = [this](std::int64_t j, std::int64_t u) { visit(j, u); };
    const auto remote = [this](int owner, std::int64_t v, std::int64_t u) {
      ex_.push(owner, {v, u}, apply_);
    };
    g_.targets.visit([&](const auto* targets) {
      std::size_t since_poll = 0;
      for (const std::int64_t i : oldq_) {
        scan_edges(targets, offsets[i], offsets[i + 1], r.global(i), r, r.size > 1, first_time,
                   local, remote);
        if (r.size > 1 && ++since_poll == 64) {  // take arrivals now and then: peers' sends move
          ex_.poll(apply_);
          since_poll = 0;
        }
      }
    });
  }

  Bitmap known_;  // vertices taken or sent this search (all N; none on one rank)
};

}  // namespace

extern const BfsVariant bfs_mpi{"mpi",
                                "MPI only, one worker per rank (the study's baseline)",
                                BfsWork::single,
                                MPI_THREAD_FUNNELED,
                                BfsReports::time_only,
                                make_variant<BfsMpi>};

}  // namespace ht::impl
