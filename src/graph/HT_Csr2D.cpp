#include "graph/HT_Csr2D.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "comm/HT_CommCounts.hpp"
#include "graph/HT_Bitmap.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

struct Entry {
  std::int64_t v, u;  // u is a neighbour of v
};

// Counts (entries) per peer as MPI's int, or an error naming the block.
int as_count(std::int64_t n) {
  if (n > std::numeric_limits<int>::max())
    throw Error("2D partition: " + std::to_string(n) +
                " adjacency entries for one peer exceed MPI's int count; use more ranks");
  return static_cast<int>(n);
}

}  // namespace

Csr2D build_csr_2d(const Csr& g, const Grid2D& grid) {
  Csr2D b;
  b.range = g.range;
  b.shape = grid.shape();
  b.row = grid.row();
  b.col = grid.col();
  if (b.shape.rows * b.shape.cols != g.range.size)
    throw Error("build_csr_2d: a " + b.shape.name() + " grid for a graph on " +
                std::to_string(g.range.size) + " ranks");
  b.piece_bits = Bitmap::first_of(Bitmap::words_for(g.range.per_rank));
  const std::int64_t widest = std::max(b.row_slots(), b.col_slots());
  if (widest > std::int64_t(1) << 32)
    throw UsageError("Graph500/grid = " + b.shape.name() + ": a block of " +
                     std::to_string(widest) +
                     " rows or columns exceeds 32-bit block indices (2^32); choose a squarer grid");
  const int cols = b.shape.cols;
  const VertexRange& r = g.range;
  const std::int64_t n = r.local_count();

  // Row v (owned here, so in this grid row) sends (v, u) to the rank of
  // this grid row whose column block holds u.
  std::vector<std::int64_t> per_peer(cols, 0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k)
      ++per_peer[r.owner(g.targets[k]) % cols];
  std::vector<int> count(cols), displ(cols), in_count(cols), in_displ(cols);
  int total = 0;
  for (int t = 0; t < cols; ++t) {
    count[t] = as_count(per_peer[t]);
    displ[t] = total;
    total = as_count(static_cast<std::int64_t>(total) + count[t]);
  }
  std::vector<Entry> out(static_cast<std::size_t>(total));
  std::vector<int> at = displ;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t v = r.global(i);
    for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
      const std::int64_t u = g.targets[k];
      out[static_cast<std::size_t>(at[r.owner(u) % cols]++)] = {v, u};
    }
  }
  mpi::Alltoall(count.data(), 1, MPI_INT, in_count.data(), 1, MPI_INT, grid.row_comm());
  int incoming = 0;
  for (int t = 0; t < cols; ++t) {
    in_displ[t] = incoming;
    incoming = as_count(static_cast<std::int64_t>(incoming) + in_count[t]);
  }
  std::vector<Entry> in(static_cast<std::size_t>(incoming));
  MPI_Datatype entry;
  MPI_Type_contiguous(static_cast<int>(sizeof(Entry)), MPI_BYTE, &entry);
  MPI_Type_commit(&entry);
  mpi::Alltoallv(out.data(), count.data(), displ.data(), entry, in.data(), in_count.data(),
                 in_displ.data(), entry, grid.row_comm());
  MPI_Type_free(&entry);
  out = {};

  // Both orientations by counting sort over the non-empty rows and columns
  // only; the row one keeps the arrival order, which is each 1D row's (a
  // row's entries all come from its one owner).
  const auto entries = static_cast<std::int64_t>(in.size());
  b.row_offsets = BlockOffsets::build(b.row_slots(), entries,
                                      [&](std::int64_t e) { return b.row_index(in[e].v); });
  b.col_offsets = BlockOffsets::build(b.col_slots(), entries,
                                      [&](std::int64_t e) { return b.col_index(in[e].u); });
  b.row_targets.resize(in.size());
  b.col_targets.resize(in.size());
  std::vector<std::int64_t> next = b.row_offsets.starts();
  for (const Entry& e : in)
    b.row_targets[next[b.row_offsets.position(b.row_index(e.v))]++] =
        static_cast<BlockIndex>(b.col_index(e.u));
  next = b.col_offsets.starts();
  for (const Entry& e : in)
    b.col_targets[next[b.col_offsets.position(b.col_index(e.u))]++] =
        static_cast<BlockIndex>(b.row_index(e.v));

  b.degree.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) b.degree[i] = g.degree(i);
  return b;
}

}  // namespace ht
