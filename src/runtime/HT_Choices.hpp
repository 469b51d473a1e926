#pragma once
/// \file HT_Choices.hpp
/// \brief An enum's names in one table: what a deck accepts (io/HT_Deck.hpp
/// one_of builds its validator from names()), what --help and the output
/// print (name()), and the parser (named()) all read it, so a name is
/// written once.
///
/// Example: src/graph/HT_Targets.hpp (TargetBits and its names).
#include <cstddef>
#include <string>
#include <vector>

#include "runtime/HT_Error.hpp"

namespace ht {

/// \brief The values of enum \p E and their names, in the order --help lists them.
template <class E, std::size_t N>
struct Choices {
  struct Entry {
    E value;
    const char* name;
  };
  Entry entries[N];

  /// \brief The name of \p e ("?" for a value not in the table).
  constexpr const char* name(E e) const {
    for (const Entry& x : entries)
      if (x.value == e) return x.name;
    return "?";
  }
  /// \brief The value named \p s; UsageError naming \p key, \p s and the names.
  E named(const std::string& s, const std::string& key) const {
    for (const Entry& x : entries)
      if (s == x.name) return x.value;
    throw UsageError(key + " = '" + s + "': accepted are " + list());
  }
  /// \brief Every name, in order.
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const Entry& x : entries) v.emplace_back(x.name);
    return v;
  }
  /// \brief "a, b, c": the names for a message.
  std::string list() const {
    std::string s;
    for (const Entry& x : entries) s += (s.empty() ? "" : ", ") + std::string(x.name);
    return s;
  }
};

}  // namespace ht
