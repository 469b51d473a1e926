#pragma once
/// \file HT_Parameters.hpp
/// \brief What a parameter of a Teuchos::ParameterList takes, in our words:
/// its type, value and accepted values as text, whether a value is accepted,
/// and the nearest name for a typo.  Shared by the deck reader (io/HT_Deck)
/// and the command line's --set and --help (app/HT_CommandLine).
#include <Teuchos_ParameterEntryValidator.hpp>
#include <Teuchos_ParameterList.hpp>
#include <Teuchos_RCP.hpp>
#include <functional>
#include <string>
#include <vector>

namespace ht {

/// \brief The validator of a string key that takes one of \p names (from a
/// runtime/HT_Choices.hpp table's names()): the one way decks list choices.
Teuchos::RCP<const Teuchos::ParameterEntryValidator> one_of(const std::vector<std::string>& names);

/// \brief The candidate nearest to \p word by edit distance (letters swapped
/// count once, case ignored), if near enough to be a likely typo; else "".
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

/// \brief Edit distance of \p a and \p b (insert, delete, substitute, swap
/// neighbours; case ignored).
std::size_t edit_distance(const std::string& a, const std::string& b);

/// \brief \p v joined by \p sep.
std::string join_names(const std::vector<std::string>& v, const std::string& sep);

/// \brief The names of \p l's sections (\p sections) or of its parameters.
std::vector<std::string> names_of(const Teuchos::ParameterList& l, bool sections);

/// \brief "int", "double", "bool" or "string".
std::string type_word(const Teuchos::ParameterEntry& e);

/// \brief The entry's value as text ("true", "1e-06", "cg").
std::string value_text(const Teuchos::ParameterEntry& e);

/// \brief What \p e accepts: "1 to 42", "kronecker, uniform or grid", "true or
/// false" (\p compact: "1..42", "kronecker|uniform|grid"); "" when anything of its type.
std::string accepted(const Teuchos::ParameterEntry& e, bool compact);

/// \brief Whether \p got's value is one \p want accepts: "" or why not
/// ("out of range", "not accepted (did you mean gmres?)").
std::string check_value(const Teuchos::ParameterEntry& got, const Teuchos::ParameterEntry& want);

/// \brief "Graph500/SCAEL: no such parameter; did you mean SCALE?" for a
/// name \p valid (the list at \p prefix, "Graph500/", of \p top) lacks.
std::string unknown_fault(const std::string& prefix, const std::string& name,
                          const Teuchos::ParameterList& valid, const Teuchos::ParameterList& top,
                          bool section);

/// \brief Visits every parameter of \p l as ("Section/key", entry).
void for_each_key(const Teuchos::ParameterList& l, const std::string& prefix,
                  const std::function<void(const std::string&, const Teuchos::ParameterEntry&)>& f);

}  // namespace ht
