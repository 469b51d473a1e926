// Kernel 1's RowFill::any (HT_Csr.hpp): rows filled by all host threads at
// once, in no fixed order, then ordered by degree (order_rows), are the very
// rows of RowFill::in_order (one thread, input order; tstCsr and tstRowOrder
// judge that path against the edge list): offsets, targets, weights, split
// and dropped counts alike.  From a list and from a generator, with and
// without weights, 32- and 64-bit targets.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "graph/HT_Csr.hpp"
#include "graph/HT_RowOrder.hpp"

namespace {

// Dense enough at its hubs to repeat edges (so duplicates are dropped), with
// self-loops (which are not stored).
const ht::Kronecker kGen{9, 16, 0.57, 0.19, 0.19, 3};

ht::Csr built(bool weighted, bool generated, ht::TargetBits bits, ht::RowFill fill) {
  const std::int64_t chunk = 700;  // several pieces a rank
  ht::Csr g;
  if (generated) {
    g = weighted ? ht::build_weighted_csr(kGen, MPI_COMM_WORLD, nullptr, bits, chunk, fill)
                 : ht::build_csr(kGen, MPI_COMM_WORLD, nullptr, bits, chunk, fill);
  } else {
    const auto [first, last] = ht::edge_slice(kGen.edge_count(), MPI_COMM_WORLD);
    const std::int64_t n = kGen.vertex_count();
    if (weighted) {
      const auto e = kGen.weighted_edges(first, last);
      g = ht::build_csr(e.data(), e.size(), n, MPI_COMM_WORLD, chunk, bits, fill);
    } else {
      const auto e = kGen.edges(first, last);
      g = ht::build_csr(e.data(), e.size(), n, MPI_COMM_WORLD, chunk, bits, fill);
    }
  }
  ht::order_rows(g, MPI_COMM_WORLD);
  return g;
}

class RowFillAny : public ::testing::TestWithParam<std::tuple<bool, bool, ht::TargetBits>> {};

TEST_P(RowFillAny, OrderedRowsAreTheInOrderOnes) {
  const auto [weighted, generated, bits] = GetParam();
  const ht::Csr want = built(weighted, generated, bits, ht::RowFill::in_order);
  const ht::Csr got = built(weighted, generated, bits, ht::RowFill::any);
  EXPECT_EQ(got.offsets, want.offsets);
  EXPECT_EQ(got.split, want.split);
  EXPECT_EQ(got.dropped, want.dropped);
  EXPECT_EQ(got.weights, want.weights);
  EXPECT_EQ(got.targets.wide(), want.targets.wide());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < want.targets.size() && k < got.targets.size(); ++k)
    differ += got.targets[k] != want.targets[k];
  EXPECT_EQ(got.targets.size(), want.targets.size());
  EXPECT_EQ(differ, 0u);
  // What makes it able to fail: duplicates dropped, and rows of several entries.
  long long dropped = 0;
  for (const std::uint32_t d : want.dropped) dropped += d;
  MPI_Allreduce(MPI_IN_PLACE, &dropped, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(dropped, 0);
}

INSTANTIATE_TEST_SUITE_P(Kernel1, RowFillAny,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool(),
                                            ::testing::Values(ht::TargetBits::b32,
                                                              ht::TargetBits::b64)));

}  // namespace
