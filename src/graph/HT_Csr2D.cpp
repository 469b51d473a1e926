#include "graph/HT_Csr2D.hpp"

#include <algorithm>
#include <string>

#include "comm/HT_PeerExchange.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Bitmap.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

// The block's frame: grid, piece slots, no entries yet.
Csr2D empty_block(const Csr& g, const Grid2D& grid) {
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
  return b;
}

// Row v (owned here, so in this grid row) sends each entry (v, u) to the
// rank of this grid row whose column block holds u, packed in one word:
// v's row index above, u's column index below (both < 2^32, empty_block).
// The 1D CSR's entries go in rounds of round_entries, as many rounds as the
// grid row's fullest rank needs, so what is packed at once stays bounded.
// The block's entries as they arrive: each 1D row's from its one owner, in
// order.
std::vector<std::uint64_t> gather_rows(const Csr& g, const Csr2D& b, const Grid2D& grid,
                                       std::int64_t round_entries) {
  const int cols = b.shape.cols;
  const VertexRange& r = g.range;
  const std::int64_t n = r.local_count(), stored = g.offsets[n];
  if (round_entries < 1) throw Error("build_csr_2d: round_entries must be >= 1");
  long long rounds = stored == 0 ? 0 : 1 + (stored - 1) / round_entries;
  all_reduce(&rounds, 1, MPI_MAX, grid.row_comm());
  // What will arrive in all, so the block's entries are allocated once.
  std::vector<std::int64_t> count(cols, 0);
  for (std::int64_t k = 0; k < stored; ++k) ++count[r.owner(g.targets[k]) % cols];
  std::vector<std::uint64_t> in, out;
  in.reserve(
      static_cast<std::size_t>(PeerPlan(count, grid.row_comm(), sizeof(std::uint64_t)).receives()));
  std::int64_t row = 0;  // the row of entry k0
  for (std::int64_t round = 0; round < rounds; ++round) {
    const std::int64_t k0 = std::min(stored, round * round_entries);
    const std::int64_t k1 = std::min(stored, k0 + round_entries);
    // Calls f(v, u) for this round's entries, in the CSR's order.
    const auto each = [&](auto&& f) {
      std::int64_t i = row;
      for (std::int64_t k = k0; k < k1; ++k) {
        while (g.offsets[i + 1] <= k) ++i;
        f(r.global(i), g.targets[k]);
      }
      return i;
    };
    std::fill(count.begin(), count.end(), 0);
    each([&](std::int64_t, std::int64_t u) { ++count[r.owner(u) % cols]; });
    const PeerPlan plan(count, grid.row_comm(), sizeof(std::uint64_t));
    out.resize(static_cast<std::size_t>(plan.sends()));
    std::vector<std::int64_t> at = plan.send_offsets();
    row = each([&](std::int64_t v, std::int64_t u) {
      out[static_cast<std::size_t>(at[r.owner(u) % cols]++)] =
          static_cast<std::uint64_t>(b.row_index(v)) << 32 |
          static_cast<std::uint64_t>(b.col_index(u));
    });
    const std::size_t had = in.size();
    in.resize(had + static_cast<std::size_t>(plan.receives()));
    peer_exchange(plan, out.data(), in.data() + had);
  }
  return in;
}

// The rows by a counting sort over the non-empty ones only, keeping the
// arrival order within a row (the 1D row's); frees \p in.
void sort_rows(Csr2D& b, std::vector<std::uint64_t>& in) {
  const auto entries = static_cast<std::int64_t>(in.size());
  const auto row_of = [&](std::int64_t e) { return static_cast<std::int64_t>(in[e] >> 32); };
  b.row_offsets = BlockOffsets::build(b.row_slots(), entries, row_of);
  b.row_targets.resize(in.size());
  std::vector<std::int64_t> next = b.row_offsets.starts();
  for (std::int64_t e = 0; e < entries; ++e)
    b.row_targets[next[b.row_offsets.position(row_of(e))]++] =
        static_cast<BlockIndex>(in[e] & 0xffffffffu);
  in = {};
}

}  // namespace

Csr2D build_csr_2d(const Csr& g, const Grid2D& grid, std::int64_t round_entries) {
  Csr2D b = empty_block(g, grid);
  std::vector<std::uint64_t> in = gather_rows(g, b, grid, round_entries);
  sort_rows(b, in);
  const std::int64_t n = g.range.local_count();
  b.degree.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) b.degree[i] = g.degree(i);
  b.held.set(b.bytes());
  return b;
}

}  // namespace ht
