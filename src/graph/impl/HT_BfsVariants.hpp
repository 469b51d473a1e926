#pragma once
// What the BFS variants share: their factories, for the variant table
// (HT_BfsVariant.cpp; each lives in its own file), and the end of a level.
#include "comm/HT_Exchange.hpp"
#include "graph/HT_Bfs.hpp"

namespace ht::impl {

/// Bytes every variant's task functor fits in (BfsVariant::pool_bytes counts on it).
constexpr std::size_t kLargestTaskBytes = 64;

/// The profile to record into: \p opt's, or one that records nothing.
Profile& profile_of(const BfsOptions& opt);

/// Records a level's end in \p res: what \p ex sent, where the time since
/// ex.begin_level() went (the level's closing collectives began at
/// \p sync_start, steady_seconds(), and took \p sync_seconds), and the
/// next frontier's global size \p next if there is one.
void record_level(BfsResult& res, const Exchange& ex, long long next, double sync_start,
                  double sync_seconds);
/// Ends a level: sums the next frontier (\p found here) over the ranks,
/// records the level, and says whether there is a next one.  Collective.
bool next_level(BfsResult& res, const Exchange& ex, std::int64_t found, MPI_Comm comm);

std::unique_ptr<Bfs> make_bfs_mpi(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                  MPI_Comm comm);
std::unique_ptr<Bfs> make_bfs_locking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                      MPI_Comm comm);
std::unique_ptr<Bfs> make_bfs_nonlocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                         MPI_Comm comm);
std::unique_ptr<Bfs> make_bfs_incremental(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                          MPI_Comm comm);
std::unique_ptr<Bfs> make_bfs_atomic(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                     MPI_Comm comm);
std::unique_ptr<Bfs> make_bfs_hybrid(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                     MPI_Comm comm);
}  // namespace ht::impl
