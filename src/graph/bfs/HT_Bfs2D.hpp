#pragma once
/// \file HT_Bfs2D.hpp
/// \brief Kernel 2 on the 2D partition (HT_Csr2D.hpp): the variants that
/// have a 2D kernel (a make_2d in their row), and how to make one.
/// HT_Bfs2D.cpp holds one such kernel, direction-optimizing (make_direction_optimizing_2d).
///
/// The search's result is the 1D one: BfsResult::pred holds the parents of
/// the vertices this rank owns in the 1D VertexRange; validate_bfs's 2D form
/// checks them on the block itself.
///
/// Examples: src/drivers/graph500/HT_Search.cpp, tests/graph/bfs/tstBfs2D.cpp.
#include <memory>
#include <string>

#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/bfs/HT_Bfs.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"

namespace ht {

class TaskRuntime;

/// \brief Whether variant \p v has a 2D kernel.
bool has_2d_kernel(const BfsVariant& v);
/// \brief The names of the variants that have one, comma-separated.
std::string variants_with_2d_kernel();
/// \brief UsageError naming Graph500/partition, Graph500/variant and the
/// variants that have a 2D kernel, unless \p v has one.
void require_2d_kernel(const BfsVariant& v);

/// \brief Variant \p v's 2D kernel on block \p g of \p grid (the grid it was
/// built on), its tasks spawned into \p rt; UsageError naming
/// Graph500/variant when \p v has none.
std::unique_ptr<Bfs> make_bfs_2d(const BfsVariant& v, const Csr2D& g, const Grid2D& grid,
                                 const BfsOptions& opt, TaskRuntime& rt);

namespace impl {
/// \brief The direction-optimizing 2D kernel (HT_Bfs2D.cpp) on block \p g
/// of \p grid with resolved \p opt: a BfsVariant::make_2d.
std::unique_ptr<Bfs> make_direction_optimizing_2d(const Csr2D& g, const Grid2D& grid,
                                                  const BfsOptions& opt, TaskRuntime& rt);
}  // namespace impl

}  // namespace ht
