#pragma once
/// \file HT_TargetDegrees.hpp
/// \brief Kernel 1's degree lookup for order_rows (HT_RowOrder.hpp): the
/// degree of every target a rank's rows hold, in memory O(this rank's rows
/// and distinct remote targets), never O(N).
///
/// Local targets read a copy of the owned rows' degrees.  Remote ones are
/// asked of their owners once each: the distinct remote targets, sorted,
/// are sent to their owners as offsets in their ranges, and the degrees come
/// back in the same order.  A lookup finds a remote target by binary search
/// in its bucket of the sorted ids (buckets by the ids' high bits, about
/// four ids each on average), without a bitmap's N bits and 64-bit count a
/// word.  Memory: 8 bytes a row entry's target while the ids are gathered
/// (in slices, each deduplicated, so about 8 bytes a distinct remote target
/// plus one slice), then 14 bytes a distinct remote target and 4 a local
/// vertex; all of it is freed with the object.
///
/// Example:
/// \code
///   const ht::impl::TargetDegrees degree(g, comm);  // collective
///   std::uint32_t d = degree(g.targets[k]);         // any target of a local row
/// \endcode
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht::impl {

/// \brief The degree (row length, clamped to 2^32 - 1) of each target of
/// this rank's rows (see the file comment).
class TargetDegrees {
 public:
  /// \brief A degree, clamped to 32 bits: half the bytes of an offset.
  using Degree = std::uint32_t;

  /// \brief Collective over \p g's ranks; \p g's rows must be split
  /// (Csr::split_rows) where there is more than one rank.
  TargetDegrees(const Csr& g, MPI_Comm comm);

  /// \brief The degree of \p v, a target of one of this rank's rows (or a
  /// vertex this rank owns); 0 for a remote vertex when asked() is false.
  Degree operator()(std::int64_t v) const {
    if (r_.mine(v)) return local_[static_cast<std::size_t>(r_.local(v))];
    if (!asked_) return 0;
    const std::size_t b = static_cast<std::size_t>(v >> shift_);
    const std::int64_t* const lo = ids_.data() + start_[b];
    const std::int64_t* const hi = ids_.data() + start_[b + 1];
    return remote_[static_cast<std::size_t>(std::lower_bound(lo, hi, v) - ids_.data())];
  }

  /// \brief False, on every rank, where MPI's int counts or the 32-bit
  /// offsets in a range could not hold the exchange: remote targets then
  /// read as degree 0.
  bool asked() const { return asked_; }

  /// \brief The distinct remote targets of this rank's rows.
  std::size_t remote_count() const { return ids_.size(); }

  /// \brief Bytes held (for the memory audit's tests).
  std::size_t bytes() const;

 private:
  bool ask(MPI_Comm comm);

  VertexRange r_;
  std::vector<Degree> local_;        // this rank's vertices' degrees
  std::vector<std::int64_t> ids_;    // distinct remote targets, rising
  std::vector<Degree> remote_;       // their degrees, in the same order
  std::vector<std::int64_t> start_;  // bucket b: ids_[start_[b], start_[b + 1])
  int shift_ = 0;                    // bucket of v: v >> shift_
  bool asked_ = false;
};

}  // namespace ht::impl
