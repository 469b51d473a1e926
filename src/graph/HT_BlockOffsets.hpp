#pragma once
/// \file HT_BlockOffsets.hpp
/// \brief Where each slot's list starts in a 2D block (HT_Csr2D.hpp), kept
/// for the slots that have a list only: doubly compressed, as DCSC (Buluç
/// and Gilbert, "On the Representation and Multiplication of Hypersparse
/// Matrices", IPDPS 2008) keeps a hypersparse block's columns.
///
/// A block has N / R (or N / C) slots but at most its entries' worth of
/// non-empty ones, and on a wide grid most slots are empty: plain offsets
/// would cost 8 bytes a slot, 8N on a 1 x P grid.  Here a slot costs a bit
/// (the bitmap of non-empty slots) and half a bit (a 32-bit count of the
/// non-empty slots before each 64-slot word), and a non-empty slot 8 bytes:
/// a slot's list is found in O(1) by a popcount, never by a search.
///
/// Example: tests/graph/tstBlockOffsets.cpp.
#include <cstdint>
#include <vector>

#include "graph/HT_Bitmap.hpp"

namespace ht {

/// \brief A block's list offsets for its non-empty slots (see the file comment).
class BlockOffsets {
 public:
  /// \brief The entries [begin, end) of one slot's list.
  struct Range {
    std::int64_t begin = 0, end = 0;
  };

  /// \brief The offsets of \p entries entries over \p slots slots, entry e
  /// in slot \p slot_of(e) (called twice per entry); entries keep their
  /// order within a slot when placed through starts() and position().
  template <class SlotOf>
  static BlockOffsets build(std::int64_t slots, std::int64_t entries, SlotOf&& slot_of) {
    BlockOffsets o;
    o.nonempty_.counted_by_owner();  // the graph's bytes (bytes())
    o.nonempty_.resize(slots);
    for (std::int64_t e = 0; e < entries; ++e) o.nonempty_.set(slot_of(e));
    o.rank_slots();
    for (std::int64_t e = 0; e < entries; ++e) ++o.offsets_[o.position(slot_of(e)) + 1];
    o.sum_counts();
    return o;
  }

  /// \brief Slot \p i's list; empty for a slot without one.
  Range operator[](std::int64_t i) const {
    const std::size_t w = Bitmap::word_of(i);
    const Bitmap::Word bit = Bitmap::bit_of(i);
    return nonempty_.word(w) & bit ? at(position(w, bit)) : Range{};
  }
  /// \brief The list of the non-empty slot at position \p k.
  Range at(std::int64_t k) const { return {offsets_[k], offsets_[k + 1]}; }
  /// \brief Non-empty slot \p i's place among the non-empty slots.
  std::int64_t position(std::int64_t i) const {
    return position(Bitmap::word_of(i), Bitmap::bit_of(i));
  }
  /// \brief The same for the slot of bit \p bit of word \p w: for loops
  /// that walk nonempty()'s words themselves.
  std::int64_t position(std::size_t w, Bitmap::Word bit) const {
    return before_[w] + Bitmap::count(nonempty_.word(w) & (bit - 1));
  }
  /// \brief Where each non-empty slot's list starts, in position() order.
  std::vector<std::int64_t> starts() const { return {offsets_.begin(), offsets_.end() - 1}; }
  /// \brief One bit a slot, set where the slot has a list.
  const Bitmap& nonempty() const { return nonempty_; }
  /// \brief Slots, and those with a list.
  std::int64_t slots() const { return nonempty_.size(); }
  std::int64_t nonempty_slots() const { return static_cast<std::int64_t>(offsets_.size()) - 1; }
  /// \brief Bytes held.
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(nonempty_.words() * sizeof(Bitmap::Word) +
                                     before_.size() * sizeof(std::uint32_t) +
                                     offsets_.size() * sizeof(std::int64_t));
  }

 private:
  void rank_slots();  // before_ from nonempty_; offsets_ zeroed, one past each non-empty slot
  void sum_counts();  // offsets_: counts to starts

  Bitmap nonempty_;
  std::vector<std::uint32_t> before_;  // non-empty slots in the words before each word
  std::vector<std::int64_t> offsets_{0};
};

}  // namespace ht
