#pragma once
// A frontier's edges cut into chunks of equal size.  Counting the edges of
// the frontier's rows in order, chunk c of n covers [E c / n, E (c + 1) / n):
// a hub's row may be cut between chunks, so no chunk holds much more work
// than another however skewed the degrees (Kronecker graphs' are).  Each
// frontier vertex is counted by the one chunk its row starts in.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ht::impl {

class EdgeChunks {
 public:
  /// Sizes the chunks for a frontier of the vertices in \p rows, whose row
  /// lengths \p degree(vertex) gives; \p ahead(vertex) is called kAhead
  /// rows before degree(vertex), to prefetch what it reads (a sparse
  /// frontier's rows are a cache miss each, and this loop runs on one thread).
  template <class Degree, class Ahead>
  void assign(const std::vector<std::int64_t>& rows, Degree&& degree, Ahead&& ahead) {
    constexpr std::size_t kAhead = 16;
    const std::size_t m = rows.size();
    starts_.resize(m + 1);
    starts_[0] = 0;
    for (std::size_t q = 0; q < std::min(m, kAhead); ++q) ahead(rows[q]);
    for (std::size_t q = 0; q < m; ++q) {
      if (q + kAhead < m) ahead(rows[q + kAhead]);
      starts_[q + 1] = starts_[q] + degree(rows[q]);
    }
  }
  /// assign() without prefetches.
  template <class Degree>
  void assign(const std::vector<std::int64_t>& rows, Degree&& degree) {
    assign(rows, degree, [](std::int64_t) {});
  }
  /// Keeps room for \p rows rows, touched now rather than in the first search.
  void reserve(std::size_t rows) {
    starts_.assign(rows + 1, 0);
    starts_.assign(1, 0);
  }
  std::int64_t edges() const { return starts_.back(); }
  std::size_t rows() const { return starts_.size() - 1; }
  /// Where row q's edges start, counting the frontier's edges in order (q <= rows()).
  const std::int64_t* starts() const { return starts_.data(); }
  /// The first edge of chunk c of n.
  std::int64_t edge_begin(std::size_t c, std::size_t n) const {
    const std::int64_t e = edges(), cc = static_cast<std::int64_t>(c),
                       nn = static_cast<std::int64_t>(n);
    return e / nn * cc + e % nn * cc / nn;  // e * c / n without overflow
  }
  /// The row holding edge e (< edges()): the last one starting at or before it.
  std::size_t row_of(std::int64_t e) const {
    return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), e) -
                                    starts_.begin() - 1);
  }
  /// The first row that chunk c of n counts as its own (c <= n).
  std::size_t vertex_begin(std::size_t c, std::size_t n) const {
    if (c == 0) return 0;
    if (c == n) return rows();
    return static_cast<std::size_t>(
        std::lower_bound(starts_.begin(), starts_.end(), edge_begin(c, n)) - starts_.begin());
  }

 private:
  std::vector<std::int64_t> starts_{0};
};

}  // namespace ht::impl
