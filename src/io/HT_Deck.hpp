#pragma once
/// \file HT_Deck.hpp
/// \brief Input decks: a Teuchos::ParameterList read from XML or YAML (by the
/// file's extension) on rank 0, checked against the application's list of
/// valid parameters (names, types, accepted values) by our own rules before
/// Teuchos fills in the defaults, and broadcast.  The command line that
/// names the deck and sets keys over it is app/HT_CommandLine.hpp's.
///
/// Every message names where the fault is (the deck's file and line), the
/// key, the value and what is accepted, on every rank alike
/// (ht::UsageError): `graph.yaml:4: Graph500/SCAEL: no such parameter; did
/// you mean SCALE?`; a value of the wrong type is shown as written with its
/// type (`Graph500/SCALE = "10" (a string): expected an integer`).  A YAML
/// integer is taken where a number is asked.  A key given twice in one list,
/// an empty deck and a deck of another (or no) driver are refused by name.
///
/// Examples: src/app/HT_CommandLine.cpp, tests/io/tstDeck.cpp.
#include <mpi.h>

#include <Teuchos_ParameterList.hpp>
#include <Teuchos_RCP.hpp>
#include <string>
#include <vector>

#include "io/HT_Parameters.hpp"

namespace ht {

/// A validated deck.
struct Deck {
  Teuchos::RCP<Teuchos::ParameterList> params;  ///< every key present (defaults filled)
  std::string path;  ///< the deck file as given; empty when the run uses the defaults
  std::string text;  ///< the fully-defaulted deck as XML, for the results file
};

/// \brief The deck at \p path (empty: the defaults) of driver \p app, checked
/// against \p valid, with \p sets (keys typed and checked, in their sections)
/// over its keys.  Collective over \p comm; throws UsageError on every rank
/// on bad input, among it an existing Output/file without Output/overwrite.
Deck load_deck(const std::string& app, const Teuchos::ParameterList& valid, const std::string& path,
               const Teuchos::ParameterList& sets, MPI_Comm comm);

/// \brief \p params as a deck, \p format "xml" or "yaml".
std::string deck_text(const Teuchos::ParameterList& params, const std::string& format);

/// \brief The drivers HybridTasks builds, a main each in apps/ (CMake's
/// HT_DRIVERS), one of which a deck's top-level list names: a deck naming
/// another is refused with these.
const std::vector<std::string>& driver_names();

}  // namespace ht
