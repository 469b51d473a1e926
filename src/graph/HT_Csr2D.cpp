#include "graph/HT_Csr2D.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

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
  const int ranks = b.shape.ranks() + grid.spares();
  if (b.shape.ranks() != g.range.owners || g.range.size != ranks)
    throw Error("build_csr_2d: a " + b.shape.name() + " grid of " + std::to_string(ranks) +
                " ranks for a graph owned by " + std::to_string(g.range.owners) + " of " +
                std::to_string(g.range.size) + " (build_csr's owners: the grid's R C)");
  b.piece_bits = Bitmap::first_of(Bitmap::words_for(g.range.per_rank));
  const std::int64_t widest = std::max(b.row_slots(), b.col_slots());
  if (widest > std::int64_t(1) << 32)
    throw UsageError("Graph500/grid = " + b.shape.name() + ": a block of " +
                     std::to_string(widest) +
                     " rows or columns exceeds 32-bit block indices (2^32); choose a squarer grid");
  return b;
}

// An entry on its way to its block: v's row index above, u's column index
// below (both < 2^32, empty_block), and its weight when kernel 3 runs.
struct Packed {
  std::uint64_t at;
};
struct PackedWeighted {
  std::uint64_t at;
  float w;
  std::uint32_t zero = 0;  // no uninitialised bytes on the wire
};
void set_weight(Packed&, float) {}
void set_weight(PackedWeighted& e, float w) { e.w = w; }

// Row v (owned here, so in this grid row) sends each entry (v, u) to the
// rank of this grid row whose column block holds u.  The 1D CSR's entries
// go in rounds of round_entries, as many rounds as the grid row's fullest
// rank needs, so what is packed at once stays bounded.  The block's entries
// as they arrive: each 1D row's from its one owner, in order.
template <class Item>
std::vector<Item> gather_rows(const Csr& g, const Csr2D& b, const Grid2D& grid,
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
  std::vector<Item> in, out;
  in.reserve(static_cast<std::size_t>(PeerPlan(count, grid.row_comm(), sizeof(Item)).receives()));
  std::int64_t row = 0;  // the row of entry k0
  for (std::int64_t round = 0; round < rounds; ++round) {
    const std::int64_t k0 = std::min(stored, round * round_entries);
    const std::int64_t k1 = std::min(stored, k0 + round_entries);
    // Calls f(v, k) for this round's entries k of rows v, in the CSR's order.
    const auto each = [&](auto&& f) {
      std::int64_t i = row;
      for (std::int64_t k = k0; k < k1; ++k) {
        while (g.offsets[i + 1] <= k) ++i;
        f(r.global(i), k);
      }
      return i;
    };
    std::fill(count.begin(), count.end(), 0);
    each([&](std::int64_t, std::int64_t k) { ++count[r.owner(g.targets[k]) % cols]; });
    const PeerPlan plan(count, grid.row_comm(), sizeof(Item));
    out.resize(static_cast<std::size_t>(plan.sends()));
    std::vector<std::int64_t> at = plan.send_offsets();
    row = each([&](std::int64_t v, std::int64_t k) {
      const std::int64_t u = g.targets[k];
      Item& e = out[static_cast<std::size_t>(at[r.owner(u) % cols]++)];
      e.at = static_cast<std::uint64_t>(b.row_index(v)) << 32 |
             static_cast<std::uint64_t>(b.col_index(u));
      set_weight(e, g.weights.empty() ? 0.0f : g.weights[static_cast<std::size_t>(k)]);
    });
    const std::size_t had = in.size();
    in.resize(had + static_cast<std::size_t>(plan.receives()));
    peer_exchange(plan, out.data(), in.data() + had);
  }
  return in;
}

// The rows by a counting sort over the non-empty ones only, keeping the
// arrival order within a row (the 1D row's); frees \p in.
template <class Item>
void sort_rows(Csr2D& b, std::vector<Item>& in) {
  constexpr bool weighted = std::is_same_v<Item, PackedWeighted>;
  const auto entries = static_cast<std::int64_t>(in.size());
  const auto row_of = [&](std::int64_t e) { return static_cast<std::int64_t>(in[e].at >> 32); };
  b.row_offsets = BlockOffsets::build(b.row_slots(), entries, row_of);
  b.row_targets.resize(in.size());
  if constexpr (weighted) b.row_weights.resize(in.size());
  std::vector<std::int64_t> next = b.row_offsets.starts();
  for (std::int64_t e = 0; e < entries; ++e) {
    const std::int64_t k = next[b.row_offsets.position(row_of(e))]++;
    b.row_targets[k] = static_cast<BlockIndex>(in[e].at & 0xffffffffu);
    if constexpr (weighted) b.row_weights[k] = in[e].w;
  }
  in = {};
}

// The block's rows; \p release (if not null, g itself) gives up its
// targets, weights and split once they are on their way, before the sort.
template <class Item>
void fill_rows(Csr2D& b, const Csr& g, const Grid2D& grid, std::int64_t round_entries,
               Csr* release) {
  std::vector<Item> in = gather_rows<Item>(g, b, grid, round_entries);
  if (release) {
    release->targets = Targets{};
    std::vector<float>().swap(release->weights);
    std::vector<std::int64_t>().swap(release->split);
  }
  sort_rows(b, in);
}

Csr2D build(const Csr& g, const Grid2D& grid, std::int64_t round_entries, Csr* release) {
  Csr2D b = empty_block(g, grid);
  if (!on_every_rank(g.weights.size() == g.targets.size() || g.weights.empty(), grid.comm()))
    throw Error("build_csr_2d: a graph with weights for some of its entries only");
  const bool weighted = !on_every_rank(g.weights.empty(), grid.comm());
  // A spare rank owns no vertex: no rows to give, no block to fill.
  if (!grid.spare() && weighted)
    fill_rows<PackedWeighted>(b, g, grid, round_entries, release);
  else if (!grid.spare())
    fill_rows<Packed>(b, g, grid, round_entries, release);
  const std::int64_t n = g.range.local_count();
  b.degree.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) b.degree[i] = g.degree(i);
  b.held.set(b.bytes());
  return b;
}

}  // namespace

Csr2D build_csr_2d(const Csr& g, const Grid2D& grid, std::int64_t round_entries) {
  return build(g, grid, round_entries, nullptr);
}

Csr2D move_to_csr_2d(Csr& g, const Grid2D& grid, std::int64_t round_entries) {
  return build(g, grid, round_entries, &g);
}

}  // namespace ht
