// Tests of ht::comm_counts and ht::mpi on np = 1, 2, 4: every counted call
// adds what it sends, collects or synchronises, by hand-counted bytes and by
// a PMPI witness linked into this program (pmpi_witness.hpp), which sees the
// calls at MPI's door; CommSteps splits a span into steps that add up to it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "pmpi_witness.hpp"
#include "test_environment.hpp"

namespace {

struct Span {
  ht::CommCounts ours = ht::comm_counts(), theirs = ht::test::witness_counts();
  ht::CommCounts ours_now() const { return ht::comm_counts() - ours; }
  ht::CommCounts theirs_now() const { return ht::test::witness_counts() - theirs; }
};

int rank_of() { return test_environment().rank(); }
int size_of() { return test_environment().size(); }

TEST(CommCounts, PointToPointCountsMessagesAndBytes) {
  const int me = rank_of(), P = size_of(), next = (me + 1) % P, prev = (me + P - 1) % P;
  std::vector<double> out(10, 1.0), in(10);
  std::vector<int> small(3, 2), small_in(3);
  const Span s;
  std::vector<MPI_Request> r(4);
  MPI_Irecv(in.data(), 10, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(small_in.data(), 3, MPI_INT, prev, 2, MPI_COMM_WORLD, &r[1]);
  ht::mpi::Isend(out.data(), 10, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &r[2]);
  ht::mpi::Issend(small.data(), 3, MPI_INT, next, 2, MPI_COMM_WORLD, &r[3]);
  ht::wait_all(r);
  // A persistent send started twice: two messages.
  MPI_Request send, recv;
  MPI_Send_init(out.data(), 4, MPI_DOUBLE, next, 3, MPI_COMM_WORLD, &send);
  MPI_Recv_init(in.data(), 4, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, &recv);
  for (int round = 0; round < 2; ++round) {
    MPI_Start(&recv);
    ht::mpi::Start(&send, 32);
    std::vector<MPI_Request> both{send, recv};
    MPI_Waitall(2, both.data(), MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  const ht::CommCounts want{4, 80 + 12 + 2 * 32, 0, 0, 0};
  EXPECT_EQ(s.ours_now(), want);
  EXPECT_EQ(s.theirs_now(), want);
  EXPECT_EQ(in[0], 1.0);
  EXPECT_EQ(small_in[2], 2);
}

TEST(CommCounts, CollectivesCountTheBytesTheyHandBack) {
  const int me = rank_of(), P = size_of();
  const Span s;
  int five[5] = {me, 1, 2, 3, 4};
  ht::mpi::Bcast(five, 5, MPI_INT, 0, MPI_COMM_WORLD);  // 20
  long long two[2] = {1, 2};
  ht::mpi::Allreduce(MPI_IN_PLACE, two, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);  // 16
  double three[3] = {1, 2, 3};
  std::vector<MPI_Request> r(1);
  ht::mpi::Iallreduce(MPI_IN_PLACE, three, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &r[0]);  // 24
  ht::wait_all(r);
  int four[4] = {1, 1, 1, 1}, four_out[4];
  ht::mpi::Reduce(four, four_out, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);  // 16
  long long one = 1, before = 0;
  ht::mpi::Exscan(&one, &before, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);  // 8
  double mine[2] = {1, 2};
  std::vector<double> all(2 * P);
  ht::mpi::Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);  // root 16P
  std::vector<int> counts(P), displs(P);
  for (int p = 0, at = 0; p < P; at += ++p) {
    counts[p] = p + 1;
    displs[p] = at;
  }
  std::vector<int> gathered(P * (P + 1) / 2, me);
  ht::mpi::Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered.data(), counts.data(),
                       displs.data(), MPI_INT, MPI_COMM_WORLD, &r[0]);  // 2P(P+1)
  ht::wait_all(r);
  std::vector<int> each(P, me), got(P);
  ht::mpi::Alltoall(each.data(), 1, MPI_INT, got.data(), 1, MPI_INT, MPI_COMM_WORLD);  // 4P
  std::vector<int> twos(P, 2), at(P);
  for (int p = 0; p < P; ++p) at[p] = 2 * p;
  std::vector<double> send(2 * P, me), recv(2 * P);
  ht::mpi::Alltoallv(send.data(), twos.data(), at.data(), MPI_DOUBLE, recv.data(), twos.data(),
                     at.data(), MPI_DOUBLE, MPI_COMM_WORLD);  // 16P
  const long long bytes =
      20 + 16 + 24 + 16 + 8 + (me == 0 ? 16LL * P : 0) + 2LL * P * (P + 1) + 4LL * P + 16LL * P;
  const ht::CommCounts want{0, 0, 9, bytes, 0};
  EXPECT_EQ(s.ours_now(), want);
  EXPECT_EQ(s.theirs_now(), want);
  EXPECT_EQ(two[0], P);
  EXPECT_EQ(recv[2 * P - 1], P - 1);
}

TEST(CommCounts, BarriersAndTheLibrarysWaitsAreCounted) {
  const Span s;
  ht::mpi::Barrier(MPI_COMM_WORLD);
  std::vector<MPI_Request> r(1);
  ht::mpi::Ibarrier(MPI_COMM_WORLD, &r[0]);
  ht::wait_all(r);
  ht::barrier(MPI_COMM_WORLD);                                    // an Ibarrier
  EXPECT_EQ(ht::sum_over_ranks(1LL, MPI_COMM_WORLD), size_of());  // an Iallreduce, 8 bytes
  EXPECT_EQ(ht::max_over_ranks(1.0 * rank_of(), MPI_COMM_WORLD), size_of() - 1.0);  // 8 bytes
  long long x = 1;
  ht::all_reduce(&x, 1, MPI_SUM, MPI_COMM_WORLD);  // 8 bytes
  const ht::CommCounts want{0, 0, 3, 24, 3};
  EXPECT_EQ(s.ours_now(), want);
  EXPECT_EQ(s.theirs_now(), want);
}

TEST(CommSteps, StepsAddUpToTheSpan) {
  const Span s;
  std::vector<ht::CommCounts> steps{{9, 9, 9, 9, 9}};  // cleared on construction
  {
    ht::CommSteps mark(steps);
    ht::barrier(MPI_COMM_WORLD);
    mark.mark();
    mark.mark();  // nothing in between: an empty step
    ht::sum_over_ranks(1LL, MPI_COMM_WORLD);
    ht::sum_over_ranks(1LL, MPI_COMM_WORLD);
    mark.mark();
  }
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0], (ht::CommCounts{0, 0, 0, 0, 1}));
  EXPECT_EQ(steps[1], ht::CommCounts{});
  EXPECT_EQ(steps[2], (ht::CommCounts{0, 0, 2, 16, 0}));
  ht::CommCounts total;
  for (const auto& c : steps) total += c;
  EXPECT_EQ(total, s.ours_now());
  EXPECT_EQ(total, s.theirs_now());
}

}  // namespace
