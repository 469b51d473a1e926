// Level-synchronous top-down BFS with non-locking Kokkos tasks, as in the
// hybrid MPI+Kokkos-tasks study: per level, NT tasks each expand a share of
// the frontier into task-local visited / pred / newq (and task-local lists of
// remote discoveries), with no lock and no atomic.  After all tasks finished,
// the rank merges them into its arrays and sends the remote discoveries.
// Tasks do not see each other's finds, so a vertex can be visited by several
// tasks in one level: the redundant-visit ratio.
#include <utility>

#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_QueueBfs.hpp"
#include "graph/impl/HT_ChunkTask.hpp"

namespace ht::impl {

namespace {

// What one task found in one level.
struct Local {
  Bitmap seen;                                               // copy of the rank's bitmap
  std::vector<std::pair<std::int64_t, std::int64_t>> found;  // (local vertex, parent)
  std::vector<std::vector<Exchange::Item>> remote;           // per destination rank
};

class BfsNonlocking final : public QueueBfs {
 public:
  BfsNonlocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : QueueBfs(g, opt, comm), rt_(rt), tasks_(opt.tasks), locals_(opt.tasks) {}

  // Share t of n of oldq, into locals_[t].
  struct Share {
    static constexpr bool kLaneIsTask = true;  // static shares: each its own lane
    static std::int64_t run(BfsNonlocking& b, std::size_t t, std::size_t n) {
      const VertexRange& r = b.g_.range;
      const std::size_t q0 = b.oldq_.size() * t / n, q1 = b.oldq_.size() * (t + 1) / n;
      Local& out = b.locals_[t];
      out.seen = b.seen_;
      out.found.clear();
      out.remote.resize(r.size);
      for (auto& list : out.remote) list.clear();
      for (std::size_t q = q0; q < q1; ++q) {
        const std::int64_t i = b.oldq_[q], u = r.global(i);
        for (std::int64_t k = b.g_.offsets[i]; k < b.g_.offsets[i + 1]; ++k) {
          const std::int64_t v = b.g_.targets[k];
          if (!r.mine(v))
            out.remote[r.owner(v)].push_back({v, u});
          else if (out.seen.set_new(r.local(v)))
            out.found.emplace_back(r.local(v), u);
        }
      }
      return static_cast<std::int64_t>(q1 - q0);
    }
  };

 private:
  void expand_level(int group, int level) override {
    const int iteration = profile_.begin_iteration(group, level, tasks_);
    spawn_chunks<Share>(rt_, profile_, this, records_, iteration, static_cast<std::size_t>(tasks_));
    rt_.wait();
    // Merge after the barrier: the study's design, and its cost.
    for (const Local& l : locals_) {
      res_.task_visits += static_cast<std::int64_t>(l.found.size());
      for (const auto& [j, u] : l.found) res_.unique_visits += visit(j, u);
    }
    for (const Local& l : locals_) {
      for (int p = 0; p < g_.range.size; ++p)
        for (const auto& item : l.remote[p]) ex_.push(p, item, apply_);
    }
  }

  TaskRuntime& rt_;
  int tasks_;
  std::vector<Local> locals_;
  std::vector<TaskRecord> records_;  // one per task
};

}  // namespace

extern const BfsVariant bfs_nonlocking{
    "nonlocking",
    "NT tasks with task-local visited/pred/newq, merged after all have finished (the study's "
    "second variant)",
    BfsWork::tasks,
    MPI_THREAD_FUNNELED,
    BfsReports::redundancy,
    make_variant<BfsNonlocking>};

}  // namespace ht::impl
