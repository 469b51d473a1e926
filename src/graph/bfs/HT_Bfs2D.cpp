// Direction-optimizing BFS on the 2D partition (HT_Csr2D.hpp): Beamer's
// heuristic (HT_Direction.hpp) over the level scheme of A. Buluç and
// K. Madduri, "Parallel Breadth-First Search on Distributed Memory
// Systems", SC11, with bottom-up steps as in S. Beamer, A. Buluç,
// K. Asanović, D. Patterson, "Distributed Memory Breadth-First Search
// Revisited: Enabling Bottom-Up Search", IPDPS Workshops 2013.  Each rank's
// share of a level is chunk tasks on the task runtime; MPI stays on the host
// between them.
//
// The block keeps each entry once, by row (HT_Csr2D.hpp), and both
// directions read it.  Top-down level: the graph is undirected, so a
// frontier vertex's neighbours are its row's targets, spread over the ranks
// of its grid row.  The frontier of the row block is gathered along the grid
// row, as a list of row indices while that list is no larger than the row
// block's bitmap and as the pieces' bitmaps beyond (then the rows are found
// from the bitmap's words, never listed); chunk tasks over its rows' entries
// (cut into equal shares, HT_EdgeChunks.hpp, for a list; into equal runs of
// words for a bitmap) claim each column-block target in a sent filter of the
// column block (N / C bits) and queue (vertex, parent) for the target's
// owner, a rank of the same grid column; one peer_exchange along the column
// delivers them, and the owner keeps the first for each unvisited vertex.
// A find travels as one word: the vertex's offset in its owner's piece and
// the parent's index in the finder's block (the owner knows the finder's
// grid row or column); finds for this rank's own piece never leave it.
//
// Bottom-up level: the frontier's bitmap is gathered along the column only
// (N / 8C bytes), then the row block is searched in C sub-steps: a rank
// starts with the bitmap of its own unvisited vertices, searches them
// against its block (chunk tasks over the bitmap's words, each vertex
// stopping at its first neighbour in the frontier: rows keep kernel 1's
// order, hubs first), and passes the bitmap of those still unvisited to its
// left neighbour in the row while taking the right one's.  After C
// sub-steps every vertex of the row block met every block of its row, and
// was found by at most one rank; the found parents go to their owners in
// one peer_exchange along the row.
//
// After each level one allreduce of three counts (the next frontier, its
// edges, edges still unexplored) gives every rank the same direction; a
// spare rank of the grid (HT_Grid2D.hpp), with no block, takes part in it
// alone.
#include "graph/bfs/HT_Bfs2D.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <optional>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_PeerExchange.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/impl/HT_ChunkTask.hpp"
#include "graph/impl/HT_EdgeChunks.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_HeldBytes.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

namespace impl {

namespace {

// Fewer bitmap words (bottom-up) than this per task cost more to spawn than
// they gain in balance (top-down: impl::kMinChunkEdges).
constexpr std::size_t kMinChunkWords = 32;
constexpr int kPassTag = 3907;  // the bottom-up bitmap passed along a row

// One worker's finds, per rank of the grid column (top-down) or row
// (bottom-up): touched only by tasks on it.  A find is a vertex's offset in
// its owner's piece and its parent's index in the finder's block, in one
// word where both fit (Finds), else two.
struct alignas(64) WorkerState2D {
  std::vector<std::vector<std::uint64_t>> out;
};

// How finds are packed for a block of \p piece_bits-bit pieces, a parent's
// index spanning at most \p pieces of them: offset in the low bits, the
// parent's index above, when both fit.
class Finds {
 public:
  Finds(std::int64_t piece_bits, int pieces) {
    while ((std::int64_t(1) << shift_) < piece_bits) ++shift_;
    int high = 0;
    while ((std::int64_t(1) << high) < piece_bits * pieces) ++high;
    words_ = shift_ + high <= 64 ? 1 : 2;
  }
  /// Words a find takes.
  int words() const { return words_; }
  void push(std::vector<std::uint64_t>& out, std::int64_t offset, std::int64_t parent) const {
    if (words_ == 1) {
      out.push_back(static_cast<std::uint64_t>(offset) | static_cast<std::uint64_t>(parent)
                                                             << shift_);
    } else {
      out.push_back(static_cast<std::uint64_t>(offset));
      out.push_back(static_cast<std::uint64_t>(parent));
    }
  }
  /// Calls \p f(offset, parent's index) for each find in [\p w, \p end).
  template <class F>
  void for_each(const std::uint64_t* w, const std::uint64_t* end, F&& f) const {
    const std::uint64_t low = (std::uint64_t(1) << shift_) - 1;
    for (; w < end; w += words_) {
      if (words_ == 1)
        f(static_cast<std::int64_t>(*w & low), static_cast<std::int64_t>(*w >> shift_));
      else
        f(static_cast<std::int64_t>(w[0]), static_cast<std::int64_t>(w[1]));
    }
  }

 private:
  int shift_ = 0, words_ = 1;
};

class Bfs2D;

// Chunk c of n of the row frontier's edges (a list), searched top-down.
struct Down {
  static constexpr bool kLaneIsTask = false;
  static std::int64_t run(Bfs2D& b, std::size_t chunk, std::size_t chunks);
};
// Chunk c of n of the words of the row frontier's bitmap, searched top-down.
struct DownDense {
  static constexpr bool kLaneIsTask = false;
  static std::int64_t run(Bfs2D& b, std::size_t chunk, std::size_t chunks);
};
// Chunk c of n of the words of one row-block piece's unvisited bitmap,
// searched bottom-up.
struct Up {
  static constexpr bool kLaneIsTask = false;
  static std::int64_t run(Bfs2D& b, std::size_t chunk, std::size_t chunks);
};

class Bfs2D final : public Bfs {
 public:
  Bfs2D(const Csr2D& g, const Grid2D& grid, const BfsOptions& opt, TaskRuntime& rt)
      : g_(g),
        grid_(grid),
        rt_(rt),
        profile_(profile_or_off(opt.profile)),
        policy_(opt.direction),
        chunks_(static_cast<std::size_t>(std::max(1, opt.chunks))),
        words_(Bitmap::words_for(g.piece_bits)),
        finds_(g.piece_bits, std::max(g.shape.rows, g.shape.cols)) {
    workers_.resize(static_cast<std::size_t>(Kokkos::OpenMP().concurrency()));
    records_.resize(chunks_);
    if (grid.spare()) return;  // no block: it only agrees on each level
    const std::int64_t n = g.range.local_count();
    seen_.resize(n);
    front_.resize(g.piece_bits);
    unvisited_.resize(g.piece_bits);
    incoming_.resize(g.piece_bits);
    col_front_.resize(g.col_slots());
    row_front_.resize(g.row_slots());
    known_.resize(g.col_slots());
    const int peers = std::max(g.shape.rows, g.shape.cols);
    for (WorkerState2D& l : workers_) l.out.resize(static_cast<std::size_t>(peers));
    next_.reserve(static_cast<std::size_t>(n));
    for (const std::int64_t d : g.degree) total_degree_ += d;
    first_.resize(static_cast<std::size_t>(g.row_offsets.nonempty_slots()));
    for (std::size_t k = 0; k < first_.size(); ++k)
      first_[k] = g.row_targets[g.row_offsets.at(static_cast<std::int64_t>(k)).begin];
  }

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = g_.range;
    const int group = searches_++;
    res_.reset(r.local_count());
    seen_.clear();
    known_.clear();
    next_.clear();
    std::int64_t unexplored = total_degree_;
    if (r.mine(root)) {
      const std::int64_t j = r.local(root);
      seen_.set(j);
      res_.pred[j] = root;
      next_.push_back(j);
      unexplored -= g_.degree[j];
    }
    Direction dir = first_direction(policy_);
    long long frontier = 1;
    for (int level = 0;; ++level) {
      const double t0 = steady_seconds();
      const CommCounts c0 = comm_counts();
      sent_messages_ = sent_bytes_ = 0;
      comm_seconds_ = 0;
      const int iteration =
          profile_.begin_iteration(group, level, static_cast<int>(workers_.size()));
      res_.bottom_up.push_back(dir == Direction::bottom_up);
      take_frontier();
      // A spare rank has no block and no vertex: only the counts below.
      if (!grid_.spare() && dir == Direction::top_down)
        top_down(iteration);
      else if (!grid_.spare())
        bottom_up(iteration);
      unexplored -= found_edges_;

      const double t1 = steady_seconds();
      long long counts[3] = {found_vertices_, found_edges_, unexplored};
      all_reduce(counts, 3, MPI_SUM, grid_.comm());
      const double sync = steady_seconds() - t1;
      const Direction next =
          next_direction(policy_, dir, {counts[0], counts[1], counts[2], r.n_global, frontier});

      res_.messages.push_back(sent_messages_);
      res_.bytes.push_back(sent_bytes_);
      res_.comm.push_back(comm_counts() - c0);
      LevelSeconds s;
      s.total = steady_seconds() - t0;
      s.communicate = comm_seconds_;
      s.sync = sync;
      s.expand = s.total - s.communicate - s.sync;
      res_.seconds.push_back(s);
      if (counts[0] == 0) break;
      res_.frontier.push_back(counts[0]);
      frontier = counts[0];
      dir = next;
    }
    return res_;
  }

  // For the tasks.
  const Csr2D& graph() const { return g_; }
  Profile& profile() { return profile_; }
  WorkerState2D& worker_state() { return workers_[TaskRuntime::worker()]; }
  Bitmap& known() { return known_; }
  const Bitmap& col_front() const { return col_front_; }
  const Bitmap& row_front() const { return row_front_; }
  Bitmap& unvisited() { return unvisited_; }
  const std::vector<std::int64_t>& row_list() const { return row_list_; }
  const EdgeChunks& chunks() const { return chunk_; }
  int segment() const { return segment_; }
  const Finds& finds() const { return finds_; }
  const BlockIndex* first_targets() const { return first_.data(); }

 private:
  // The frontier this level expands: last level's finds, as a list (cur_)
  // and as the bitmap of this rank's piece (front_).
  void take_frontier() {
    front_.clear();
    for (const std::int64_t j : next_) front_.set(j);
    cur_.swap(next_);
    next_.clear();
    found_vertices_ = found_edges_ = 0;
  }

  // Runs \p f, communication of the level's expand or fold, timed as such.
  template <class F>
  void communicate(F&& f) {
    const double t0 = steady_seconds();
    f();
    comm_seconds_ += steady_seconds() - t0;
  }

  // This piece's bitmap to every rank of the grid column: col_front_.
  void gather_front() {
    const int rows = g_.shape.rows;
    const int w = mpi_int(words_, "a piece's bitmap words");
    std::vector<int> counts(rows, w), displs(rows);
    for (int s = 0; s < rows; ++s)
      displs[s] = mpi_int(std::int64_t{s} * w, "a column block's bitmap displacement");
    communicate([&] {
      std::vector<MPI_Request> req(1);
      mpi::Iallgatherv(front_.data(), w, MPI_UINT64_T, col_front_.data(), counts.data(),
                       displs.data(), MPI_UINT64_T, grid_.col_comm(), &req[0]);
      wait_all(req);
    });
    if (rows > 1) {
      sent_messages_ += rows - 1;
      sent_bytes_ += static_cast<std::int64_t>(rows - 1) * static_cast<std::int64_t>(words_) * 8;
    }
  }

  // The row block's frontier, gathered along the grid row: as a list of
  // row indices (row_list_) while it is no larger than the row block's
  // bitmap, else as that bitmap (row_front_, row_list_ empty).  Returns
  // whether it is the bitmap.
  bool expand() {
    const int cols = g_.shape.cols;
    const int m = mpi_int(cur_.size(), "a piece's frontier vertices");
    std::vector<int> ones(cols, 1), at(cols), counts(cols), displs(cols);
    for (int t = 0; t < cols; ++t) at[t] = t;
    std::size_t total = 0;
    std::vector<MPI_Request> req(1);
    communicate([&] {
      mpi::Iallgatherv(&m, 1, MPI_INT, counts.data(), ones.data(), at.data(), MPI_INT,
                       grid_.row_comm(), &req[0]);
      wait_all(req);
    });
    for (int t = 0; t < cols; ++t) total += static_cast<std::size_t>(counts[t]);
    row_list_.clear();
    const bool dense = static_cast<std::int64_t>(total) * 64 > g_.row_slots();
    const std::int64_t sent = dense ? static_cast<std::int64_t>(words_) : m;
    if (cols > 1) {
      sent_messages_ += 2 * (cols - 1);
      sent_bytes_ += static_cast<std::int64_t>(cols - 1) * (4 + 8 * sent);
    }
    if (dense) {  // the pieces' bitmaps side by side
      const int w = mpi_int(words_, "a piece's bitmap words");
      for (int t = 0; t < cols; ++t) {
        counts[t] = w;
        displs[t] = mpi_int(std::int64_t{t} * w, "a row block's bitmap displacement");
      }
      communicate([&] {
        mpi::Iallgatherv(front_.data(), w, MPI_UINT64_T, row_front_.data(), counts.data(),
                         displs.data(), MPI_UINT64_T, grid_.row_comm(), &req[0]);
        wait_all(req);
      });
      return true;
    }
    std::vector<std::int64_t> mine(cur_.size());
    const std::int64_t slot = g_.col * g_.piece_bits;  // this piece's slot in the row block
    for (std::size_t q = 0; q < cur_.size(); ++q) mine[q] = slot + cur_[q];
    std::int64_t sum = 0;
    for (int t = 0; t < cols; sum += counts[t++])
      displs[t] = mpi_int(sum, "a row block's frontier displacement");
    row_list_.resize(total);
    communicate([&] {
      mpi::Iallgatherv(mine.data(), m, MPI_INT64_T, row_list_.data(), counts.data(), displs.data(),
                       MPI_INT64_T, grid_.row_comm(), &req[0]);
      wait_all(req);
    });
    return false;
  }

  void top_down(int iteration) {
    if (expand()) {
      const std::size_t words = row_front_.words();
      const auto n = std::clamp<std::size_t>(words / kMinChunkWords, 1, chunks_);
      spawn_chunks<DownDense>(rt_, profile_, this, records_, iteration, n);
      rt_.wait();
    } else {
      chunk_.assign(row_list_, [this](std::int64_t r) {
        const BlockOffsets::Range e = g_.row_offsets[r];
        return e.end - e.begin;
      });
      const auto n = static_cast<std::size_t>(std::clamp<std::int64_t>(
          chunk_.edges() / impl::kMinChunkEdges, 1, static_cast<std::int64_t>(chunks_)));
      if (chunk_.edges() > 0) {
        spawn_chunks<Down>(rt_, profile_, this, records_, iteration, n);
        rt_.wait();
      }
    }
    // Finder at grid row t, parent at row index i of its row block.
    const int cols = g_.shape.cols;
    const std::int64_t pb = g_.piece_bits, per = g_.range.per_rank;
    fold(grid_.col_comm(), g_.shape.rows, g_.row,
         [&](int t, std::int64_t i) { return (t * cols + i / pb) * per + i % pb; });
  }

  void bottom_up(int iteration) {
    gather_front();
    // This rank's unvisited vertices, the first piece searched.
    const std::int64_t n = g_.range.local_count();
    for (std::size_t w = 0; w < words_; ++w) {
      Bitmap::Word bits = w < seen_.words() ? ~seen_.word(w) : 0;
      const std::int64_t left = n - Bitmap::first_of(w);
      if (left < 64) bits &= left > 0 ? (Bitmap::Word(1) << left) - 1 : 0;
      unvisited_.set_word(w, bits);
    }
    const int cols = g_.shape.cols;
    const auto tasks = std::clamp<std::size_t>(words_ / kMinChunkWords, 1, chunks_);
    for (int s = 0; s < cols; ++s) {
      segment_ = (g_.col + s) % cols;
      spawn_chunks<Up>(rt_, profile_, this, records_, iteration, tasks);
      rt_.wait();
      if (s + 1 == cols) break;
      // Those still unvisited go left; the right neighbour's come in.
      communicate([&] {
        std::vector<MPI_Request> req(2);
        const int w = mpi_int(words_, "a piece's bitmap words");
        mpi::Isend(unvisited_.data(), w, MPI_UINT64_T, (g_.col + cols - 1) % cols, kPassTag,
                   grid_.row_comm(), &req[0]);
        MPI_Irecv(incoming_.data(), w, MPI_UINT64_T, (g_.col + 1) % cols, kPassTag,
                  grid_.row_comm(), &req[1]);  // receives: uncounted
        wait_all(req);
      });
      std::swap(unvisited_, incoming_);
      ++sent_messages_;
      sent_bytes_ += static_cast<std::int64_t>(words_) * 8;
    }
    // Finder at grid column t, parent at column index c of its column block.
    const std::int64_t pb = g_.piece_bits, per = g_.range.per_rank;
    fold(grid_.row_comm(), cols, g_.col,
         [&](int t, std::int64_t c) { return (c / pb * cols + t) * per + c % pb; });
  }

  // The workers' finds to their owners, the \p peers ranks of \p comm
  // (this rank, \p me there, keeps its own); each owner keeps the first for
  // each vertex still unvisited, its parent \p parent_of(finder, index): the
  // next frontier (next_).
  template <class ParentOf>
  void fold(MPI_Comm comm, int peers, int me, ParentOf&& parent_of) {
    std::vector<std::int64_t> count(static_cast<std::size_t>(peers), 0);
    for (int t = 0; t < peers; ++t) {
      if (t == me) continue;
      for (const WorkerState2D& l : workers_)
        count[t] += static_cast<std::int64_t>(l.out[t].size());
      if (count[t] > 0) {
        ++sent_messages_;
        sent_bytes_ += 8 * count[t];
      }
    }
    std::optional<PeerPlan> plan;  // none on a grid line of one rank
    communicate([&] {
      if (peers > 1) plan.emplace(count, comm, sizeof(std::uint64_t));
    });
    if (plan) {
      send_.resize(static_cast<std::size_t>(plan->sends()));
      for (int t = 0; t < peers; ++t) {
        if (t == me) continue;
        auto at = send_.begin() + plan->send_offsets()[t];
        for (WorkerState2D& l : workers_) {
          at = std::copy(l.out[t].begin(), l.out[t].end(), at);
          l.out[t].clear();
        }
      }
      receive_.resize(static_cast<std::size_t>(plan->receives()));
      held_.set(static_cast<std::int64_t>(8 * (send_.capacity() + receive_.capacity())));
      communicate([&] { peer_exchange(*plan, send_.data(), receive_.data()); });
    }
    for (int t = 0; t < peers; ++t) {
      const auto keep = [&](std::int64_t offset, std::int64_t i) {
        if (!seen_.set_new(offset)) return;
        res_.pred[offset] = parent_of(t, i);
        next_.push_back(offset);
        found_edges_ += g_.degree[offset];
      };
      if (t == me) {
        for (WorkerState2D& l : workers_) {
          finds_.for_each(l.out[t].data(), l.out[t].data() + l.out[t].size(), keep);
          l.out[t].clear();
        }
      } else {
        const std::uint64_t* w = receive_.data() + plan->recv_offsets()[t];
        finds_.for_each(w, w + plan->recv_count(t), keep);
      }
    }
    found_vertices_ = static_cast<std::int64_t>(next_.size());
    // A vertex is visited once, by its owner's claim here.
    res_.task_visits += found_vertices_;
    res_.unique_visits += found_vertices_;
  }

  const Csr2D& g_;
  const Grid2D& grid_;
  TaskRuntime& rt_;
  Profile& profile_;
  DirectionPolicy policy_;
  std::size_t chunks_;
  std::size_t words_;  // words of one piece's bitmap
  int searches_ = 0;
  int segment_ = 0;  // the row-block piece a bottom-up sub-step searches
  std::int64_t total_degree_ = 0;
  BfsResult res_;
  Bitmap seen_;       // this rank's vertices visited
  Bitmap front_;      // this rank's frontier (a piece's slot)
  Bitmap unvisited_;  // bottom-up: the piece being searched, its vertices still unvisited
  Bitmap incoming_;   // bottom-up: the next one, from the right neighbour
  Bitmap col_front_;  // bottom-up: the column block's frontier
  Bitmap row_front_;  // dense top-down: the row block's frontier
  Bitmap known_;      // top-down: column-block vertices sent this search (the sent filter)
  std::vector<std::int64_t> cur_, next_;  // this rank's frontier and its finds (offsets)
  std::vector<std::int64_t> row_list_;    // sparse top-down: the row block's frontier (row indices)
  std::vector<BlockIndex> first_;         // each non-empty row's first target
  EdgeChunks chunk_;                      // its edges, cut into chunks
  std::vector<WorkerState2D> workers_;
  std::vector<TaskRecord> records_;
  Finds finds_;
  std::vector<std::uint64_t> send_, receive_;  // the fold's packed finds, out and in
  HeldCharge held_{Held::exchange};            // send_'s and receive_'s capacity
  std::int64_t found_vertices_ = 0, found_edges_ = 0;
  std::int64_t sent_messages_ = 0, sent_bytes_ = 0;
  double comm_seconds_ = 0;
};

// Row \p r's targets not yet sent: a find for each, parent r.
template <class Push>
inline void claim_row(const Csr2D& g, Bitmap& known, std::int64_t r, std::int64_t k0,
                      std::int64_t k1, Push&& push) {
  for (std::int64_t k = k0; k < k1; ++k) {
    const std::int64_t c = g.row_targets[k];
    if (known.claim(c)) push(c, r);
  }
}

std::int64_t Down::run(Bfs2D& b, std::size_t chunk, std::size_t chunks) {
  const Csr2D& g = b.graph();
  WorkerState2D& ws = b.worker_state();
  const Finds& finds = b.finds();
  const EdgeChunks& ch = b.chunks();
  const std::vector<std::int64_t>& list = b.row_list();
  const std::int64_t* const starts = ch.starts();
  const auto m = static_cast<std::int64_t>(list.size());
  const std::int64_t e0 = ch.edge_begin(chunk, chunks), e1 = ch.edge_begin(chunk + 1, chunks);
  const std::int64_t slot = g.piece_bits;
  const auto push = [&](std::int64_t c, std::int64_t r) {
    finds.push(ws.out[static_cast<std::size_t>(c / slot)], c % slot, r);
  };
  for (auto q = static_cast<std::int64_t>(ch.row_of(e0)); q < m && starts[q] < e1; ++q) {
    const std::int64_t r = list[q], base = g.row_offsets[r].begin - starts[q];
    claim_row(g, b.known(), r, base + std::max(starts[q], e0), base + std::min(starts[q + 1], e1),
              push);
  }
  return static_cast<std::int64_t>(ch.vertex_begin(chunk + 1, chunks) -
                                   ch.vertex_begin(chunk, chunks));
}

std::int64_t DownDense::run(Bfs2D& b, std::size_t chunk, std::size_t chunks) {
  const Csr2D& g = b.graph();
  WorkerState2D& ws = b.worker_state();
  const Finds& finds = b.finds();
  const Bitmap& front = b.row_front();
  const BlockOffsets& rows = g.row_offsets;
  const Bitmap& nonempty = rows.nonempty();
  const std::size_t words = front.words();
  const std::size_t w0 = words * chunk / chunks, w1 = words * (chunk + 1) / chunks;
  const std::int64_t slot = g.piece_bits;
  const auto push = [&](std::int64_t c, std::int64_t r) {
    finds.push(ws.out[static_cast<std::size_t>(c / slot)], c % slot, r);
  };
  std::int64_t searched = 0;
  for (std::size_t w = w0; w < w1; ++w) {
    Bitmap::for_each_bit(front.word(w) & nonempty.word(w), w, [&](std::int64_t r) {
      const BlockOffsets::Range e = rows.at(rows.position(w, Bitmap::bit_of(r)));
      claim_row(g, b.known(), r, e.begin, e.end, push);
      ++searched;
    });
  }
  return searched;
}

std::int64_t Up::run(Bfs2D& b, std::size_t chunk, std::size_t chunks) {
  const Csr2D& g = b.graph();
  WorkerState2D& ws = b.worker_state();
  const Bitmap& front = b.col_front();
  Bitmap& unvisited = b.unvisited();
  const int seg = b.segment();
  std::vector<std::uint64_t>& out = ws.out[static_cast<std::size_t>(seg)];
  const Finds& finds = b.finds();
  const std::size_t words = unvisited.words();
  const std::size_t w0 = words * chunk / chunks, w1 = words * (chunk + 1) / chunks;
  const BlockOffsets& rows = g.row_offsets;
  const Bitmap& nonempty = rows.nonempty();
  const std::size_t row_word = Bitmap::word_of(seg * g.piece_bits);  // pieces start on a word
  const BlockIndex* const targets = g.row_targets.data();
  const BlockIndex* const first = b.first_targets();
  // As the 1D bottom-up (HT_BfsHybrid.cpp): each row's first target, its
  // hub in this block, read from a dense array in row order; the rest of
  // the rows of kBatch words scanned after, each prefetched kAhead before.
  // Only rows with neighbours in this block are searched here.
  constexpr std::size_t kBatch = 4, kAhead = 8;
  std::int64_t rest[kBatch * 64], rest_j[kBatch * 64];
  for (std::size_t wb = w0; wb < w1; wb += kBatch) {
    const std::size_t we = std::min(w1, wb + kBatch);
    std::size_t n = 0;
    Bitmap::Word got[kBatch] = {};
    for (std::size_t w = wb; w < we; ++w) {
      const std::size_t rw = row_word + w;
      Bitmap::for_each_bit(unvisited.word(w) & nonempty.word(rw), w, [&](std::int64_t j) {
        const std::int64_t k = rows.position(rw, Bitmap::bit_of(j));
        if (front.test(first[k])) {
          finds.push(out, j, first[k]);
          got[w - wb] |= Bitmap::bit_of(j);
        } else {
          rest[n] = k;
          rest_j[n++] = j;
        }
      });
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(targets + rows.at(rest[i + kAhead]).begin + 1);
      const BlockOffsets::Range e = rows.at(rest[i]);
      for (std::int64_t k = e.begin + 1; k < e.end; ++k) {
        if (front.test(targets[k])) {
          finds.push(out, rest_j[i], targets[k]);
          got[Bitmap::word_of(rest_j[i]) - wb] |= Bitmap::bit_of(rest_j[i]);
          break;
        }
      }
    }
    for (std::size_t w = wb; w < we; ++w)  // this task alone owns words [w0, w1)
      if (got[w - wb]) unvisited.set_word(w, unvisited.word(w) & ~got[w - wb]);
  }
  return Bitmap::first_of(w1) - Bitmap::first_of(w0);
}

}  // namespace

std::unique_ptr<Bfs> make_direction_optimizing_2d(const Csr2D& g, const Grid2D& grid,
                                                  const BfsOptions& opt, TaskRuntime& rt) {
  return std::make_unique<Bfs2D>(g, grid, opt, rt);
}

}  // namespace impl

bool has_2d_kernel(const BfsVariant& v) { return v.make_2d != nullptr; }

std::string variants_with_2d_kernel() { return bfs_variant_names(has_2d_kernel); }

void require_2d_kernel(const BfsVariant& v) {
  if (!has_2d_kernel(v)) {
    throw UsageError("Graph500/partition = 2d with Graph500/variant = " + std::string(v.name) +
                     ": a 2D kernel exists for " + variants_with_2d_kernel() +
                     " (or Graph500/partition = 1d)");
  }
}

std::unique_ptr<Bfs> make_bfs_2d(const BfsVariant& v, const Csr2D& g, const Grid2D& grid,
                                 const BfsOptions& opt, TaskRuntime& rt) {
  require_2d_kernel(v);
  return v.make_2d(g, grid, v.resolve(opt, Kokkos::OpenMP().concurrency()), rt);
}

}  // namespace ht
