#pragma once
// A rank's part of a graph file's entries, parsed on all of the rank's
// threads.  The text is cut into pieces at line starts; the pieces' lines are
// counted first (so every line knows its number in the file, and every piece
// where its edges go) and then parsed at once, each piece straight into its
// slots of one array that no thread initialises first: the thread that
// parses a piece is the first to touch its memory.
//
// A line of plain numbers ("u v" or "u v w", blanks around) is parsed with
// std::from_chars; any other line (a comment, a sign, words, a cut-short
// line) is split into fields and read, or named as bad, by the slow path.
// The fast path changes no verdict and no message: a bad file's error names
// the file, the line, its text and what a line holds.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <Kokkos_Core.hpp>

#include "graph/HT_EdgeFile.hpp"

namespace ht::impl {

/// Ids past 2^42 are beyond SCALE 42, the largest the project runs.
constexpr long long kMaxVertexId = (1LL << 42) - 1;

/// Throws ht::UsageError "path:line: what" (a bad file is the user's input).
[[noreturn]] void bad_line(const std::string& path, long long line, const std::string& what);

/// \brief \p text as shown in a message: "('1 x')", cut after 60 characters,
/// control characters as '?'.
std::string quoted(std::string_view text);

/// \brief A line's blank-separated fields before any comment (% or #).
std::vector<std::string_view> fields(std::string_view line);

/// \brief True when \p field is a whole number in range of long long, set in \p x.
bool whole_number(std::string_view field, long long& x);

/// \brief A rank's entries of a graph file, parsed on its host threads.
class EdgeText {
 public:
  /// Cuts \p text (whole lines of \p file's entries) into pieces for the
  /// host threads and counts its lines, in parallel.  \p text must outlive
  /// this object.
  EdgeText(const EdgeFile& file, std::string_view text);
  /// Lines in the text, a last one without a newline included.
  long long lines() const { return lines_; }
  /// The entries, 0-based, in file order, the text's first line being line
  /// \p first_line of the file.  ht::UsageError "path:line: what ('text');
  /// accepted: ..." at the first bad line; ht::Error for anything else (an
  /// allocation: out_of_memory's words).  E: Edge or WeightedEdge (a weighted file read as
  /// unweighted drops its weights).
  template <class E>
  Kokkos::View<E*, Kokkos::HostSpace> parse(long long first_line) const;

 private:
  const EdgeFile& file_;
  std::string_view text_;
  std::vector<std::size_t> cuts_;        // piece p is [cuts_[p], cuts_[p + 1])
  std::vector<long long> lines_before_;  // newlines before piece p
  long long lines_ = 0;
};

}  // namespace ht::impl
