#include "graph/HT_EdgeFile.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/impl/HT_EdgeText.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

namespace {

using impl::bad_line;
using impl::kMaxVertexId;

std::ifstream open_or_fail(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot open: " + std::strerror(errno));
  return in;
}

const char* const kBanner =
    "'%%MatrixMarket matrix coordinate F S', F one of real, integer or pattern, S general or "
    "symmetric";

// The first byte of the line holding byte \p pos, moved to the next line
// start unless \p pos is one: where a rank's lines begin.
std::uint64_t line_start(std::ifstream& in, std::uint64_t pos, std::uint64_t lo,
                         std::uint64_t size) {
  if (pos <= lo) return lo;
  if (pos >= size) return size;
  in.clear();
  in.seekg(static_cast<std::streamoff>(pos - 1));
  char block[4096];
  while (pos - 1 < size) {
    in.read(block, sizeof block);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    if (const void* nl = std::memchr(block, '\n', got))
      return pos + static_cast<std::uint64_t>(static_cast<const char*>(nl) - block);
    pos += got;
  }
  return size;
}

// Bytes [from, to) of a file, mapped read-only: the page cache's own pages,
// no copy, mapped in one call (MAP_POPULATE) rather than a fault a page.  A
// file cut short while it is mapped ends the process (SIGBUS): graph files
// are not written while a job reads them.
class MappedRange {
 public:
  MappedRange(const std::string& path, std::uint64_t from, std::uint64_t to) {
    if (to <= from) return;
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw Error(path + ": cannot open: " + std::strerror(errno));
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    skip_ = from % page;
    length_ = to - from + skip_;
    base_ = mmap(nullptr, length_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
                 static_cast<off_t>(from - skip_));
    const int err = errno;
    ::close(fd);
    if (base_ == MAP_FAILED) {
      base_ = nullptr;
      throw Error(path + ": cannot map bytes " + std::to_string(from) + " to " +
                  std::to_string(to) + ": " + std::strerror(err));
    }
  }
  ~MappedRange() {
    if (base_) munmap(base_, length_);
  }
  MappedRange(const MappedRange&) = delete;
  MappedRange& operator=(const MappedRange&) = delete;
  std::string_view text() const {
    return base_ ? std::string_view(static_cast<const char*>(base_) + skip_, length_ - skip_)
                 : std::string_view();
  }

 private:
  void* base_ = nullptr;
  std::size_t length_ = 0, skip_ = 0;
};

// The ids that occur, each once: in the order they first occur in the file
// (rank by rank, each rank's lines in order) or in rising order.  Every
// rank gets the same list (an all-gather of each rank's own).
template <class E>
std::vector<std::int64_t> occurring_ids(const Kokkos::View<E*, Kokkos::HostSpace>& edges,
                                        Relabel order, MPI_Comm comm) {
  std::vector<std::int64_t> mine;
  mine.reserve(2 * edges.size());
  if (order == Relabel::sorted) {
    for (std::size_t k = 0; k < edges.size(); ++k)
      mine.push_back(edges(k).u), mine.push_back(edges(k).v);
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  } else {
    std::unordered_set<std::int64_t> seen;
    for (std::size_t k = 0; k < edges.size(); ++k)
      for (const std::int64_t x : {edges(k).u, edges(k).v})
        if (seen.insert(x).second) mine.push_back(x);
  }
  int size = 1;
  MPI_Comm_size(comm, &size);
  // Each rank's count, then every rank's ids (counts and places within an
  // int, as MPI takes them).
  std::vector<long long> counts(static_cast<std::size_t>(size));
  const long long n = static_cast<long long>(mine.size());
  std::vector<int> one(counts.size(), 1), place(counts.size());
  for (int r = 0; r < size; ++r) place[static_cast<std::size_t>(r)] = r;
  std::vector<MPI_Request> req(1);
  mpi::Iallgatherv(&n, 1, MPI_LONG_LONG, counts.data(), one.data(), place.data(), MPI_LONG_LONG,
                   comm, &req[0]);
  wait_all(req);
  std::vector<int> c(counts.size()), d(counts.size());
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    c[r] = mpi_int(counts[r], "Graph500/relabel: one rank's ids");
    d[r] = mpi_int(total, "Graph500/relabel: the ids over the ranks");
    total += counts[r];
  }
  mpi_int(total, "Graph500/relabel: the ids over the ranks");
  std::vector<std::int64_t> all(static_cast<std::size_t>(total));
  mpi::Iallgatherv(mine.data(), mpi_int(n, "Graph500/relabel: one rank's ids"), MPI_INT64_T,
                   all.data(), c.data(), d.data(), MPI_INT64_T, comm, &req[0]);
  wait_all(req);
  if (order == Relabel::sorted) {
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  }
  std::unordered_set<std::int64_t> seen;
  std::vector<std::int64_t> out;
  for (const std::int64_t x : all)
    if (seen.insert(x).second) out.push_back(x);
  return out;
}

// Numbers \p edges' ends 0 to n - 1 (Relabel) and keeps the file's ids.
template <class E>
void relabel(Kokkos::View<E*, Kokkos::HostSpace>& edges, Relabel order, EdgeFile& f,
             MPI_Comm comm) {
  f.original_ids = occurring_ids(edges, order, comm);
  std::unordered_map<std::int64_t, std::int64_t> number;
  number.reserve(f.original_ids.size());
  for (std::size_t i = 0; i < f.original_ids.size(); ++i)
    number.emplace(f.original_ids[i], static_cast<std::int64_t>(i));
  Kokkos::parallel_for("ht::read_csr::relabel",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, edges.extent(0)),
                       [&](std::size_t k) {
                         edges(k).u = number.find(edges(k).u)->second;
                         edges(k).v = number.find(edges(k).v)->second;
                       });
  Kokkos::fence();
  f.vertices = static_cast<std::int64_t>(f.original_ids.size());
}

template <class E>
Csr read_as(EdgeFile& f, MPI_Comm comm, double* read_seconds, const ReadOptions& opt) {
  Kokkos::View<E*, Kokkos::HostSpace> edges;
  double reading = 0;
  {
    Phase p("Graph500: reading", reading);
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    std::ifstream in = open_or_fail(f.path);
    const std::uint64_t bytes = std::filesystem::file_size(f.path), lo = f.data_offset;
    const std::uint64_t span = bytes - std::min(bytes, lo);
    const auto cut = [&](int r) {
      return line_start(in, lo + span * static_cast<std::uint64_t>(r) / size, lo, bytes);
    };
    const std::uint64_t a = cut(rank), b = cut(rank + 1);
    // Whatever fails on one rank (a mapping, an allocation, a bad line: the
    // rank that parses it sees it) is every rank's error before the next
    // collective: none waits in one.  A bad file is a UsageError.
    std::optional<MappedRange> mine;
    std::optional<impl::EdgeText> entries;
    long long lines = 0;
    on_all_ranks(comm, [&] {
      mine.emplace(f.path, a, b);
      entries.emplace(f, mine->text());
      lines = entries->lines();
    });
    long long before = 0;
    mpi::Exscan(&lines, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
    if (rank == 0) before = 0;  // MPI_Exscan leaves rank 0's undefined
    on_all_ranks(comm,
                 [&] { edges = entries->parse<E>(static_cast<long long>(f.data_line) + before); });

    long long counts[2] = {static_cast<long long>(edges.size()), lines}, total[2];
    sum_over_ranks(counts, total, 2, comm);
    const long long last_line = static_cast<long long>(f.data_line) + total[1] - 1;
    const bool gr = f.format == EdgeFile::Format::gr;
    if (f.entries >= 0 && total[0] != f.entries)
      bad_line(f.path, std::max<long long>(last_line, f.data_line - 1),
               "the file has " + std::to_string(total[0]) + (gr ? " arcs" : " entries") +
                   " after its " + (gr ? "problem" : "size") + " line (line " +
                   std::to_string(f.data_line - 1) + "), which promises " +
                   std::to_string(f.entries) + (total[0] < f.entries ? ": truncated?" : ""));
    if (total[0] == 0) bad_line(f.path, std::max(last_line, 1LL), "no edges in the file");
    if (opt.relabel != Relabel::none) {
      on_all_ranks(comm, [&] { relabel(edges, opt.relabel, f, comm); });
    } else if (f.vertices < 0) {  // an edge list: max id + 1
      long long top = 0;
      Kokkos::parallel_reduce(
          "ht::read_csr::top",
          Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, edges.extent(0)),
          [&](std::size_t k, long long& t) {
            t = std::max<long long>(t, std::max(edges(k).u, edges(k).v));
          },
          Kokkos::Max<long long>(top));
      all_reduce(&top, 1, MPI_MAX, comm);
      f.vertices = top + 1;
    }
  }
  if (read_seconds) *read_seconds += reading;
  if (opt.before_build) opt.before_build(f);
  return build_csr(edges.data(), edges.size(), f.vertices, comm, std::int64_t(1) << 22, opt.bits,
                   opt.owners);
}

// Where the arcs start, after the 'p sp n m' line: vertices n, entries m.
EdgeFile open_gr(EdgeFile f, std::ifstream& in) {
  f.has_weights = true;
  const char* const accepted =
      "; accepted: before the arcs, 'c' comment lines and one problem line 'p sp n m', n "
      "vertices (1 to 2^42) and m arcs, whole numbers";
  std::string line;
  long long line_no = 0;
  for (;;) {
    ++line_no;
    if (!std::getline(in, line))
      bad_line(f.path, std::max(line_no - 1, 1LL), std::string("no problem line") + accepted);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::vector<std::string_view> w = impl::fields(line);
    if (w.empty() || w[0][0] == 'c') continue;
    const auto bad = [&](const std::string& what) {
      bad_line(f.path, line_no, what + " " + impl::quoted(line) + accepted);
    };
    if (w[0] != "p") bad(w[0] == "a" ? "an arc before the problem line" : "not a problem line");
    long long n = 0, m = 0;
    if (w.size() < 4 || w[1] != "sp" || !impl::whole_number(w[2], n) ||
        !impl::whole_number(w[3], m))
      bad("not 'p sp n m'");
    if (n < 1 || n > kMaxVertexId + 1 || m < 0) bad("problem line out of range");
    f.vertices = n;
    f.entries = m;
    break;
  }
  const std::streamoff at = in.tellg();
  f.data_offset = at < 0 ? std::filesystem::file_size(f.path) : static_cast<std::uint64_t>(at);
  f.data_line = static_cast<std::int64_t>(line_no) + 1;
  return f;
}

}  // namespace

const char* format_name(EdgeFile::Format f) {
  switch (f) {
    case EdgeFile::Format::mtx:
      return "mtx";
    case EdgeFile::Format::el:
      return "el";
    case EdgeFile::Format::wel:
      return "wel";
    case EdgeFile::Format::gr:
      return "gr";
    case EdgeFile::Format::snap:
      return "snap";
  }
  return "?";
}

EdgeFile::Format EdgeFile::format_of(const std::string& path, const std::string& key) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".mtx" || ext == ".mm") return Format::mtx;
  if (ext == ".el") return Format::el;
  if (ext == ".wel") return Format::wel;
  if (ext == ".gr") return Format::gr;
  if (ext == ".txt" || ext == ".snap") return Format::snap;
  throw UsageError(key + " = " + path +
                   ": unknown format; accepted extensions are .mtx (Matrix Market), .el and .wel "
                   "(gapbs edge lists), .gr (DIMACS shortest paths), .txt and .snap (SNAP edge "
                   "lists)");
}

EdgeFile EdgeFile::open(const std::string& path) {
  EdgeFile f;
  f.path = path;
  f.format = format_of(path, "graph file");
  std::ifstream in = open_or_fail(path);
  if (f.format == Format::gr) return open_gr(f, in);
  if (f.format != Format::mtx) {
    f.has_weights = f.format == Format::wel;
    return f;
  }
  std::string line;
  if (!std::getline(in, line))
    bad_line(path, 1, std::string("empty file; accepted: a first line ") + kBanner);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  {
    // Matrix Market's words are case-insensitive.
    std::string lower = line;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto bad = [&](const std::string& what) {
      bad_line(path, 1, what + " " + impl::quoted(line) + "; accepted: " + kBanner);
    };
    if (lower.rfind("%%matrixmarket", 0) != 0) bad("not a Matrix Market banner");
    // fields() stops at '%': the banner's words follow "%%MatrixMarket".
    const std::vector<std::string_view> words =
        impl::fields(std::string_view(lower).substr(std::string("%%matrixmarket").size()));
    if (words.size() != 4) bad(std::to_string(words.size()) + " words after %%MatrixMarket, not 4");
    if (words[0] != "matrix" || words[1] != "coordinate")
      bad("a " + std::string(words[0]) + " in " + std::string(words[1]) +
          " format: a graph is a sparse matrix (matrix coordinate)");
    if (words[2] == "complex") bad("complex entries cannot be edge weights");
    if (words[2] != "real" && words[2] != "integer" && words[2] != "pattern")
      bad("field '" + std::string(words[2]) + "' is not accepted");
    if (words[3] != "general" && words[3] != "symmetric")
      bad("symmetry '" + std::string(words[3]) + "' is not accepted");
    f.has_weights = words[2] != "pattern";
    f.symmetric = words[3] == "symmetric";
  }
  // The size line: the first line after the banner that is not a comment.
  long long line_no = 1;
  for (;;) {
    ++line_no;
    if (!std::getline(in, line))
      bad_line(path, line_no - 1,
               "no size line after the banner; accepted: 'rows columns entries', three whole "
               "numbers");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::vector<std::string_view> w = impl::fields(line);
    if (w.empty()) continue;
    const auto bad = [&](const std::string& what) {
      bad_line(path, line_no,
               what + " " + impl::quoted(line) +
                   "; accepted: 'rows columns entries', three whole numbers, rows = columns, "
                   "1 to 2^42 rows");
    };
    long long dims[3] = {0, 0, 0};
    if (w.size() < 3) bad("a size line of " + std::to_string(w.size()) + " of its 3 numbers");
    for (int k = 0; k < 3; ++k)
      if (!impl::whole_number(w[static_cast<std::size_t>(k)], dims[k]))
        bad("'" + std::string(w[static_cast<std::size_t>(k)]) + "' is not a whole number");
    if (dims[0] != dims[1] || dims[0] < 1)
      bad("a " + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) +
          " matrix: the adjacency matrix of a graph is square and not empty");
    if (dims[0] > kMaxVertexId + 1 || dims[2] < 0)
      bad("size line out of range: at most 2^42 vertices and a non-negative entry count");
    f.vertices = dims[0];
    f.entries = dims[2];
    break;
  }
  const std::streamoff at = in.tellg();
  f.data_offset = at < 0 ? std::filesystem::file_size(path) : static_cast<std::uint64_t>(at);
  f.data_line = static_cast<std::int64_t>(line_no) + 1;
  return f;
}

Csr read_csr(EdgeFile& file, bool weighted, MPI_Comm comm, double* read_seconds, TargetBits bits) {
  ReadOptions opt;
  opt.bits = bits;
  return read_csr(file, weighted, comm, read_seconds, opt);
}

Csr read_csr(EdgeFile& file, bool weighted, MPI_Comm comm, double* read_seconds,
             const ReadOptions& opt) {
  if (weighted && !file.has_weights)
    throw UsageError(file.path + ": the graph has no weights (a ." + format_name(file.format) +
                     (file.format == EdgeFile::Format::mtx ? " pattern" : "") +
                     " file); SSSP needs a .wel or .gr file or a real or integer .mtx file");
  return weighted ? read_as<WeightedEdge>(file, comm, read_seconds, opt)
                  : read_as<Edge>(file, comm, read_seconds, opt);
}

}  // namespace ht
