#pragma once
/// \file HT_UtsTree.hpp
/// \brief The trees of the Unbalanced Tree Search benchmark, UTS 2.1
/// (S. Olivier, J. Huan, J. Liu, J. Prins, J. Dinan, P. Sadayappan, C.-W.
/// Tseng, "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006), generated
/// on the fly exactly as the reference does.
///
/// A node is its 20-byte SHA-1 state and its height.  The root's state is the
/// SHA-1 of 16 zero bytes and the seed (big-endian); child i's is the SHA-1 of
/// its parent's state and i (big-endian), so any node can be expanded
/// anywhere, on any rank, and the tree is the same.  A node's child count is
/// drawn from the last 31 bits of its own state:
///  - binomial: the root has floor(b0) children, every other node m children
///    with probability q, none otherwise (finite only when q * m < 1);
///  - geometric: geometric with mean b_i, b_i from b0 by a shape function of
///    the depth (linear, exponential decrease, cyclic, fixed up to depth d);
///  - hybrid: geometric above depth shift * d, binomial below.
/// Counts are capped at 100 children (the binomial root excepted), as there.
///
/// SHA-1 is OpenSSL's libcrypto (see HT_UtsTree.cpp for which entry point).
///
/// Example: tests/uts/tstUtsTree.cpp.
#include <array>
#include <cstdint>
#include <string>
#include <vector>
#include "runtime/HT_Choices.hpp"

namespace ht {

/// One tree node: what it takes to expand it anywhere (24 bytes, trivially
/// copyable, so that it travels between ranks as bytes).
struct UtsNode {
  std::array<std::uint8_t, 20> state;  ///< SHA-1 state
  std::int32_t height;                 ///< depth; the root is 0
};

/// The tree's parameters, named as the reference's options (-t -b -a -d -q -m
/// -r -f -g).
struct UtsTree {
  enum class Type { binomial = 0, geometric = 1, hybrid = 2 };
  enum class Shape { linear = 0, expdec = 1, cyclic = 2, fixed = 3 };
  Type type = Type::geometric;  ///< -t
  double b0 = 4.0;              ///< -b: root branching factor
  Shape shape = Shape::linear;  ///< -a: geometric shape function
  int depth = 6;                ///< -d: gen_mx, the geometric depth parameter
  double q = 15.0 / 64.0;       ///< -q: binomial probability of children
  int m = 4;                    ///< -m: binomial child count
  int seed = 0;                 ///< -r: root seed
  double shift = 0.5;           ///< -f: hybrid, geometric above shift * depth
  int granularity = 1;          ///< -g: SHA-1 evaluations per child (work per node)

  /// The root node.
  UtsNode root() const;
  /// How many children \p n has (a function of its state and height only).
  int children(const UtsNode& n) const;
  /// Child \p i of \p parent.
  UtsNode child(const UtsNode& parent, int i) const;

  /// Throws UsageError naming the key (under \p section), the value and what
  /// is accepted: b0 <= 0, q * m >= 1 (a binomial tree that grows forever
  /// with a probability > 0) unless \p known_finite (a sample tree whose
  /// count is published: T3L has q * m = 1.00007), q outside [0, 1], m < 0,
  /// depth < 1, granularity < 1, shift outside [0, 1].
  void check(const std::string& section, bool known_finite = false) const;
  /// "geometric (fixed), b0 4, d 10, r 19" -- the reference's options in words.
  std::string describe() const;
};

/// The trees' types and shapes as decks and the output name them
/// (runtime/HT_Choices.hpp).
inline constexpr Choices<UtsTree::Type, 3> kUtsTypes{{{UtsTree::Type::binomial, "binomial"},
                                                      {UtsTree::Type::geometric, "geometric"},
                                                      {UtsTree::Type::hybrid, "hybrid"}}};
inline constexpr Choices<UtsTree::Shape, 4> kUtsShapes{{{UtsTree::Shape::linear, "linear"},
                                                        {UtsTree::Shape::expdec, "expdec"},
                                                        {UtsTree::Shape::cyclic, "cyclic"},
                                                        {UtsTree::Shape::fixed, "fixed"}}};
inline const char* type_name(UtsTree::Type t) { return kUtsTypes.name(t); }
inline const char* shape_name(UtsTree::Shape s) { return kUtsShapes.name(s); }

/// A tree's counts: what a search finds and what a named tree must give.
struct UtsCounts {
  std::int64_t nodes = 0;   ///< the root included
  std::int64_t leaves = 0;  ///< nodes without children
  std::int64_t depth = 0;   ///< the largest height
  bool operator==(const UtsCounts& o) const {
    return nodes == o.nodes && leaves == o.leaves && depth == o.depth;
  }
};

/// One of UTS 2.1's sample trees (its sample_trees.sh) with its published
/// counts.
struct UtsNamedTree {
  std::string name;  ///< "T1", "T3L", ...
  UtsTree tree;
  UtsCounts counts;
};

/// Every sample tree this build knows: T1, T2, T3, T4, T5 (about 4 million
/// nodes) and T1L, T2L, T3L (about 100 million).
const std::vector<UtsNamedTree>& uts_named_trees();
/// The sample tree called \p name; UsageError listing the names otherwise.
const UtsNamedTree& uts_named_tree(const std::string& name);

}  // namespace ht
