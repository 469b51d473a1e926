// Level-synchronous top-down BFS with non-locking Kokkos tasks, as in the
// hybrid MPI+Kokkos-tasks study: per level, NT tasks each expand a share of
// the frontier into task-local visited / pred / newq (and task-local lists of
// remote discoveries), with no lock and no atomic.  After all tasks finished
// (when_all), the rank merges them into its arrays and sends the remote
// discoveries.  Tasks do not see each other's finds, so a vertex can be
// visited by several tasks in one level: the redundant-visit ratio.
#include <utility>

#include "comm/HT_Exchange.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
#include "graph/impl/HT_LevelQueues.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht::impl {

namespace {

// What one task found in one level.
struct Local {
  std::vector<std::uint64_t> seen;                           // copy of the rank's bitmap
  std::vector<std::pair<std::int64_t, std::int64_t>> found;  // (local vertex, parent)
  std::vector<std::vector<Exchange::Item>> remote;           // per destination rank
  TaskRecord record;
};

struct Expand {
  using value_type = void;
  const Csr* g;
  const std::vector<std::uint64_t>* seen;
  const std::vector<std::int64_t>* oldq;
  Local* out;
  const Profile* profile;
  std::size_t begin, end;
  int iteration, task;

  void operator()(TaskMember&) const {
    TaskClock clock(*profile, out->record, iteration, task, task);
    const VertexRange& r = g->range;
    out->seen = *seen;
    out->found.clear();
    out->remote.resize(r.size);
    for (auto& list : out->remote) list.clear();
    for (std::size_t q = begin; q < end; ++q) {
      const std::int64_t i = (*oldq)[q], u = r.global(i);
      for (std::int64_t k = g->offsets[i]; k < g->offsets[i + 1]; ++k) {
        const std::int64_t v = g->targets[k];
        if (r.mine(v)) {
          if (!test_and_set(out->seen.data(), r.local(v))) out->found.emplace_back(r.local(v), u);
        } else {
          out->remote[r.owner(v)].push_back({v, u});
        }
      }
    }
    clock.items(static_cast<std::int64_t>(end - begin));
    clock.stop();
  }
};
static_assert(sizeof(Expand) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes this bound");

class BfsNonlocking final : public Bfs {
 public:
  BfsNonlocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : g_(g),
        rt_(rt),
        comm_(comm),
        profile_(profile_of(opt)),
        tasks_(opt.tasks),
        ex_(comm, opt.buffer_items),
        q_(g.range.local_count()),
        locals_(opt.tasks) {}

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = g_.range;
    res_.reset(r.local_count());
    q_.restart(r, root, res_.pred);
    const int group = searches_++;

    const Exchange::Handler apply = [this](const Exchange::Item* items, std::size_t n) {
      for (std::size_t k = 0; k < n; ++k)
        q_.visit(g_.range.local(items[k].vertex), items[k].parent, res_.pred);
    };
    for (int level = 0;; ++level) {
      ex_.begin_level(level);
      const int iteration = profile_.begin_iteration(group, level, tasks_);
      profile_.reserve(tasks_);
      std::vector<Future<void>> all;
      const std::size_t n = q_.oldq.size();
      for (int t = 0; t < tasks_; ++t) {
        all.push_back(rt_.spawn(Expand{&g_, &q_.seen, &q_.oldq, &locals_[t], &profile_,
                                       n * t / tasks_, n * (t + 1) / tasks_, iteration, t}));
        merge_when_done(rt_, profile_, all.back(), &locals_[t].record);
      }
      Future<void> level_done = rt_.when_all(all);
      rt_.wait();
      // Merge after the barrier: the study's design, and its cost.
      for (const Local& l : locals_) {
        res_.task_visits += static_cast<std::int64_t>(l.found.size());
        for (const auto& [j, u] : l.found) res_.unique_visits += q_.visit(j, u, res_.pred);
      }
      for (const Local& l : locals_) {
        for (int p = 0; p < r.size; ++p) {
          for (const auto& item : l.remote[p]) ex_.push(p, item, apply);
        }
      }
      ex_.end_level(apply);
      if (!next_level(res_, ex_, static_cast<std::int64_t>(q_.newq.size()), comm_)) break;
      q_.advance();
    }
    return res_;
  }

 private:
  const Csr& g_;
  TaskRuntime& rt_;
  MPI_Comm comm_;
  Profile& profile_;
  int tasks_;
  int searches_ = 0;
  Exchange ex_;
  BfsResult res_;
  LevelQueues q_;
  std::vector<Local> locals_;
};

}  // namespace

std::unique_ptr<Bfs> make_bfs_nonlocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                         MPI_Comm comm) {
  return std::make_unique<BfsNonlocking>(g, opt, rt, comm);
}

}  // namespace ht::impl
