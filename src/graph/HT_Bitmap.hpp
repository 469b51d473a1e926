#pragma once
/// \file HT_Bitmap.hpp
/// \brief One bit per vertex: the one bitmap type of every kernel (visited
/// sets, frontiers, the sent filter, task-local finds), as gapbs's bitmap.h
/// serves all of its kernels.  The word arithmetic (i / 64, 1 << i % 64)
/// lives here and nowhere else.
///
/// Two kinds of access to the same words:
///  - plain (test, set, set_new, word, or_word): one writer at a time;
///  - atomic (claim, word_atomic, or_word_atomic): many tasks at once.  A
///    claim reads the word first and writes only when the bit is clear,
///    since most edges of a BFS lead to vertices already visited.
///
/// A bitmap counts its words as search state (HT_HeldBytes.hpp) unless its
/// owner counts them itself (counted_by_owner(): a 2D block's offsets are
/// the graph's, in Csr2D::bytes).
///
/// Examples: src/graph/bfs/HT_BfsAtomic.cpp, tests/graph/tstBitmap.cpp.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/HT_HeldBytes.hpp"

namespace ht {

struct VertexRange;

class Bitmap {
 public:
  using Word = std::uint64_t;

  /// The word holding bit \p i, and its mask there.
  static std::size_t word_of(std::int64_t i) { return static_cast<std::size_t>(i) >> 6; }
  static Word bit_of(std::int64_t i) { return Word(1) << (i & 63); }
  /// Words for \p n bits.
  static std::size_t words_for(std::int64_t n) { return static_cast<std::size_t>((n + 63) / 64); }
  /// The first bit of word \p w.
  static std::int64_t first_of(std::size_t w) { return static_cast<std::int64_t>(w) * 64; }

  Bitmap() = default;
  /// \p n bits, all clear.
  explicit Bitmap(std::int64_t n) { resize(n); }
  /// A copy holds (and counts) its own words.
  Bitmap(const Bitmap& o) : words_(o.words_), n_(o.n_), counted_(o.counted_) { charge(); }
  Bitmap& operator=(const Bitmap& o) {
    words_ = o.words_;
    n_ = o.n_;
    charge();
    return *this;
  }
  Bitmap(Bitmap&&) noexcept = default;
  Bitmap& operator=(Bitmap&&) noexcept = default;
  /// \p n bits, all clear (storage touched now, not in the first search).
  void resize(std::int64_t n) {
    n_ = n;
    words_.assign(words_for(n), 0);
    charge();
  }
  /// Stops counting this bitmap's words as search state: its owner counts
  /// them (HT_HeldBytes.hpp).
  void counted_by_owner() {
    counted_ = false;
    held_.set(0);
  }
  void clear() { std::fill(words_.begin(), words_.end(), 0); }
  std::int64_t size() const { return n_; }
  std::size_t words() const { return words_.size(); }
  Word* data() { return words_.data(); }
  const Word* data() const { return words_.data(); }

  // Plain access: one writer at a time.
  bool test(std::int64_t i) const { return words_[word_of(i)] & bit_of(i); }
  void set(std::int64_t i) { words_[word_of(i)] |= bit_of(i); }
  /// Sets bit \p i; true if it was clear (this call set it).
  bool set_new(std::int64_t i) {
    Word& w = words_[word_of(i)];
    const Word b = bit_of(i);
    const bool was = w & b;
    w |= b;
    return !was;
  }
  Word word(std::size_t w) const { return words_[w]; }
  void or_word(std::size_t w, Word bits) { words_[w] |= bits; }
  void set_word(std::size_t w, Word bits) { words_[w] = bits; }

  // Atomic access: many tasks at once (relaxed: the level's end orders them).
  Word word_atomic(std::size_t w) const { return __atomic_load_n(&words_[w], __ATOMIC_RELAXED); }
  bool test_atomic(std::int64_t i) const { return word_atomic(word_of(i)) & bit_of(i); }
  /// The clear bits of word \p w that stand for bits < size().
  Word clear_atomic(std::size_t w) const {
    const Word clear = ~word_atomic(w);
    const std::int64_t left = n_ - first_of(w);
    return left >= 64 ? clear : clear & ((Word(1) << left) - 1);
  }
  /// Sets bit \p i; true for the one caller that set it.
  bool claim(std::int64_t i) {
    Word* w = &words_[word_of(i)];
    const Word b = bit_of(i);
    return !(__atomic_load_n(w, __ATOMIC_RELAXED) & b) &&
           !(__atomic_fetch_or(w, b, __ATOMIC_RELAXED) & b);
  }
  void or_word_atomic(std::size_t w, Word bits) {
    __atomic_fetch_or(&words_[w], bits, __ATOMIC_RELAXED);
  }

  /// Set bits.
  std::int64_t count() const;
  /// Set bits in \p bits.
  static int count(Word bits) { return __builtin_popcountll(bits); }
  /// Calls \p f(i) for each set bit i of words [w0, w1), in increasing order.
  template <class F>
  void for_each(F&& f, std::size_t w0 = 0, std::size_t w1 = std::size_t(-1)) const {
    if (w1 > words_.size()) w1 = words_.size();
    for (std::size_t w = w0; w < w1; ++w) for_each_bit(words_[w], w, f);
  }
  /// Calls \p f(i) for each bit i set in \p bits, word \p w, in increasing order.
  template <class F>
  static void for_each_bit(Word bits, std::size_t w, F&& f) {
    for (; bits; bits &= bits - 1)
      f(static_cast<std::int64_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
  }
  /// Calls \p f(w, bits) for each word w with bits set here since \p prev
  /// (same size) was brought up to date, \p bits those bits, in increasing
  /// order; then brings \p prev up to date.  Reads this bitmap atomically.
  template <class F>
  void take_new(Bitmap& prev, F&& f) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      const Word now = word_atomic(w), fresh = now & ~prev.words_[w];
      prev.words_[w] = now;
      if (fresh) f(w, fresh);
    }
  }

 private:
  void charge() {
    if (counted_) held_.set(static_cast<std::int64_t>(words_.capacity() * sizeof(Word)));
  }

  std::vector<Word> words_;
  std::int64_t n_ = 0;
  bool counted_ = true;
  HeldCharge held_{Held::search};  // words_'s bytes, while counted_
};

/// Every rank's block of a distributed bitmap, gathered: \p all (size
/// r.n_global) gets \p mine (this rank's r.local_count() bits) at r.first()
/// and every other rank's at theirs.  One MPI_Allgatherv when every block
/// starts on a word; otherwise the blocks are placed bit by bit and merged
/// with MPI_BOR.  Collective.
void allgather(const Bitmap& mine, const VertexRange& r, Bitmap& all, MPI_Comm comm);

}  // namespace ht
