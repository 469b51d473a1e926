// Graph500/relabel (HT_EdgeFile.hpp): an edge list whose ids are sparse and
// large, read with its ids numbered 0 to n - 1 in first-seen or sorted
// order, is the graph of the edges renumbered by the test's own map, and
// original_ids gives back the file's ids; the ids are the same on every
// rank.  The check before the CSR is built sees the count of ids that occur.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "graph/HT_EdgeFile.hpp"
#include "runtime/HT_Error.hpp"

namespace {

// A file of this run's own in the folder it runs in (the build tree's):
// rank 0's process id in its name, as runs of other rank counts share the
// folder.  Collective.
std::string scratch(const std::string& name) {
  long long pid = static_cast<long long>(getpid());
  MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  return "tstRelabel_" + std::to_string(pid) + "_" + name;
}

// A ring of 40 ids spread up to 2^40, each joined to its neighbour and to
// the one 7 further on, some lines weighted, comments between.
std::vector<std::pair<std::int64_t, std::int64_t>> sparse_edges() {
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 40; ++i)
    ids.push_back((static_cast<std::int64_t>(i) * 2654435761LL * 977) % (std::int64_t(1) << 40));
  std::vector<std::pair<std::int64_t, std::int64_t>> e;
  for (int i = 0; i < 40; ++i) {
    e.push_back({ids[i], ids[(i + 1) % 40]});
    e.push_back({ids[(i + 7) % 40], ids[i]});
  }
  return e;
}

class Relabelled : public ::testing::TestWithParam<ht::Relabel> {};

TEST_P(Relabelled, IsTheGraphOfTheRenumberedEdges) {
  const ht::Relabel order = GetParam();
  const auto edges = sparse_edges();
  const std::string path = scratch(order == ht::Relabel::sorted ? "sorted.el" : "seen.el");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    for (std::size_t i = 0; i < edges.size(); ++i)
      std::fprintf(f, "%s%lld %lld\n", i % 9 == 0 ? "# a comment\n" : "",
                   static_cast<long long>(edges[i].first), static_cast<long long>(edges[i].second));
    std::fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  // The oracle: the ids in the file's order of first occurrence, or sorted.
  std::vector<std::int64_t> want_ids;
  for (const auto& [u, v] : edges)
    for (const std::int64_t x : {u, v})
      if (std::find(want_ids.begin(), want_ids.end(), x) == want_ids.end()) want_ids.push_back(x);
  if (order == ht::Relabel::sorted) std::sort(want_ids.begin(), want_ids.end());
  std::map<std::int64_t, std::int64_t> number;
  for (std::size_t i = 0; i < want_ids.size(); ++i)
    number[want_ids[i]] = static_cast<std::int64_t>(i);

  ht::EdgeFile file = ht::EdgeFile::open(path);
  ht::ReadOptions opt;
  opt.relabel = order;
  std::int64_t seen_before_build = -1;
  opt.before_build = [&](const ht::EdgeFile& f) { seen_before_build = f.vertices; };
  const ht::Csr got = ht::read_csr(file, false, MPI_COMM_WORLD, nullptr, opt);
  EXPECT_EQ(seen_before_build, static_cast<std::int64_t>(want_ids.size()));
  EXPECT_EQ(file.vertices, static_cast<std::int64_t>(want_ids.size()));
  EXPECT_EQ(file.original_ids, want_ids);

  // Row by row, the renumbered edges' targets (sorted: rows keep input order).
  std::vector<std::vector<std::int64_t>> rows(want_ids.size());
  for (const auto& [u, v] : edges) {
    rows[number[u]].push_back(number[v]);
    rows[number[v]].push_back(number[u]);
  }
  EXPECT_EQ(got.range.n_global, static_cast<std::int64_t>(want_ids.size()));
  for (std::int64_t i = 0; i < got.range.local_count(); ++i) {
    std::vector<std::int64_t> row;
    for (std::int64_t k = got.offsets[i]; k < got.offsets[i + 1]; ++k)
      row.push_back(got.targets[k]);
    std::sort(row.begin(), row.end());
    auto want = rows[static_cast<std::size_t>(got.range.global(i))];
    std::sort(want.begin(), want.end());
    EXPECT_EQ(row, want) << "vertex " << got.range.global(i);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(Orders, Relabelled,
                         ::testing::Values(ht::Relabel::first_seen, ht::Relabel::sorted));

// Without relabelling, the same file has an id near 2^40 and that many vertices.
TEST(Relabel, NoneKeepsTheFilesIds) {
  const auto edges = sparse_edges();
  const std::string path = scratch("none.el");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    for (const auto& [u, v] : edges)
      std::fprintf(f, "%lld %lld\n", static_cast<long long>(u), static_cast<long long>(v));
    std::fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::int64_t top = 0;
  for (const auto& [u, v] : edges) top = std::max({top, u, v});
  ht::EdgeFile file = ht::EdgeFile::open(path);
  ht::ReadOptions opt;
  std::int64_t seen = -1;
  opt.before_build = [&](const ht::EdgeFile& f) {
    seen = f.vertices;
    throw ht::UsageError("too many");  // as the memory check would refuse it
  };
  EXPECT_THROW(ht::read_csr(file, false, MPI_COMM_WORLD, nullptr, opt), ht::UsageError);
  EXPECT_EQ(seen, top + 1);
  EXPECT_TRUE(file.original_ids.empty());
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::remove(path.c_str());
}

}  // namespace
