// Level-synchronous top-down BFS with non-locking Kokkos tasks, as in the
// hybrid MPI+Kokkos-tasks study: per level, NT tasks each expand a share of
// the frontier into task-local visited / pred / newq (and task-local lists of
// remote discoveries), with no lock and no atomic.  After all tasks finished,
// the rank merges them into its arrays and sends the remote discoveries.
// Tasks do not see each other's finds, so a vertex can be visited by several
// tasks in one level: the redundant-visit ratio.
#include <utility>

#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_QueueSearch.hpp"
#include "graph/impl/HT_ChunkTask.hpp"

namespace ht::impl {

namespace {

// What one task found in one level.
struct Local {
  Bitmap seen;                                               // copy of the rank's bitmap
  std::vector<std::pair<std::int64_t, std::int64_t>> found;  // (local vertex, parent)
  std::vector<std::vector<Exchange::Item>> remote;           // per destination rank
};

class BfsNonlocking final : public Bfs {
 public:
  BfsNonlocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : rt_(rt), s_(g, opt, comm), tasks_(opt.tasks), locals_(opt.tasks), records_(opt.tasks) {}

  const BfsResult& search(std::int64_t root) override {
    Profile& profile = s_.profile();
    BfsResult& res = s_.result();
    const int group = s_.start(root);
    for (int level = 0;; ++level) {
      s_.begin_level(level);
      const int iteration = profile.begin_iteration(group, level, tasks_);
      profile.reserve(locals_.size());
      for (int t = 0; t < tasks_; ++t)
        merge_when_done(rt_, profile, rt_.spawn(ShareTask{this, t, iteration}), &records_[t]);
      rt_.wait();
      // Merge after the barrier: the study's design, and its cost.
      for (const Local& l : locals_) {
        res.task_visits += static_cast<std::int64_t>(l.found.size());
        for (const auto& [j, u] : l.found) res.unique_visits += s_.visit(j, u);
      }
      for (const Local& l : locals_) {
        for (int p = 0; p < s_.graph().range.size; ++p)
          for (const auto& item : l.remote[p]) s_.push(p, item);
      }
      if (!s_.end_level()) break;
    }
    return res;
  }

 private:
  // Share t of the tasks' equal shares of the frontier, into locals_[t], on
  // a profile lane of its own.
  struct ShareTask {
    using value_type = void;
    BfsNonlocking* b;
    int t, iteration;

    void operator()(TaskMember&) const {
      static_assert(sizeof(ShareTask) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes it");
      QueueSearch& s = b->s_;
      TaskClock clock(s.profile(), b->records_[t], iteration, t, t);
      const Csr& g = s.graph();
      const VertexRange& r = g.range;
      const std::vector<std::int64_t>& oldq = s.frontier();
      const auto share = static_cast<std::size_t>(t), shares = b->locals_.size();
      const std::size_t q0 = oldq.size() * share / shares, q1 = oldq.size() * (share + 1) / shares;
      Local& out = b->locals_[share];
      out.seen = s.seen();
      out.found.clear();
      out.remote.resize(r.size);
      for (auto& list : out.remote) list.clear();
      for (std::size_t q = q0; q < q1; ++q) {
        const std::int64_t i = oldq[q], u = r.global(i);
        for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
          const std::int64_t v = g.targets[k];
          if (!r.mine(v))
            out.remote[r.owner(v)].push_back({v, u});
          else if (out.seen.set_new(r.local(v)))
            out.found.emplace_back(r.local(v), u);
        }
      }
      clock.items(static_cast<std::int64_t>(q1 - q0));
      clock.stop();
    }
  };

  TaskRuntime& rt_;
  QueueSearch s_;
  int tasks_;
  std::vector<Local> locals_;        // one per task
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
    /*visits_once=*/false,
    /*bottom_up=*/false,
    make_variant<BfsNonlocking>};

}  // namespace ht::impl
