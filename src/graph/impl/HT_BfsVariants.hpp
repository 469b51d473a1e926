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

/// Ends a level: records what \p ex sent and where the level's time went
/// (since ex.begin_level(); \p sync_seconds of it already spent in the
/// level's own collectives), sums the next frontier (\p found here) over the
/// ranks, and says whether there is one.  Collective.
bool next_level(BfsResult& res, const Exchange& ex, std::int64_t found, MPI_Comm comm,
                double sync_seconds = 0);

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
}  // namespace ht::impl
