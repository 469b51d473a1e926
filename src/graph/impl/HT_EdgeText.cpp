#include "graph/impl/HT_EdgeText.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/HT_Error.hpp"

namespace ht::impl {

void bad_line(const std::string& path, long long line, const std::string& what) {
  throw UsageError(path + ":" + std::to_string(line) + ": " + what);
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 60;
  std::string s;
  for (const char c : text.substr(0, kShown))
    s += static_cast<unsigned char>(c) < 0x20 && c != '\t' ? '?' : c;  // binary shows as ?
  if (text.size() > kShown) s += "...";
  return "('" + s + "')";
}

std::string line_format(const EdgeFile& f) {
  if (f.format == EdgeFile::Format::gr)
    return "'a u v w', vertex ids 1 to " + std::to_string(f.vertices) +
           " (the problem line's n) and a weight, finite and >= 0 as a 32-bit float (at most "
           "3.40282e+38); c starts a comment";
  const bool mtx = f.format == EdgeFile::Format::mtx;
  std::string s = f.has_weights ? (mtx ? "'i j w'" : "'u v w'") : (mtx ? "'i j'" : "'u v'");
  s += mtx ? ", vertex ids 1 to " + std::to_string(f.vertices) + " (the size line's rows)"
           : ", vertex ids 0 to " + std::to_string(kMaxVertexId);
  if (f.has_weights) s += " and a weight, finite and >= 0 as a 32-bit float (at most 3.40282e+38)";
  return s + "; % or # starts a comment";
}

[[noreturn]] void bad_entry(const EdgeFile& f, long long line, const std::string& what,
                            std::string_view text) {
  bad_line(f.path, line, what + " " + quoted(text) + "; accepted: " + line_format(f));
}

std::vector<std::string_view> fields(std::string_view line) {
  const std::size_t comment = line.find_first_of("%#");
  if (comment != std::string_view::npos) line = line.substr(0, comment);
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool whole_number(std::string_view field, long long& x) {
  const std::string s(field);
  char* end = nullptr;
  errno = 0;
  x = std::strtoll(s.c_str(), &end, 10);
  return errno == 0 && end == s.c_str() + s.size();
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
// to by_fields.
bool plain(const char* p, const char* end, bool weighted, Entry& e) {
  p = skip_blanks(p, end);
  auto r = std::from_chars(p, end, e.u);
  if (r.ec != std::errc() || r.ptr == end || !blank_char(*r.ptr)) return false;
  r = std::from_chars(skip_blanks(r.ptr, end), end, e.v);
  if (r.ec != std::errc()) return false;
  p = r.ptr;
  if (weighted) {
    if (p == end || !blank_char(*p)) return false;
    p = skip_blanks(p, end);
    // A whole number of up to 15 digits (gapbs's weights) is exact as a
    // double: read as one, at a third of a double's parse.
    unsigned long long whole = 0;
    const auto ri = std::from_chars(p, end, whole);
    if (ri.ec == std::errc() && ri.ptr - p <= 15 && (ri.ptr == end || blank_char(*ri.ptr))) {
      e.w = static_cast<double>(whole);
      return skip_blanks(ri.ptr, end) == end;
    }
#if defined(__cpp_lib_to_chars)  // from_chars of a double: GCC 11, LLVM 20
    const auto rw = std::from_chars(p, end, e.w);
    if (rw.ec != std::errc() || !std::isfinite(e.w)) return false;
    p = rw.ptr;
#else
    return false;  // older libraries: by_fields reads weighted lines
#endif
  }
  return skip_blanks(p, end) == end;
}

// The slow path: a line the fast path did not take (a comment, a sign, an
// exponent, words, a line cut short).  True and \p e set for an entry, false
// for a comment or a blank line; UsageError naming the line otherwise.
// Fields after the entry's are ignored, as gapbs and Matrix Market readers do.
// \p line has no line end.
// \p shown: the whole line, for the message (a .gr arc's fields follow its 'a').
bool by_fields(const EdgeFile& f, std::string_view line, long long line_no, Entry& e,
               std::string_view shown) {
  const std::vector<std::string_view> got = fields(line);
  if (got.empty()) return false;
  const std::size_t need = f.has_weights ? 3 : 2;
  if (got.size() < need)
    bad_entry(f, line_no,
              std::to_string(got.size()) + (got.size() == 1 ? " field" : " fields") +
                  " where an edge has " + std::to_string(need),
              shown);
  long long* const ends[2] = {&e.u, &e.v};
  for (int k = 0; k < 2; ++k)
    if (!whole_number(got[static_cast<std::size_t>(k)], *ends[k]))
      bad_entry(f, line_no,
                "'" + std::string(got[static_cast<std::size_t>(k)]) + "' is not a vertex id",
                shown);
  if (f.has_weights) {
    const std::string w(got[2]);
    char* end = nullptr;
    e.w = std::strtod(w.c_str(), &end);
    if (end != w.c_str() + w.size()) bad_entry(f, line_no, "'" + w + "' is not a weight", shown);
  }
  return true;
}

bool by_fields(const EdgeFile& f, std::string_view line, long long line_no, Entry& e) {
  return by_fields(f, line, line_no, e, line);
}

// A .gr line: true and \p e set for an arc 'a u v w', false for a comment
// ('c') or a blank line; UsageError naming the line otherwise.
bool arc(const EdgeFile& f, std::string_view line, long long line_no, Entry& e) {
  const char* const end = line.data() + line.size();
  const char* p = skip_blanks(line.data(), end);
  if (p == end || *p == 'c') return false;
  if (*p == 'a' && p + 1 < end && blank_char(p[1])) {
    if (plain(p + 1, end, f.has_weights, e)) return true;
    if (by_fields(f, std::string_view(p + 1, static_cast<std::size_t>(end - p - 1)), line_no, e,
                  line))
      return true;
    bad_entry(f, line_no, "an arc without its ends", line);
  }
  bad_entry(f, line_no,
            *p == 'p' ? "a second problem line" : "not an arc, a comment or a blank line", line);
}

std::string number(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

// The range and weight rules, whichever path read the entry.
void check(const EdgeFile& f, const Entry& e, long long line_no, std::string_view text) {
  const bool counted = f.format == EdgeFile::Format::mtx || f.format == EdgeFile::Format::gr;
  const long long base = counted ? 1 : 0, last_id = counted ? f.vertices : kMaxVertexId;
  for (const long long x : {e.u, e.v})
    if (x < base || x > last_id)
      bad_entry(f, line_no, "vertex " + std::to_string(x) + " out of range", text);
  // Weights are stored as floats: a weight is checked as what it becomes
  // (1e39 is a finite double but +inf as a float).  NaN fails the test too.
  if (!f.has_weights || (e.w >= 0 && std::isfinite(static_cast<float>(e.w)))) return;
  // The message only for a bad line: formatting it for every line cost 9x
  // the reading of a weighted file.
  const std::string edge = "weight " + number(e.w) + " of edge {" + std::to_string(e.u) + ", " +
                           std::to_string(e.v) + "}";
  bad_entry(f, line_no,
            edge + (std::isnan(e.w) ? " is not a number"
                    : e.w < 0       ? " is negative"
                                    : " is infinite as a 32-bit float"),
            text);
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
    const bool gr = file_.format == EdgeFile::Format::gr;
    const long long base = gr || file_.format == EdgeFile::Format::mtx ? 1 : 0;
    try {
      for (; line < end; ++line_no) {
        const char* nl =
            static_cast<const char*>(std::memchr(line, '\n', static_cast<std::size_t>(end - line)));
        const char* const eol = nl ? nl : end;
        Entry e;
        std::string_view text(line, static_cast<std::size_t>(eol - line));
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);  // written on Windows
        if (gr ? arc(file_, text, line_no, e)
               : plain(line, eol, file_.has_weights, e) || by_fields(file_, text, line_no, e)) {
          check(file_, e, line_no, text);
          if constexpr (std::is_same_v<E, WeightedEdge>)
            out[n++] = {e.u - base, e.v - base, static_cast<float>(e.w)};
          else
            out[n++] = {e.u - base, e.v - base};
        }
        line = eol + 1;
      }
    } catch (const UsageError& x) {  // not across the parallel region
      failures[p] = x.what();
    } catch (const std::exception& x) {
      failures[p] = "\x01" + error_words(x);  // \x01: not the file's fault
    }
    count[p] = n;
  });
  Kokkos::fence();
  for (const std::string& f : failures) {  // the first bad line in the file
    if (f.empty()) continue;
    if (f[0] == '\x01') throw Error(f.substr(1));
    throw UsageError(f);
  }
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
