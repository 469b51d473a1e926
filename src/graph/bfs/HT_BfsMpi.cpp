// Level-synchronous top-down BFS, MPI only: one worker per rank expands its
// share of the frontier; discoveries of remote vertices go to their owners
// through the coalescing exchange, which is polled while expanding.
// (The Graph500 reference "bfs_simple", with coalescing buffers, and the
// sent filter of impl/HT_ChunkedSearch.hpp.)
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_QueueSearch.hpp"

namespace ht::impl {

namespace {

class BfsMpi final : public Bfs {
 public:
  BfsMpi(const Csr& g, const BfsOptions& opt, TaskRuntime&, MPI_Comm comm)
      : s_(g, opt, comm), known_(g.range.size > 1 ? g.range.n_global : 0) {}

  const BfsResult& search(std::int64_t root) override {
    Profile& profile = s_.profile();
    const int group = s_.start(root);
    for (int level = 0;; ++level) {
      s_.begin_level(level);
      if (level == 0) known_.clear();
      // The rank is one lane: its record shows the imbalance across ranks.
      TaskRecord record;
      TaskClock clock(profile, record, profile.begin_iteration(group, level, 1), 0, 0);
      expand();
      clock.items(static_cast<std::int64_t>(s_.frontier().size()));
      clock.stop();
      if (profile.enabled()) {
        profile.reserve(1);
        profile.merge(record);
      }
      if (!s_.end_level()) break;
    }
    return s_.result();
  }

 private:
  // The edge loop: local finds visited, remote ones pushed to their owners
  // once per search (the sent filter of impl/HT_ChunkedSearch.hpp).
  void expand() {
    const Csr& g = s_.graph();
    const VertexRange& r = g.range;
    const std::int64_t first = r.first(), last = first + r.local_count();
    const bool peers = r.size > 1;
    const std::int64_t* const offsets = g.offsets.data();
    g.targets.visit([&](const auto* targets) {
      std::size_t since_poll = 0;
      for (const std::int64_t i : s_.frontier()) {
        const std::int64_t u = r.global(i);
        if (!peers) {
          for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k)
            s_.visit(targets[k] - first, u);
          continue;
        }
        for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
          const std::int64_t v = targets[k];
          if (!known_.set_new(v)) continue;
          if (v >= first && v < last)
            s_.visit(v - first, u);
          else
            s_.push(r.owner(v), {v, u});
        }
        if (++since_poll == 64) {  // take arrivals now and then: peers' sends move
          s_.poll();
          since_poll = 0;
        }
      }
    });
  }

  QueueSearch s_;
  Bitmap known_;  // vertices taken or sent this search (all N; none on one rank)
};

}  // namespace

extern const BfsVariant bfs_mpi{"mpi",
                                "MPI only, one worker per rank (the study's baseline)",
                                BfsWork::single,
                                MPI_THREAD_FUNNELED,
                                BfsReports::time_only,
                                /*visits_once=*/false,
                                /*bottom_up=*/false,
                                make_variant<BfsMpi>};

}  // namespace ht::impl
