#pragma once
// One level of a search on one rank, as every variant runs it:
//
//   for (int l = 0;; ++l) {
//     level.begin(l);                 // the exchange's level, the clock
//     ...expand, exchange...
//     if (!level.end(found)) break;   // sums the next frontier, records
//   }
//
// It splits the level's wall clock into LevelSeconds on the exchange's clock
// (one clock: the exchange times communicate and wait, this times total and
// sync), so the parts of every variant mean the same thing: sync is the
// closing collectives alone, and local work after the exchange (reading the
// next frontier off a bitmap) is expand.
#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Exchange.hpp"
#include "graph/bfs/HT_Bfs.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht::impl {

class Level {
 public:
  Level(Exchange& ex, BfsResult& res, MPI_Comm comm) : ex_(ex), res_(res), comm_(comm) {}

  /// Starts level \p level: the exchange's, and the clock (from \p start
  /// if given: a level that began inside a team run, ChunkedSearch::team_levels).
  void begin(int level, double start = -1) {
    ex_.begin_level(level);
    sync_ = 0;
    start_ = start < 0 ? ex_.clock()() : start;
    comm_start_ = comm_counts();
  }
  /// When the level began, on the exchange's clock.
  double started() const { return start_; }
  /// The clock's time now.
  double now() const { return ex_.clock()(); }
  /// Records a level that ran from \p start to \p end on one rank with no
  /// exchange and no collective (a team run's), whose next frontier has
  /// \p next vertices.
  void record_alone(double start, double end, long long next);
  /// Runs \p f, a closing collective, timed as sync.
  template <class F>
  void sync(F&& f) {
    Region region("BFS: level sync");
    const double t0 = ex_.clock()();
    f();
    sync_ += ex_.clock()() - t0;
  }
  /// \p sums[i] = the sum of \p x[i] over the ranks, i < \p n (sync).
  void sum(const long long* x, long long* sums, int n);
  /// Ends the level: records its seconds, what the exchange sent, what the
  /// rank asked of MPI since begin() (the closing collectives included), and the
  /// next frontier's global size \p next if there is one; true if there is.
  bool record(long long next);
  /// sum() of this rank's \p found, then record().  Collective.
  bool end(std::int64_t found);

 private:
  Exchange& ex_;
  BfsResult& res_;
  MPI_Comm comm_;
  double start_ = 0, sync_ = 0;
  CommCounts comm_start_;
};

}  // namespace ht::impl
