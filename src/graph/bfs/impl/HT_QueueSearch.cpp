#include "graph/bfs/impl/HT_QueueSearch.hpp"

namespace ht::impl {

QueueSearch::QueueSearch(const Csr& g, const BfsOptions& opt, MPI_Comm comm)
    : g_(g),
      profile_(profile_or_off(opt.profile)),
      ex_(comm, opt.buffer_items),
      level_(ex_, res_, comm),
      seen_(g.range.local_count()) {
  oldq_.reserve(g.range.local_count());
  newq_.reserve(g.range.local_count());
  queues_held_.set(
      static_cast<std::int64_t>((oldq_.capacity() + newq_.capacity()) * sizeof(std::int64_t)));
  apply_ = [this](const Exchange::Item* items, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) visit(g_.range.local(items[k].vertex), items[k].value);
  };
}

int QueueSearch::start(std::int64_t root) {
  const VertexRange& r = g_.range;
  res_.reset(r.local_count());
  seen_.clear();
  oldq_.clear();
  newq_.clear();
  if (r.mine(root)) visit(r.local(root), root);
  return searches_++;
}

void QueueSearch::begin_level(int level) {
  oldq_.swap(newq_);
  newq_.clear();
  level_.begin(level);
}

bool QueueSearch::end_level() {
  ex_.end_level(apply_);
  return level_.end(static_cast<std::int64_t>(newq_.size()));
}

}  // namespace ht::impl
