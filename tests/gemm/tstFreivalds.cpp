// Tests of Freivalds' check (freivalds_check) by the wrong products it must
// reject, on np = 1 and 4 (Cannon needs a square rank count): the product
// Cannon computed passes; each mutant of it fails.
//  - wrong at one entry: off by 1.25x what the bound allows (and, to show the
//    bound is not loose, 0.75x passes), off by a lot;
//  - wrong everywhere: A and B swapped; C = 0; C one part in a billion too
//    large everywhere; one tile missing.
// Then generated products, judged by an oracle: the test's own product of
// the whole matrices in long double, and the check's rule evaluated on it
// serially (AgreesWithTheOracle).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "assert_all.hpp"
#include "gemm/HT_Cannon.hpp"
#include "gemm/HT_Freivalds.hpp"
#include "gemm/HT_TileGemm.hpp"

namespace {

class Freivalds : public ::testing::Test {
 protected:
  void SetUp() override {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const ht::GridShape shape = ht::most_square_grid(size);
    // lint: rank-uniform: the world's size
    if (shape.rows != shape.cols) GTEST_SKIP() << "needs a square rank count";
    const int q = shape.rows;
    grid = std::make_unique<ht::Grid2D>(MPI_COMM_WORLD, shape);
    nb = ht::block_size(n, q);
    a = ht::Block("A", nb, nb);
    b = ht::Block("B", nb, nb);
    c = ht::Block("C", nb, nb);
    refill();
    ht::TaskRuntime rt(ht::tile_pool_bytes(nb, 32, 0), "Runtime/pool_MiB");
    ht::Cannon(*grid, rt, nb, {32, 0, true}).multiply(a, b, c);
    refill();
    right = ht::Block("right C", nb, nb);
    Kokkos::deep_copy(right, c);
  }
  void refill() {
    ht::fill_block(a, seed, 0, grid->row() * nb, grid->col() * nb, n);
    ht::fill_block(b, seed, 1, grid->row() * nb, grid->col() * nb, n);
    Kokkos::fence();
  }
  ht::FreivaldsResult check() { return ht::freivalds_check(*grid, a, b, c, n, seed); }
  // Global entry (i, j) of C, changed by \p f on the rank that holds it.
  void change_entry(long long i, long long j, const std::function<void(double&)>& f) {
    if (grid->row() == i / nb && grid->col() == j / nb) f(c(i % nb, j % nb));
  }
  // The change of C(i, j) that moves the check's error by \p bounds times its bound.
  double by_bounds(double bounds, long long j, const ht::FreivaldsResult& r) const {
    return bounds * r.bound * r.scale / std::fabs(ht::freivalds_x(seed, j, n));
  }

  const long long n = 300;
  const std::uint64_t seed = 5;
  long long nb = 0;
  std::unique_ptr<ht::Grid2D> grid;
  ht::Block a, b, c, right;
};

TEST_F(Freivalds, AcceptsTheRightProduct) {
  const auto r = check();
  EXPECT_TRUE(r.passed()) << r.error << " > " << r.bound;
  EXPECT_LT(r.error, r.bound / 10);  // with room to spare
  EXPECT_GT(r.scale, 0);
}

TEST_F(Freivalds, TheBoundIsTight) {
  // An entry off by 0.75x the bound passes and 1.25x fails: the check
  // rejects the first error its bound does not allow (the right product's
  // own error is below a tenth of it).
  const ht::FreivaldsResult ok = check();
  const long long i = 3, j = 4;
  change_entry(i, j, [&](double& x) { x += by_bounds(0.75, j, ok); });
  EXPECT_TRUE(check().passed()) << "0.75x the bound rejected";
  Kokkos::deep_copy(c, right);
  change_entry(i, j, [&](double& x) { x += by_bounds(1.25, j, ok); });
  const ht::FreivaldsResult r = check();
  EXPECT_FALSE(r.passed()) << "1.25x the bound accepted: " << r.error << " <= " << r.bound;
}

TEST_F(Freivalds, RejectsEveryMutant) {
  const ht::FreivaldsResult ok = check();
  struct Mutant {
    const char* name;
    std::function<void()> change;
  };
  const std::vector<Mutant> mutants = {
      {"an entry off by 1.25x the bound",
       [&] { change_entry(n - 1, 17, [&](double& x) { x -= by_bounds(1.25, 17, ok); }); }},
      {"an entry off by a lot", [&] { change_entry(150, 2, [](double& x) { x += 1e3; }); }},
      {"an entry off by a millionth", [&] { change_entry(3, 4, [](double& x) { x += 1e-6; }); }},
      {"A and B swapped", [&] { std::swap(a, b); }},
      {"C = 0", [&] { Kokkos::deep_copy(c, 0.0); }},
      {"C a billionth too large everywhere",
       [&] {
         for (long long i = 0; i < nb; ++i)
           for (long long j = 0; j < nb; ++j) c(i, j) *= 1 + 1e-9;
       }},
      {"one tile missing",
       [&] {
         if (grid->row() == grid->rows() - 1 && grid->col() == 0)
           for (long long i = 0; i < 32 && i < nb; ++i)
             for (long long j = 0; j < 32 && j < nb; ++j) c(i, j) = 0;
       }},
  };
  for (const Mutant& m : mutants) {
    refill();
    Kokkos::deep_copy(c, right);
    m.change();
    const ht::FreivaldsResult r = check();
    EXPECT_FALSE(r.passed()) << m.name << ": error " << r.error << " <= bound " << r.bound;
  }
}

// Products corrupted from the right one, from one seed, alike on every rank:
// entries off by a number of bounds (one, k at random, one rank's block),
// rows or columns swapped, C transposed, scaled by 1 + e, zeroed, a tile
// zeroed, and A and B handed over swapped.  The oracle multiplies the whole
// matrices in long double and evaluates the check's rule on the exact
// residual: || (C - A B) x ||_inf <= 5 g || |A| (|B| |x|) ||_inf.  Answers
// whose exact residual lies within 0.7-1.4 bounds are left out: there the
// distributed check's own rounding (below a tenth of a bound) may fall
// either way.  The check must agree with the oracle on every other one.
TEST_F(Freivalds, AgreesWithTheOracle) {
  const int q = grid->rows();
  const long long len = nb * q;
  using Whole = std::vector<double>;  // row-major len x len
  const auto at = [len](long long i, long long j) { return static_cast<std::size_t>(i * len + j); };
  Whole aw(at(len, 0)), bw(aw.size()), cw(aw.size());
  for (long long i = 0; i < len; ++i)
    for (long long j = 0; j < len; ++j) {
      aw[at(i, j)] = i < n && j < n ? ht::matrix_entry(seed, 0, i, j, n) : 0.0;
      bw[at(i, j)] = i < n && j < n ? ht::matrix_entry(seed, 1, i, j, n) : 0.0;
    }
  {  // the whole right C, from every rank's block
    std::vector<double> mine(static_cast<std::size_t>(nb * nb)), all(mine.size() * q * q);
    for (long long i = 0; i < nb; ++i)
      for (long long j = 0; j < nb; ++j) mine[static_cast<std::size_t>(i * nb + j)] = right(i, j);
    MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
                  static_cast<int>(mine.size()), MPI_DOUBLE, grid->comm());
    for (int p = 0; p < q * q; ++p) {
      const int row = p / q, col = p % q;  // the grid's row-major order
      for (long long i = 0; i < nb; ++i)
        for (long long j = 0; j < nb; ++j)
          cw[at(row * nb + i, col * nb + j)] =
              all[static_cast<std::size_t>(p * nb * nb + i * nb + j)];
    }
  }
  std::vector<long double> x(static_cast<std::size_t>(len));
  for (long long j = 0; j < len; ++j) x[static_cast<std::size_t>(j)] = ht::freivalds_x(seed, j, n);
  // The exact products' rows times x, |A| (|B| |x|) and the bound, for C = AB and C = BA.
  struct Exact {
    std::vector<long double> px;  // (P x)_i
    long double scale = 0;
  };
  const auto exact = [&](const Whole& l, const Whole& r) {
    std::vector<long double> rx(x.size()), rax(x.size());
    for (long long i = 0; i < len; ++i)
      for (long long j = 0; j < len; ++j) {
        rx[static_cast<std::size_t>(i)] += r[at(i, j)] * x[static_cast<std::size_t>(j)];
        rax[static_cast<std::size_t>(i)] +=
            std::fabs(r[at(i, j)]) * std::fabs(x[static_cast<std::size_t>(j)]);
      }
    Exact e;
    e.px.assign(x.size(), 0);
    for (long long i = 0; i < len; ++i) {
      long double s = 0, sa = 0;
      for (long long j = 0; j < len; ++j) {
        s += l[at(i, j)] * rx[static_cast<std::size_t>(j)];
        sa += std::fabs(l[at(i, j)]) * rax[static_cast<std::size_t>(j)];
      }
      e.px[static_cast<std::size_t>(i)] = s;
      e.scale = std::max(e.scale, sa);
    }
    return e;
  };
  const Exact ab = exact(aw, bw), ba = exact(bw, aw);
  const ht::FreivaldsResult ok = check();
  HT_ASSERT_ALL(ok.passed()) << ok.error << " > " << ok.bound;
  // The bound the oracle holds the check to, from its definition here.
  const double u = std::numeric_limits<double>::epsilon() / 2;
  HT_ASSERT_ALL_NO_FATAL_FAILURE(ASSERT_DOUBLE_EQ(ok.bound, 5 * (n * u / (1 - n * u))));
  // The oracle's residual of \p cc, in bounds.
  const auto bounds = [&](const Whole& cc, const Exact& e) {
    long double worst = 0;
    for (long long i = 0; i < len; ++i) {
      long double y = 0;
      for (long long j = 0; j < len; ++j) y += cc[at(i, j)] * x[static_cast<std::size_t>(j)];
      worst = std::max(worst, std::fabs(y - e.px[static_cast<std::size_t>(i)]));
    }
    return static_cast<double>(worst / e.scale / ok.bound);
  };

  std::mt19937_64 rng(38);
  const auto pick = [&](long long k) { return static_cast<long long>(rng() % k); };
  const double factors[] = {0.01, 0.1, 0.5, 2, 10, 1e3, 1e6};
  const auto off = [&](Whole& cc, long long i, long long j) {
    const double f = factors[pick(7)] * (rng() % 2 ? 1 : -1);
    cc[at(i, j)] += f * ok.bound * ok.scale / std::fabs(ht::freivalds_x(seed, j, n));
  };
  struct Product {
    std::string name;
    Whole c;
    bool swapped = false;
  };
  const std::vector<std::pair<std::string, std::function<void(Product&)>>> kinds = {
      {"an entry off", [&](Product& p) { off(p.c, pick(n), pick(n)); }},
      {"k entries off",
       [&](Product& p) {
         for (long long k = 2 + pick(7); k > 0; --k) off(p.c, pick(n), pick(n));
       }},
      {"one rank's block off",
       [&](Product& p) {
         const long long r = pick(q), s = pick(q);
         for (long long k = 0; k < 8; ++k)
           off(p.c, r * nb + pick(std::min(nb, n - r * nb)),
               s * nb + pick(std::min(nb, n - s * nb)));
       }},
      {"two rows swapped",
       [&](Product& p) {
         const long long i = pick(n), k = pick(n);
         for (long long j = 0; j < len; ++j) std::swap(p.c[at(i, j)], p.c[at(k, j)]);
       }},
      {"two columns swapped",
       [&](Product& p) {
         const long long j = pick(n), k = pick(n);
         for (long long i = 0; i < len; ++i) std::swap(p.c[at(i, j)], p.c[at(i, k)]);
       }},
      {"C transposed",
       [&](Product& p) {
         for (long long i = 0; i < len; ++i)
           for (long long j = 0; j < i; ++j) std::swap(p.c[at(i, j)], p.c[at(j, i)]);
       }},
      {"C scaled by 1 + e",
       [&](Product& p) {
         const double e = std::pow(10.0, -16.0 + 13.0 * static_cast<double>(rng() % 1000) / 1000);
         for (double& v : p.c) v *= 1 + e;
       }},
      {"C zeroed", [&](Product& p) { std::fill(p.c.begin(), p.c.end(), 0.0); }},
      {"a tile zeroed",
       [&](Product& p) {
         const long long i0 = pick((n + 31) / 32) * 32, j0 = pick((n + 31) / 32) * 32;
         for (long long i = i0; i < std::min(i0 + 32, len); ++i)
           for (long long j = j0; j < std::min(j0 + 32, len); ++j) p.c[at(i, j)] = 0;
       }},
      {"A and B swapped", [&](Product& p) { p.swapped = true; }},
  };
  int generated = 0, rejected = 0, accepted = 0, ambiguous = 0;
  for (int round = 0; generated < 200; ++round) {
    const auto& [name, corrupt] = kinds[static_cast<std::size_t>(round) % kinds.size()];
    Product p{name, cw};
    corrupt(p);
    const double oracle = bounds(p.c, p.swapped ? ba : ab);
    if (oracle > 0.7 && oracle < 1.4) {
      ++ambiguous;
      continue;
    }
    for (long long i = 0; i < nb; ++i)
      for (long long j = 0; j < nb; ++j)
        c(i, j) = p.c[at(grid->row() * nb + i, grid->col() * nb + j)];
    const ht::FreivaldsResult r =
        p.swapped ? ht::freivalds_check(*grid, b, a, c, n, seed) : check();
    ++generated;
    r.passed() ? ++accepted : ++rejected;
    EXPECT_EQ(r.passed(), oracle <= 1) << p.name << ": the oracle's residual is " << oracle
                                       << " bounds, the check's " << r.error / r.bound;
  }
  Kokkos::deep_copy(c, right);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf(
        "[wrong answers] freivalds_check on %d ranks: %d generated, %d rejected, %d "
        "accepted (%d left out within 0.7-1.4 bounds)\n",
        q * q, generated, rejected, accepted, ambiguous);
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, generated / 2);
}

}  // namespace
