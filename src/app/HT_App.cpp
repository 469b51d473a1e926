#include "app/HT_App.hpp"

#include <sys/resource.h>

#include <Kokkos_Core.hpp>
#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "app/HT_MemoryCheck.hpp"
#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Watchdog.hpp"
#include "ht_revision.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "runtime/HT_Phase.hpp"
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
  out.set("file", std::string(),
          "HDF5 results file, written atomically at the end of a successful run; its directory "
          "is created if missing. Empty: results/" +
              app +
              "-<YYYYMMDD>-<HHMMSS>[-<n>].h5 in the folder the run started from, a new name "
              "each run");
  out.set("overwrite", false,
          "replace an existing Output/file; false: a run naming an existing file is refused "
          "before it starts");
  out.set("tables", false,
          "also print the tables that can run over a screen (imbalance per level, step or "
          "phase; BFS time per level; UTS per rank); the results file has them either way");
}

namespace {

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int n = 0;
  MPI_Get_library_version(text, &n);
  std::string s(text, static_cast<std::size_t>(n));
  s = s.substr(0, s.find_first_of("\n\r"));
  while (!s.empty() && (s.back() == ' ' || s.back() == ',' || s.back() == '\0')) s.pop_back();
  return s;
}

std::string version_text(const std::string& app) {
  return app + " (HybridTasks) " + HT_VERSION + "\n" + "git revision: " + HT_GIT_REVISION + "\n" +
         Environment::kokkos_description() + "\n" + "task runtime: " + TaskRuntime::name() + "\n" +
         "MPI: " + mpi_library() + "\n";
}

// results/<app>-<YYYYMMDD>-<HHMMSS>[-<n>].h5 under the current folder, a
// name no file has yet (rank 0 looks; the others are told).
std::string new_results_name(const std::string& app, const std::string& stamp, MPI_Comm comm) {
  std::string name;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    // Absolute, so that every rank writes the same file whatever its folder.
    const std::string base =
        (std::filesystem::current_path() / "results" / (app + "-" + stamp)).string();
    name = base + ".h5";
    for (int n = 1; std::filesystem::exists(name); ++n)
      name = base + "-" + std::to_string(n) + ".h5";
  }
  unsigned long long size = name.size();
  mpi::Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  name.resize(size);
  mpi::Bcast(name.data(), mpi_int(size, "the results file name's bytes"), MPI_CHAR, 0, comm);
  return name;
}

std::string stamp_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&t));
  return buf;
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
  r.attribute("threads_source", ctx.env.threads_source());
  r.attribute("thread_share", static_cast<long long>(ctx.env.thread_share()));
  r.attribute("node_ranks", static_cast<long long>(ctx.env.node_ranks()));
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
  const CommandLine line =
      parse_command_line(spec, std::vector<std::string>(argv + 1, argv + argc));
  // Kokkos sees its own flags only: it would answer --help itself, on every rank.
  std::vector<char*> args{argv[0]};
  for (const std::string& k : line.kokkos) args.push_back(const_cast<char*>(k.c_str()));
  int n = static_cast<int>(args.size());
  args.push_back(nullptr);
  char** v = args.data();

  Environment env(n, v);
  if (line.kokkos_help) return 0;  // Kokkos printed it
  try {
    if (line.help || line.help_all || line.version) {
      std::string text = line.version         ? version_text(spec.name)
                         : line.help_all      ? help_text(spec) + "\n" + help_long(spec, "")
                         : line.topic.empty() ? help_text(spec)
                                              : help_long(spec, line.topic);
      if (env.rank() == 0) std::cout << text << std::flush;
      return 0;
    }
    if (line.list) {
      std::string names;
      for (const AppSpec::Listing& l : spec.lists) {
        if (l.name == line.listing) {
          if (env.rank() == 0) std::cout << l.text() << std::flush;
          return 0;
        }
        names += (names.empty() ? "" : ", ") + l.name;
      }
      throw UsageError("--list '" + line.listing +
                       "': " + (names.empty() ? "this app lists nothing" : "accepted: " + names));
    }
    line.check();
    if (n > 1) throw UsageError(unknown_option(spec, v[1]));  // a --kokkos-* flag Kokkos lacks
    const std::string start = iso_time_now(), stamp = stamp_now();
    Deck deck = load_deck(spec, line, env.comm());
    if (!line.print_format.empty()) {
      // A dry run: every check that needs no input data, then the deck.
      if (spec.check) spec.check(*deck.params, env);
      if (env.rank() == 0) std::cout << deck_text(*deck.params, line.print_format) << std::flush;
      return 0;
    }
    // Before any large allocation: what a rank will need against what it has.
    const std::uint64_t estimated =
        spec.memory ? check_memory(spec.name, env,
                                   [&](std::uint64_t budget) {
                                     return spec.memory(*deck.params, env, budget);
                                   })
                    : 0;
    Watchdog::set_limit(deck.params->sublist("Runtime").get<double>("stall_seconds"));
    const auto& output = deck.params->sublist("Output");
    const bool named = !output.get<std::string>("file").empty();
    std::string file =
        named ? output.get<std::string>("file") : new_results_name(spec.name, stamp, env.comm());
    Results results(env.comm());
    // A place the results cannot go is said now, not after the compute.
    results.check_writable(file, named ? "Output/file" : "");
    AppContext ctx{env, deck, results};
    describe_run(ctx, spec.name, start);
    if (spec.memory)
      results.per_rank("run/estimated_bytes", static_cast<long long>(estimated), "bytes");
    if (env.rank() == 0) {
      std::printf("%s: %d rank%s x %d thread%s (%s), %s, tasks: %s, %s, deck %s\n",
                  spec.name.c_str(), env.size(), env.size() == 1 ? "" : "s", env.threads(),
                  env.threads() == 1 ? "" : "s", env.threads_reason().c_str(),
                  Environment::kokkos_description().c_str(), TaskRuntime::name(),
                  Environment::thread_level_name(env.thread_level()),
                  deck.path.empty() ? "(none: the defaults)" : deck.path.c_str());
      std::fflush(stdout);
    }
    body(ctx);
    report_memory(ctx);

    results.attribute("end_time", iso_time_now());
    // Another run may have taken the name meanwhile: never replace its file.
    if (!named) file = new_results_name(spec.name, stamp, env.comm());
    if (env.rank() == 0) {  // checked at the start; a folder removed since fails the write
      const auto dir = std::filesystem::path(file).parent_path();
      std::error_code ignored;
      if (!dir.empty()) std::filesystem::create_directories(dir, ignored);
    }
    {
      Region writing("Results: writing");
      results.write(file);
    }
    if (env.rank() == 0)
      std::printf("results: %s\n", std::filesystem::absolute(file).lexically_normal().c_str());
    return 0;
  } catch (const UsageError& e) {
    // Found alike on every rank: say it once, leave cleanly.
    if (env.rank() == 0) std::fprintf(stderr, "%s: error: %s\n", spec.name.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    abort_all(error_words(e));  // an allocation that failed: where and how much
  }
}

}  // namespace ht
