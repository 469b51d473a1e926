#include "graph/impl/HT_EdgeText.hpp"

#include <Kokkos_Core.hpp>
#include <Teuchos_MatrixMarket_generic.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/HT_Error.hpp"

namespace ht::impl {

void bad_line(const std::string& path, long long line, const std::string& what) {
  throw Error(path + ":" + std::to_string(line) + ": " + what);
}

// Teuchos's own exceptions open with the source file and line that threw
// them, then the message: keep the message's last paragraph.
std::string teuchos_message(const std::exception& e) {
  std::string m = e.what();
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  const std::size_t cut = m.rfind("\n\n");
  return cut == std::string::npos ? m : m.substr(cut + 2);
}

namespace {

// Pieces handed to the host threads as they come free.
using Pieces =
    Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                        Kokkos::IndexType<std::int64_t>>;
Pieces host(std::size_t pieces) { return Pieces(0, static_cast<std::int64_t>(pieces)); }

// One entry: its ends as written and its weight.
struct Entry {
  long long u = 0, v = 0;
  double w = 0;
};

bool blank_char(char c) { return c == ' ' || c == '\t' || c == '\r'; }

const char* skip_blanks(const char* p, const char* end) {
  while (p < end && blank_char(*p)) ++p;
  return p;
}

// The fast path: true when [p, end) is numbers alone ("u v", or "u v w" when
// \p weighted, with a finite w), blanks around them.  Anything else is left
// to Teuchos.
bool plain(const char* p, const char* end, bool weighted, Entry& e) {
  p = skip_blanks(p, end);
  auto r = std::from_chars(p, end, e.u);
  if (r.ec != std::errc() || r.ptr == end || !blank_char(*r.ptr)) return false;
  r = std::from_chars(skip_blanks(r.ptr, end), end, e.v);
  if (r.ec != std::errc()) return false;
  p = r.ptr;
  if (weighted) {
#if defined(__cpp_lib_to_chars)  // from_chars of a double: GCC 11, LLVM 20
    if (p == end || !blank_char(*p)) return false;
    const auto rw = std::from_chars(skip_blanks(p, end), end, e.w);
    if (rw.ec != std::errc() || !std::isfinite(e.w)) return false;
    p = rw.ptr;
#else
    return false;  // older libraries: Teuchos reads weighted lines
#endif
  }
  return skip_blanks(p, end) == end;
}

// The slow path, Teuchos's line readers: true and \p e set for an entry,
// false for a comment or a blank line; ht::Error for a bad line.
bool by_teuchos(const EdgeFile& f, std::string line, long long line_no, Entry& e) {
  if (!line.empty() && line.back() == '\r') line.pop_back();  // written on Windows
  if (line.find_first_not_of(" \t\r") == std::string::npos) return false;
  try {
    if (f.has_weights)  // readRealLine skips comments itself
      return Teuchos::MatrixMarket::readRealLine(line, e.u, e.v, e.w, line_no, false);
    // readPatternLine wants the data part alone
    std::size_t start = 0, size = 0;
    return !Teuchos::MatrixMarket::checkCommentLine(line, start, size, line_no, false) &&
           Teuchos::MatrixMarket::readPatternLine(line.substr(start, size), e.u, e.v, line_no,
                                                  false);
  } catch (const std::exception& x) {
    bad_line(f.path, line_no, teuchos_message(x));
  }
}

std::string number(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

// The range and weight rules, whichever path read the entry.
void check(const EdgeFile& f, const Entry& e, long long line_no) {
  const bool mtx = f.format == EdgeFile::Format::mtx;
  const long long base = mtx ? 1 : 0, last_id = mtx ? f.vertices : kMaxVertexId;
  for (const long long x : {e.u, e.v})
    if (x < base || x > last_id)
      bad_line(f.path, line_no,
               "vertex " + std::to_string(x) + " out of range: ids are " + std::to_string(base) +
                   " to " + std::to_string(last_id) + (mtx ? " (the size line's rows)" : ""));
  // Weights are stored as floats: a weight is checked as what it becomes
  // (1e39 is a finite double but +inf as a float).
  if (f.has_weights && !(e.w >= 0 && std::isfinite(static_cast<float>(e.w))))
    bad_line(f.path, line_no,
             "weight " + number(e.w) + " of edge {" + std::to_string(e.u) + ", " +
                 std::to_string(e.v) +
                 "}: weights must be finite and >= 0 as 32-bit floats (at most " +
                 number(std::numeric_limits<float>::max()) + ")");
}

// The first line start at or after byte \p at.
std::size_t line_start(std::string_view t, std::size_t at) {
  if (at == 0) return 0;
  const void* nl = std::memchr(t.data() + at - 1, '\n', t.size() - at + 1);
  return nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - t.data()) + 1 : t.size();
}

std::size_t at(std::int64_t p) { return static_cast<std::size_t>(p); }

}  // namespace

EdgeText::EdgeText(const EdgeFile& file, std::string_view text) : file_(file), text_(text) {
  // A few pieces a thread, so that a thread held up elsewhere costs little.
  const auto threads = static_cast<std::size_t>(Kokkos::DefaultHostExecutionSpace().concurrency());
  const std::size_t pieces = std::max<std::size_t>(1, std::min(4 * threads, text.size() >> 16));
  cuts_.assign(pieces + 1, text.size());
  cuts_[0] = 0;
  for (std::size_t p = 1; p < pieces; ++p)
    cuts_[p] = line_start(text, std::max(cuts_[p - 1], text.size() / pieces * p));
  std::vector<long long> newlines(pieces);
  Kokkos::parallel_for("ht::EdgeText::count", host(pieces), [&](std::int64_t p) {
    newlines[at(p)] = std::count(text.data() + cuts_[at(p)], text.data() + cuts_[at(p) + 1], '\n');
  });
  Kokkos::fence();
  lines_before_.assign(pieces, 0);
  for (std::size_t p = 1; p < pieces; ++p)
    lines_before_[p] = lines_before_[p - 1] + newlines[p - 1];
  lines_ = lines_before_.back() + newlines.back();
  if (!text.empty() && text.back() != '\n') ++lines_;  // no newline at the end
}

template <class E>
Kokkos::View<E*, Kokkos::HostSpace> EdgeText::parse(long long first_line) const {
  const std::size_t pieces = cuts_.size() - 1;
  // Piece p's slots start at its first line: a line holds one entry at most.
  Kokkos::View<E*, Kokkos::HostSpace> edges(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "ht::EdgeText::edges"),
      static_cast<std::size_t>(lines_));
  std::vector<std::size_t> count(pieces, 0);
  std::vector<std::string> failures(pieces);
  Kokkos::parallel_for("ht::EdgeText::parse", host(pieces), [&](std::int64_t i) {
    const std::size_t p = at(i);
    const char* line = text_.data() + cuts_[p];
    const char* const end = text_.data() + cuts_[p + 1];
    long long line_no = first_line + lines_before_[p];
    E* out = edges.data() + lines_before_[p];
    std::size_t n = 0;
    const long long base = file_.format == EdgeFile::Format::mtx ? 1 : 0;
    try {
      for (; line < end; ++line_no) {
        const char* nl =
            static_cast<const char*>(std::memchr(line, '\n', static_cast<std::size_t>(end - line)));
        const char* const eol = nl ? nl : end;
        Entry e;
        if (plain(line, eol, file_.has_weights, e) ||
            by_teuchos(file_, std::string(line, eol), line_no, e)) {
          check(file_, e, line_no);
          if constexpr (std::is_same_v<E, WeightedEdge>)
            out[n++] = {e.u - base, e.v - base, static_cast<float>(e.w)};
          else
            out[n++] = {e.u - base, e.v - base};
        }
        line = eol + 1;
      }
    } catch (const std::exception& x) {  // not across the parallel region
      failures[p] = x.what();
    }
    count[p] = n;
  });
  Kokkos::fence();
  for (const std::string& f : failures)  // the first bad line in the file
    if (!f.empty()) throw Error(f);
  // Close the gaps that comments and blank lines left, in file order.
  std::size_t total = 0;
  for (std::size_t p = 0; p < pieces; ++p) {
    const auto from = static_cast<std::size_t>(lines_before_[p]);
    if (from != total)
      std::memmove(edges.data() + total, edges.data() + from, count[p] * sizeof(E));
    total += count[p];
  }
  return Kokkos::subview(edges, std::make_pair(std::size_t(0), total));
}

template Kokkos::View<Edge*, Kokkos::HostSpace> EdgeText::parse<Edge>(long long) const;
template Kokkos::View<WeightedEdge*, Kokkos::HostSpace> EdgeText::parse<WeightedEdge>(
    long long) const;

}  // namespace ht::impl
