#include "drivers/graph500/HT_Graph500Config.hpp"

#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "drivers/graph500/HT_Graph500Memory.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/HT_GridGraph.hpp"
#include "graph/HT_UniformRandom.hpp"
#include "graph/bfs/HT_Bfs2D.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

using Teuchos::EnhancedNumberValidator;
using Teuchos::rcp;

namespace {

// The BFS keys: the variant and what some variants read, each doc naming its
// variants from the table (HT_BfsVariant.hpp), never a list of its own.
void set_bfs_keys(Teuchos::ParameterList& g, const BfsOptions& defaults) {
  std::vector<std::string> names;
  for (const BfsVariant& v : bfs_variants()) names.push_back(v.name);
  g.set("variant", std::string("hybrid"), "BFS variant. " + bfs_variants_doc(), one_of(names));
  const std::string tasks = bfs_variant_names([](const BfsVariant& v) {
    return v.work == BfsWork::tasks || v.work == BfsWork::tasks_and_io;
  });
  const std::string receive =
      bfs_variant_names([](const BfsVariant& v) { return v.work == BfsWork::tasks_and_io; });
  const std::string chunked =
      bfs_variant_names([](const BfsVariant& v) { return v.work == BfsWork::chunks; });
  const std::string bottom_up = bfs_variant_names([](const BfsVariant& v) { return v.bottom_up; });
  g.set("tasks", defaults.tasks,
        "NT, tasks per rank and level for " + tasks +
            "; 0: one per Kokkos thread, plus the receive task for " + receive +
            " (at least 2: one receives)",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 20)));
  g.set("chunks", defaults.chunks,
        chunked +
            ": most chunks (one task each) a level's frontier edges are cut into, at least "
            "2048 edges each; fast workers take more of them. sssp: most chunks a bucket's "
            "entries are cut into, at least 64 each",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 16)));
  g.set("direction", std::string(mode_name(defaults.direction.mode)),
        bottom_up +
            ": auto switches by Beamer's heuristic (alpha, beta); top-down or bottom-up "
            "forces every level",
        one_of(kDirectionModes.names()));
  g.set("alpha", defaults.direction.alpha,
        bottom_up +
            ": go bottom-up when the frontier's edges exceed the unexplored edges / alpha "
            "(Beamer et al. SC 2012; 15 as gapbs)",
        rcp(new EnhancedNumberValidator<double>(1e-3, 1e9)));
  g.set("beta", defaults.direction.beta,
        bottom_up +
            ": back to top-down when the frontier shrinks below the vertices / beta "
            "(18 as gapbs)",
        rcp(new EnhancedNumberValidator<double>(1e-3, 1e9)));
}

}  // namespace

Teuchos::RCP<const Teuchos::ParameterList> graph500_parameters() {
  const BfsOptions defaults;
  auto p = rcp(new Teuchos::ParameterList("graph500_bfs"));
  auto& g = p->sublist("Graph500", false, "Graph500 kernels 1, 2 and 3");
  g.set("SCALE", 16, "log2 of the number of vertices",
        rcp(new EnhancedNumberValidator<int>(1, 42)));
  g.set("edgefactor", 16, "edges per vertex (edges = edgefactor * 2^SCALE)",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 16)));
  g.set("generator", std::string("kronecker"),
        "kernel 1's graph without a file: kronecker (the specification's), uniform (each end "
        "uniform over the vertices, as gapbs -u) or grid (2^floor(SCALE/2) x 2^ceil(SCALE/2) "
        "vertices, each joined to its right and lower neighbour: a road-like graph of high "
        "diameter; edgefactor has no effect); weights uniform in [0, 1) for each",
        one_of(kGenerators.names()));
  g.set("NBFS", 64, "search keys (the specification asks for 64)",
        rcp(new EnhancedNumberValidator<int>(1, 64)));
  g.set("seed", 2, "seed of the generator and of the search keys",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 30)));
  set_bfs_keys(g, defaults);
  g.set("kernels", std::string("bfs,sssp"),
        "the search kernels, each over the same kernel-1 graph and keys in a loop of its own: "
        "bfs (kernel 2), sssp (kernel 3, single-source shortest paths; the graph then carries "
        "weights), or bfs,sssp (both, as a Graph500 3.0 submission runs them)",
        one_of({"bfs", "sssp", "bfs,sssp"}));
  g.set("delta", std::string("auto"),
        "sssp: delta-stepping's bucket width, a number > 0, or auto: 4 times the mean edge weight "
        "over the squared mean degree (at most the heaviest weight): about 0.002 on the Kronecker "
        "graphs (degree 32), the width measured fastest at SCALE 18 and 20, and 32 on a grid of "
        "weights 1 to 255 (degree 4) (docs/performance/sssp.md#delta)");
  g.set("sssp_variant", std::string(variant_name(SsspOptions{}.variant)),
        "sssp: fused (a vertex taken from its bucket relaxes all its edges, and a rank goes on "
        "with its own refills of the bucket before the global step, as gapbs's sssp) or classic "
        "(Meyer and Sanders: light edges in phases, then each vertex's heavy edges once)",
        one_of(kSsspVariants.names()));
  g.set("file", std::string(),
        "kernel 1 from a file instead of the generator (empty): a Matrix Market .mtx (coordinate; "
        "real, integer or pattern; general or symmetric), a gapbs edge list .el (u v) or .wel "
        "(u v w), a DIMACS shortest-path .gr (a u v w, from 1) or a SNAP edge list .txt or .snap "
        "(u v, from 0); entries are undirected edges, SSSP needs weights. SCALE and edgefactor are "
        "then "
        "those of the file's graph");
  g.set("relabel", std::string("none"),
        "kernel 1 from a file: none (vertex ids as the file has them: an edge list has max id + 1 "
        "vertices), first-seen or sorted (the ids that occur numbered 0 to n - 1 in the order "
        "they first occur, or in rising order: for files whose ids are sparse, as SNAP's; "
        "output names the file's ids)",
        one_of(kRelabels.names()));
  g.set("target_bits", std::string("auto"),
        "bits per stored neighbour id: auto (32 when there are at most 2^32 vertices, as gapbs "
        "stores them, else 64), 32 or 64",
        one_of(kTargetBits.names()));
  g.set("row_order", std::string("degree"),
        "kernel 1's rows, each neighbour once (SSSP keeps the lightest copy): degree (each row's "
        "neighbours by degree, highest first: a bottom-up BFS step stops at a row's hub) or input "
        "(as the edges came). TEPS count the input edges, duplicates included, either way",
        one_of(kRowOrders.names()));
  g.set("partition", std::string("1d"),
        "the graph's partition: 1d (a rank holds its vertices' rows), 2d (an R x C grid of ranks, "
        "rank (i, j) holding the edges between row block i and column block j; the frontier "
        "travels along grid columns and rows only; variants with a 2D kernel: " +
            variants_with_2d_kernel() + ") or auto (2d from " + std::to_string(kAutoTwoDRanks) +
            " ranks on where the variant has a 2D kernel and, with grid auto, all the ranks form a "
            "grid of 2 rows or more whose peers and frontier share stay within twice the nearest "
            "square grid's; else 1d, with a note; kernels sssp alone: 1d). Both kernels and "
            "their validators search the partition's graph, which is the only copy kept",
        one_of(kPartitions.names()));
  g.set("grid", std::string("auto"),
        "partition 2d: the grid of ranks, RxC with R C at most the ranks (e.g. 2x4 on 8; ranks "
        "beyond R C are spare: no block, no vertex), or auto (the most square grid of all the "
        "ranks, R <= C, where it has 2 rows or more and peers, frontier share and graph share "
        "within twice the nearest square grid's; else the most square such grid of the most "
        "ranks fewer, the rest spare: 2x2 on 5, 2x3 on 7, 3x4 on 13)");
  g.set("buffer_items", static_cast<int>(defaults.buffer_items),
        "coalescing buffer per destination rank, in (vertex, parent) pairs; a full buffer is sent",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 24)));
  add_common_parameters(*p, "graph500_bfs");
  return p;
}

AppSpec graph500_spec() {
  return {"graph500_bfs",
          "Graph500 kernels 1, 2 and 3: Kronecker graph, distributed CSR, BFS and SSSP from the "
          "search keys with every tree validated",
          graph500_parameters(),
          {{"-s", "--scale", "Graph500/SCALE"},
           {"-v", "--variant", "Graph500/variant"},
           {"-n", "--nbfs", "Graph500/NBFS"}},
          [](const Teuchos::ParameterList& deck, const Environment& env) {
            graph500_config(deck, env);
          },
          {},
          graph500_deck_memory};
}

namespace {

// The keys the deck or an option set, to other than their defaults, that
// this run does not read under the other keys: "Graph500/grid = 2x2 has no
// effect with Graph500/partition = 1d", so that a setting silently ignored
// is not taken for one that took effect.
std::vector<std::string> unused_keys(const Teuchos::ParameterList& d, const Graph500Config& c,
                                     const std::string& partition) {
  const auto defaults = graph500_parameters();
  const auto& valid = defaults->sublist("Graph500");
  std::vector<std::string> notes;
  const auto note = [&](std::initializer_list<const char*> keys, const std::string& because) {
    for (const char* key : keys) {
      const Teuchos::ParameterEntry& e = d.getEntry(key);
      if (!e.isDefault() && !(e.getAny(false) == valid.getEntry(key).getAny(false)))
        notes.push_back("Graph500/" + std::string(key) + " = " +
                        Teuchos::toString(e.getAny(false)) + " has no effect with " + because);
    }
  };
  const std::string kernels = "Graph500/kernels = " + std::string(c.kernels());
  const std::string variant = "Graph500/variant = " + std::string(c.variant->name);
  if (!c.run_bfs) {
    note({"variant", "direction", "alpha", "beta", "tasks"}, kernels);
  } else {
    if (!c.variant->bottom_up)
      note({"direction", "alpha", "beta"}, variant);
    else if (c.bfs.direction.mode != DirectionPolicy::Mode::automatic)
      note({"alpha", "beta"}, "Graph500/direction = " + d.get<std::string>("direction"));
    if (c.variant->work != BfsWork::tasks && c.variant->work != BfsWork::tasks_and_io)
      note({"tasks"}, variant);
    if (c.variant->work != BfsWork::chunks && !c.run_sssp)
      note({"chunks"}, variant + " and " + kernels);
  }
  if (c.partition == Partition::one_d)
    note({"grid"}, "Graph500/partition = " + partition + (partition == "1d" ? "" : ", 1d here"));
  if (!c.run_sssp) note({"delta", "sssp_variant"}, kernels);
  if (!c.file.empty())
    note({"SCALE", "edgefactor", "generator"}, "Graph500/file = " + c.file);
  else
    note({"relabel"}, "a generated graph (no Graph500/file)");
  if (c.file.empty() && c.generator == Generator::grid)
    note({"edgefactor"}, "Graph500/generator = grid");
  return notes;
}

// One number in a note: "1.06".
std::string fixed2(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", x);
  return b;
}

// Why \p ranks ranks have no balanced grid of them all (comm/HT_Grid2D.hpp):
// what their most square grid would cost a rank against the nearest square.
std::string unbalanced_why(int ranks) {
  const GridShape most = most_square_grid(ranks), square = nearest_square_grid(ranks);
  std::string why;
  const auto add = [&](const std::string& w) { why += (why.empty() ? "" : ", ") + w; };
  if (most.rows < 2) add("is one row");
  if (most.peers() > 2 * square.peers())
    add("gives a rank " + std::to_string(most.peers()) + " peers (" +
        std::to_string(square.peers()) + " on " + square.name() + ")");
  if (most.share() > 2 * square.share())
    add("holds " + fixed2(most.share()) + " N bits of a frontier a rank (" +
        fixed2(square.share()) + " N on " + square.name() + ")");
  return "their most square grid, " + most.name() + ", " + why;
}

// auto_grid(\p ranks) and its spare ranks: "2x3 (rank 6 spare)".
std::string auto_grid_text(int ranks) {
  const GridShape g = auto_grid(ranks);
  const std::string spare = spare_ranks(g, ranks);
  return g.name() + (spare.empty() ? "" : " (" + spare + ")");
}

// Rows or columns (slots) of the widest block of \p s's 2D partition of \p n
// vertices: a rank's piece, ceil(n / R C) vertices padded to a word, times
// the longer side (Csr2D::row_slots, col_slots).
std::int64_t widest_block(const GridShape& s, std::int64_t n) {
  const std::int64_t ranks = std::int64_t(s.rows) * s.cols;
  const std::int64_t piece =
      Bitmap::first_of(Bitmap::words_for(std::max<std::int64_t>(1, (n + ranks - 1) / ranks)));
  return std::max(s.rows, s.cols) * piece;
}

// Block indices are 32-bit (BlockIndex): a block of more slots cannot be built.
constexpr std::int64_t kMostBlockSlots = std::int64_t(1) << 32;

// Empty if \p s's blocks of \p n vertices fit the block indices; else why
// not, naming the grid, the graph (\p graph: "Graph500/SCALE = 33") and the
// grids accepted.
std::string blocks_too_wide(const GridShape& s, std::int64_t n, const std::string& graph) {
  const std::int64_t widest = widest_block(s, n);
  if (widest <= kMostBlockSlots) return "";
  const int ranks = s.rows * s.cols;
  const std::int64_t side = kMostBlockSlots / (widest / std::max(s.rows, s.cols));
  const GridShape most = most_square_grid(ranks);
  const std::string example = std::max(most.rows, most.cols) <= side
                                  ? " (e.g. " + most.name() + ")"
                                  : " (no grid of " + std::to_string(ranks) + " ranks has both)";
  return "Graph500/grid = " + s.name() + " on " + std::to_string(ranks) + " ranks with " + graph +
         ": a block of " + std::to_string(widest) +
         " rows or columns exceeds 2D's 32-bit block indices (2^32); accepted: R and C at most " +
         std::to_string(side) + example + ", or Graph500/partition = 1d";
}

// Graph500/partition and Graph500/grid for \p ranks ranks, into c.partition
// and c.grid (c's kernels, variant, file and SCALE read already).  Returns
// the note partition auto leaves where it takes 1D for want of a 2D grid.
std::string resolve_partition(const Teuchos::ParameterList& d, int ranks, Graph500Config& c) {
  const Partition partition =
      kPartitions.named(d.get<std::string>("partition"), "Graph500/partition");
  if (partition == Partition::two_d && c.run_bfs) require_2d_kernel(*c.variant);
  const std::string grid = d.get<std::string>("grid");
  // auto on auto's grid: 2D on a balanced grid (comm/HT_Grid2D.hpp) whose
  // blocks fit, else 1D with a note saying why.
  const bool automatic = partition == Partition::automatic && grid == "auto";
  std::string auto_note;
  if (partition == Partition::automatic) {
    c.partition = c.run_bfs && has_2d_kernel(*c.variant) && ranks >= kAutoTwoDRanks
                      ? Partition::two_d
                      : Partition::one_d;
    if (c.partition == Partition::two_d && automatic && !balanced_grid(ranks)) {
      c.partition = Partition::one_d;
      auto_note = "Graph500/partition = auto takes 1d on " + std::to_string(ranks) +
                  " ranks: " + unbalanced_why(ranks) +
                  "; auto takes a grid of all the ranks, 2 rows or more, within twice the "
                  "nearest square grid's. Graph500/partition = 2d takes " +
                  auto_grid_text(ranks);
    }
  } else {
    c.partition = partition;  // both kernels have a 2D form
    if (c.partition == Partition::two_d && grid == "auto" && !balanced_grid(ranks))
      auto_note = "Graph500/grid = auto takes " + auto_grid_text(ranks) + " on " +
                  std::to_string(ranks) + " ranks: " + unbalanced_why(ranks);
  }
  // The grid must fit the ranks where it is used (2d); its form, always.
  int rows = 0, cols = 0;
  char more = 0;
  const bool rxc = std::sscanf(grid.c_str(), "%dx%d%c", &rows, &cols, &more) == 2 && rows > 0 &&
                   cols > 0 && static_cast<long long>(rows) * cols <= 1 << 30;
  c.grid = parse_grid("Graph500/grid", grid,
                      c.partition == Partition::one_d && rxc ? rows * cols : ranks);
  // A grid whose blocks would not fit the block indices: refused now, not in
  // kernel 1 (a file's vertices: check_graph_vertices).
  if (c.partition == Partition::two_d && c.file.empty()) {
    const std::string scale = "Graph500/SCALE = " + std::to_string(c.gen.scale);
    const std::string why = blocks_too_wide(c.grid, c.gen.vertex_count(), scale);
    if (!why.empty() && !automatic) throw UsageError(why);
    if (!why.empty()) {
      c.partition = Partition::one_d;
      auto_note = "Graph500/partition = auto takes 1d with " + scale + ": the blocks of " +
                  c.grid.name() + " would have " +
                  std::to_string(widest_block(c.grid, c.gen.vertex_count())) +
                  " rows or columns, more than 2D's 32-bit block indices hold (2^32)";
    }
  }
  return auto_note;
}

// The file's header, checked against the run; a file's vertex count is known
// here for .mtx and .gr, after reading for edge lists.
void open_graph_file(Graph500Config& c) {
  c.graph_file = EdgeFile::open(c.file);
  if (c.run_sssp && !c.graph_file.has_weights)
    throw UsageError("Graph500/file = " + c.file + ": the graph has no weights (a ." +
                     format_name(c.graph_file.format) +
                     (c.graph_file.format == EdgeFile::Format::mtx ? " pattern" : "") +
                     " file); SSSP needs a .wel or .gr file or a real or integer .mtx file (or "
                     "Graph500/kernels = bfs)");
  if (c.graph_file.vertices >= 0) check_graph_vertices(c, c.graph_file.vertices);
}

// This rank's reading of the deck, the graph file not opened.
Graph500Config config_here(const Teuchos::ParameterList& deck, const Environment& env) {
  const auto& d = deck.sublist("Graph500");
  Graph500Config c;
  c.gen.scale = d.get<int>("SCALE");
  c.gen.edgefactor = d.get<int>("edgefactor");
  c.gen.seed = static_cast<std::uint64_t>(d.get<int>("seed"));
  c.generator = kGenerators.named(d.get<std::string>("generator"), "Graph500/generator");
  c.nbfs = d.get<int>("NBFS");
  c.variant = &bfs_variant(d.get<std::string>("variant"));
  BfsOptions opt;
  opt.buffer_items = static_cast<std::size_t>(d.get<int>("buffer_items"));
  opt.tasks = d.get<int>("tasks");
  opt.chunks = d.get<int>("chunks");
  opt.direction.mode = kDirectionModes.named(d.get<std::string>("direction"), "Graph500/direction");
  opt.direction.alpha = d.get<double>("alpha");
  opt.direction.beta = d.get<double>("beta");
  c.bfs = c.variant->resolve(opt, env.threads());

  c.profile = deck.sublist("Profile").get<bool>("enabled");
  c.tables = deck.sublist("Output").get<bool>("tables");
  const std::string kernels = d.get<std::string>("kernels");
  c.run_bfs = kernels.find("bfs") != std::string::npos;
  c.run_sssp = kernels.find("sssp") != std::string::npos;
  // MPI's thread level: the highest that a kernel which runs needs.
  std::string needs = "Graph500/kernels = " + kernels;
  if (c.run_bfs) {
    c.mpi_thread_level = c.variant->mpi_thread_level;
    needs += " with Graph500/variant = " + std::string(c.variant->name);
  }
  if (c.run_sssp && DeltaStepping::kMpiThreadLevel > c.mpi_thread_level) {
    c.mpi_thread_level = DeltaStepping::kMpiThreadLevel;
    needs = "Graph500/kernels = " + kernels + " (SSSP's tasks make MPI calls)";
  }
  env.require_thread_level(c.mpi_thread_level, needs);
  const std::string delta = d.get<std::string>("delta");
  if (delta != "auto") {  // auto: SsspOptions::delta 0
    char* end = nullptr;
    c.sssp_opt.delta = std::strtod(delta.c_str(), &end);
    if (delta.empty() || *end != '\0' || !(c.sssp_opt.delta > 0) ||
        !std::isfinite(c.sssp_opt.delta))
      throw UsageError("Graph500/delta = " + delta +
                       ": the bucket width must be a positive, finite number or auto");
  }
  c.file = d.get<std::string>("file");
  if (!c.file.empty()) EdgeFile::format_of(c.file, "Graph500/file");  // before other keys' errors
  c.target_bits = kTargetBits.named(d.get<std::string>("target_bits"), "Graph500/target_bits");
  if (c.target_bits == TargetBits::b32 && c.file.empty() && c.gen.scale > 32)
    throw UsageError("Graph500/target_bits = 32 with Graph500/SCALE = " +
                     std::to_string(c.gen.scale) + ": 32-bit ids hold SCALE <= 32 (or auto, 64)");
  c.row_order = kRowOrders.named(d.get<std::string>("row_order"), "Graph500/row_order");
  c.relabel = kRelabels.named(d.get<std::string>("relabel"), "Graph500/relabel");
  c.sssp_opt.variant =
      kSsspVariants.named(d.get<std::string>("sssp_variant"), "Graph500/sssp_variant");
  c.sssp_opt.chunks = opt.chunks;
  c.sssp_opt.buffer_items = opt.buffer_items;
  const std::string auto_note = resolve_partition(d, env.size(), c);
  c.level_end = Exchange::resolve(Exchange::Termination::automatic, env.size());

  // One pool serves both kernels' loops: sized for, and checked against, the
  // larger need of those that run.
  const std::size_t bfs_need = c.run_bfs ? c.variant->pool_bytes(c.bfs) : 0;
  const std::size_t sssp_need = c.run_sssp ? DeltaStepping::pool_bytes(c.sssp_opt) : 0;
  const std::size_t need = std::max(bfs_need, sssp_need);
  c.pool_bytes = task_pool_bytes(deck, need);
  if (c.pool_bytes < need) {
    std::string key = "Graph500/chunks = " + std::to_string(c.sssp_opt.chunks);  // SSSP's tasks
    if (bfs_need >= sssp_need)
      key = c.variant->work == BfsWork::chunks ? "Graph500/chunks = " + std::to_string(c.bfs.chunks)
                                               : "Graph500/tasks = " + std::to_string(c.bfs.tasks);
    throw UsageError(key + " needs a task pool of " + std::to_string((need >> 20) + 1) +
                     " MiB; Runtime/pool_MiB = " + std::to_string(c.pool_bytes >> 20) +
                     " is too small (0 sizes it from the work)");
  }
  if (c.run_sssp && c.file.empty() && c.gen.scale > 32)
    throw UsageError("Graph500/SCALE = " + std::to_string(c.gen.scale) +
                     " with Graph500/kernels = " + kernels +
                     ": SSSP keeps parents in 32 bits, SCALE <= 32 (or kernels = bfs)");
  if (env.rank() == 0) {
    if (!auto_note.empty()) std::fprintf(stderr, "note: %s\n", auto_note.c_str());
    for (const std::string& n : unused_keys(d, c, d.get<std::string>("partition")))
      std::fprintf(stderr, "note: %s\n", n.c_str());
  }
  return c;
}

}  // namespace

Graph500Config graph500_config(const Teuchos::ParameterList& deck, const Environment& env) {
  // The deck is rank 0's, but a rank's threads and its node's files are its
  // own: what one rank refuses, every rank refuses, before any collective.
  Graph500Config c;
  on_all_ranks(
      env.comm(), [&] { c = config_here(deck, env); },
      "; the other ranks accept it: what differs on this node (its thread count, its files)?");
  if (!c.file.empty())  // the file's header now, not in the middle of the run
    on_all_ranks(
        env.comm(), [&] { open_graph_file(c); }, "; the graph file must be readable on every node");
  return c;
}

const char* Graph500Config::kernels() const {
  return run_bfs && run_sssp ? "bfs,sssp" : run_bfs ? "bfs" : "sssp";
}

std::int64_t Graph500Config::generated_edges(int scale) const {
  switch (generator) {
    case Generator::uniform:
      return UniformRandom{scale, gen.edgefactor, gen.seed}.edge_count();
    case Generator::grid:
      return GridGraph{scale, gen.seed}.edge_count();
    case Generator::kronecker:
      break;
  }
  return std::int64_t(gen.edgefactor) << scale;
}

std::string Graph500Config::generated_graph() const {
  const std::string scale_ef =
      "SCALE " + std::to_string(gen.scale) + ", edgefactor " + std::to_string(gen.edgefactor);
  switch (generator) {
    case Generator::uniform:
      return "uniform random, " + scale_ef;
    case Generator::grid: {
      const GridGraph g{gen.scale, gen.seed};
      return "grid " + std::to_string(g.rows()) + " x " + std::to_string(g.columns());
    }
    case Generator::kronecker:
      break;
  }
  return scale_ef;
}

void check_graph_vertices(const Graph500Config& cfg, std::int64_t vertices) {
  const std::int64_t most = std::int64_t(1) << 32;
  if (cfg.run_sssp && vertices > most)
    throw UsageError("Graph500/file = " + cfg.file + ": " + std::to_string(vertices) +
                     " vertices; SSSP keeps parents in 32 bits (at most 2^32 vertices)");
  if (cfg.target_bits == TargetBits::b32 && vertices > most)
    throw UsageError("Graph500/target_bits = 32 with Graph500/file = " + cfg.file +
                     ": more than 2^32 vertices (use auto or 64)");
  if (cfg.partition == Partition::two_d) {
    const std::string why = blocks_too_wide(
        cfg.grid, vertices,
        "Graph500/file = " + cfg.file + " (" + std::to_string(vertices) + " vertices)");
    if (!why.empty()) throw UsageError(why);
  }
}

}  // namespace ht
