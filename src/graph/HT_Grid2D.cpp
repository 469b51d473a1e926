#include "graph/HT_Grid2D.hpp"

#include <cctype>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

std::string fit_error(const GridShape& s, int ranks) {
  return "Graph500/grid = " + s.name() + " needs " + std::to_string(s.rows * s.cols) +
         " ranks; this run has " + std::to_string(ranks);
}

// A positive decimal count of at most 6 digits; -1 otherwise.
int count_of(const std::string& s) {
  if (s.empty() || s.size() > 6) return -1;
  int n = 0;
  for (const char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    n = 10 * n + (c - '0');
  }
  return n > 0 ? n : -1;
}

}  // namespace

GridShape square_grid(int ranks) {
  GridShape s{1, ranks};
  for (int r = 1; r * r <= ranks; ++r)
    if (ranks % r == 0) s = {r, ranks / r};
  return s;
}

GridShape parse_grid(const std::string& value, int ranks) {
  if (value == "auto") return square_grid(ranks);
  const std::size_t x = value.find('x');
  const int rows = x == std::string::npos ? -1 : count_of(value.substr(0, x));
  const int cols = x == std::string::npos ? -1 : count_of(value.substr(x + 1));
  if (rows < 0 || cols < 0) {
    throw UsageError("Graph500/grid = '" + value +
                     "': accepted are auto (the most square grid of the ranks) or RxC, R and C "
                     "positive with R C = the ranks (e.g. 2x4 on 8 ranks)");
  }
  const GridShape s{rows, cols};
  if (static_cast<long long>(rows) * cols != ranks) throw UsageError(fit_error(s, ranks));
  return s;
}

Grid2D::Grid2D(MPI_Comm comm, GridShape shape) : shape_(shape), comm_(comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (shape.rows < 1 || shape.cols < 1 || shape.rows * shape.cols != size)
    throw UsageError(fit_error(shape, size));
  row_ = rank / shape.cols;
  col_ = rank % shape.cols;
  MPI_Comm_split(comm, row_, col_, &row_comm_);
  MPI_Comm_split(comm, col_, row_, &col_comm_);
}

Grid2D::~Grid2D() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (row_comm_ != MPI_COMM_NULL) MPI_Comm_free(&row_comm_);
  if (col_comm_ != MPI_COMM_NULL) MPI_Comm_free(&col_comm_);
}

}  // namespace ht
