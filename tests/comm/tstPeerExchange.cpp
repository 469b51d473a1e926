// Tests of ht::PeerPlan and ht::peer_exchange on np = 1, 2, 4, judged by an
// oracle that needs no communication: every rank regenerates, from a seed,
// the counts and items every rank sent it, and checks what arrived against
// them (random counts with zeros, a rank that sends and receives nothing,
// budgets down to one byte, so many rounds); the plan's 64-bit counts, its
// rounds and its collectives on both sides of the one-round share (budget / P
// bytes a rank), one rank alone above it included; the way back
// (reversed()).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_PeerExchange.hpp"
#include "runtime/HT_Error.hpp"

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Item {
  std::int32_t from, to;
  std::int64_t k;
  std::uint64_t value;
  bool operator==(const Item& o) const {
    return from == o.from && to == o.to && k == o.k && value == o.value;
  }
};

// The world as the seed makes it: how many items rank s sends rank d (0 for
// about a third of the pairs, and for everything to or from the empty rank
// where there are 3 ranks or more), and item k of them.
struct World {
  std::uint64_t seed;
  int P;
  int empty() const { return P >= 3 ? static_cast<int>(seed % P) : -1; }
  std::int64_t count(int s, int d) const {
    if (s == empty() || d == empty()) return 0;
    const std::uint64_t h = mix(seed * 1000003u + static_cast<std::uint64_t>(s * P + d));
    return h % 3 == 0 ? 0 : static_cast<std::int64_t>(h % 97);
  }
  Item item(int s, int d, std::int64_t k) const {
    return {s, d, k, mix(seed ^ mix(static_cast<std::uint64_t>((s * P + d) * 4096 + k)))};
  }
};

int rank_of() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size_of() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// Moves the items of the world \p count (how many items rank s sends rank
// d) under \p budget, items as World \p seed makes them, and checks them
// against the oracle: what arrived, the rounds (M sizeof(Item) / budget
// rounded up, M the most any rank sends or receives), and the collectives
// (one count exchange where no rank sends more than budget / P bytes, else
// three; then one a round).
template <class Count>
void move_and_check(Count&& count, std::uint64_t seed, std::int64_t budget) {
  const int me = rank_of(), P = size_of();
  const World w{seed, P};
  std::vector<std::int64_t> mine(P);
  std::int64_t longest = 0;
  for (int d = 0; d < P; ++d) longest = std::max(longest, mine[d] = count(me, d));
  const ht::CommCounts before = ht::comm_counts();
  const ht::PeerPlan plan(mine, MPI_COMM_WORLD, sizeof(Item), budget);
  std::vector<Item> out(static_cast<std::size_t>(plan.sends())),
      in(static_cast<std::size_t>(plan.receives()));
  std::vector<std::int64_t> at = plan.send_offsets();
  // Packed in an order other than by peer: the cursors group them.
  for (std::int64_t k = 0; k < longest; ++k)
    for (int d = P - 1; d >= 0; --d)
      if (k < mine[d]) out[static_cast<std::size_t>(at[d]++)] = w.item(me, d, k);
  ht::peer_exchange(plan, out.data(), in.data());
  const std::int64_t collectives = (ht::comm_counts() - before).collectives;

  const std::int64_t b = std::clamp<std::int64_t>(budget, 1, ht::kPeerExchangeMaxBudget);
  const auto item = static_cast<std::int64_t>(sizeof(Item));
  std::vector<Item> want;
  std::int64_t most = 0;
  bool large = false;
  for (int s = 0; s < P; ++s) {
    std::int64_t sent = 0, received = 0;
    for (int d = 0; d < P; ++d) sent += count(s, d), received += count(d, s);
    most = std::max({most, sent, received});
    large = large || sent * item * P > b;
    for (std::int64_t k = 0; k < count(s, me); ++k) want.push_back(w.item(s, me, k));
  }
  const std::int64_t rounds = (most * item + b - 1) / b;
  EXPECT_EQ(plan.rounds(), rounds) << "seed " << seed << ", budget " << budget;
  EXPECT_EQ(plan.reversed().rounds(), rounds);
  EXPECT_EQ(collectives, (large ? 3 : 1) + rounds) << "seed " << seed << ", budget " << budget;
  EXPECT_EQ(plan.sends(), std::accumulate(mine.begin(), mine.end(), std::int64_t(0)));
  EXPECT_TRUE(in == want) << "seed " << seed << ": " << in.size() << " items against "
                          << want.size();
}

// Four worlds of random counts moved under \p budget, each checked against
// the oracle.
void move_random_worlds(std::int64_t budget) {
  const int P = size_of();
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const World w{seed, P};
    move_and_check([&](int s, int d) { return w.count(s, d); }, seed, budget);
  }
}

class PeerExchangeBudgets : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(PeerExchangeBudgets, ItemsArriveFromEachSourceInItsOrder) { move_random_worlds(GetParam()); }

// Where MPI has no large counts, a round's side beyond int displacements
// goes through a staging buffer: the same items arrive when every side is.
TEST(PeerExchange, StagedRoundsMoveTheSameItems) {
  const std::int64_t limit = ht::impl::peer_exchange_direct_limit();
  ht::impl::set_peer_exchange_direct_limit(0);
  for (const std::int64_t budget : {ht::kPeerExchangeBudget, std::int64_t(24)})
    move_random_worlds(budget);
  ht::impl::set_peer_exchange_direct_limit(limit);
}

// The default budget (one round), tiny ones (an item or less a round), and
// budgets that split items across rounds.
INSTANTIATE_TEST_SUITE_P(Budgets, PeerExchangeBudgets,
                         ::testing::Values(ht::kPeerExchangeBudget, 7, 24, 1000));

TEST(PeerExchange, AnswersGoBackByTheReversedPlan) {
  const int me = rank_of(), P = size_of();
  const World w{7, P};
  std::vector<std::int64_t> count(P);
  for (int d = 0; d < P; ++d) count[d] = w.count(me, d);
  const ht::PeerPlan plan(count, MPI_COMM_WORLD, sizeof(std::uint64_t), 40);
  std::vector<std::uint64_t> ask(static_cast<std::size_t>(plan.sends()));
  for (std::size_t i = 0; i < ask.size(); ++i) ask[i] = mix(i + 1000u * me);
  std::vector<std::uint64_t> asked(static_cast<std::size_t>(plan.receives()));
  ht::peer_exchange(plan, ask.data(), asked.data());
  for (auto& a : asked) a = ~a;  // the answer
  const ht::PeerPlan back = plan.reversed();
  EXPECT_EQ(back.sends(), plan.receives());
  EXPECT_EQ(back.receives(), plan.sends());
  EXPECT_EQ(back.rounds(), plan.rounds());
  std::vector<std::uint64_t> answers(ask.size());
  ht::peer_exchange(back, asked.data(), answers.data());
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < ask.size(); ++i) wrong += answers[i] != ~ask[i];
  EXPECT_EQ(wrong, 0);
}

TEST(PeerExchange, OddItemSizesMoveAsBytes) {
  const int me = rank_of(), P = size_of();
  const World w{11, P};
  constexpr std::size_t kItem = 3;
  std::vector<std::int64_t> count(P);
  for (int d = 0; d < P; ++d) count[d] = w.count(me, d);
  const ht::PeerPlan plan(count, MPI_COMM_WORLD, kItem, 5);  // under two items a round
  std::vector<unsigned char> out(static_cast<std::size_t>(plan.sends()) * kItem),
      in(static_cast<std::size_t>(plan.receives()) * kItem);
  for (int d = 0; d < P; ++d)
    for (std::int64_t k = 0; k < count[d]; ++k)
      for (std::size_t b = 0; b < kItem; ++b)
        out[static_cast<std::size_t>(plan.send_offsets()[d] + k) * kItem + b] =
            static_cast<unsigned char>(w.item(me, d, k).value >> (8 * b));
  ht::peer_exchange_bytes(plan, out.data(), in.data());
  std::int64_t wrong = 0;
  for (int s = 0; s < P; ++s)
    for (std::int64_t k = 0; k < w.count(s, me); ++k)
      for (std::size_t b = 0; b < kItem; ++b)
        wrong += in[static_cast<std::size_t>(plan.recv_offsets()[s] + k) * kItem + b] !=
                 static_cast<unsigned char>(w.item(s, me, k).value >> (8 * b));
  EXPECT_EQ(wrong, 0);
}

// One rank's sends above budget / P bytes: every rank takes the exact
// path (the counts' flags reach them all) and the same rounds, more than one.
TEST(PeerExchange, OneRanksLargeSendsSetEveryRanksRounds) {
  // 100 items a round: rank 0 sends 150 to each rank, the others 1.
  move_and_check([](int s, int) -> std::int64_t { return s == 0 ? 150 : 1; }, 21,
                 100 * static_cast<std::int64_t>(sizeof(Item)));
}

// Both sides of budget / P bytes: every rank sending exactly that takes one
// round with one count exchange; one rank sending an item more takes the
// exact path (the last rank, to the first).
TEST(PeerExchange, SendsAtTheShareTakeOneRound) {
  const int P = size_of();
  const std::int64_t budget = 12 * static_cast<std::int64_t>(sizeof(Item)), share = 12 / P;
  const auto next = [P](int s, int d) { return d == (s + 1) % P; };
  move_and_check([&](int s, int d) -> std::int64_t { return next(s, d) ? share : 0; }, 31, budget);
  move_and_check(
      [&](int s, int d) -> std::int64_t { return next(s, d) ? share + (s == P - 1) : 0; }, 32,
      budget);
}

TEST(PeerExchange, CountsAreSixtyFourBit) {
  // Counts past int's range cross as they are; a 16-byte item's rounds
  // follow from them under the default budget (nothing is moved).
  const int P = size_of();
  const std::int64_t each = 3 * (std::int64_t(1) << 31);
  const ht::PeerPlan plan(std::vector<std::int64_t>(P, each), MPI_COMM_WORLD, 16);
  for (int p = 0; p < P; ++p) EXPECT_EQ(plan.recv_count(p), each);
  EXPECT_EQ(plan.sends(), each * P);
  EXPECT_EQ(plan.receives(), each * P);
  EXPECT_EQ(plan.recv_offsets()[P - 1], each * (P - 1));
  EXPECT_EQ(plan.rounds(), each * P * 16 / ht::kPeerExchangeBudget);
  // A budget past the largest counts as the largest.
  const ht::PeerPlan wide(std::vector<std::int64_t>(P, each), MPI_COMM_WORLD, 16,
                          std::int64_t(1) << 40);
  EXPECT_EQ(wide.budget(), ht::kPeerExchangeMaxBudget);
  EXPECT_EQ(wide.rounds(), each * P * 16 / ht::kPeerExchangeMaxBudget);
}

TEST(PeerExchange, NothingToMoveTakesNoRound) {
  const ht::CommCounts before = ht::comm_counts();
  const ht::PeerPlan plan(std::vector<std::int64_t>(size_of(), 0), MPI_COMM_WORLD, 8);
  EXPECT_EQ(plan.rounds(), 0);
  ht::peer_exchange<double>(plan, nullptr, nullptr);
  EXPECT_EQ((ht::comm_counts() - before).collectives, 1);  // the counts
}

TEST(PeerExchange, ItemsOfAnotherSizeAreRefused) {
  const ht::PeerPlan plan(std::vector<std::int64_t>(size_of(), 0), MPI_COMM_WORLD, 8);
  EXPECT_THROW(ht::peer_exchange<std::uint32_t>(plan, nullptr, nullptr), ht::Error);
}

}  // namespace
