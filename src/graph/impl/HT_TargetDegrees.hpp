#pragma once
/// \file HT_TargetDegrees.hpp
/// \brief Kernel 1's degrees for order_rows (HT_RowOrder.hpp): the degree of
/// the target of every adjacency entry of a rank's rows, a round of rows at
/// a time, in memory O(a round's entries), never O(N).
///
/// Local targets read a copy of the owned rows' degrees.  Remote ones are
/// asked of their owners once per entry: each entry's target goes to its
/// owner as an offset in its range, and the degrees come back in the same
/// order (one ht::PeerPlan, its reversed() for the answers), so each lands
/// on its entry with no search and no set of ids.  The
/// exchange is a quarter of the bytes of kernel 1's own routing of the same
/// entries (4 bytes each way against 16 twice).  Rows go in rounds of at
/// most kRound entries (a longer row alone), every rank taking part in
/// every round, so a round holds 4 bytes an entry plus 8 a remote one in
/// flight, beside the owned rows' degrees (4 bytes a vertex).
///
/// Each next() (collective) fills a round: degree[k], for k in the rows
/// [row_begin(), row_end()), is the degree of g.targets[k].
///
/// Example: src/graph/HT_RowOrder.cpp.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht::impl {

/// \brief The degree (row length, clamped to 2^32 - 1) of the target of each
/// adjacency entry of this rank's rows, a round of rows at a time (see the
/// file comment).
class TargetDegrees {
 public:
  /// \brief A degree, clamped to 32 bits: half the bytes of an offset.
  using Degree = std::uint32_t;

  /// \brief Entries per round: 64 MiB of degrees (the exchange,
  /// comm/HT_PeerExchange.hpp, has no count limit).
  static constexpr std::int64_t kRound = std::int64_t(1) << 24;

  /// \brief Collective over \p g's ranks; \p g's rows must be split
  /// (Csr::split_rows) where there is more than one rank, and stay as they
  /// are until the last round.  \p per_round: the entries of a round (tests
  /// make it small).
  TargetDegrees(const Csr& g, MPI_Comm comm, std::int64_t per_round = kRound);

  /// \brief The next round's degrees (collective: every rank calls it until
  /// it returns false, the same number of times on every rank).
  bool next();
  /// \brief The local rows of this round: [row_begin(), row_end()).
  std::int64_t row_begin() const { return row_begin_; }
  std::int64_t row_end() const { return row_end_; }

  /// \brief The degree of g.targets[\p k], an entry of this round's rows;
  /// 0 for a remote target when asked() is false.
  Degree operator[](std::int64_t k) const { return by_entry_[static_cast<std::size_t>(k - base_)]; }

  /// \brief False, on every rank, where the 32-bit offsets in a range
  /// could not hold a rank's range: remote targets then read as degree 0.
  bool asked() const { return asked_; }

  /// \brief Bytes held for the entries' degrees (a round's, at most).
  std::size_t bytes() const { return by_entry_.capacity() * sizeof(Degree); }

 private:
  template <class Id>
  void fill(const Id* t);

  const Csr& g_;
  MPI_Comm comm_;
  std::int64_t per_round_;
  std::vector<Degree> local_;  // this rank's vertices' degrees
  std::vector<Degree> by_entry_;
  std::vector<std::int64_t> count_, next_;  // per owner: asks, then a cursor
  std::vector<std::uint32_t> ask_, answer_;
  long long rounds_ = 0, round_ = 0;
  std::int64_t row_begin_ = 0, row_end_ = 0, base_ = 0;
  bool asked_ = true;
};

}  // namespace ht::impl
