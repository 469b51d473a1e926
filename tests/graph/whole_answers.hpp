#pragma once
// What the validators' tests share.  They make right and wrong answers on the
// whole graph, alike on every rank (so every rank picks the same vertices to
// break), then hand each rank its own part to validate.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graph/HT_Csr.hpp"
#include "graph/HT_Validate.hpp"

namespace test {

/// \brief The index of vertex \p v in a whole-graph array.
inline std::size_t at(std::int64_t v) { return static_cast<std::size_t>(v); }

/// \brief Every rank's part of a per-vertex array, in vertex order, on every
/// rank (collective).
template <class T>
std::vector<T> whole(const std::vector<T>& mine, const ht::VertexRange& r, MPI_Datatype type) {
  std::vector<int> counts(static_cast<std::size_t>(r.size)), first(counts.size());
  for (int p = 0; p < r.size; ++p) {
    counts[static_cast<std::size_t>(p)] = static_cast<int>(r.of_rank(p).local_count());
    first[static_cast<std::size_t>(p)] = static_cast<int>(r.of_rank(p).first());
  }
  std::vector<T> all(static_cast<std::size_t>(r.n_global));
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), type, all.data(), counts.data(),
                 first.data(), type, MPI_COMM_WORLD);
  return all;
}

/// \brief This rank's part of a whole-graph array.
template <class T>
std::vector<T> own_part(const std::vector<T>& all, const ht::VertexRange& r) {
  const auto b = all.begin() + static_cast<std::ptrdiff_t>(r.first());
  return std::vector<T>(b, b + static_cast<std::ptrdiff_t>(r.local_count()));
}

/// \brief The first vertex below \p n (by id) for which \p ok holds; fails the
/// test if none does.
inline std::int64_t first_vertex(std::int64_t n, const std::function<bool(std::int64_t)>& ok) {
  for (std::int64_t v = 0; v < n; ++v)
    if (ok(v)) return v;
  ADD_FAILURE() << "no vertex fits";
  return 0;
}

/// \brief The shape of a right search tree, to pick the vertices mutants break.
class TreeShape {
 public:
  TreeShape() = default;
  /// \p pred: parents of the whole graph, -1 where unreached; \p key its root.
  TreeShape(const std::vector<std::int64_t>& pred, std::int64_t key)
      : reached_(pred.size()), children_(pred.size()), key_(key) {
    for (std::size_t v = 0; v < pred.size(); ++v) {
      reached_[v] = pred[v] >= 0;
      if (pred[v] >= 0 && static_cast<std::int64_t>(v) != key) ++children_[at(pred[v])];
    }
  }
  bool reached(std::int64_t v) const { return reached_[at(v)]; }
  /// Reached, not the key, and nobody's parent.
  bool leaf(std::int64_t v) const { return reached(v) && v != key_ && children_[at(v)] == 0; }

 private:
  std::vector<bool> reached_;
  std::vector<int> children_;
  std::int64_t key_ = -1;
};

/// \brief Expects \p res to fail one of the checks in \p must, with a message
/// that names its check, and the same verdict on every rank (collective).
inline void expect_rejected(const char* mutant, const ht::Validation& res, int must) {
  EXPECT_TRUE(res.failed & must) << mutant << ": failed checks " << res.failed << ", " << res.what;
  EXPECT_EQ(res.what.rfind("check ", 0), 0u) << mutant << ": " << res.what;
  int lo = res.failed, hi = res.failed;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(lo, hi) << mutant << ": ranks disagree";
}

}  // namespace test
