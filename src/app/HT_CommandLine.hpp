#pragma once
/// \file HT_CommandLine.hpp
/// \brief The command line of every HybridTasks driver, parsed once: every
/// flag, --set and its shortcuts, --help and the suggestions for typos.  The
/// deck it names is read by io/HT_Deck.hpp.
///
///   <app> [deck.xml|deck.yaml] [--set Section/key=value]... [shortcuts]
///         [--print-deck[=xml|yaml]] [--list <name>] [--help [Section/key]]
///         [--help-all] [--version] [--kokkos-help] [--kokkos-num-threads=N]
///
/// A fault names the option, the key, the value and what is accepted
/// (`--set Graph500/SCALE=ten: expected an integer; accepted: 1 to 42`,
/// `unknown option '--lsit'; did you mean --list? (see graph500_bfs --help)`).
///
/// Examples: src/app/HT_App.cpp (run_app), tests/io/tstDeck.cpp.
#include <mpi.h>

#include <Teuchos_ParameterList.hpp>
#include <Teuchos_RCP.hpp>
#include <functional>
#include <string>
#include <vector>

#include "io/HT_Deck.hpp"
#include "runtime/HT_MemoryBudget.hpp"

namespace ht {

class Environment;

/// \brief A command-line shortcut for one deck key: `-s 20`, `--scale 20`
/// and `--scale=20` mean `--set Graph500/SCALE=20`.
struct Shortcut {
  std::string short_flag;  ///< "-s" (may be empty)
  std::string long_flag;   ///< "--scale"
  std::string key;         ///< "Graph500/SCALE"
};

/// What an application is and which parameters it takes.
struct AppSpec {
  std::string name;     ///< executable name, e.g. "cannon_gemm"
  std::string purpose;  ///< one line for --help
  /// Valid parameters with defaults, docs and validators.
  Teuchos::RCP<const Teuchos::ParameterList> valid;
  /// Shortcuts for the keys users change most (none by default).
  std::vector<Shortcut> shortcuts = {};
  /// \brief The checks across keys that need no input data (the driver's
  /// configuration reader): run by --print-deck so that a deck it prints
  /// would run.  Throws UsageError; collective.  Empty: none.
  std::function<void(const Teuchos::ParameterList&, const Environment&)> check = {};
  /// \brief What `--list <name>` prints, answered before any deck is read:
  /// one item a line, its name first, for scripts (none by default).
  struct Listing {
    std::string name;                   ///< "variants"
    std::string what;                   ///< one line for --help
    std::function<std::string()> text;  ///< the lines
  };
  std::vector<Listing> lists = {};
  /// \brief A rank's peak memory estimated from the validated deck, given
  /// the rank's budget in bytes (runtime/HT_MemoryBudget.hpp): run_app
  /// checks it before the driver runs (app/HT_MemoryCheck.hpp).  Empty: none.
  std::function<MemoryEstimate(const Teuchos::ParameterList&, const Environment&, std::uint64_t)>
      memory = {};
};

/// \brief What the command line asks, every argument read once, alike on
/// every rank.  A fault is kept, not thrown, so that --help still answers
/// and the error is said once MPI runs (check()).
struct CommandLine {
  bool help = false;         ///< --help or -h: one screen, or topic's whole text
  std::string topic;         ///< --help Section/key
  bool help_all = false;     ///< --help-all
  bool version = false;      ///< --version
  bool kokkos_help = false;  ///< --kokkos-help (Kokkos prints it)
  bool list = false;         ///< --list <listing>
  std::string listing;
  std::string deck;  ///< the deck's path; empty: the defaults
  /// --set and shortcuts, typed and checked, in their sections.
  Teuchos::RCP<Teuchos::ParameterList> sets = Teuchos::rcp(new Teuchos::ParameterList);
  std::string print_format;         ///< --print-deck: "xml" or "yaml"; empty: run
  std::vector<std::string> kokkos;  ///< the --kokkos-* flags (and values), for Kokkos
  std::string fault;                ///< the first usage error; "" when none

  /// Throws UsageError with the fault, if any.
  void check() const;
};

/// \brief Reads \p args (the command line without argv[0]) once.
CommandLine parse_command_line(const AppSpec& spec, const std::vector<std::string>& args);

/// \brief "unknown option '<arg>'; did you mean --list? (see <app> --help)".
std::string unknown_option(const AppSpec& spec, const std::string& arg);

/// \brief The deck \p line names, with its --set over it (io/HT_Deck.hpp's
/// load_deck); throws \p line's fault first.  Collective over \p comm.
Deck load_deck(const AppSpec& spec, const CommandLine& line, MPI_Comm comm);

/// \brief The --help text, one screen: usage, options, Kokkos flags and a
/// line per parameter (key, type, default, accepted values, meaning cut to
/// fit \p width columns).
std::string help_text(const AppSpec& spec, std::size_t width = 100);

/// \brief The long text of the parameters \p topic names ("Section/key" or
/// "Section"; empty: all of them): type, default, accepted values and the
/// whole documentation.  UsageError when \p topic names nothing.
std::string help_long(const AppSpec& spec, const std::string& topic);

}  // namespace ht
