// Level-synchronous top-down BFS with atomic claims: no lock and no
// task-local copy.  The frontier's edges are cut into chunks, one task each
// (impl/HT_ChunkedSearch.hpp), and each task claims a local find with one
// atomic fetch_or on its visited bit (impl/HT_ClaimLevel.hpp), so no vertex
// is expanded twice: the redundant-visit ratio is 1 by construction.  The
// distributed form follows the Graph500 reference's bfs_simple.
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_ClaimLevel.hpp"

namespace ht::impl {

namespace {

class BfsAtomic final : public Bfs {
 public:
  BfsAtomic(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : rt_(rt), s_(g, opt, comm) {}

  const BfsResult& search(std::int64_t root) override {
    const int group = s_.start(root);
    std::int64_t unexplored = 0;  // the team run's counts, unused here
    long long frontier = 0;
    for (int level = 0;; ++level) {
      const int iteration = s_.begin_level(group, level);
      if (s_.team_run_fits())
        level = s_.team_levels(group, level, iteration, unexplored, frontier,
                               [](const FrontierCounts&) { return true; });
      else
        claim_level(s_, rt_, iteration);
      s_.end_top_down();
      if (!s_.next_frontier()) break;
    }
    return s_.finish();
  }

 private:
  TaskRuntime& rt_;
  ChunkedSearch s_;
};

}  // namespace

extern const BfsVariant bfs_atomic{
    "atomic",
    "chunk tasks claiming each vertex with one atomic operation on its visited bit",
    BfsWork::chunks,
    MPI_THREAD_SERIALIZED,
    BfsReports::redundancy,
    /*visits_once=*/true,
    /*bottom_up=*/false,
    make_variant<BfsAtomic>};

}  // namespace ht::impl
