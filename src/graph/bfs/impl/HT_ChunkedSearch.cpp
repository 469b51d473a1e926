#include "graph/bfs/impl/HT_ChunkedSearch.hpp"

#include "graph/impl/HT_ChunkTask.hpp"

namespace ht::impl {

namespace {
// The next frontier is read off the claim lists when the bitmap has at
// least this many words per listed vertex.
constexpr std::size_t kWordsPerListed = 4;
}  // namespace

ChunkedSearch::ChunkedSearch(const Csr& g, const BfsOptions& opt, MPI_Comm comm)
    : g_(g),
      profile_(profile_or_off(opt.profile)),
      chunks_(static_cast<std::size_t>(std::max(1, opt.chunks))),
      peers_(g.range.size > 1),
      ex_(comm, opt.buffer_items),
      level_(ex_, res_, comm) {
  const std::int64_t n = g.range.local_count();
  seen_.resize(n);
  prev_.resize(n);
  known_.resize(peers_ ? g.range.n_global : 0);
  list_cap_ = seen_.words() / kWordsPerListed;
  // Touched now, not by the first search: a fresh page costs a fault.
  oldq_.assign(n, 0);
  oldq_.clear();
  chunk_.reserve(static_cast<std::size_t>(n));
  records_.resize(chunks_);
  workers_.resize(static_cast<std::size_t>(Kokkos::OpenMP().concurrency()));
  for (WorkerState& l : workers_) l.out.attach(ex_);
  apply_ = [this](const Exchange::Item* items, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) {
      const std::int64_t j = g_.range.local(items[i].vertex);
      if (claim(j, items[i].value) && count_edges_) {
        ++arrived_vertices_;
        arrived_edges_ += g_.degree(j);
      }
    }
  };
}

int ChunkedSearch::start(std::int64_t root) {
  const VertexRange& r = g_.range;
  res_.reset(r.local_count());
  seen_.clear();
  known_.clear();
  prev_.clear();
  forget_claims();
  for (WorkerState& l : workers_)
    l.task_visits = l.unique_visits = l.found_vertices = l.found_edges = 0;
  arrived_vertices_ = arrived_edges_ = 0;
  if (r.mine(root)) claim(r.local(root), root);
  take_frontier();
  return searches_++;
}

int ChunkedSearch::begin_level(int group, int level) {
  level_.begin(level);
  return profile_.begin_iteration(group, level, static_cast<int>(workers_.size()));
}

std::size_t ChunkedSearch::top_down_chunks() const {
  if (oldq_.empty()) return 0;
  return static_cast<std::size_t>(std::clamp<std::int64_t>(chunk_.edges() / kMinChunkEdges, 1,
                                                           static_cast<std::int64_t>(chunks_)));
}

void ChunkedSearch::end_top_down() {
  // Partial buffers leave now; the level ends on the host, all tasks done.
  for (WorkerState& l : workers_) l.out.flush();
  ex_.end_level(apply_);
}

bool ChunkedSearch::next_frontier() {
  take_frontier();
  return level_.end(static_cast<std::int64_t>(oldq_.size()));
}

const BfsResult& ChunkedSearch::finish() {
  for (const WorkerState& l : workers_) {
    res_.task_visits += l.task_visits;
    res_.unique_visits += l.unique_visits;
  }
  return res_;
}

void ChunkedSearch::take_frontier() {
  oldq_.clear();
  std::size_t listed = 0;
  for (const WorkerState& l : workers_) listed += l.claimed.size();
  if (listed_ && listed * kWordsPerListed <= seen_.words()) {
    // A few finds in a large graph (a high-diameter graph's levels): the
    // lists cost what the level found, the bitmap's scan N/64 words.  Left
    // unsorted: sorting costs more than the order saves on so few rows.
    for (WorkerState& l : workers_) {
      for (const std::int64_t i : l.claimed) prev_.set(i);
      oldq_.insert(oldq_.end(), l.claimed.begin(), l.claimed.end());
    }
  } else {
    seen_.take_new(prev_, [this](std::size_t w, Bitmap::Word bits) {
      Bitmap::for_each_bit(bits, w, [this](std::int64_t i) { oldq_.push_back(i); });
    });
  }
  forget_claims();
  const std::int64_t* const offsets = g_.offsets.data();
  chunk_.assign(
      oldq_, [offsets](std::int64_t i) { return offsets[i + 1] - offsets[i]; },
      [offsets](std::int64_t i) { __builtin_prefetch(offsets + i); });
}

void ChunkedSearch::take_new(Bitmap& into) {
  seen_.take_new(prev_, [&into](std::size_t w, Bitmap::Word bits) { into.set_word(w, bits); });
  forget_claims();
}

void ChunkedSearch::forget_claims() {
  for (WorkerState& l : workers_) l.claimed.clear();
  listed_ = true;
}

std::pair<std::int64_t, std::int64_t> ChunkedSearch::take_found() {
  std::pair<std::int64_t, std::int64_t> found{arrived_vertices_, arrived_edges_};
  for (WorkerState& l : workers_) {
    found.first += l.found_vertices;
    found.second += l.found_edges;
    l.found_vertices = l.found_edges = 0;
  }
  arrived_vertices_ = arrived_edges_ = 0;
  return found;
}

}  // namespace ht::impl
