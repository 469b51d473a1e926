#pragma once
/// \file HT_TargetDegrees.hpp
/// \brief Kernel 1's degrees for order_rows (HT_RowOrder.hpp): the degree of
/// the target of every adjacency entry of a rank's rows, in memory O(this
/// rank's entries), never O(N).
///
/// Local targets read a copy of the owned rows' degrees.  Remote ones are
/// asked of their owners once per entry, in rounds of at most 2^26 entries a
/// rank: each entry's target goes to its owner as an offset in its range,
/// and the degrees come back in the same order, so each lands on its entry
/// with no search and no set of ids.  The exchange is half the bytes of
/// kernel 1's own routing of the same entries (4 bytes each way against 16).
/// Memory while it lives: 4 bytes an entry, 4 a local vertex, and a round's
/// asks and answers (12 bytes a remote entry of the round).
///
/// Example:
/// \code
///   const ht::impl::TargetDegrees degree(g, comm);  // collective
///   std::uint32_t d = degree[k];                    // the degree of g.targets[k]
/// \endcode
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht::impl {

/// \brief The degree (row length, clamped to 2^32 - 1) of the target of each
/// adjacency entry of this rank's rows (see the file comment).
class TargetDegrees {
 public:
  /// \brief A degree, clamped to 32 bits: half the bytes of an offset.
  using Degree = std::uint32_t;

  /// \brief Remote entries a rank asks about per round: a round's counts
  /// stay ints however many ranks ask one owner (up to 32 of them).
  static constexpr std::int64_t kRound = std::int64_t(1) << 26;

  /// \brief Collective over \p g's ranks; \p g's rows must be split
  /// (Csr::split_rows) where there is more than one rank.  \p per_round: the
  /// remote entries asked about per round (tests make it small).
  TargetDegrees(const Csr& g, MPI_Comm comm, std::int64_t per_round = kRound);

  /// \brief The degree of g.targets[\p k] as \p g was when this was built;
  /// 0 for a remote target when asked() is false.
  Degree operator[](std::int64_t k) const { return by_entry_[static_cast<std::size_t>(k)]; }

  /// \brief False, on every rank, where the 32-bit offsets in a range or
  /// MPI's int counts could not hold the exchange: remote targets then read
  /// as degree 0.
  bool asked() const { return asked_; }

  /// \brief Bytes held.
  std::size_t bytes() const { return by_entry_.capacity() * sizeof(Degree); }

 private:
  std::vector<Degree> by_entry_;
  bool asked_ = true;
};

}  // namespace ht::impl
