#include "graph/impl/HT_BfsChunked.hpp"

#include <algorithm>

namespace ht::impl {

namespace {
// Fewer frontier vertices than this per chunk cost more in spawning than
// they gain in balance.
constexpr std::size_t kMinChunk = 64;
}  // namespace

ChunkedBfs::ChunkedBfs(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
    : rt_(rt),
      g_(g),
      comm_(comm),
      profile_(profile_of(opt)),
      chunks_(static_cast<std::size_t>(std::max(1, opt.chunks))),
      peers_(g.range.size > 1),
      ex_(comm, opt.buffer_items) {
  const std::int64_t n = g.range.local_count();
  seen_.resize(n);
  oldq_.reserve(n);
  lanes_.resize(static_cast<std::size_t>(Kokkos::OpenMP().concurrency()));
  for (Lane& l : lanes_) {
    l.out.resize(g.range.size);
    l.found.reserve(n / lanes_.size() + 1);
  }
  apply_ = [this](const Exchange::Item* items, std::size_t k) {
    Lane& l = lane();
    for (std::size_t i = 0; i < k; ++i) claim(l, g_.range.local(items[i].vertex), items[i].parent);
  };
}

void ChunkedBfs::give_lanes_scratch() {
  const auto words = static_cast<std::size_t>((g_.range.local_count() + 63) / 64);
  for (Lane& l : lanes_) l.scratch.assign(words, 0);
}

const BfsResult& ChunkedBfs::search(std::int64_t root) {
  const VertexRange& r = g_.range;
  const int group = searches_++;
  res_.reset(r.local_count());
  seen_.clear();
  oldq_.clear();
  for (Lane& l : lanes_) {
    l.found.clear();
    l.task_visits = l.unique_visits = 0;
  }
  if (r.mine(root)) {
    seen_.claim(r.local(root));
    res_.pred[r.local(root)] = root;
    oldq_.push_back(r.local(root));
  }
  for (int level = 0;; ++level) {
    ex_.begin_level(level);
    const int iteration = profile_.begin_iteration(group, level, static_cast<int>(lanes_.size()));
    const std::size_t n = std::clamp<std::size_t>(oldq_.size() / kMinChunk, 1, chunks_);
    if (!oldq_.empty()) {
      spawn_level(iteration, n);
      rt_.wait();
    }
    // Partial buffers leave now; the level ends on the host, all tasks done.
    for (Lane& l : lanes_) {
      for (int p = 0; p < r.size; ++p) {
        if (!l.out[p].empty()) ex_.post(p, std::move(l.out[p]));
        l.out[p] = {};
      }
    }
    ex_.end_level(apply_);
    oldq_.clear();
    for (Lane& l : lanes_) {
      oldq_.insert(oldq_.end(), l.found.begin(), l.found.end());
      l.found.clear();
    }
    if (!next_level(res_, ex_, static_cast<std::int64_t>(oldq_.size()), comm_)) break;
  }
  for (const Lane& l : lanes_) {
    res_.task_visits += l.task_visits;
    res_.unique_visits += l.unique_visits;
  }
  return res_;
}

}  // namespace ht::impl
