#include "drivers/graph500/HT_ConstructGraph.hpp"

#include <cmath>

#include "comm/HT_Wait.hpp"
#include "drivers/HT_Log.hpp"
#include "graph/HT_EdgeFile.hpp"
#include "graph/HT_RowOrder.hpp"
#include "runtime/HT_HugePages.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

namespace {

// The input edges, self-loops not counted: both ends of each are stored or
// counted as dropped duplicates.
long long input_edges(const Csr& g, MPI_Comm comm) {
  long long ends = static_cast<long long>(g.targets.size());
  for (const std::uint32_t d : g.dropped) ends += d;
  return sum_over_ranks(ends, comm) / 2;
}

// The ranks that own vertices: the 2D grid's (its spare ranks own none), or all.
int owners_of(const Graph500Config& cfg) {
  return cfg.partition == Partition::two_d ? cfg.grid.ranks() : 0;
}

// Kernel 1 from the deck's generator, with its weights for kernel 3.
template <class Gen>
Csr generated(const Gen& gen, const Graph500Config& cfg, MPI_Comm comm, double* seconds) {
  constexpr std::int64_t chunk = std::int64_t(1) << 20;
  return cfg.run_sssp
             ? build_weighted_csr(gen, comm, seconds, cfg.target_bits, chunk, owners_of(cfg))
             : build_csr(gen, comm, seconds, cfg.target_bits, chunk, owners_of(cfg));
}

// A file's graph: read and built in one pass over each rank's byte range.
void from_file(const Graph500Config& cfg, MPI_Comm comm, Graph500Graph& out) {
  EdgeFile file = cfg.graph_file;
  Graph500Block& st = out.header;
  ReadOptions opt;
  opt.bits = cfg.target_bits;
  opt.relabel = cfg.relabel;
  opt.owners = owners_of(cfg);
  // An edge list's vertex count is known only now: its rules and the memory
  // it needs are checked before the CSR takes it.
  opt.before_build = [&](const EdgeFile& f) {
    check_graph_vertices(cfg, f.vertices);
    if (cfg.file_graph_fits) cfg.file_graph_fits(f);
  };
  out.csr = read_csr(file, cfg.run_sssp, comm, &st.generation_seconds, opt);
  out.vertices = file.vertices;
  out.original_ids = std::move(file.original_ids);
  // Each undirected edge is stored twice.
  out.edges = input_edges(out.csr, comm);
  // The reference block's SCALE and edgefactor, of the file's graph.
  st.scale = 0;
  while ((std::int64_t(1) << st.scale) < file.vertices) ++st.scale;
  st.edgefactor = static_cast<int>(
      std::llround(static_cast<double>(file.entries >= 0 ? file.entries : out.edges) /
                   static_cast<double>(file.vertices)));
}

}  // namespace

Graph500Graph construct_graph(const Graph500Config& cfg, MPI_Comm comm, std::FILE* log) {
  Graph500Graph out;
  Graph500Block& st = out.header;
  st.scale = cfg.gen.scale;
  st.edgefactor = cfg.gen.edgefactor;
  MPI_Comm_size(comm, &st.mpi_processes);
  // Without an edge list: the generator's pieces go straight into the CSR,
  // twice (HT_Csr.hpp), so the edges never take memory of their own.  The
  // generating (or a file's reading) is timed inside and reported apart.
  double kernel1 = 0;
  {
    Phase p("Graph500: construction", kernel1);
    if (!cfg.file.empty()) {
      say(log, "kernel 1: reading %s into the CSR\n", cfg.file.c_str());
      from_file(cfg, comm, out);
    } else {
      out.vertices = cfg.gen.vertex_count();
      out.edges = cfg.generated_edges(cfg.gen.scale);
      say(log, "kernel 1: generating the edges and building the CSR (two passes%s)\n",
          cfg.run_sssp ? ", with weights" : "");
      double* const seconds = &st.generation_seconds;
      if (cfg.generator == Generator::uniform)
        out.csr = generated(UniformRandom{cfg.gen.scale, cfg.gen.edgefactor, cfg.gen.seed}, cfg,
                            comm, seconds);
      else if (cfg.generator == Generator::grid)
        out.csr = generated(GridGraph{cfg.gen.scale, cfg.gen.seed}, cfg, comm, seconds);
      else
        out.csr = generated(cfg.gen, cfg, comm, seconds);
      // The reference block's edgefactor: the grid's own, about 2.
      st.edgefactor = static_cast<int>(
          std::llround(static_cast<double>(out.edges) / static_cast<double>(out.vertices)));
    }
    // Each neighbour once in a row, so that a search scans it once (TEPS
    // still count the input's duplicates, Csr::dropped).
    if (cfg.row_order == RowOrder::degree) {
      say(log, "kernel 1: ordering rows by degree\n");
      order_rows(out.csr, comm);
    } else {
      drop_duplicates(out.csr);
    }
    out.stored_edges = sum_over_ranks(static_cast<long long>(out.csr.targets.size()), comm) / 2;
    out.target_bits = out.csr.targets.wide() ? 64 : 32;
    if (cfg.partition == Partition::two_d) {  // the ordered rows, split into blocks
      out.grid = std::make_unique<Grid2D>(comm, cfg.grid);
      // One copy of the graph: the block, with its weights; the CSR keeps
      // its offsets (degrees, for the keys and TEPS).
      out.blocks = move_to_csr_2d(out.csr, *out.grid);
    }
    out.csr_held.set(out.csr.bytes());
    // Searches read these at random: huge pages save a TLB miss a row.
    prefer_huge_pages(out.csr.offsets);
    out.csr.targets.visit([&](const auto* t) { prefer_huge_pages(t, out.csr.targets.bytes()); });
    prefer_huge_pages(out.csr.weights);
    barrier(comm);
  }
  const double mine[2] = {st.generation_seconds, kernel1 - st.generation_seconds};
  double slowest[2];
  max_over_ranks(mine, slowest, 2, comm);
  st.generation_seconds = slowest[0];
  st.construction_seconds = slowest[1];
  return out;
}

}  // namespace ht
