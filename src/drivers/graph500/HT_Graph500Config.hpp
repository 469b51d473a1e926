#pragma once
/// \file HT_Graph500Config.hpp
/// \brief graph500_bfs's deck (every parameter, its default, meaning and
/// validator) and the run's settings read from it.  The deck's usage errors
/// are raised here, before anything runs: the cross-key rules and a graph
/// file's (its header is read here).  Two depend on the graph and come from
/// the run: an edge list's vertex count, known once read (kernel 1 calls
/// check_graph_vertices()), and a graph with no edge to search from.
///
/// Examples: src/drivers/graph500/HT_Graph500Driver.cpp,
/// tests/drivers/graph500/tstGraph500Driver.cpp.
#include <mpi.h>

#include <Teuchos_ParameterList.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "app/HT_App.hpp"
#include "comm/HT_Exchange.hpp"
#include "comm/HT_Grid2D.hpp"
#include "graph/HT_EdgeFile.hpp"
#include "graph/HT_Kronecker.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/HT_Targets.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "runtime/HT_Choices.hpp"

namespace ht {

/// \brief Kernel 1's generator, when there is no graph file (Graph500/generator).
enum class Generator {
  kronecker,  ///< the specification's (HT_Kronecker.hpp)
  uniform,    ///< uniform random ends (HT_UniformRandom.hpp)
  grid        ///< a 2D grid, road-like (HT_GridGraph.hpp)
};
/// \brief The deck's names of the generators.
inline constexpr Choices<Generator, 3> kGenerators{{{Generator::kronecker, "kronecker"},
                                                    {Generator::uniform, "uniform"},
                                                    {Generator::grid, "grid"}}};

/// \brief How kernel 2's graph is split among the ranks (Graph500/partition).
enum class Partition {
  one_d,      ///< 1D: a rank owns its vertices' rows (HT_Csr.hpp)
  two_d,      ///< 2D: a grid of ranks, a block each (HT_Csr2D.hpp)
  automatic,  ///< 2D from kAutoTwoDRanks ranks on, where the variant has a 2D kernel and
              ///< the ranks a balanced grid of them all (comm/HT_Grid2D.hpp)
};
/// \brief The deck's names of the partitions.
inline constexpr Choices<Partition, 3> kPartitions{
    {{Partition::one_d, "1d"}, {Partition::two_d, "2d"}, {Partition::automatic, "auto"}}};
/// \brief Graph500/partition = auto takes 2D from this many ranks on.
/// On 2 ranks 1D is faster (hybrid, paired, 2D at 0.92x at SCALE 18 and 20);
/// on 4, 2D is 1.25x at SCALE 18 and 0.96x at SCALE 20
/// (perf/graph500/partition.sh), and from 4 ranks 2D moves fewer bytes a
/// search at every P counted (docs/scaling.md).
inline constexpr int kAutoTwoDRanks = 4;

class Environment;

/// \brief Every parameter of graph500_bfs, with defaults, docs and validators.
Teuchos::RCP<const Teuchos::ParameterList> graph500_parameters();
/// \brief The graph500_bfs application: its name, purpose and parameters.
AppSpec graph500_spec();

/// \brief A run's settings, read from a validated deck and checked across keys.
struct Graph500Config {
  /// SCALE, edgefactor and seed, every generator's; Kronecker's own
  /// parameters besides.
  Kronecker gen;
  Generator generator = Generator::kronecker;  ///< Graph500/generator
  int nbfs = 64;
  const BfsVariant* variant = nullptr;
  BfsOptions bfs;              ///< resolved for this rank's Kokkos threads
  std::size_t pool_bytes = 0;  ///< the task pool (Runtime/pool_MiB, or derived)
  bool profile = true;
  bool tables = false;   ///< Output/tables: print the per-level and per-phase tables
  bool run_bfs = true;   ///< kernel 2 runs (Graph500/kernels)
  bool run_sssp = true;  ///< kernel 3 runs (Graph500/kernels): the graph gets weights
  SsspOptions sssp_opt;  ///< Graph500/delta; chunks and buffers as the BFS's
  std::string file;      ///< Graph500/file: kernel 1 reads it; empty: generated
  EdgeFile graph_file;   ///< its header, when \c file is given
  TargetBits target_bits = TargetBits::automatic;  ///< Graph500/target_bits
  RowOrder row_order = RowOrder::degree;           ///< Graph500/row_order
  Relabel relabel = Relabel::none;                 ///< Graph500/relabel
  /// Called on every rank once kernel 1 knows a file's vertex count, before
  /// it allocates the CSR (the driver's memory check); may throw.
  std::function<void(const EdgeFile&)> file_graph_fits;
  /// Graph500/partition resolved for this run: one_d or two_d (kernel 2;
  /// kernel 3 and the validators run on the 1D CSR either way).
  Partition partition = Partition::one_d;
  GridShape grid;  ///< Graph500/grid resolved for the run's ranks (two_d; R C <= ranks)
  /// How the exchanges' levels end (HT_EXCHANGE_END, else by rank count).
  Exchange::Termination level_end = Exchange::Termination::markers;
  /// The MPI thread level the run needs: the highest of the kernels that run.
  int mpi_thread_level = MPI_THREAD_SINGLE;

  /// \brief "bfs", "sssp" or "bfs,sssp": the kernels that run.
  const char* kernels() const;
  /// \brief The generated graph's input edges at \p scale (the deck's
  /// edgefactor, seed and generator).
  std::int64_t generated_edges(int scale) const;
  /// \brief The generated graph in words: "SCALE 20, edgefactor 16" for
  /// Kronecker's, "uniform random, SCALE 20, edgefactor 16", "grid 1024 x 1024".
  std::string generated_graph() const;
};

/// \brief Reads \p deck (validated against graph500_parameters()) for a run
/// under \p env; UsageError naming the key, the value and what is accepted.
/// A key set that has no effect under the others gets a note on rank 0's
/// stderr: `note: Graph500/grid = 2x2 has no effect with Graph500/partition = 1d`;
/// so does `auto` where it takes 1D for want of a balanced grid, and
/// `grid: auto` where it leaves ranks spare (comm/HT_Grid2D.hpp).  A 2D grid
/// whose blocks exceed the 32-bit block indices is a UsageError naming it.
Graph500Config graph500_config(const Teuchos::ParameterList& deck, const Environment& env);

/// \brief The rules on a graph file's vertex count (SSSP's 32-bit parents,
/// 32-bit targets): UsageError naming Graph500/file.  graph500_config checks
/// a Matrix Market file's header with it; kernel 1 an edge list once read.
void check_graph_vertices(const Graph500Config& cfg, std::int64_t vertices);

}  // namespace ht
