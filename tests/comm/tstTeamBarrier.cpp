// Tests of ht::TeamBarrier: no thread leaves a round before every thread has
// reached it, and each sees the others' writes from before it, round after
// round (the barrier is reused, as a team run's levels reuse it).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "comm/HT_TeamBarrier.hpp"

namespace {

TEST(TeamBarrier, EveryThreadSeesEveryWriteOfTheRound) {
  constexpr int kThreads = 4, kRounds = 300;
  ht::TeamBarrier barrier(kThreads);
  std::vector<int> slot(kThreads, -1);  // plain ints: the barrier orders them
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        slot[t] = r;
        barrier.wait();
        for (int u = 0; u < kThreads; ++u)
          if (slot[u] != r) wrong.fetch_add(1);
        barrier.wait();  // nobody writes round r + 1 before all have read round r
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
