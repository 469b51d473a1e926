#pragma once
// The variants' factories, for make_bfs(); each lives in its own file.
#include "graph/HT_Bfs.hpp"

namespace ht::impl {
std::unique_ptr<Bfs> make_bfs_mpi(const Csr& g, const BfsOptions& opt, MPI_Comm comm);
std::unique_ptr<Bfs> make_bfs_locking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                      MPI_Comm comm);
std::unique_ptr<Bfs> make_bfs_nonlocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                         MPI_Comm comm);
}  // namespace ht::impl
