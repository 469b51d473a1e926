#pragma once
/// \file HT_Bfs.hpp
/// \brief Graph500 kernel 2, breadth-first search on the distributed CSR:
/// the interface every variant implements and what every variant reports.
///
/// Each variant is one file, HT_Bfs<Name>.cpp, whose head says how it
/// searches, and a row of HT_BfsVariant.def; `graph500_bfs --help` gives
/// each one's line.  All are level-synchronous.
///
/// Contract: pred[i] is the parent of local vertex i in a BFS tree rooted at
/// the key (the key is its own parent), or -1 if unreached.  Remote
/// discoveries go to their owner through ht::Exchange.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/bfs/HT_Direction.hpp"
#include "runtime/HT_HeldBytes.hpp"
#include "runtime/HT_HugePages.hpp"

namespace ht {

class Profile;

/// How a search runs.  These defaults are the deck's (graph500_bfs takes
/// its Graph500/buffer_items, tasks and chunks defaults from here).
struct BfsOptions {
  std::size_t buffer_items = 4096;  ///< coalescing buffer per destination, in pairs
  int tasks = 0;                    ///< NT per rank and level; 0: the variant's rule
  int chunks = 128;                 ///< chunked variants: most chunk tasks per level
  DirectionPolicy direction;        ///< hybrid: when a level runs bottom-up
  Profile* profile = nullptr;       ///< per-task, per-level timings (none if null)
};

/// Where one level's wall-clock time went on one rank, all on one clock
/// (impl/HT_Level.hpp).  \c total runs from the level's start to the end of
/// its closing collectives; \c communicate and \c wait are the exchange's
/// (Exchange::Stats), \c sync the closing collectives (the frontier count,
/// and the frontier bitmap's gather where a variant sends one), and
/// \c expand the rest: the rank's own search work.  The three measured parts
/// are disjoint intervals of the level, so expand >= 0 and the four add up
/// to total.  With tasks, communication runs on whichever worker holds the
/// MPI role while the others expand, so the parts are shares of the rank's
/// wall clock, not CPU time.
struct LevelSeconds {
  double expand = 0, communicate = 0, wait = 0, sync = 0;
  double total = 0;
};

struct BfsResult {
  std::vector<std::int64_t> pred;      ///< parent per local vertex, -1 unreached
  std::vector<std::int64_t> frontier;  ///< global frontier size per level (level 0: 1)
  std::vector<std::int64_t> messages;  ///< messages this rank sent per level
  std::vector<std::int64_t> bytes;     ///< bytes this rank sent per level
  std::vector<LevelSeconds> seconds;   ///< this rank's time per level
  std::vector<int> bottom_up;          ///< hybrid: per level, 1 if searched bottom-up
  std::vector<CommCounts> comm;        ///< what this rank asked of MPI per level
  double lock_seconds = 0;             ///< locking: time this rank's tasks waited for locks
  std::int64_t task_visits = 0;        ///< local vertices visited, summed over the tasks
  std::int64_t unique_visits = 0;      ///< distinct local vertices the tasks visited
  HeldCharge held{Held::search};       ///< pred's bytes (HT_HeldBytes.hpp)

  /// Ready for a new search of \p n_local vertices, keeping the storage
  /// (fresh pages are what the variants' reuse avoids).
  void reset(std::int64_t n_local) {
    assign_in_huge_pages(pred, static_cast<std::size_t>(n_local), std::int64_t{-1});
    held.set(static_cast<std::int64_t>(pred.capacity() * sizeof(std::int64_t)));
    frontier.assign(1, 1);
    messages.clear();
    bytes.clear();
    seconds.clear();
    bottom_up.clear();
    comm.clear();
    lock_seconds = 0;
    task_visits = unique_visits = 0;
  }
};

/// One variant's searches on one graph.  Its arrays are sized once and reused
/// by every search: a fresh page costs a fault (see gemm/HT_Cannon.hpp), and
/// a search that allocated its own would pay one per page, every search.
class Bfs {
 public:
  virtual ~Bfs() = default;
  /// A BFS from \p root (collective); the result lives until the next search.
  virtual const BfsResult& search(std::int64_t root) = 0;
};

}  // namespace ht
