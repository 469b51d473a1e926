// The search validators judged against an oracle on generated answers, on
// np = 1, 2, 4: from a right BFS tree and a right shortest-path tree, at
// least 200 corrupted answers each (wrong_answers.hpp: whole-answer
// transforms on every vertex, one, k or one rank's), each judged first by the
// test's own serial BFS or Dijkstra.  The validator must reject every answer
// the oracle calls invalid, naming a check it failed, and accept every one the
// oracle calls valid, with one verdict on every rank.  Rank 0 prints how many
// answers were generated, rejected and accepted.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "assert_all.hpp"
#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/bfs_oracle.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"
#include "graph/sssp/sssp_oracle.hpp"
#include "graph/whole_answers.hpp"
#include "graph/wrong_answers.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using V = ht::Validation;

// Corruptions per validator and run: at least this many.
constexpr std::size_t kCorruptions = 240;

// The generator's seed: HT_WRONG_ANSWERS_SEED, to try others by hand.
std::uint64_t seed() {
  const char* s = std::getenv("HT_WRONG_ANSWERS_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 38;
}

// The check bit a message's "check N (...)" names, 0 if it names none.
int named_check(const std::string& what) {
  static const int bits[] = {0, V::root, V::tree, V::tree_edge, V::reach, V::levels | V::distances};
  if (what.rfind("check ", 0) != 0 || what.size() < 7) return 0;
  const int k = what[6] - '0';
  return k >= 1 && k <= 5 ? bits[k] : 0;
}

struct Tally {
  std::size_t generated = 0, rejected = 0, accepted = 0, valid = 0;
};

// Validates every corruption and compares with the oracle's verdict.
template <class Judge, class Validate>
Tally compare(const test::Answer& good, const std::vector<test::Corruption>& all,
              const Judge& judge, const Validate& validate) {
  const ht::Validation right = validate(good);
  EXPECT_TRUE(right.ok()) << "the right answer: " << right.what;
  Tally t;
  for (const test::Corruption& c : all) {
    const std::string why = judge(c.answer);
    const ht::Validation res = validate(c.answer);
    int lo = res.failed, hi = res.failed;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(lo, hi) << c.name << ": ranks disagree";
    ++t.generated;
    res.ok() ? ++t.accepted : ++t.rejected;
    if (why.empty()) {
      ++t.valid;
      EXPECT_TRUE(res.ok()) << c.name << ": valid by the oracle, rejected: " << res.what;
    } else {
      EXPECT_FALSE(res.ok()) << c.name << ": accepted, but the oracle says " << why;
      EXPECT_TRUE(res.ok() || (named_check(res.what) & res.failed))
          << c.name << ": the message names no failed check: " << res.what;
    }
  }
  return t;
}

// \p ties: the graph has other valid parents, so some answers must pass.
void report(const char* what, const Tally& t, bool ties) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0)
    std::printf(
        "[wrong answers] %s on %d ranks: %zu generated, %zu rejected, %zu accepted "
        "(%zu valid by the oracle)\n",
        what, size, t.generated, t.rejected, t.accepted, t.valid);
  EXPECT_GE(t.generated, kCorruptions);
  // Valid answers (another parent that fits) keep the test honest both ways;
  // with the generator's float weights, ties are too rare to count on.
  if (ties) {
    EXPECT_GT(t.valid, 0u);
  }
  EXPECT_GT(t.rejected, t.generated / 2);
}

// Wrong answers generated from hybrid's tree of gen's first key on g, each
// judged by the oracle and by validate(key, this rank's part of the parents).
template <class Validate>
Tally bfs_tally(const ht::Kronecker& gen, const ht::Csr& g, Validate&& validate) {
  const std::vector<std::int64_t> keys = ht::search_keys(g, 2, 3, MPI_COMM_WORLD);
  const auto search = [&](std::int64_t root) {
    ht::TaskRuntime rt(1 << 20, "Runtime/pool_MiB");
    return test::Answer{
        test::whole(ht::make_bfs("hybrid", g, {}, rt, MPI_COMM_WORLD)->search(root).pred, g.range,
                    MPI_INT64_T),
        {}};
  };
  const std::int64_t key = keys.at(0);
  const test::Answer good = search(key), other = search(keys.at(1));
  const test::WholeGraph whole(gen.weighted_edges(0, gen.edge_count()), gen.vertex_count());
  const std::vector<int> level = oracle_levels(gen, key);
  const auto judge = [&](const test::Answer& a) { return test::judge_bfs(whole, key, level, a); };
  EXPECT_EQ(judge(good), "");
  test::WrongAnswers wrong(whole, key, good, other, g.range, seed());
  return compare(good, wrong.make(kCorruptions), judge, [&](const test::Answer& a) {
    return validate(key, test::own_part(a.pred, g.range));
  });
}

TEST(WrongAnswers, BfsValidatorAgreesWithTheOracle) {
  const ht::Kronecker gen{9, 8, 0.57, 0.19, 0.19, 7};
  const auto [first_edge, last_edge] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  const ht::Csr g =
      ht::build_csr(gen.edges(first_edge, last_edge), gen.vertex_count(), MPI_COMM_WORLD);
  const Tally t = bfs_tally(gen, g, [&](std::int64_t key, const std::vector<std::int64_t>& pred) {
    return ht::validate_bfs(g, key, pred, MPI_COMM_WORLD);
  });
  report("validate_bfs", t, true);
}

// The 2D validator, on the block of the most square grid of the ranks: the
// same generated wrong answers, the same oracle.
TEST(WrongAnswers, BfsValidator2DAgreesWithTheOracle) {
  const ht::Kronecker gen{9, 8, 0.57, 0.19, 0.19, 7};
  const auto [first_edge, last_edge] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  ht::Csr g = ht::build_csr(gen.edges(first_edge, last_edge), gen.vertex_count(), MPI_COMM_WORLD);
  ht::drop_duplicates(g);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ht::Grid2D grid(MPI_COMM_WORLD, ht::most_square_grid(size));
  const ht::Csr2D b = ht::build_csr_2d(g, grid);
  const Tally t = bfs_tally(gen, g, [&](std::int64_t key, const std::vector<std::int64_t>& pred) {
    return ht::validate_bfs(b, grid, key, pred, MPI_COMM_WORLD);
  });
  report("validate_bfs 2D", t, true);
}

// SSSP on the generator's weights, and on the same edges with weights cut to
// multiples of 1/8 (0 included): ties make other valid parents, and zero
// weights let parents close cycles of equal distances.  The 1D validator,
// then the 2D one on the same answers.
class SsspWrongAnswers : public ::testing::TestWithParam<float> {};

TEST_P(SsspWrongAnswers, ValidatorAgreesWithTheOracle) {
  const float quantum = GetParam();
  const ht::Kronecker gen{9, 16, 0.57, 0.19, 0.19, 11};
  std::vector<ht::WeightedEdge> edges = gen.weighted_edges(0, gen.edge_count());
  if (quantum > 0)
    for (auto& e : edges) e.w = std::floor(e.w / quantum) * quantum;
  const auto [first_edge, last_edge] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  const ht::Csr g = ht::build_csr(
      std::vector<ht::WeightedEdge>(edges.begin() + first_edge, edges.begin() + last_edge),
      gen.vertex_count(), MPI_COMM_WORLD);
  const std::vector<std::int64_t> keys = ht::search_keys(g, 2, 5, MPI_COMM_WORLD);
  ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes({}), "Runtime/pool_MiB");
  ht::DeltaStepping sssp(g, {}, rt, MPI_COMM_WORLD);
  const auto search = [&](std::int64_t root) {
    const ht::SsspResult& r = sssp.search(root);
    return test::Answer{test::whole(r.pred, g.range, MPI_INT64_T),
                        test::whole(r.dist, g.range, MPI_FLOAT)};
  };
  const std::int64_t key = keys.at(0);
  const test::Answer good = search(key), other = search(keys.at(1));
  const test::WholeGraph whole(edges, gen.vertex_count());
  const std::vector<float> dist = oracle_distances(edges, gen.vertex_count(), key);
  const auto judge = [&](const test::Answer& a) { return test::judge_sssp(whole, key, dist, a); };
  HT_ASSERT_ALL_EQ(judge(good), "");
  test::WrongAnswers wrong(whole, key, good, other, g.range, seed());
  const std::vector<test::Corruption> corrupted = wrong.make(kCorruptions);
  const Tally t = compare(good, corrupted, judge, [&](const test::Answer& a) {
    return ht::validate_sssp(g, key, test::own_part(a.pred, g.range),
                             test::own_part(a.dist, g.range), MPI_COMM_WORLD);
  });
  report(quantum > 0 ? "validate_sssp (weights in eighths)" : "validate_sssp", t, quantum > 0);
  // The 2D validator on the block of the most square grid of the ranks:
  // the same wrong answers, the same oracle.
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const ht::Grid2D grid(MPI_COMM_WORLD, ht::most_square_grid(size));
  const ht::Csr2D b = ht::build_csr_2d(g, grid);
  const Tally t2 = compare(good, corrupted, judge, [&](const test::Answer& a) {
    return ht::validate_sssp(b, grid, key, test::own_part(a.pred, g.range),
                             test::own_part(a.dist, g.range), MPI_COMM_WORLD);
  });
  report(quantum > 0 ? "validate_sssp 2D (weights in eighths)" : "validate_sssp 2D", t2,
         quantum > 0);
}

INSTANTIATE_TEST_SUITE_P(Weights, SsspWrongAnswers, ::testing::Values(0.0f, 0.125f));

}  // namespace
