// graph500_bfs: Graph500 kernels 1 and 2 (specification 3.0) on MPI ranks:
// Kronecker graph, distributed CSR, BFS from the search keys, every tree
// validated, results in the reference implementation's output format.
//   mpirun -np 2 --bind-to none graph500_bfs input/graph500_default.yaml
#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "app/HT_App.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Bfs.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Graph500Report.hpp"
#include "graph/HT_Kronecker.hpp"
#include "graph/HT_Validate.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using Teuchos::EnhancedNumberValidator;
using Teuchos::rcp;

Teuchos::RCP<const Teuchos::ParameterList> valid_parameters() {
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
  g.set("variant", std::string("mpi"),
        "BFS variant: mpi (MPI only, one worker per rank), locking (NT-1 processing tasks + 1 "
        "receive task, locks around visited/pred/newq), nonlocking (NT tasks with task-local "
        "arrays merged after all finished), incremental (chunk tasks with task-local finds, each "
        "merged as soon as its task is done), atomic (chunk tasks claiming vertices with one "
        "atomic operation each)",
        rcp(new Teuchos::StringValidator(
            Teuchos::tuple<std::string>("mpi", "locking", "nonlocking", "incremental", "atomic"))));
  g.set("tasks", 0,
        "NT, tasks per rank and level for locking and nonlocking; 0: the Kokkos threads (at "
        "least 2 for locking: one of them receives)",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 20)));
  g.set("chunks", 128,
        "incremental, atomic: most chunks (one task each) a level's frontier edges are cut "
        "into, at least 2048 edges each; fast workers take more of them",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 16)));
  g.set("buffer_items", 4096,
        "coalescing buffer per destination rank, in (vertex, parent) pairs; a full buffer is sent",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 24)));
  ht::add_common_parameters(*p, "graph500_bfs");
  return p;
}

// Pads per-key rows of different lengths into one [keys x longest] table.
std::vector<double> table(const std::vector<std::vector<double>>& rows, std::size_t& width) {
  width = 1;
  for (const auto& r : rows) width = std::max(width, r.size());
  std::vector<double> t(rows.size() * width, 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k)
    std::copy(rows[k].begin(), rows[k].end(), t.begin() + k * width);
  return t;
}

void run(ht::AppContext& ctx) {
  const auto& d = ctx.deck.params->sublist("Graph500");
  ht::Kronecker gen;
  gen.scale = d.get<int>("SCALE");
  gen.edgefactor = d.get<int>("edgefactor");
  gen.seed = static_cast<std::uint64_t>(d.get<int>("seed"));
  const int nbfs = d.get<int>("NBFS");
  const std::string variant = d.get<std::string>("variant");
  ht::BfsOptions opt;
  opt.buffer_items = static_cast<std::size_t>(d.get<int>("buffer_items"));
  opt.chunks = d.get<int>("chunks");
  const int threads = ctx.env.threads();
  opt.tasks = d.get<int>("tasks") > 0 ? d.get<int>("tasks")
                                      : (variant == "locking" ? std::max(2, threads + 1) : threads);
  if (variant == "locking" && opt.tasks < 2) {
    throw ht::UsageError("Graph500/tasks = " + std::to_string(opt.tasks) +
                         ": the locking variant needs at least 2 tasks (one receives)");
  }
  if (variant == "locking") ctx.env.require_thread_level(MPI_THREAD_SERIALIZED, "variant locking");
  const bool chunked = variant == "incremental" || variant == "atomic";
  const std::size_t pool = ctx.pool_bytes(ht::bfs_pool_bytes(opt));
  if (variant != "mpi" && pool < ht::bfs_pool_bytes(opt)) {
    const std::string key = chunked ? "Graph500/chunks = " + std::to_string(opt.chunks)
                                    : "Graph500/tasks = " + std::to_string(opt.tasks);
    throw ht::UsageError(key + " needs a task pool of " +
                         std::to_string((ht::bfs_pool_bytes(opt) >> 20) + 1) +
                         " MiB; Runtime/pool_MiB = " +
                         std::to_string(ctx.deck.params->sublist("Runtime").get<int>("pool_MiB")) +
                         " is too small (0 sizes it from the work)");
  }
  ht::TaskRuntime rt(pool, "Runtime/pool_MiB");
  ht::Profile profile(ctx.deck.params->sublist("Profile").get<bool>("enabled"));
  opt.profile = &profile;
  const MPI_Comm comm = ctx.env.comm();
  const bool root = ctx.env.rank() == 0;

  if (root) {
    std::printf("Graph500 BFS: SCALE %d, edgefactor %d, %lld vertices, %lld edges, variant %s",
                gen.scale, gen.edgefactor, static_cast<long long>(gen.vertex_count()),
                static_cast<long long>(gen.edge_count()), variant.c_str());
    if (variant == "locking" || variant == "nonlocking")
      std::printf(", %d tasks per rank", opt.tasks);
    if (chunked) std::printf(", up to %d chunk tasks per rank and level", opt.chunks);
    std::printf("\n");
    std::fflush(stdout);
  }
  ht::Graph500Run out;
  out.scale = gen.scale;
  out.edgefactor = gen.edgefactor;
  out.mpi_processes = ctx.env.size();

  std::vector<ht::Edge> edges;
  {
    ht::Phase p("Graph500: generation", out.generation_seconds);
    const auto [first, last] = ht::edge_slice(gen.edge_count(), comm);
    edges = gen.edges(first, last);
    ht::barrier(comm);
  }
  ht::Csr g;
  {
    ht::Phase p("Graph500: construction", out.construction_seconds);
    g = ht::build_csr(edges, gen.vertex_count(), comm);
    ht::barrier(comm);
  }
  edges = {};
  out.generation_seconds = ht::max_over_ranks(out.generation_seconds, comm);
  out.construction_seconds = ht::max_over_ranks(out.construction_seconds, comm);

  const std::vector<std::int64_t> keys = ht::search_keys(g, nbfs, gen.seed, comm);
  if (keys.empty()) throw ht::UsageError("the graph has no vertex with an edge: no search key");
  if (root) {
    std::printf("generation %.3f s, construction %.3f s, %zu search keys\n", out.generation_seconds,
                out.construction_seconds, keys.size());
    std::fflush(stdout);
  }

  const std::unique_ptr<ht::Bfs> search = ht::make_bfs(variant, g, opt, rt, comm);
  std::vector<std::vector<double>> frontier, messages, bytes;
  std::vector<double> levels, rank_bytes(1, 0.0), lock_seconds, redundancy;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    ht::barrier(comm);
    double seconds = 0;
    const ht::BfsResult* result = nullptr;
    {
      ht::Phase p("Graph500: BFS", seconds);
      result = &search->search(keys[k]);
    }
    const ht::BfsResult& bfs = *result;
    seconds = ht::max_over_ranks(seconds, comm);
    double validate_seconds = 0;
    ht::Validation v;
    {
      ht::Phase p("Graph500: validation", validate_seconds);
      v = ht::validate_bfs(g, keys[k], bfs.pred, comm);
    }
    if (!v.ok()) {
      throw ht::Error("validation of BFS " + std::to_string(k + 1) + " from key " +
                      std::to_string(keys[k]) + " failed: " + v.what);
    }
    const double nedge = static_cast<double>(ht::component_edges(g, bfs.pred, comm));
    out.bfs_seconds.push_back(seconds);
    out.nedge.push_back(nedge);
    out.validate_seconds.push_back(ht::max_over_ranks(validate_seconds, comm));
    levels.push_back(v.depth);
    frontier.emplace_back(bfs.frontier.begin(), bfs.frontier.end());
    std::vector<double> m(bfs.messages.begin(), bfs.messages.end()),
        b(bfs.bytes.begin(), bfs.bytes.end());
    for (auto& x : m) x = static_cast<double>(ht::sum_over_ranks(static_cast<long long>(x), comm));
    for (auto& x : b) x = static_cast<double>(ht::sum_over_ranks(static_cast<long long>(x), comm));
    for (auto x : bfs.bytes) rank_bytes[0] += static_cast<double>(x);
    messages.push_back(m);
    bytes.push_back(b);
    lock_seconds.push_back(ht::max_over_ranks(bfs.lock_seconds, comm));
    const double visits = static_cast<double>(ht::sum_over_ranks(bfs.task_visits, comm));
    const double unique = static_cast<double>(ht::sum_over_ranks(bfs.unique_visits, comm));
    redundancy.push_back(unique > 0 ? visits / unique : 0.0);
    if (root) {
      std::printf("BFS %2zu/%zu: key %lld, %.6f s, %.4g TEPS, %d levels, %.0f messages", k + 1,
                  keys.size(), static_cast<long long>(keys[k]), seconds, nedge / seconds, v.depth,
                  std::accumulate(m.begin(), m.end(), 0.0));
      if (variant == "locking") std::printf(", locks %.6f s", lock_seconds.back());
      if (variant != "mpi" && variant != "locking")
        std::printf(", redundant visits %.3fx", redundancy.back());
      std::printf(", valid\n");
      std::fflush(stdout);
    }
  }
  const int tasks_per_rank = variant == "mpi" ? 1 : chunked ? opt.chunks : opt.tasks;
  if (root) {
    ht::print_graph500(out, stdout);
    // The study's columns, after the reference block.
    const auto mean = [](const std::vector<double>& x) {
      return std::accumulate(x.begin(), x.end(), 0.0) / x.size();
    };
    std::printf("%-32s%s\n", "variant:", variant.c_str());
    std::printf("%-32s%d\n", "tasks_per_rank:", tasks_per_rank);
    if (variant == "locking") std::printf("%-32s%.12g\n", "mean_lock_time:", mean(lock_seconds));
    if (variant != "mpi" && variant != "locking")
      std::printf("%-32s%.12g\n", "mean_redundant_visits:", mean(redundancy));
    std::fflush(stdout);
  }
  if (profile.enabled()) {
    profile.print(stdout, "level", comm);
    profile.write(ctx.results, "profile", comm);
  }

  auto& r = ctx.results;
  r.attribute("SCALE", static_cast<long long>(gen.scale));
  r.attribute("edgefactor", static_cast<long long>(gen.edgefactor));
  r.attribute("variant", variant);
  r.attribute("graph_generation", out.generation_seconds);
  r.attribute("construction_time", out.construction_seconds);
  double hmean, hstd;
  ht::harmonic_teps(out, hmean, hstd);
  r.attribute("harmonic_mean_TEPS", hmean);
  r.attribute("harmonic_stddev_TEPS", hstd);
  std::vector<double> key_values(keys.begin(), keys.end());
  r.global("bfs/keys", key_values);
  r.global("bfs/seconds", out.bfs_seconds);
  r.global("bfs/nedge", out.nedge);
  r.global("bfs/teps", ht::teps(out));
  r.global("bfs/levels", levels);
  r.global("bfs/validate_seconds", out.validate_seconds);
  std::size_t w = 0;
  r.global("bfs/frontier", table(frontier, w));
  r.attribute("bfs_table_width", static_cast<long long>(w));
  r.global("bfs/messages", table(messages, w));
  r.global("bfs/bytes", table(bytes, w));
  r.per_rank("bfs/bytes_sent", rank_bytes);
  r.attribute("tasks_per_rank", static_cast<long long>(tasks_per_rank));
  r.global("bfs/lock_seconds", lock_seconds);
  r.global("bfs/redundant_visits", redundancy);
}

}  // namespace

int main(int argc, char** argv) {
  const ht::AppSpec spec{"graph500_bfs",
                         "Graph500 kernels 1 and 2: Kronecker graph, distributed CSR, "
                         "BFS from the search keys with every tree validated",
                         valid_parameters()};
  return ht::run_app(argc, argv, spec, run);
}
