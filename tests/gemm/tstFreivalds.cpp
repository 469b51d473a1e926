// Tests of Freivalds' check (freivalds_check) by the wrong products it must
// reject, on np = 1 and 4 (Cannon needs a square rank count): the product
// Cannon computed passes; each mutant of it fails.
//  - wrong at one entry: off by 1.25x what the bound allows (and, to show the
//    bound is not loose, 0.75x passes), off by a lot;
//  - wrong everywhere: A and B swapped; C = 0; C one part in a billion too
//    large everywhere; one tile missing.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "gemm/HT_Cannon.hpp"
#include "gemm/HT_Freivalds.hpp"
#include "gemm/HT_TileGemm.hpp"

namespace {

class Freivalds : public ::testing::Test {
 protected:
  void SetUp() override {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int q = ht::SquareGrid::floor_sqrt(size);
    if (q * q != size) GTEST_SKIP() << "needs a square rank count";
    grid = std::make_unique<ht::SquareGrid>(MPI_COMM_WORLD);
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
  std::unique_ptr<ht::SquareGrid> grid;
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
         if (grid->row() == grid->q() - 1 && grid->col() == 0)
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

}  // namespace
