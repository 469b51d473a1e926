#include "comm/HT_Grid2D.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

std::string needs(const GridShape& s) {
  return " needs " + std::to_string(static_cast<long long>(s.rows) * s.cols) + " ranks; ";
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

// i mod n in [0, n) for any sign of i.
int wrap(int i, int n) { return ((i % n) + n) % n; }

}  // namespace

GridShape most_square_grid(int ranks) {
  GridShape s{1, ranks};
  for (int r = 1; r * r <= ranks; ++r)
    if (ranks % r == 0) s = {r, ranks / r};
  return s;
}

GridShape nearest_square_grid(int ranks) {
  const int q = std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(ranks)))));
  return {q, q};
}

bool balanced_on(const GridShape& s, int ranks) {
  if (s.ranks() > ranks) return false;
  if (ranks < 4) return true;
  const GridShape square = nearest_square_grid(ranks);
  return s.rows >= 2 && s.peers() <= 2 * square.peers() && s.share() <= 2 * square.share() &&
         s.block() <= 2 * square.block();
}

std::optional<GridShape> balanced_grid(int ranks) {
  const GridShape s = most_square_grid(ranks);
  if (!balanced_on(s, ranks)) return std::nullopt;
  return s;
}

GridShape auto_grid(int ranks) {
  if (const auto s = balanced_grid(ranks)) return *s;
  for (int n = ranks - 1; n >= 1; --n)
    if (balanced_on(most_square_grid(n), ranks)) return most_square_grid(n);
  return most_square_grid(ranks);  // none (the file comment: never)
}

std::string spare_ranks(const GridShape& s, int ranks) {
  const int first = s.ranks(), last = ranks - 1;
  if (first > last) return "";
  if (first == last) return "rank " + std::to_string(first) + " spare";
  return "ranks " + std::to_string(first) + (last == first + 1 ? " and " : " to ") +
         std::to_string(last) + " spare";
}

GridShape parse_grid(const std::string& key, const std::string& value, int ranks) {
  if (value == "auto") return auto_grid(ranks);
  const std::size_t x = value.find('x');
  const int rows = x == std::string::npos ? -1 : count_of(value.substr(0, x));
  const int cols = x == std::string::npos ? -1 : count_of(value.substr(x + 1));
  if (rows < 0 || cols < 0) {
    throw UsageError(key + " = '" + value +
                     "': accepted are auto (the most square balanced grid, of all the ranks or "
                     "of the most that have one) or RxC, R and C positive with R C at most the "
                     "ranks, those beyond spare (e.g. 2x4 on 8 ranks, 2x3 on 7)");
  }
  const GridShape s{rows, cols};
  if (static_cast<long long>(rows) * cols > ranks)
    throw UsageError(key + " = " + s.name() + needs(s) + "this run has " + std::to_string(ranks));
  return s;
}

Grid2D::Grid2D(MPI_Comm comm, GridShape shape) : shape_(shape) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (shape.rows < 1 || shape.cols < 1 || static_cast<long long>(shape.rows) * shape.cols > size)
    throw UsageError("a " + shape.name() + " grid of ranks" + needs(shape) +
                     "the communicator has " + std::to_string(size));
  spares_ = size - shape.ranks();
  const bool spare = rank >= shape.ranks();
  row_ = spare ? -1 : rank / shape.cols;
  col_ = spare ? -1 : rank % shape.cols;
  MPI_Comm_dup(comm, &comm_);  // our tags never meet another layer's
  MPI_Comm_split(comm, spare ? MPI_UNDEFINED : row_, col_, &row_comm_);
  MPI_Comm_split(comm, spare ? MPI_UNDEFINED : col_, row_, &col_comm_);
}

Grid2D::~Grid2D() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  if (row_comm_ != MPI_COMM_NULL) MPI_Comm_free(&row_comm_);
  if (col_comm_ != MPI_COMM_NULL) MPI_Comm_free(&col_comm_);
}

std::pair<int, int> Grid2D::shift(Direction dir, int displacement) const {
  if (dir == along_row)
    return {rank_of(row_, wrap(col_ - displacement, cols())),
            rank_of(row_, wrap(col_ + displacement, cols()))};
  return {rank_of(wrap(row_ - displacement, rows()), col_),
          rank_of(wrap(row_ + displacement, rows()), col_)};
}

}  // namespace ht
