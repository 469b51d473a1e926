#include "app/HT_App.hpp"

#include <sys/resource.h>

#include <Kokkos_Core.hpp>
#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "comm/HT_Watchdog.hpp"
#include "ht_revision.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

std::size_t task_pool_bytes(const Teuchos::ParameterList& deck, std::size_t derived) {
  const int mib = deck.sublist("Runtime").get<int>("pool_MiB");
  return mib > 0 ? static_cast<std::size_t>(mib) << 20 : derived;
}

void add_common_parameters(Teuchos::ParameterList& valid, const std::string& app) {
  auto& rt = valid.sublist("Runtime", false, "The per-rank task runtime");
  rt.set("pool_MiB", 0,
         "Kokkos task memory pool per rank in MiB; 0 sizes it from the work. Too small a pool "
         "stops the run with an error naming this key. The openmp task runtime has no pool "
         "(tasks live on the heap) but checks a deck's value the same way, so that a deck "
         "runs on either",
         Teuchos::rcp(new Teuchos::EnhancedNumberValidator<int>(0, 1 << 20)));
  rt.set("stall_seconds", 300.0,
         "a rank that waits on its peers this long with no progress (an exchange level that "
         "does not end, a steal request nobody answers) prints its protocol state, and so does "
         "every rank it tells, and the job ends with exit 1; 0: never. Set it above the longest "
         "wait a run can have (with work stealing off, an idle rank waits for the others' work)",
         Teuchos::rcp(new Teuchos::EnhancedNumberValidator<double>(0, 1e9)));
  auto& prof = valid.sublist("Profile", false, "The imbalance profiler (per task and iteration)");
  prof.set("enabled", true,
           "record per-task, per-iteration timings into the results file (profile/<kernel>/); "
           "Output/tables prints them");
  auto& out = valid.sublist("Output", false, "Where results go");
  out.set("file", app + ".h5",
          "HDF5 results file (written atomically at the end of a successful run); its "
          "directory is created if missing");
  out.set("tables", false,
          "also print the tables that can run over a screen (imbalance per level, step or "
          "phase; BFS time per level; UTS per rank); the results file has them either way");
}

namespace {

bool wants_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

// Attributes every results file carries.
void describe_run(const AppContext& ctx, const std::string& app, const std::string& start) {
  Results& r = ctx.results;
  r.attribute("app", app);
  r.attribute("deck", ctx.deck.text);
  r.attribute("deck_path", ctx.deck.path);
  r.attribute("git_revision", std::string(HT_GIT_REVISION));
  r.attribute("kokkos", Environment::kokkos_description());
  r.attribute("task_runtime", std::string(TaskRuntime::name()));
  r.attribute("kokkos_backend", std::string(Kokkos::DefaultHostExecutionSpace::name()));
  r.attribute("ranks", static_cast<long long>(ctx.env.size()));
  r.attribute("threads_per_rank", static_cast<long long>(ctx.env.threads()));
  r.attribute("mpi_thread_level",
              std::string(Environment::thread_level_name(ctx.env.thread_level())));
  r.attribute("start_time", start);
}

// The peak resident memory of each rank (getrusage: Linux counts KiB), in
// the results file and as one line on stdout, so that a user sees what a run
// of this size needs per rank.  Collective.
void report_memory(const AppContext& ctx) {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const double bytes = static_cast<double>(u.ru_maxrss) * 1024.0;
  const OverRanks m = over_ranks(bytes, ctx.env.comm());
  ctx.results.per_rank("run/peak_rss_bytes", static_cast<long long>(u.ru_maxrss) * 1024, "bytes");
  if (ctx.env.rank() == 0) {
    std::printf("%-32s%.1f %.1f %.1f\n", "peak_rss_MiB (min mean max):", m.min / 1048576.0,
                m.mean / 1048576.0, m.max / 1048576.0);
    std::fflush(stdout);
  }
}

}  // namespace

int run_app(int argc, char** argv, const AppSpec& spec,
            const std::function<void(AppContext&)>& body) {
  // --help must not reach Kokkos 3.4, which would print its own help per rank.
  const bool help = wants_help(argc, argv);
  std::vector<char*> args(argv, argv + argc);
  args.erase(
      std::remove_if(args.begin() + 1, args.end(),
                     [](char* a) { return std::string(a) == "--help" || std::string(a) == "-h"; }),
      args.end());
  int n = static_cast<int>(args.size());
  args.push_back(nullptr);
  char** v = args.data();

  Environment env(n, v);
  if (help) {
    if (env.rank() == 0) std::cout << help_text(spec) << std::flush;
    return 0;
  }
  try {
    const std::string start = iso_time_now();
    Deck deck = load_deck(spec, std::vector<std::string>(v + 1, v + n), env.comm());
    if (deck.print_only) return 0;
    Watchdog::set_limit(deck.params->sublist("Runtime").get<double>("stall_seconds"));
    Results results(env.comm());
    AppContext ctx{env, deck, results};
    describe_run(ctx, spec.name, start);
    if (env.rank() == 0) {
      std::printf("%s: %d rank%s x %d thread%s, %s, tasks: %s, %s, deck %s\n", spec.name.c_str(),
                  env.size(), env.size() == 1 ? "" : "s", env.threads(),
                  env.threads() == 1 ? "" : "s", Environment::kokkos_description().c_str(),
                  TaskRuntime::name(), Environment::thread_level_name(env.thread_level()),
                  deck.path.c_str());
      std::fflush(stdout);
    }
    body(ctx);
    report_memory(ctx);

    results.attribute("end_time", iso_time_now());
    const std::string file = deck.params->sublist("Output").get<std::string>("file");
    if (env.rank() == 0) {
      const auto dir = std::filesystem::path(file).parent_path();
      if (!dir.empty()) std::filesystem::create_directories(dir);
    }
    results.write(file);
    if (env.rank() == 0) std::printf("results: %s\n", file.c_str());
    return 0;
  } catch (const UsageError& e) {
    // Found alike on every rank: say it once, leave cleanly.
    if (env.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", spec.name.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    abort_all(e.what());
  }
}

}  // namespace ht
