#pragma once
/// \file HT_Deck.hpp
/// \brief Input decks: a Teuchos::ParameterList read from XML or YAML (by the
/// file's extension) on rank 0, validated against the application's list of
/// valid parameters (types, validators, documented defaults), and broadcast.
///
/// Command line of every HybridTasks app:
///   <app> <deck.xml|deck.yaml> [--set Section/key=value]... [--print-deck[=xml|yaml]]
///   <app> --help
/// Unknown keys, wrong types and out-of-range values are refused with the key,
/// the value and what is accepted, on every rank alike (ht::UsageError).
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
#include <string>
#include <vector>

namespace ht {

/// What an application is and which parameters it takes.
struct AppSpec {
  std::string name;     ///< executable name, e.g. "cannon_gemm"
  std::string purpose;  ///< one line for --help
  /// Valid parameters with defaults, docs and validators.
  Teuchos::RCP<const Teuchos::ParameterList> valid;
};

/// \brief The validator of a string key that takes one of \p names (from a
/// runtime/HT_Choices.hpp table's names()): the one way decks list choices.
Teuchos::RCP<const Teuchos::ParameterEntryValidator> one_of(const std::vector<std::string>& names);

/// A validated deck.
struct Deck {
  Teuchos::RCP<Teuchos::ParameterList> params;  ///< every key present (defaults filled)
  std::string path;                             ///< the deck file as given
  std::string text;  ///< the fully-defaulted deck as XML, for the results file
  /// Set when the command line asked only to print the deck (already printed).
  bool print_only = false;
};

/// Parses \p args (the command line without argv[0] and Kokkos flags).
/// Collective over \p comm; throws UsageError on every rank on bad input.
Deck load_deck(const AppSpec& spec, const std::vector<std::string>& args, MPI_Comm comm);

/// The --help text: usage, options, Kokkos flags, and every parameter with its
/// type, default and documentation.
std::string help_text(const AppSpec& spec);

/// The valid list with defaults filled in, as XML or YAML text.
std::string default_deck(const AppSpec& spec, const std::string& format);

}  // namespace ht
