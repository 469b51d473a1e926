#include "drivers/HT_Graph500Driver.hpp"

#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <numeric>
#include <sstream>

#include "comm/HT_Wait.hpp"
#include "drivers/HT_Trials.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_EdgeFile.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/HT_TepsEdges.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"
#include "io/HT_Results.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

namespace {

using Teuchos::EnhancedNumberValidator;
using Teuchos::rcp;

// Pads per-key rows of different lengths into one [keys x longest] table.
std::vector<double> table(const std::vector<std::vector<double>>& rows, std::size_t& width) {
  width = 1;
  for (const auto& r : rows) width = std::max(width, r.size());
  std::vector<double> t(rows.size() * width, 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k)
    std::copy(rows[k].begin(), rows[k].end(), t.begin() + k * width);
  return t;
}

double mean(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

void say(std::FILE* log, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void say(std::FILE* log, const char* fmt, ...) {
  if (!log) return;
  va_list args;
  va_start(args, fmt);
  std::vfprintf(log, fmt, args);
  va_end(args);
  std::fflush(log);
}

}  // namespace

Teuchos::RCP<const Teuchos::ParameterList> graph500_parameters() {
  const BfsOptions defaults;
  auto p = rcp(new Teuchos::ParameterList("graph500_bfs"));
  auto& g = p->sublist("Graph500", false, "Graph500 kernels 1 and 2");
  g.set("SCALE", 16, "log2 of the number of vertices",
        rcp(new EnhancedNumberValidator<int>(1, 42)));
  g.set("edgefactor", 16, "edges per vertex (edges = edgefactor * 2^SCALE)",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 16)));
  g.set("NBFS", 64, "search keys (the specification asks for 64)",
        rcp(new EnhancedNumberValidator<int>(1, 64)));
  g.set("seed", 2, "seed of the generator and of the search keys",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 30)));
  Teuchos::Array<std::string> names;
  for (const BfsVariant& v : bfs_variants()) names.push_back(v.name);
  g.set("variant", std::string(bfs_variants().front().name), "BFS variant. " + bfs_variants_doc(),
        rcp(new Teuchos::StringValidator(names)));
  g.set("tasks", defaults.tasks,
        "NT, tasks per rank and level for locking and nonlocking; 0: one per Kokkos thread "
        "(nonlocking), or one per Kokkos thread plus the receive task (locking, which needs "
        "at least 2)",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 20)));
  g.set("chunks", defaults.chunks,
        "incremental, atomic, hybrid: most chunks (one task each) a level's frontier edges are cut "
        "into, at least 2048 edges each; fast workers take more of them",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 16)));
  g.set("direction", std::string(mode_name(defaults.direction.mode)),
        "hybrid: auto switches by Beamer's heuristic (alpha, beta); top-down or bottom-up forces "
        "every level",
        rcp(new Teuchos::StringValidator(Teuchos::tuple<std::string>(
            mode_name(DirectionPolicy::Mode::automatic), mode_name(DirectionPolicy::Mode::top_down),
            mode_name(DirectionPolicy::Mode::bottom_up)))));
  g.set("alpha", defaults.direction.alpha,
        "hybrid: go bottom-up when the frontier's edges exceed the unexplored edges / alpha "
        "(Beamer et al. SC 2012; 15 as gapbs)",
        rcp(new EnhancedNumberValidator<double>(1e-3, 1e9)));
  g.set("beta", defaults.direction.beta,
        "hybrid: back to top-down when the frontier shrinks below the vertices / beta "
        "(18 as gapbs)",
        rcp(new EnhancedNumberValidator<double>(1e-3, 1e9)));
  g.set("kernels", std::string("bfs,sssp"),
        "the search kernels, each over the same kernel-1 graph and keys in a loop of its own: "
        "bfs (kernel 2), sssp (kernel 3, single-source shortest paths; the graph then carries "
        "weights), or bfs,sssp (both, as a Graph500 3.0 submission runs them)",
        rcp(new Teuchos::StringValidator(Teuchos::tuple<std::string>("bfs", "sssp", "bfs,sssp"))));
  g.set("delta", SsspOptions{}.delta,
        "sssp: delta-stepping's bucket width (weights are uniform in [0, 1)); must be > 0. The "
        "default was the fastest measured at SCALE 18 and 20 (docs/performance.md)");
  g.set("sssp_variant", std::string(variant_name(SsspOptions{}.variant)),
        "sssp: fused (a vertex taken from its bucket relaxes all its edges, and a rank goes on "
        "with its own refills of the bucket before the global step, as gapbs's sssp) or classic "
        "(Meyer and Sanders: light edges in phases, then each vertex's heavy edges once)",
        rcp(new Teuchos::StringValidator(Teuchos::tuple<std::string>("fused", "classic"))));
  g.set("file", std::string(),
        "kernel 1 from a file instead of the generator (empty): a Matrix Market .mtx (coordinate; "
        "real, integer or pattern; general or symmetric), or a gapbs edge list .el (u v) or .wel "
        "(u v w); entries are undirected edges, SSSP needs weights. SCALE and edgefactor are then "
        "those of the file's graph");
  g.set("target_bits", std::string("auto"),
        "bits per stored neighbour id: auto (32 when there are at most 2^32 vertices, as gapbs "
        "stores them, else 64), 32 or 64",
        rcp(new Teuchos::StringValidator(Teuchos::tuple<std::string>("auto", "32", "64"))));
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
          graph500_parameters()};
}

Graph500Config graph500_config(const Teuchos::ParameterList& deck, const Environment& env) {
  const auto& d = deck.sublist("Graph500");
  Graph500Config c;
  c.gen.scale = d.get<int>("SCALE");
  c.gen.edgefactor = d.get<int>("edgefactor");
  c.gen.seed = static_cast<std::uint64_t>(d.get<int>("seed"));
  c.nbfs = d.get<int>("NBFS");
  c.variant = &bfs_variant(d.get<std::string>("variant"));
  BfsOptions opt;
  opt.buffer_items = static_cast<std::size_t>(d.get<int>("buffer_items"));
  opt.tasks = d.get<int>("tasks");
  opt.chunks = d.get<int>("chunks");
  opt.direction.mode = mode_named(d.get<std::string>("direction"));
  opt.direction.alpha = d.get<double>("alpha");
  opt.direction.beta = d.get<double>("beta");
  c.bfs = c.variant->resolve(opt, env.threads());

  c.profile = deck.sublist("Profile").get<bool>("enabled");
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
  const double delta = d.get<double>("delta");
  if (!(delta > 0) || !std::isfinite(delta)) {
    std::ostringstream v;
    v << delta;
    throw UsageError("Graph500/delta = " + v.str() +
                     ": the bucket width must be a positive, finite number");
  }
  c.sssp_opt.delta = delta;
  c.file = d.get<std::string>("file");
  if (!c.file.empty()) EdgeFile::format_of(c.file, "Graph500/file");  // a usage error early
  const std::string bits = d.get<std::string>("target_bits");
  c.target_bits = bits == "32"   ? TargetBits::b32
                  : bits == "64" ? TargetBits::b64
                                 : TargetBits::automatic;
  if (c.target_bits == TargetBits::b32 && c.file.empty() && c.gen.scale > 32)
    throw UsageError("Graph500/target_bits = 32 with Graph500/SCALE = " +
                     std::to_string(c.gen.scale) + ": 32-bit ids hold SCALE <= 32 (or auto, 64)");
  c.sssp_opt.variant = sssp_variant_named(d.get<std::string>("sssp_variant"));
  c.sssp_opt.chunks = opt.chunks;
  c.sssp_opt.buffer_items = opt.buffer_items;
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
  return c;
}

namespace {

// Kernel 2 as trials (HT_Trials.hpp): one search per key, every tree
// validated, the figures of each gathered into the outcome.
struct Searches {
  static constexpr const char* kernel_region = "Graph500: BFS";
  static constexpr const char* verify_region = "Graph500: validation";
  const Graph500Config& cfg;
  Graph500Outcome& out;
  const Csr& g;
  std::unique_ptr<Bfs> bfs;
  MPI_Comm comm;
  std::FILE* log;
  const BfsResult* result = nullptr;
  Validation v;

  Searches(const Graph500Config& c, Graph500Outcome& o, const Csr& graph, std::unique_ptr<Bfs> b,
           MPI_Comm cm, std::FILE* f)
      : cfg(c), out(o), g(graph), bfs(std::move(b)), comm(cm), log(f) {}

  void setup(int) {}
  void run(int t) { result = &bfs->search(out.keys[t]); }
  bool verifies(int) const { return true; }
  void verify(int t) {
    v = validate_bfs(g, out.keys[t], result->pred, comm);
    if (!v.ok()) {
      throw Error("validation of BFS " + std::to_string(t + 1) + " from key " +
                  std::to_string(out.keys[t]) + " failed: " + v.what);
    }
  }
  void done(int t, const TrialSeconds& s) {
    const BfsResult& bfs_result = *result;
    const double nedge = static_cast<double>(component_edges(g, bfs_result.pred, comm));
    Graph500Run& st = out.stats;
    st.bfs_seconds.push_back(s.kernel);
    st.nedge.push_back(nedge);
    st.validate_seconds.push_back(s.verify);
    out.levels.push_back(v.depth);
    out.frontier.emplace_back(bfs_result.frontier.begin(), bfs_result.frontier.end());
    out.bottom_up.emplace_back(bfs_result.bottom_up.begin(), bfs_result.bottom_up.end());
    out.level_times.add(bfs_result.seconds);
    for (auto x : bfs_result.bytes) out.rank_bytes += static_cast<double>(x);
    gather_counts(bfs_result);
    report(t, s.kernel, nedge, bfs_result);
  }

  // Messages and bytes per level and the visit counts summed over the ranks
  // in one collective; the lock time's slowest rank in another.
  void gather_counts(const BfsResult& r) {
    const std::size_t levels = r.messages.size();  // alike on every rank
    std::vector<long long> mine(2 * levels + 2), sums(mine.size());
    std::copy(r.messages.begin(), r.messages.end(), mine.begin());
    std::copy(r.bytes.begin(), r.bytes.end(), mine.begin() + static_cast<std::ptrdiff_t>(levels));
    mine[2 * levels] = r.task_visits;
    mine[2 * levels + 1] = r.unique_visits;
    sum_over_ranks(mine.data(), sums.data(), static_cast<int>(mine.size()), comm);
    out.messages.emplace_back(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(levels));
    out.bytes.emplace_back(sums.begin() + static_cast<std::ptrdiff_t>(levels),
                           sums.begin() + static_cast<std::ptrdiff_t>(2 * levels));
    const auto visits = static_cast<double>(sums[2 * levels]);
    const auto unique = static_cast<double>(sums[2 * levels + 1]);
    out.redundancy.push_back(unique > 0 ? visits / unique : 0.0);
    out.lock_seconds.push_back(
        cfg.variant->reports == BfsReports::lock_time ? max_over_ranks(r.lock_seconds, comm) : 0.0);
  }

  void report(int t, double seconds, double nedge, const BfsResult& r) const {
    const auto& m = out.messages.back();
    say(log, "BFS %2d/%zu: key %lld, %.6f s, %.4g TEPS, %d levels, %.0f messages", t + 1,
        out.keys.size(), static_cast<long long>(out.keys[t]), seconds, nedge / seconds, v.depth,
        std::accumulate(m.begin(), m.end(), 0.0));
    if (cfg.variant->reports == BfsReports::lock_time)
      say(log, ", locks %.6f s", out.lock_seconds.back());
    if (cfg.variant->reports == BfsReports::redundancy)
      say(log, ", redundant visits %.3fx", out.redundancy.back());
    if (!r.bottom_up.empty()) {
      say(log, ", %d of %zu levels bottom-up",
          static_cast<int>(std::count(r.bottom_up.begin(), r.bottom_up.end(), 1)),
          r.bottom_up.size());
    }
    say(log, ", valid\n");
  }
};

// Kernel 3 as trials: one delta-stepping search per key, every tree
// validated, in a loop of its own after kernel 2's (the specification's
// rule: the kernels share nothing but the graph and the keys).
struct ShortestPaths {
  static constexpr const char* kernel_region = "Graph500: SSSP";
  static constexpr const char* verify_region = "Graph500: SSSP validation";
  Graph500Outcome& out;
  const Csr& g;
  DeltaStepping sssp;
  MPI_Comm comm;
  std::FILE* log;
  const SsspResult* result = nullptr;
  Validation v;

  ShortestPaths(const Graph500Config& c, Graph500Outcome& o, const Csr& graph, TaskRuntime& rt,
                Profile* profile, MPI_Comm cm, std::FILE* f)
      : out(o),
        g(graph),
        sssp(graph, with_profile(c.sssp_opt, profile), rt, cm),
        comm(cm),
        log(f) {}

  static SsspOptions with_profile(SsspOptions opt, Profile* p) {
    opt.profile = p;
    return opt;
  }
  void setup(int) {}
  void run(int t) { result = &sssp.search(out.keys[t]); }
  bool verifies(int) const { return true; }
  void verify(int t) {
    v = validate_sssp(g, out.keys[t], result->pred, result->dist, comm);
    if (!v.ok()) {
      throw Error("validation of SSSP " + std::to_string(t + 1) + " from key " +
                  std::to_string(out.keys[t]) + " failed: " + v.what);
    }
  }
  void done(int t, const TrialSeconds& s) {
    const SsspResult& r = *result;
    const double nedge = static_cast<double>(component_edges(g, r.pred, comm));
    long long mine[2] = {r.relaxations, r.messages}, sums[2];
    sum_over_ranks(mine, sums, 2, comm);
    float far = 0;
    for (float d : r.dist)
      if (std::isfinite(d)) far = std::max(far, d);
    out.sssp_max_distance =
        std::max(out.sssp_max_distance, max_over_ranks(static_cast<double>(far), comm));
    out.sssp_seconds.push_back(s.kernel);
    out.sssp_nedge.push_back(nedge);
    out.sssp_validate_seconds.push_back(s.verify);
    out.sssp_buckets.push_back(static_cast<double>(r.buckets));
    out.sssp_phases.push_back(static_cast<double>(r.phases));
    out.sssp_relaxations.push_back(static_cast<double>(sums[0]));
    out.sssp_messages.push_back(static_cast<double>(sums[1]));
    say(log,
        "SSSP %2d/%zu: key %lld, %.6f s, %.4g TEPS, %lld buckets, %lld phases, %.0f messages, "
        "valid\n",
        t + 1, out.keys.size(), static_cast<long long>(out.keys[t]), s.kernel, nedge / s.kernel,
        static_cast<long long>(r.buckets), static_cast<long long>(r.phases),
        out.sssp_messages.back());
  }
};

}  // namespace

Graph500Outcome run_graph500(const Graph500Config& cfg, Profile& profile, MPI_Comm comm,
                             std::FILE* log, Profile* sssp_profile) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank != 0) log = nullptr;
  const Kronecker& gen = cfg.gen;
  const BfsVariant& variant = *cfg.variant;
  BfsOptions opt = cfg.bfs;
  opt.profile = &profile;

  const char* kernels = cfg.run_bfs && cfg.run_sssp ? "BFS and SSSP" : cfg.run_bfs ? "BFS" : "SSSP";
  if (cfg.file.empty()) {
    say(log, "Graph500 %s: SCALE %d, edgefactor %d, %lld vertices, %lld edges, variant %s", kernels,
        gen.scale, gen.edgefactor, static_cast<long long>(gen.vertex_count()),
        static_cast<long long>(gen.edge_count()), variant.name);
  } else {
    say(log, "Graph500 %s: graph from %s, variant %s", kernels, cfg.file.c_str(), variant.name);
  }
  if (variant.work == BfsWork::chunks) {
    say(log, ", up to %d chunk tasks per rank and level", opt.chunks);
  } else if (variant.work != BfsWork::single) {
    say(log, ", %d tasks per rank", opt.tasks);
  }
  if (cfg.run_sssp)
    say(log, ", SSSP %s delta %g", variant_name(cfg.sssp_opt.variant), cfg.sssp_opt.delta);
  if (size > 1) say(log, ", levels end by %s", Exchange::name(cfg.level_end));
  say(log, "\n");

  Graph500Outcome out;
  out.tasks_per_rank = variant.tasks_per_rank(opt);
  Graph500Run& st = out.stats;
  st.scale = gen.scale;
  st.edgefactor = gen.edgefactor;
  st.mpi_processes = size;

  // Kernel 1 without an edge list: the generator's pieces go straight into
  // the CSR, twice (HT_Csr.hpp), so the edges never take memory of their own.
  // The generating (or a file's reading) is timed inside and reported apart.
  Csr g;
  double kernel1 = 0;
  {
    Phase p("Graph500: construction", kernel1);
    if (!cfg.file.empty()) {
      EdgeFile file = EdgeFile::open(cfg.file);
      g = read_csr(file, cfg.run_sssp, comm, &st.generation_seconds, cfg.target_bits);
      out.vertices = file.vertices;
      long long stored = static_cast<long long>(g.targets.size());
      MPI_Allreduce(MPI_IN_PLACE, &stored, 1, MPI_LONG_LONG, MPI_SUM, comm);
      out.edges = stored / 2;  // each undirected edge is stored twice
      // The reference block's SCALE and edgefactor, of the file's graph.
      st.scale = 0;
      while ((std::int64_t(1) << st.scale) < file.vertices) ++st.scale;
      st.edgefactor = static_cast<int>(
          std::llround(static_cast<double>(file.entries >= 0 ? file.entries : out.edges) /
                       static_cast<double>(file.vertices)));
      if (cfg.run_sssp && file.vertices > (std::int64_t(1) << 32))
        throw UsageError("Graph500/file = " + cfg.file + ": " + std::to_string(file.vertices) +
                         " vertices; SSSP keeps parents in 32 bits (at most 2^32 vertices)");
      if (cfg.target_bits == TargetBits::b32 && file.vertices > (std::int64_t(1) << 32))
        throw UsageError("Graph500/target_bits = 32 with Graph500/file = " + cfg.file +
                         ": more than 2^32 vertices (use auto or 64)");
    } else {
      out.vertices = gen.vertex_count();
      out.edges = gen.edge_count();
      g = cfg.run_sssp ? build_weighted_csr(gen, comm, &st.generation_seconds, cfg.target_bits)
                       : build_csr(gen, comm, &st.generation_seconds, cfg.target_bits);
    }
    out.target_bits = g.targets.wide() ? 64 : 32;
    barrier(comm);
  }
  const double mine[2] = {st.generation_seconds, kernel1 - st.generation_seconds};
  double slowest[2];
  max_over_ranks(mine, slowest, 2, comm);
  st.generation_seconds = slowest[0];
  st.construction_seconds = slowest[1];

  out.keys = search_keys(g, cfg.nbfs, gen.seed, comm);
  if (out.keys.empty()) throw UsageError("the graph has no vertex with an edge: no search key");
  say(log, "%s %.3f s, construction %.3f s, %d-bit targets, %zu search keys\n",
      cfg.file.empty() ? "generation (both passes)" : "reading", st.generation_seconds,
      st.construction_seconds, out.target_bits, out.keys.size());

  TaskRuntime rt(cfg.pool_bytes, "Runtime/pool_MiB");
  if (cfg.run_bfs) {
    Searches k(cfg, out, g, make_bfs(variant, g, opt, rt, comm), comm, log);
    run_trials(k, static_cast<int>(out.keys.size()), comm);
  }
  if (cfg.run_sssp) {
    ShortestPaths k(cfg, out, g, rt, sssp_profile, comm, log);
    run_trials(k, static_cast<int>(out.keys.size()), comm);
  }
  return out;
}

namespace {

// Kernel 3's figures in the shape of the reference block's inputs.
Graph500Run sssp_run(const Graph500Outcome& out) {
  Graph500Run r = out.stats;
  r.bfs_seconds = out.sssp_seconds;
  r.nedge = out.sssp_nedge;
  r.validate_seconds = out.sssp_validate_seconds;
  return r;
}

}  // namespace

void report_graph500(const Graph500Config& cfg, const Graph500Outcome& out, std::FILE* f) {
  if (cfg.run_sssp) {
    // Kernel 3 ran: the 3.0 reference's block, "bfs  " and "sssp " lines.
    print_graph500_3(cfg.run_bfs ? &out.stats : nullptr, sssp_run(out), f);
    std::fprintf(f, "%-32s%s\n", "sssp variant:", variant_name(cfg.sssp_opt.variant));
    std::fprintf(f, "%-32s%.12g\n", "sssp delta:", cfg.sssp_opt.delta);
    std::fprintf(f, "%-32s%.12g\n", "sssp mean_buckets:", mean(out.sssp_buckets));
    std::fprintf(f, "%-32s%.12g\n", "sssp mean_phases:", mean(out.sssp_phases));
    std::fprintf(f, "%-32s%.12g\n", "sssp max_distance:", out.sssp_max_distance);
  } else {
    print_graph500(out.stats, f);  // BFS alone: the 2.1.4 reference's block
  }
  if (!cfg.file.empty()) {
    std::fprintf(f, "%-32s%s\n", "graph_file:", cfg.file.c_str());
    std::fprintf(f, "%-32s%lld\n", "graph_vertices:", out.vertices);
    std::fprintf(f, "%-32s%lld\n", "graph_edges:", out.edges);
  }
  std::fprintf(f, "%-32s%d\n", "target_bits:", out.target_bits);
  // The study's columns, after the reference block.
  std::fprintf(f, "%-32s%s\n", "variant:", cfg.variant->name);
  std::fprintf(f, "%-32s%d\n", "tasks_per_rank:", out.tasks_per_rank);
  if (cfg.variant->reports == BfsReports::lock_time)
    std::fprintf(f, "%-32s%.12g\n", "mean_lock_time:", mean(out.lock_seconds));
  if (cfg.variant->reports == BfsReports::redundancy)
    std::fprintf(f, "%-32s%.12g\n", "mean_redundant_visits:", mean(out.redundancy));
  std::fflush(f);
}

void write_graph500(const Graph500Config& cfg, const Graph500Outcome& out, Results& r) {
  const Graph500Run& st = out.stats;
  r.attribute("SCALE", static_cast<long long>(st.scale));
  r.attribute("edgefactor", static_cast<long long>(st.edgefactor));
  r.attribute("variant", std::string(cfg.variant->name));
  r.attribute("graph_generation", st.generation_seconds);
  r.attribute("construction_time", st.construction_seconds);
  r.attribute("target_bits", static_cast<long long>(out.target_bits));
  r.attribute("graph_vertices", out.vertices);
  r.attribute("graph_edges", out.edges);
  if (!cfg.file.empty()) r.attribute("graph_file", cfg.file);
  double hmean, hstd;
  harmonic_teps(st, hmean, hstd);
  r.attribute("kernels", std::string(cfg.run_bfs && cfg.run_sssp ? "bfs,sssp"
                                     : cfg.run_bfs               ? "bfs"
                                                                 : "sssp"));
  if (cfg.run_bfs) {
    r.attribute("harmonic_mean_TEPS", hmean);
    r.attribute("harmonic_stddev_TEPS", hstd);
  }
  if (cfg.run_sssp) {
    const Graph500Run ss = sssp_run(out);
    double smean, sstd;
    harmonic_teps(ss, smean, sstd);
    r.attribute("sssp_harmonic_mean_TEPS", smean);
    r.attribute("sssp_harmonic_stddev_TEPS", sstd);
    r.attribute("sssp_delta", cfg.sssp_opt.delta);
    r.attribute("sssp_variant", std::string(variant_name(cfg.sssp_opt.variant)));
    r.global("sssp/keys", std::vector<double>(out.keys.begin(), out.keys.end()));
    r.global("sssp/seconds", out.sssp_seconds);
    r.global("sssp/nedge", out.sssp_nedge);
    r.global("sssp/teps", teps(ss));
    r.global("sssp/validate_seconds", out.sssp_validate_seconds);
    r.global("sssp/buckets", out.sssp_buckets);
    r.global("sssp/phases", out.sssp_phases);
    r.global("sssp/relaxations", out.sssp_relaxations);
    r.global("sssp/messages", out.sssp_messages);
  }
  if (!cfg.run_bfs) return;
  r.global("bfs/keys", std::vector<double>(out.keys.begin(), out.keys.end()));
  r.global("bfs/seconds", st.bfs_seconds);
  r.global("bfs/nedge", st.nedge);
  r.global("bfs/teps", teps(st));
  r.global("bfs/levels", out.levels);
  r.global("bfs/validate_seconds", st.validate_seconds);
  std::size_t w = 0;
  r.global("bfs/frontier", table(out.frontier, w));
  r.attribute("bfs_table_width", static_cast<long long>(w));
  r.global("bfs/messages", table(out.messages, w));
  r.global("bfs/bytes", table(out.bytes, w));
  std::size_t w_dir = 0;
  r.global("bfs/bottom_up", table(out.bottom_up, w_dir));
  r.attribute("bfs_direction_width", static_cast<long long>(w_dir));
  r.per_rank("bfs/bytes_sent", {out.rank_bytes});
  r.attribute("tasks_per_rank", static_cast<long long>(out.tasks_per_rank));
  r.attribute("level_end", std::string(Exchange::name(cfg.level_end)));
  r.global("bfs/lock_seconds", out.lock_seconds);
  r.global("bfs/redundant_visits", out.redundancy);
  out.level_times.write(r, "bfs/level", r.comm());
}

void graph500_driver(AppContext& ctx) {
  const Graph500Config cfg = graph500_config(*ctx.deck.params, ctx.env);
  Profile profile(cfg.profile), sssp_profile(cfg.profile);
  const Graph500Outcome out = run_graph500(cfg, profile, ctx.env.comm(), stdout, &sssp_profile);
  if (ctx.env.rank() == 0) report_graph500(cfg, out, stdout);
  if (cfg.run_bfs) out.level_times.print(stdout, ctx.env.comm());
  if (profile.enabled() && cfg.run_bfs) {
    profile.print(stdout, "level", ctx.env.comm());
    profile.write(ctx.results, "profile", ctx.env.comm());
  }
  if (sssp_profile.enabled() && cfg.run_sssp) {
    sssp_profile.print(stdout, "phase", ctx.env.comm());
    sssp_profile.write(ctx.results, "sssp_profile", ctx.env.comm());
  }
  write_graph500(cfg, out, ctx.results);
}

}  // namespace ht
