#include "drivers/graph500/HT_Graph500Driver.hpp"

#include "app/HT_MemoryCheck.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>

#include "comm/HT_Wait.hpp"
#include "drivers/HT_Log.hpp"
#include "drivers/graph500/HT_ConstructGraph.hpp"
#include "drivers/graph500/HT_Graph500Memory.hpp"
#include "drivers/graph500/HT_Search.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_HeldBytes.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

namespace {

// The run's first line: the graph, the kernels and how they run.
void announce(const Graph500Config& cfg, std::FILE* log, int ranks) {
  const char* kernels = cfg.run_bfs && cfg.run_sssp ? "BFS and SSSP" : cfg.run_bfs ? "BFS" : "SSSP";
  const BfsVariant& v = *cfg.variant;
  if (cfg.file.empty()) {
    say(log, "Graph500 %s: %s, %lld vertices, %lld edges, variant %s", kernels,
        cfg.generated_graph().c_str(), static_cast<long long>(cfg.gen.vertex_count()),
        static_cast<long long>(cfg.generated_edges(cfg.gen.scale)), v.name);
  } else {
    say(log, "Graph500 %s: graph from %s, variant %s", kernels, cfg.file.c_str(), v.name);
  }
  if (cfg.partition == Partition::two_d) {
    const std::string spare = spare_ranks(cfg.grid, ranks);
    say(log, ", 2D partition on a %s grid%s%s", cfg.grid.name().c_str(), spare.empty() ? "" : ", ",
        spare.c_str());
  }
  if (v.work == BfsWork::chunks) {
    say(log, ", up to %d chunk tasks per rank and level", cfg.bfs.chunks);
  } else if (v.work != BfsWork::single) {
    say(log, ", %d tasks per rank", cfg.bfs.tasks);
  }
  if (cfg.run_sssp && cfg.sssp_opt.delta == 0)
    say(log, ", SSSP %s delta auto", variant_name(cfg.sssp_opt.variant));
  else if (cfg.run_sssp)
    say(log, ", SSSP %s delta %g", variant_name(cfg.sssp_opt.variant), cfg.sssp_opt.delta);
  // The coalescing exchange's level end: the 1D searches' (2D ones meet in collectives).
  if (ranks > 1 && cfg.partition == Partition::one_d)
    say(log, ", levels end by %s", Exchange::name(cfg.level_end));
  say(log, "\n");
}

// The searches' and their validation's marks, raised to one kernel's.
void fold_marks(const SearchHeld& s, Graph500Outcome& out) {
  for (int k = 0; k < kHeldKinds; ++k) {
    out.held_searches[k] = std::max(out.held_searches[k], s.searching[k]);
    out.held_validation[k] = std::max(out.held_validation[k], s.validating[k]);
  }
}

}  // namespace

Graph500Outcome run_graph500(const Graph500Config& cfg, Profile& profile, MPI_Comm comm,
                             std::FILE* log, Profile* sssp_profile) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank != 0) log = nullptr;
  announce(cfg, log, size);

  held_reset_high();
  const Graph500Graph graph = construct_graph(cfg, comm, log);  // kernel 1
  Graph500Outcome out;
  out.header = graph.header;
  out.vertices = graph.vertices;
  out.edges = graph.edges;
  out.stored_edges = graph.stored_edges;
  out.target_bits = graph.target_bits;
  out.graph_bytes = graph.csr.bytes() + (graph.grid ? graph.blocks.bytes() : 0);
  out.tasks_per_rank = cfg.variant->tasks_per_rank(cfg.bfs);
  out.keys = search_keys(graph.csr, cfg.nbfs, cfg.gen.seed, comm);
  if (out.keys.empty()) throw UsageError("the graph has no vertex with an edge: no search key");
  for (const std::int64_t k : out.keys) out.file_keys.push_back(graph.file_id(k));
  say(log, "kernel 1: %s %.3f s, construction %.3f s, %d-bit targets, %zu search keys\n",
      cfg.file.empty() ? "generation (both passes)" : "reading", out.header.generation_seconds,
      out.header.construction_seconds, out.target_bits, out.keys.size());

  fold_held_highs(out.held_kernel1);

  TaskRuntime rt(cfg.pool_bytes, "Runtime/pool_MiB");
  if (cfg.run_bfs)  // kernel 2
    fold_marks(search_bfs(cfg, graph, out.keys, rt, profile, out.bfs, comm, log), out);
  if (cfg.run_sssp)  // kernel 3
    fold_marks(search_sssp(cfg, graph, out.keys, rt, sssp_profile, out.sssp, comm, log), out);
  return out;
}

void graph500_driver(AppContext& ctx) {
  Graph500Config cfg = graph500_config(*ctx.deck.params, ctx.env);
  const MPI_Comm comm = ctx.env.comm();
  // A file's vertex count, once read, gets the memory check a generated
  // graph's got at the start (an id near 2^42 in an edge list is 2^42 rows).
  cfg.file_graph_fits = [&ctx, &cfg](const EdgeFile& f) {
    Graph500Config read = cfg;
    read.graph_file.vertices = f.vertices;  // all the estimate reads of what was read
    check_memory("graph500_bfs", ctx.env, [&](std::uint64_t budget) {
      return graph500_memory(read, ctx.env.size(), ctx.env.threads(), budget);
    });
  };
  Profile profile(cfg.profile), sssp_profile(cfg.profile);
  // Each rank's peak resident memory before kernel 1 (MPI, Kokkos, the
  // deck): the part of run/peak_rss_bytes that is not the graph's.
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const long long before = static_cast<long long>(u.ru_maxrss) * 1024;  // Linux counts KiB
  const Graph500Outcome out = run_graph500(cfg, profile, comm, stdout, &sssp_profile);
  // The tables and the profile's summaries only when asked (they run over a
  // screen); the results file has them either way.  The run ends on the
  // reference's block.
  std::FILE* tables = cfg.tables ? stdout : nullptr;
  if (cfg.run_bfs) {
    if (tables) out.bfs.level_times.print(tables, comm, true, "bfs  ");
    if (profile.enabled()) {
      if (tables) profile.print(tables, "level", comm, true, "bfs  ");
      profile.write(ctx.results, "profile/bfs", comm);
    }
  }
  if (cfg.run_sssp && sssp_profile.enabled()) {
    if (tables) sssp_profile.print(tables, "phase", comm, true, "sssp ");
    sssp_profile.write(ctx.results, "profile/sssp", comm);
  }
  const OverRanks m = over_ranks(static_cast<double>(before), comm);
  ctx.results.per_rank("graph/rss_before_bytes", before, "bytes");
  // The most any rank held of each kind, in any phase.
  double held[kHeldKinds], most[kHeldKinds];
  for (int k = 0; k < kHeldKinds; ++k)
    held[k] = static_cast<double>(
        std::max({out.held_kernel1[k], out.held_searches[k], out.held_validation[k]}));
  max_over_ranks(held, most, kHeldKinds, comm);
  if (ctx.env.rank() == 0) {
    std::printf("rss_before_kernel1_MiB (min mean max): %.1f %.1f %.1f\n", m.min / 1048576.0,
                m.mean / 1048576.0, m.max / 1048576.0);
    std::printf(
        "held a rank: graph %.1f MiB, exchange %.1f KiB, search %.1f MiB (max over ranks)\n",
        most[static_cast<int>(Held::graph)] / 1048576.0,
        most[static_cast<int>(Held::exchange)] / 1024.0,
        most[static_cast<int>(Held::search)] / 1048576.0);
    report_graph500(cfg, out, stdout);
  }
  write_graph500(cfg, out, ctx.results);
}

}  // namespace ht
