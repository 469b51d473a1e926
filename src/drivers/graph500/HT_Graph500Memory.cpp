#include "drivers/graph500/HT_Graph500Memory.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "runtime/HT_Environment.hpp"

namespace ht {

namespace {

// What the model needs of a run: the graph's size and how it is split.
struct Shape {
  double n = 0, m = 0;  // vertices, undirected edges
  int ranks = 1, threads = 1;
  GridShape grid;  // two_d only
  bool two_d = false, bfs = true, sssp = true, wide = false;
  double pool = 0, buffer_items = 4096;
};

struct Parts {
  double graph = 0, search = 0, kernel1 = 0, total = 0;
};

Parts model(const Shape& s) {
  // A grid's spare ranks own nothing: its R C ranks hold the graph.
  const double p = s.ranks, owners = s.two_d ? s.grid.ranks() : p;
  const double nl = std::ceil(s.n / owners), e = 2 * s.m / owners;
  const double t = s.wide ? 8 : 4, w = s.sssp ? 4 : 0;
  // Targets and weights, offsets, each row's split (several ranks) and dropped count.
  const double csr = (t + w) * e + (s.ranks > 1 ? 16 : 8) * nl + 4 * nl;
  // Kernel 1: a piece in flight beside the whole CSR, then order_rows' degrees.
  const double piece = std::min(double(1 << 20), s.m / p);
  const double round = std::min(double(std::int64_t(1) << 24), e);
  const double remote = (p - 1) / p;  // the share of entries whose degree is asked of a peer
  const double k1 = csr + std::max((s.sssp ? 1.5 : 1.0) * kPieceBytes * piece,
                                   (4 + 8 * remote) * round + 20 * nl);
  Parts out;
  double block = 0, build = 0, kept = csr;
  if (s.two_d) {
    // Entries once (with their weights for SSSP), degrees, and offsets: a
    // bit and a half a row slot (C pieces), 8 bytes a non-empty row (about
    // half the slots, or entries, of a Kronecker graph: measured 0.53 at
    // SCALE 18 on a 2 x 2 grid).
    const double slots = s.grid.cols * nl;
    block = (4 + w) * e + 8 * nl + 0.1875 * slots + 4 * std::min(e, slots);
    // The arriving rows (16 bytes an entry with a weight): beside the CSR
    // and a round out while they arrive, beside the block once the CSR's
    // entries are freed (move_to_csr_2d).
    const double item = s.sssp ? 16 : 8;
    build = std::max(csr + item * (e + std::min(double(1 << 22), e)), item * e + block);
    kept = 12 * nl;  // the CSR's offsets and dropped counts; the block is the graph
  }
  const double threads = s.threads + 1;
  const double buffers = 16 * s.buffer_items * p * threads;
  double search = 0;
  if (s.bfs) {
    const double bitmaps = s.two_d ? s.n / (8 * s.grid.rows) + s.n / (8 * s.grid.cols) : s.n / 8;
    search = kSearchVertexBytes * static_cast<double>(nl) + 2 * bitmaps + buffers;
    // One rank's team runs: each thread's finds of two levels, at most
    // kTeamEdges (65,536) ids each (graph/bfs/impl/HT_ChunkedSearch.cpp).
    if (s.ranks == 1) search += 16 * s.threads * std::min(nl, 65536.0);
  }
  if (s.sssp) search = std::max(search, t * e / 2 + kSearchVertexBytes * nl + buffers);
  out.graph = kept + block;
  out.kernel1 = std::max(k1, build);
  out.search = search;
  out.total =
      static_cast<double>(kBaselineBytes) + s.pool + std::max(out.kernel1, out.graph + out.search);
  return out;
}

Shape shape_of(const Graph500Config& cfg, int ranks, int threads) {
  Shape s;
  s.ranks = ranks;
  s.threads = threads;
  s.two_d = cfg.partition == Partition::two_d;
  s.grid = s.two_d ? cfg.grid : GridShape{1, ranks};
  s.bfs = cfg.run_bfs;
  s.sssp = cfg.run_sssp;
  s.pool = static_cast<double>(cfg.pool_bytes);
  s.buffer_items = static_cast<double>(cfg.bfs.buffer_items);
  if (cfg.file.empty()) {
    s.n = static_cast<double>(cfg.gen.vertex_count());
    s.m = static_cast<double>(cfg.generated_edges(cfg.gen.scale));
  } else {
    // A Matrix Market header counts them; an edge list is known only once
    // read: a line of at least 8 bytes an edge, and as many vertices.
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(cfg.file, ec);
    const double lines = ec ? 0 : static_cast<double>(bytes) / 8;
    s.m = cfg.graph_file.entries >= 0 ? static_cast<double>(cfg.graph_file.entries) : lines;
    s.n = cfg.graph_file.vertices >= 0 ? static_cast<double>(cfg.graph_file.vertices) : s.m;
  }
  s.wide = cfg.target_bits == TargetBits::b64 ||
           (cfg.target_bits == TargetBits::automatic && s.n > 4294967296.0);
  return s;
}

GridShape grid_for(const Shape& s, int ranks) {
  if (!s.two_d) return {1, ranks};
  return auto_grid(ranks);
}

}  // namespace

double graph500_graph_bytes(const Graph500Config& cfg, int ranks) {
  Shape s = shape_of(cfg, ranks, 1);
  if (s.grid.ranks() != ranks) s.grid = grid_for(s, ranks);
  return model(s).graph;
}

MemoryEstimate graph500_memory(const Graph500Config& cfg, int ranks, int threads,
                               std::uint64_t budget) {
  const Shape s = shape_of(cfg, ranks, threads);
  const Parts p = model(s);
  MemoryEstimate e;
  e.bytes = static_cast<std::uint64_t>(p.total);
  const std::string parts = "the graph " + bytes_text(p.graph) + ", " + bytes_text(p.kernel1) +
                            " while kernel 1 builds it, the searches " + bytes_text(p.search) +
                            " beside it, MPI and Kokkos " +
                            bytes_text(static_cast<double>(kBaselineBytes));
  e.parts = "Graph500/SCALE = " + std::to_string(cfg.gen.scale) + ": " + parts;
  if (!cfg.file.empty()) {
    const std::int64_t n = cfg.graph_file.vertices;
    e.parts = "Graph500/file = " + cfg.file +
              (n >= 0 ? " (" + std::to_string(n) + " vertices)" : "") + ": " + parts;
    // More vertex ids than edge ends: most ids occur in no edge.
    if (n >= 0 && cfg.relabel == Relabel::none && static_cast<double>(n) > 4 * s.m + 1)
      e.fits = "Its ids are sparse (" + std::to_string(n) + " vertices for about " +
               std::to_string(static_cast<long long>(s.m)) +
               " edges): Graph500/relabel = sorted (or first-seen) numbers the ids that occur "
               "0 to n - 1";
    return e;
  }
  if (p.total <= static_cast<double>(budget)) return e;
  const std::string on = " on " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks");
  Shape smaller = s;
  int fits = 0;
  for (int scale = cfg.gen.scale - 1; scale >= 1 && !fits; --scale) {
    smaller.n = std::ldexp(1.0, scale);
    smaller.m = static_cast<double>(cfg.generated_edges(scale));
    smaller.wide = cfg.target_bits == TargetBits::b64;
    if (model(smaller).total <= static_cast<double>(budget)) fits = scale;
  }
  e.fits = fits ? "SCALE " + std::to_string(fits) + " fits" + on : "no SCALE fits" + on;
  Shape wider = s;
  for (long long r = 2LL * ranks; r <= (1LL << 24); r *= 2) {
    wider.ranks = static_cast<int>(r);
    wider.grid = grid_for(s, wider.ranks);
    if (model(wider).total <= static_cast<double>(budget)) {
      e.fits += "; SCALE " + std::to_string(cfg.gen.scale) + " would need about " +
                std::to_string(r) + " ranks with this much memory each";
      break;
    }
  }
  return e;
}

MemoryEstimate graph500_deck_memory(const Teuchos::ParameterList& deck, const Environment& env,
                                    std::uint64_t budget) {
  return graph500_memory(graph500_config(deck, env), env.size(), env.threads(), budget);
}

}  // namespace ht
