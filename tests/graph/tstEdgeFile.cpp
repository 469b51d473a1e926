// Tests of kernel 1 from files (HT_EdgeFile): each format gives the same
// distributed graph as the edge list it was written from, on any rank count
// and in either target width; each kind of bad file is an error naming the
// file and the line, on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "assert_all.hpp"
#include "edge_files.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_EdgeFile.hpp"
#include "runtime/HT_Error.hpp"

namespace {

const ht::Kronecker gen{8, 8, 0.57, 0.19, 0.19, 4};

// Row i's (target, weight) pairs, sorted: rows hold the same edges whatever
// order they arrived in.
std::vector<std::pair<std::int64_t, float>> row(const ht::Csr& g, std::int64_t i) {
  std::vector<std::pair<std::int64_t, float>> r;
  for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k)
    r.push_back({g.targets[k], g.weights.empty() ? 0.0f : g.weights[k]});
  std::sort(r.begin(), r.end());
  return r;
}

// \p got holds \p edges (the whole list, on every rank) as build_csr lays
// them out, row by row.
void expect_graph_of(const ht::Csr& got, const std::vector<ht::WeightedEdge>& edges, std::int64_t n,
                     bool weighted) {
  const auto [first, last] =
      ht::edge_slice(static_cast<std::int64_t>(edges.size()), MPI_COMM_WORLD);
  std::vector<ht::WeightedEdge> mine(edges.begin() + first, edges.begin() + last);
  ht::Csr want = ht::build_csr(mine, n, MPI_COMM_WORLD);
  if (!weighted) want.weights.clear();
  ASSERT_EQ(got.range.local_count(), want.range.local_count());
  EXPECT_EQ(got.offsets, want.offsets);
  for (std::int64_t i = 0; i < got.range.local_count(); ++i)
    ASSERT_EQ(row(got, i), row(want, i)) << "row " << i;
}

class EdgeFileFormat : public ::testing::TestWithParam<std::pair<const char*, ht::TargetBits>> {};

TEST_P(EdgeFileFormat, ReadsTheGraphItWasWrittenFrom) {
  const auto [format, bits] = GetParam();
  const std::string path = scratch_dir() + "/graph." + format;
  const auto edges = gen.weighted_edges(0, gen.edge_count());
  write_file(path, edge_text(edges, format, gen.vertex_count()));
  const bool weighted = std::string(format) != "el" && std::string(format) != "txt";

  ht::EdgeFile file = ht::EdgeFile::open(path);
  EXPECT_EQ(file.has_weights, weighted);
  double seconds = 0;
  const ht::Csr got = ht::read_csr(file, weighted, MPI_COMM_WORLD, &seconds, bits);
  EXPECT_GE(seconds, 0.0);
  EXPECT_EQ(got.targets.wide(), bits == ht::TargetBits::b64);

  long long top = 0;
  for (const auto& e : edges) top = std::max<long long>(top, std::max(e.u, e.v));
  const bool counted = std::string(format) == "mtx" || std::string(format) == "gr";
  const std::int64_t n = counted ? gen.vertex_count() : top + 1;
  EXPECT_EQ(file.vertices, n);
  expect_graph_of(got, edges, n, weighted);
}

INSTANTIATE_TEST_SUITE_P(Formats, EdgeFileFormat,
                         ::testing::Values(std::pair{"wel", ht::TargetBits::automatic},
                                           std::pair{"el", ht::TargetBits::automatic},
                                           std::pair{"mtx", ht::TargetBits::automatic},
                                           std::pair{"gr", ht::TargetBits::automatic},
                                           std::pair{"txt", ht::TargetBits::automatic},
                                           std::pair{"wel", ht::TargetBits::b64},
                                           std::pair{"mtx", ht::TargetBits::b64}));

// What a line holds, the end of every bad line's message.
const std::string kFloat = " and a weight, finite and >= 0 as a 32-bit float (at most 3.40282e+38)";
const std::string kComment = "; % or # starts a comment";
const std::string kEl = "; accepted: 'u v', vertex ids 0 to 4398046511103" + kComment;
const std::string kWel = "; accepted: 'u v w', vertex ids 0 to 4398046511103" + kFloat + kComment;
const std::string kMtx3 =
    "; accepted: 'i j w', vertex ids 1 to 3 (the size line's rows)" + kFloat + kComment;

// \p text as a file named \p name: the error read_csr (or open) throws, ""
// if none.  A bad file is a UsageError; any other error is marked.
std::string error_of(const std::string& name, const std::string& text, bool weighted = true) {
  const std::string path = scratch_dir() + "/" + name;
  write_file(path, text);
  try {
    ht::EdgeFile file = ht::EdgeFile::open(path);
    ht::read_csr(file, weighted, MPI_COMM_WORLD);
  } catch (const ht::UsageError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not a usage error: ") + e.what();
  }
  return "";
}

TEST(EdgeFile, BadFilesNameTheFileAndLine) {
  const std::string dir = scratch_dir() + "/";
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_EQ(error_of("truncated.mtx", banner + "3 3 4\n1 2 0.5\n2 3 0.25\n"),
            dir +
                "truncated.mtx:4: the file has 2 entries after its size line (line 2), which "
                "promises 4: truncated?");
  EXPECT_EQ(error_of("header.mtx", "%%MatrixMarkt matrix coordinate real general\n3 3 1\n1 2 1\n")
                .rfind(dir + "header.mtx:1: not a Matrix Market banner ('%%MatrixMarkt ", 0),
            0u);
  EXPECT_EQ(
      error_of("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n")
          .rfind(dir + "array.mtx:1: a matrix in array format: a graph is a sparse matrix", 0),
      0u);
  EXPECT_EQ(error_of("nonsquare.mtx", banner + "3 4 1\n1 2 1\n"),
            dir +
                "nonsquare.mtx:2: a 3 x 4 matrix: the adjacency matrix of a graph is square and "
                "not empty ('3 4 1'); accepted: 'rows columns entries', three whole numbers, "
                "rows = columns, 1 to 2^42 rows");
  EXPECT_EQ(error_of("range.mtx", banner + "% ids from 1\n3 3 2\n1 2 1\n2 4 1\n"),
            dir + "range.mtx:5: vertex 4 out of range ('2 4 1')" + kMtx3);
  EXPECT_EQ(error_of("zero.mtx", banner + "3 3 1\n0 2 1\n"),
            dir + "zero.mtx:3: vertex 0 out of range ('0 2 1')" + kMtx3);
  EXPECT_EQ(error_of("negative.wel", "0 1 0.5\n1 2 -0.25\n2 3 1\n"),
            dir + "negative.wel:2: weight -0.25 of edge {1, 2} is negative ('1 2 -0.25')" + kWel);
  // Finite as a double, +inf as the float it is stored as.
  EXPECT_EQ(
      error_of("huge.wel", "0 1 0.5\n0 1 1e39\n"),
      dir + "huge.wel:2: weight 1e+39 of edge {0, 1} is infinite as a 32-bit float ('0 1 1e39')" +
          kWel);
  EXPECT_EQ(error_of("nan.wel", "0 1 0.5\n1 2 nan\n"),
            dir + "nan.wel:2: weight nan of edge {1, 2} is not a number ('1 2 nan')" + kWel);
  EXPECT_EQ(error_of("inf.wel", "0 1 inf\n"),
            dir + "inf.wel:1: weight inf of edge {0, 1} is infinite as a 32-bit float ('0 1 inf')" +
                kWel);
  EXPECT_EQ(error_of("negative_id.el", "0 1\n-1 2\n", false),
            dir + "negative_id.el:2: vertex -1 out of range ('-1 2')" + kEl);
  EXPECT_EQ(error_of("short.wel", "0 1 0.5\n1 2\n"),
            dir + "short.wel:2: 2 fields where an edge has 3 ('1 2')" + kWel);
  EXPECT_EQ(error_of("alone.el", "0 1\n1\n", false),
            dir + "alone.el:2: 1 field where an edge has 2 ('1')" + kEl);
  EXPECT_EQ(error_of("column.el", "0 1\n1 x\n", false),
            dir + "column.el:2: 'x' is not a vertex id ('1 x')" + kEl);
  EXPECT_EQ(error_of("weight.wel", "0 1 heavy\n"),
            dir + "weight.wel:1: 'heavy' is not a weight ('0 1 heavy')" + kWel);
  EXPECT_EQ(error_of("words.el", "0 1\nzero one\n", false),
            dir + "words.el:2: 'zero' is not a vertex id ('zero one')" + kEl);
  EXPECT_EQ(error_of("empty.el", "# nothing\n", false), dir + "empty.el:1: no edges in the file");
  EXPECT_EQ(error_of("empty.mtx", ""),
            dir +
                "empty.mtx:1: empty file; accepted: a first line '%%MatrixMarket matrix coordinate "
                "F S', F one of real, integer or pattern, S general or symmetric");
  EXPECT_EQ(error_of("sizeless.mtx", banner + "% only comments\n"),
            dir +
                "sizeless.mtx:2: no size line after the banner; accepted: 'rows columns "
                "entries', three whole numbers");
  // Comments after an entry, and fields after its own, are not an error.
  EXPECT_EQ(error_of("trailing.wel", "0 1 0.5 % a comment\n1 2 0.25 7\n"), "");
  try {
    ht::EdgeFile::open(dir + "missing.wel");
    ADD_FAILURE() << "a missing file was opened";
  } catch (const ht::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), dir + "missing.wel: cannot open: No such file or directory");
  }
}

// DIMACS .gr: the problem line before the arcs, 'a' before each, ids from
// 1 to n; SNAP .txt: as .el, tabs between ids.
TEST(EdgeFile, BadDimacsAndSnapLinesNameTheFileAndLine) {
  const std::string dir = scratch_dir() + "/";
  const std::string kGr3 =
      "; accepted: 'a u v w', vertex ids 1 to 3 (the problem line's n) and a weight, finite and "
      ">= 0 as a 32-bit float (at most 3.40282e+38); c starts a comment";
  const std::string kProblem =
      "; accepted: before the arcs, 'c' comment lines and one problem line 'p sp n m', n "
      "vertices (1 to 2^42) and m arcs, whole numbers";
  const std::string p = "c roads\np sp 3 2\n";
  EXPECT_EQ(error_of("good.gr", p + "a 1 2 5\nc between\n\na 2 3 7\n"), "");
  EXPECT_EQ(error_of("good_bfs.gr", p + "a 1 2 5\na 2 3 7\n", false), "");
  EXPECT_EQ(error_of("range.gr", p + "a 1 2 5\na 2 4 7\n"),
            dir + "range.gr:4: vertex 4 out of range ('a 2 4 7')" + kGr3);
  EXPECT_EQ(error_of("zero.gr", p + "a 0 2 5\na 2 3 7\n"),
            dir + "zero.gr:3: vertex 0 out of range ('a 0 2 5')" + kGr3);
  EXPECT_EQ(error_of("edge.gr", p + "a 1 2 5\ne 2 3 7\n"),
            dir + "edge.gr:4: not an arc, a comment or a blank line ('e 2 3 7')" + kGr3);
  EXPECT_EQ(error_of("short.gr", p + "a 1 2 5\na 2 3\n"),
            dir + "short.gr:4: 2 fields where an edge has 3 ('a 2 3')" + kGr3);
  EXPECT_EQ(error_of("second.gr", p + "a 1 2 5\np sp 3 2\n"),
            dir + "second.gr:4: a second problem line ('p sp 3 2')" + kGr3);
  EXPECT_EQ(error_of("count.gr", p + "a 1 2 5\n"),
            dir +
                "count.gr:3: the file has 1 arcs after its problem line (line 2), which promises "
                "2: truncated?");
  EXPECT_EQ(error_of("early.gr", "c roads\na 1 2 5\np sp 3 1\n"),
            dir + "early.gr:2: an arc before the problem line ('a 1 2 5')" + kProblem);
  EXPECT_EQ(error_of("problem.gr", "p max 3 2\na 1 2 5\n"),
            dir + "problem.gr:1: not 'p sp n m' ('p max 3 2')" + kProblem);
  EXPECT_EQ(error_of("none.gr", "c only comments\n"),
            dir + "none.gr:1: no problem line" + kProblem);
  EXPECT_EQ(error_of("snap.txt", "# FromNodeId\tToNodeId\n0\t1\n1\t2\n", false), "");
  EXPECT_EQ(error_of("column.txt", "# SNAP\n0\t1\n1\tx\n", false),
            dir + "column.txt:3: 'x' is not a vertex id ('1\tx')" + kEl);
  EXPECT_EQ(error_of("weights.txt", "0\t1\n", true)
                .rfind(dir + "weights.txt: the graph has no weights (a .snap file)", 0),
            0u);
}

// A bad line deep in the file is parsed by one rank (the last, on 4 ranks):
// every rank reports it, with its line number in the whole file.
TEST(EdgeFile, LineNumbersCountAcrossRanks) {
  std::string text;
  for (int i = 1; i <= 999; ++i)
    text += i == 977 ? "5 6 -1\n" : std::to_string(i % 50) + " " + std::to_string(i % 7) + " 0.5\n";
  const std::string got = error_of("deep.wel", text);
  EXPECT_EQ(
      got, scratch_dir() + "/deep.wel:977: weight -1 of edge {5, 6} is negative ('5 6 -1')" + kWel);
}

// A file of many pieces (each rank's part is cut for its threads): plain
// lines (with tabs, CRLF, exponents), and lines only Teuchos reads (a sign,
// comments), give the graph written; a bad line far in is named by its line.
class LargeEdgeFile : public ::testing::Test {
 protected:
  void SetUp() override {
    edges = big.weighted_edges(0, big.edge_count());
    char line[96];
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const auto u = static_cast<long long>(edges[i].u), v = static_cast<long long>(edges[i].v);
      const double w = edges[i].w;
      if (i % 1000 == 0) text += i % 2000 ? "% a comment\n" : "# a comment\n";
      if (i % 7 == 0)
        std::snprintf(line, sizeof line, " \t%lld\t%lld  %.9g \r\n", u, v, w);
      else if (i % 11 == 0)
        std::snprintf(line, sizeof line, "+%lld %lld %.9g\n", u, v, w);
      else if (i % 13 == 0)
        std::snprintf(line, sizeof line, "%lld %lld %.9e\n", u, v, w);
      else
        std::snprintf(line, sizeof line, "%lld %lld %.9g\n", u, v, w);
      text += line;
    }
    text.pop_back();  // the last line without its newline
  }
  const ht::Kronecker big{12, 16, 0.57, 0.19, 0.19, 8};
  std::vector<ht::WeightedEdge> edges;
  std::string text;
};

TEST_F(LargeEdgeFile, EveryPieceReadsItsLines) {
  // Several pieces a rank (1 to 4 ranks).
  HT_ASSERT_ALL(text.size() > 1u << 20) << text.size() << " bytes";
  const std::string path = scratch_dir() + "/large.wel";
  write_file(path, text);
  ht::EdgeFile file = ht::EdgeFile::open(path);
  const ht::Csr got = ht::read_csr(file, true, MPI_COMM_WORLD);
  long long top = 0;
  for (const auto& e : edges) top = std::max<long long>(top, std::max(e.u, e.v));
  EXPECT_EQ(file.vertices, top + 1);
  expect_graph_of(got, edges, top + 1, true);
}

TEST_F(LargeEdgeFile, ABadLineFarInIsNamed) {
  // The first line at or after 3/4 of the text, made bad.
  const std::size_t at = text.find('\n', text.size() / 4 * 3) + 1;
  const long long line_no =
      std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1;
  text.insert(at, "17 x 0.5\n");
  const std::string got = error_of("large_bad.wel", text);
  EXPECT_EQ(got.rfind(scratch_dir() + "/large_bad.wel:" + std::to_string(line_no) + ": ", 0), 0u)
      << got;
}

TEST(EdgeFile, SsspOnAnUnweightedFileIsAUsageError) {
  const std::string path = scratch_dir() + "/pattern.el";
  write_file(path, "0 1\n1 2\n");
  ht::EdgeFile file = ht::EdgeFile::open(path);
  EXPECT_THROW(ht::read_csr(file, true, MPI_COMM_WORLD), ht::UsageError);
  EXPECT_THROW(ht::EdgeFile::format_of("graph.dat", "Graph500/file"), ht::UsageError);
  EXPECT_EQ(ht::EdgeFile::format_of("roads.gr", "Graph500/file"), ht::EdgeFile::Format::gr);
  EXPECT_EQ(ht::EdgeFile::format_of("web.snap", "Graph500/file"), ht::EdgeFile::Format::snap);
  EXPECT_EQ(ht::EdgeFile::format_of("web.txt", "Graph500/file"), ht::EdgeFile::Format::snap);
}

}  // namespace
