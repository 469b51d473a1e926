#pragma once
/// \file HT_Deck.hpp
/// \brief Input decks: a Teuchos::ParameterList read from XML or YAML (by the
/// file's extension) on rank 0, checked against the application's list of
/// valid parameters (names, types, accepted values) by our own rules before
/// Teuchos fills in the defaults, and broadcast.
///
/// Command line of every HybridTasks app (the deck is optional: without one
/// the app runs its defaults, those --help lists):
///   <app> [deck.xml|deck.yaml] [--set Section/key=value]... [shortcuts]
///         [--print-deck[=xml|yaml]]
/// Every message names where the fault is (the deck's file and line, or the
/// option), the key, the value and what is accepted, on every rank alike
/// (ht::UsageError): `graph.yaml:4: Graph500/SCAEL: no such parameter; did
/// you mean SCALE?`; a value of the wrong type is shown as written with its
/// type (`Graph500/SCALE = "10" (a string): expected an integer`).  A YAML
/// integer is taken where a number is asked.  A key given twice in one list,
/// an empty deck and a deck of another (or no) driver are refused by name.
///
/// Example:
/// \code
///   ht::AppSpec spec{"cannon_gemm", "Cannon GEMM with Kokkos tasks", gemm_parameters()};
///   ht::Deck deck = ht::load_deck(spec, {"input/gemm.xml", "--set", "GEMM/N=512"}, comm);
///   int n = deck.params->sublist("GEMM").get<int>("N");   // 512
/// \endcode
#include <mpi.h>

#include <Teuchos_ParameterEntryValidator.hpp>
#include <Teuchos_ParameterList.hpp>
#include <Teuchos_RCP.hpp>
#include <functional>
#include <string>
#include <vector>

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

/// \brief The validator of a string key that takes one of \p names (from a
/// runtime/HT_Choices.hpp table's names()): the one way decks list choices.
Teuchos::RCP<const Teuchos::ParameterEntryValidator> one_of(const std::vector<std::string>& names);

/// A validated deck.
struct Deck {
  Teuchos::RCP<Teuchos::ParameterList> params;  ///< every key present (defaults filled)
  std::string path;  ///< the deck file as given; empty when the run uses the defaults
  std::string text;  ///< the fully-defaulted deck as XML, for the results file
  /// Set when the command line asked only to print the deck.
  bool print_only = false;
  std::string printed;  ///< rank 0: the deck to print (--print-deck's format)
};

/// Parses \p args (the command line without argv[0] and Kokkos flags).
/// Collective over \p comm; throws UsageError on every rank on bad input,
/// among it an existing Output/file without Output/overwrite.
Deck load_deck(const AppSpec& spec, const std::vector<std::string>& args, MPI_Comm comm);

/// \brief The --help text, one screen: usage, options, Kokkos flags and a
/// line per parameter (key, type, default, accepted values, meaning cut to
/// fit \p width columns).
std::string help_text(const AppSpec& spec, std::size_t width = 100);

/// \brief The long text of the parameters \p topic names ("Section/key" or
/// "Section"; empty: all of them): type, default, accepted values and the
/// whole documentation.  UsageError when \p topic names nothing.
std::string help_long(const AppSpec& spec, const std::string& topic);

/// The valid list with defaults filled in, as XML or YAML text.
std::string default_deck(const AppSpec& spec, const std::string& format);

/// \brief The drivers HybridTasks builds (apps/), one of which a deck's
/// top-level list names: a deck naming another is refused with these.
const std::vector<std::string>& driver_names();

/// \brief The candidate nearest to \p word by edit distance (letters swapped
/// count once, case ignored), if near enough to be a likely typo; else "".
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ht
