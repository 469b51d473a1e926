#pragma once
/// \file HT_Targets.hpp
/// \brief A CSR's neighbour ids, 32 bits each where every vertex id fits
/// (fewer than 2^32 vertices, as gapbs stores them), 64 bits where not.
///
/// The targets are most of kernel 1's memory (2 x edgefactor per vertex), so
/// their width sets the SCALE a node can run.  Hot loops take the raw array
/// through visit(), once per width (both are compiled); cold code reads ids
/// through operator[].
///
/// Example: src/graph/sssp/HT_SsspValidate.cpp (targets.visit).
#include <cstdint>
#include <vector>
#include "runtime/HT_Choices.hpp"

namespace ht {

/// \brief How many bits each stored target takes.
enum class TargetBits {
  automatic,  ///< 32 when the vertex count allows it, else 64
  b32,        ///< 32 (a usage error past 2^32 vertices)
  b64         ///< 64 always
};
/// \brief Graph500/target_bits's names (runtime/HT_Choices.hpp).
inline constexpr Choices<TargetBits, 3> kTargetBits{
    {{TargetBits::automatic, "auto"}, {TargetBits::b32, "32"}, {TargetBits::b64, "64"}}};

/// \brief Neighbour ids (global vertex ids) of a CSR, in 32 or 64 bits.
class Targets {
 public:
  /// \brief Whether \p bits asks for 64-bit ids on a graph of \p n vertices.
  static bool wide_for(std::int64_t n, TargetBits bits) {
    return bits == TargetBits::b64 ||
           (bits == TargetBits::automatic && n > (std::int64_t(1) << 32));
  }
  /// \brief \p n ids of the given width, all 0.
  void assign(std::size_t n, bool wide) {
    wide_ = wide;
    narrow_ids_.clear();
    wide_ids_.clear();
    if (wide)
      wide_ids_.assign(n, 0);
    else
      narrow_ids_.assign(n, 0);
  }
  /// \brief Sets id \p k to \p v (v < 2^32 when narrow).
  void set(std::size_t k, std::int64_t v) {
    if (wide_)
      wide_ids_[k] = v;
    else
      narrow_ids_[k] = static_cast<std::uint32_t>(v);
  }
  std::int64_t operator[](std::size_t k) const {
    return wide_ ? wide_ids_[k] : static_cast<std::int64_t>(narrow_ids_[k]);
  }
  std::size_t size() const { return wide_ ? wide_ids_.size() : narrow_ids_.size(); }
  bool wide() const { return wide_; }
  /// \brief Bytes held (for memory reports).
  std::size_t bytes() const { return wide_ ? 8 * wide_ids_.size() : 4 * narrow_ids_.size(); }
  /// \brief Calls \p f with the raw array: `const std::uint32_t*` or `const std::int64_t*`.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return wide_ ? f(wide_ids_.data()) : f(narrow_ids_.data());
  }
  /// \brief The same with a writable array (kernel 1's layout passes).
  template <class F>
  decltype(auto) visit_mutable(F&& f) {
    return wide_ ? f(wide_ids_.data()) : f(narrow_ids_.data());
  }
  /// \brief The raw array as \p Id: std::uint32_t if narrow, std::int64_t if wide.
  template <class Id>
  const Id* data() const {
    if constexpr (sizeof(Id) == 4)
      return wide_ ? nullptr : narrow_ids_.data();
    else
      return wide_ ? wide_ids_.data() : nullptr;
  }
  /// \brief Keeps the first \p n ids.
  void resize(std::size_t n) {
    if (wide_)
      wide_ids_.resize(n);
    else
      narrow_ids_.resize(n);
  }

 private:
  std::vector<std::uint32_t> narrow_ids_;
  std::vector<std::int64_t> wide_ids_;
  bool wide_ = false;
};

}  // namespace ht
