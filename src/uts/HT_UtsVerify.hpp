#pragma once
/// \file HT_UtsVerify.hpp
/// \brief The check of a UTS search:
///  1. a sample tree's counts (nodes, leaves, depth) are UTS 2.1's published
///     ones exactly (tstUtsVerify: counts off by one, another tree's, and
///     generated counts changed on one rank or on the total, judged by a
///     serial walk of the tree);
///  2. a tree of one's own has none to meet (its repetitions must agree,
///     which the driver checks).
///
/// Example: tests/uts/tstUtsVerify.cpp.
#include <string>

#include "uts/HT_UtsTree.hpp"

namespace ht {

/// "nodes N, leaves L, depth D" as the messages write them.
std::string counts_text(const UtsCounts& c);

/// Empty when \p counted are the published counts of sample tree \p name
/// (or \p name is "custom"); otherwise what differs, naming the tree.
std::string uts_verify(const std::string& name, const UtsCounts& counted);

}  // namespace ht
