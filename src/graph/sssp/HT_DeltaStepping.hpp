#pragma once
/// \file HT_DeltaStepping.hpp
/// \brief Graph500 kernel 3, single-source shortest paths: delta-stepping
/// (U. Meyer, P. Sanders, "Delta-stepping: a parallelizable shortest path
/// algorithm", J. Algorithms 49(1), 2003), distributed over the CSR's ranks
/// and run as Kokkos tasks on each.
///
/// Vertices wait in buckets of width delta by tentative distance.  Buckets
/// are taken in increasing order, the smallest non-empty one over all ranks:
/// its vertices relax their light edges (weight < delta) in phases until the
/// bucket stays empty, then the vertices it held relax their heavy edges
/// once (SsspVariant::classic); or, as gapbs's sssp does, a taken vertex
/// relaxes all its edges at once and there is no heavy phase
/// (SsspVariant::fused: one global step per bucket fewer, a heavy edge
/// relaxed again only when its vertex improves within its bucket).  A phase is a level of the
/// coalescing exchange (comm/HT_Exchange): its frontier (the bucket's entries; for classic's heavy
/// phase, the vertices the bucket settled) is cut into equal runs, one task each (one run on the
/// host where the frontier is small or a rank has one worker), and each task skips the entries
/// whose vertex has moved on since; a local target is relaxed in place, a remote one is sent to its
/// owner as one (vertex, distance, parent) item.  Within a light phase a rank goes on with what it
/// put back into the bucket itself before the phase closes (bucket fusion, as gapbs's sssp), so
/// only relaxations that cross ranks cost a global step.  The level's end also agrees on the next
/// phase's bucket (Exchange::end_level_min), no collective of its own.  Where that end is a
/// collective (nbx), a fused phase then goes on through this rank's next buckets, up to
/// SsspOptions::window of them: fewer global steps, a few relaxations more (a vertex taken ahead
/// of a shorter remote distance is taken again).  One rank, which has no remote distance to
/// wait for, goes on so through every bucket: a search is one phase, and with several threads
/// one team run (one parallel region; a wave's entries taken 64 at most at a time, each thread
/// going on with its own finds in the bucket; the waves too small to share on thread 0 alone).
///
/// Buckets live in a ring of kRingBuckets bins, from the agreed bucket on;
/// an entry further ahead waits in a heap of far entries and joins the ring
/// when the agreed bucket comes within reach: a rank's bucket memory is its
/// entries' (O(N/P + M/P)) plus the ring's, whatever the weights and delta.
/// A distance's bucket is computed in double and saturates at 2^62, so any
/// finite weight and any delta > 0 map to a bucket (the saturated one holds
/// every farther distance, relaxed in it until none improves).
///
/// A relaxation is an atomic min on one 64-bit word per vertex, the
/// distance's float bits (non-negative floats order as their bits) above the
/// parent's id: the distance and its parent change together, and only a
/// strictly shorter distance wins, so parents never form a cycle.  Parent
/// ids therefore take 32 bits: graphs up to 2^32 vertices (SCALE 32).
///
/// Examples: src/drivers/graph500/HT_Search.cpp, tests/graph/sssp/tstDeltaStepping.cpp.
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "graph/HT_Csr.hpp"
#include "runtime/HT_Choices.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

class Profile;

/// How a taken vertex relaxes its edges.
enum class SsspVariant {
  fused,   ///< all its edges at once, as gapbs's sssp (no heavy phase)
  classic  ///< light edges in phases, heavy ones once the bucket is done (Meyer-Sanders)
};
/// Its names (runtime/HT_Choices.hpp).
inline constexpr Choices<SsspVariant, 2> kSsspVariants{
    {{SsspVariant::fused, "fused"}, {SsspVariant::classic, "classic"}}};
inline const char* variant_name(SsspVariant v) { return kSsspVariants.name(v); }

/// \brief How a search runs.
struct SsspOptions {
  /// Bucket width, > 0; 0: auto_delta() of the graph.
  double delta = 0;
  SsspVariant variant = SsspVariant::fused;
  int chunks = 256;                 ///< most tasks per wave (at least 64 entries each)
  std::size_t buffer_items = 4096;  ///< coalescing buffer per destination, in items
  /// fused: the buckets a phase may take, from the agreed one on, each rank
  /// its own in order; 0: 1 where a level ends by markers, 4 where by nbx,
  /// all of them on one rank.
  int window = 0;
  /// The sent filter's most bytes per rank (impl/HT_SentFilter: exact, 2
  /// bytes a graph vertex, while they fit, else lossy); 0: half the bytes of
  /// this rank's edge targets.
  std::size_t sent_filter_bytes = 0;
  /// 2D (HT_DeltaStepping2D.hpp): a phase's entries a grid column relaxes
  /// in one round of candidates, at most; 0: 2^21 (about 64 MiB of buffers).
  std::int64_t round_entries = 0;
  Profile* profile = nullptr;  ///< per-task records (none if null)
};

/// One search's answer and what it cost, for this rank.
struct SsspResult {
  static constexpr float kUnreached = std::numeric_limits<float>::infinity();
  std::vector<float> dist;         ///< per local vertex; kUnreached if unreached
  std::vector<std::int64_t> pred;  ///< per local vertex; -1 if unreached, the root's is itself
  std::int64_t buckets = 0;        ///< buckets taken (the same on every rank)
  std::int64_t phases = 0;         ///< light and heavy phases (the same on every rank)
  std::int64_t waves = 0;          ///< extra task waves of fused light phases, this rank
  std::int64_t relaxations = 0;    ///< edges this rank relaxed
  std::int64_t messages = 0, bytes = 0;  ///< what this rank sent
  /// What this rank asked of MPI per step: a phase, whose level's end also
  /// agrees on the next bucket (end markers: no collective; nbx: one
  /// reduction, in place of its barrier).  phases steps, the same on
  /// every rank.
  std::vector<CommCounts> comm;
};

/// \brief The bucket width chosen from the graph (collective): 4 times the
/// mean edge weight over the squared mean degree d (stored edge ends over
/// vertices), at most the heaviest weight; 1 where every weight is 0.
/// Meyer and Sanders' width for uniform random weights in [0, 1) is
/// Theta(1/d); a sparse graph also has few paths to a vertex, so a wide
/// bucket redoes little while it saves phases, hence a second 1/d.  The
/// factor is calibrated (docs/performance/sssp.md#delta): at d = 32 (the
/// Kronecker graphs) it gives about 0.002 for weights in [0, 1), the width
/// measured fastest at SCALE 18 and 20; at d = 4 (a grid) 32 for weights
/// 1..255, where 32 to 255 ran within 20% of each other and 4 was 30% slower.
double auto_delta(const Csr& g, MPI_Comm comm);
/// \brief auto_delta()'s rule on edge ends of weights \p weights (this
/// rank's) in a graph of \p vertices vertices (collective).
double auto_delta(const std::vector<float>& weights, std::int64_t vertices, MPI_Comm comm);

/// \brief Delta-stepping on one weighted CSR: searches from any root.
class DeltaStepping {
 public:
  /// \brief Collective when SsspOptions::delta is 0 (auto_delta).  Throws
  /// ht::UsageError when \p g has no weights, or more than 2^32 vertices,
  /// or delta is negative or not finite.
  DeltaStepping(const Csr& g, const SsspOptions& opt, TaskRuntime& rt, MPI_Comm comm);
  ~DeltaStepping();
  DeltaStepping(const DeltaStepping&) = delete;
  DeltaStepping& operator=(const DeltaStepping&) = delete;

  /// Shortest paths from \p root (collective); valid until the next search.
  const SsspResult& search(std::int64_t root);
  /// The bucket width the searches use (SsspOptions::delta, or auto_delta's).
  double delta() const;
  /// Buckets the ring holds from the agreed one on; farther ones wait in a heap.
  static constexpr std::int64_t kRingBuckets = 1024;
  /// The task pool a search needs with \p opt.
  static std::size_t pool_bytes(const SsspOptions& opt);
  /// The MPI thread level a search needs: its tasks drive the exchange
  /// (Exchange::try_poll), one at a time.
  static constexpr int kMpiThreadLevel = MPI_THREAD_SERIALIZED;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ht
