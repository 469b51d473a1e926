#include "graph/bfs/impl/HT_Level.hpp"

#include "comm/HT_Wait.hpp"

namespace ht::impl {

void Level::sum(const long long* x, long long* sums, int n) {
  sync([&] { sum_over_ranks(x, sums, n, comm_); });
}

bool Level::record(long long next) {
  const Exchange::Stats st = ex_.stats();
  res_.messages.push_back(st.messages);
  res_.bytes.push_back(st.bytes);
  res_.comm.push_back(comm_counts() - comm_start_);
  LevelSeconds s;
  s.total = ex_.clock()() - start_;
  s.communicate = st.busy;
  s.wait = st.waiting;
  s.sync = sync_;
  // Not floored: the measured parts are disjoint, so a negative expand
  // would be a part counted twice, and the tests should see it.
  s.expand = s.total - s.communicate - s.wait - s.sync;
  res_.seconds.push_back(s);
  if (next > 0) res_.frontier.push_back(next);
  return next > 0;
}

void Level::record_alone(double start, double end, long long next) {
  res_.messages.push_back(0);
  res_.bytes.push_back(0);
  res_.comm.push_back(CommCounts{});
  LevelSeconds s;
  s.total = s.expand = end - start;
  res_.seconds.push_back(s);
  res_.frontier.push_back(next);
}

bool Level::end(std::int64_t found) {
  const long long mine = found;
  long long next = 0;
  sum(&mine, &next, 1);
  return record(next);
}

}  // namespace ht::impl
