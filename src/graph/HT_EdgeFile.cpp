#include "graph/HT_EdgeFile.hpp"

#include <Teuchos_MatrixMarket_Banner.hpp>
#include <Teuchos_MatrixMarket_CoordDataReader.hpp>
#include <Teuchos_MatrixMarket_generic.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <type_traits>
#include <vector>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

namespace {

// Ids past 2^42 are beyond SCALE 42, the largest the project runs.
constexpr long long kMaxVertex = (1LL << 42) - 1;

// Teuchos's own exceptions open with the source file and line that threw
// them, then the message: keep the message's last paragraph.
std::string message_of(const std::exception& e) {
  std::string m = e.what();
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  const std::size_t cut = m.rfind("\n\n");
  return cut == std::string::npos ? m : m.substr(cut + 2);
}

[[noreturn]] void bad(const std::string& path, long long line, const std::string& what) {
  throw Error(path + ":" + std::to_string(line) + ": " + what);
}

// A bad line is seen by the rank that parses it: every rank learns of it
// (the lowest such rank's message) and throws, so none waits for the others.
void throw_if_any(const std::string& failure, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = failure.empty() ? size : rank, from = size;
  MPI_Allreduce(&mine, &from, 1, MPI_INT, MPI_MIN, comm);
  if (from == size) return;
  std::string msg = failure;
  unsigned long long len = msg.size();
  MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, from, comm);
  msg.resize(len);
  MPI_Bcast(msg.data(), static_cast<int>(len), MPI_CHAR, from, comm);
  throw Error(msg);
}

std::ifstream open_or_fail(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open: " + std::strerror(errno));
  return in;
}

// readDimensions needs a reader type; entries are parsed line by line below.
struct NoAdder {
  void operator()(long long, long long) {}
};

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

std::string number(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// This rank's entries, as 0-based edges with their line numbers checked.
template <class E>
std::vector<E> parse(const EdgeFile& f, const std::string& text, long long first_line) {
  constexpr bool weighted = std::is_same_v<E, WeightedEdge>;
  const long long base = f.format == EdgeFile::Format::mtx ? 1 : 0;
  const long long last_id = f.format == EdgeFile::Format::mtx ? f.vertices : kMaxVertex;
  std::vector<E> out;
  long long line_no = first_line;
  std::string line;
  for (std::size_t at = 0; at < text.size(); ++line_no) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    line.assign(text, at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // written on Windows
    if (blank(line)) continue;
    long long u = 0, v = 0;
    double w = 0;
    bool entry;
    try {
      if (f.has_weights) {  // readRealLine skips comments itself
        entry = Teuchos::MatrixMarket::readRealLine(line, u, v, w, line_no, false);
      } else {  // readPatternLine wants the data part alone
        std::size_t start = 0, size = 0;
        entry =
            !Teuchos::MatrixMarket::checkCommentLine(line, start, size, line_no, false) &&
            Teuchos::MatrixMarket::readPatternLine(line.substr(start, size), u, v, line_no, false);
      }
    } catch (const std::exception& e) {
      bad(f.path, line_no, message_of(e));
    }
    if (!entry) continue;  // a comment
    for (const long long x : {u, v}) {
      if (x < base || x > last_id)
        bad(f.path, line_no,
            "vertex " + std::to_string(x) + " out of range: ids are " + std::to_string(base) +
                " to " + std::to_string(last_id) +
                (f.format == EdgeFile::Format::mtx ? " (the size line's rows)" : ""));
    }
    if (f.has_weights && !(w >= 0 && std::isfinite(w)))
      bad(f.path, line_no,
          "weight " + number(w) + " of edge {" + std::to_string(u) + ", " + std::to_string(v) +
              "}: weights must be finite and >= 0");
    if constexpr (weighted)
      out.push_back({u - base, v - base, static_cast<float>(w)});
    else
      out.push_back({u - base, v - base});
  }
  return out;
}

template <class E>
Csr read_as(EdgeFile& f, MPI_Comm comm, double* read_seconds, TargetBits bits) {
  std::vector<E> edges;
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
    std::string text(b - a, '\0');
    in.clear();
    in.seekg(static_cast<std::streamoff>(a));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (static_cast<std::uint64_t>(in.gcount()) != text.size())
      throw Error(f.path + ": read failed at byte " + std::to_string(a));
    long long lines = std::count(text.begin(), text.end(), '\n');
    if (!text.empty() && text.back() != '\n') ++lines;  // no newline at the end
    long long before = 0;
    MPI_Exscan(&lines, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
    if (rank == 0) before = 0;  // MPI_Exscan leaves rank 0's undefined
    std::string failure;
    try {
      edges = parse<E>(f, text, static_cast<long long>(f.data_line) + before);
    } catch (const Error& e) {
      failure = e.what();
    }
    throw_if_any(failure, comm);

    long long counts[2] = {static_cast<long long>(edges.size()), lines}, total[2];
    MPI_Allreduce(counts, total, 2, MPI_LONG_LONG, MPI_SUM, comm);
    const long long last_line = static_cast<long long>(f.data_line) + total[1] - 1;
    if (f.format == EdgeFile::Format::mtx && total[0] != f.entries)
      bad(f.path, std::max<long long>(last_line, f.data_line - 1),
          "the file has " + std::to_string(total[0]) + " entries after its size line (line " +
              std::to_string(f.data_line - 1) + "), which promises " + std::to_string(f.entries) +
              (total[0] < f.entries ? ": truncated?" : ""));
    if (total[0] == 0) bad(f.path, std::max(last_line, 1LL), "no edges in the file");
    if (f.format != EdgeFile::Format::mtx) {
      long long top = 0;
      for (const E& e : edges) top = std::max<long long>(top, std::max(e.u, e.v));
      MPI_Allreduce(MPI_IN_PLACE, &top, 1, MPI_LONG_LONG, MPI_MAX, comm);
      f.vertices = top + 1;
    }
  }
  if (read_seconds) *read_seconds += reading;
  return build_csr(edges, f.vertices, comm, std::int64_t(1) << 22, bits);
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
  }
  return "?";
}

EdgeFile::Format EdgeFile::format_of(const std::string& path, const std::string& key) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".mtx" || ext == ".mm") return Format::mtx;
  if (ext == ".el") return Format::el;
  if (ext == ".wel") return Format::wel;
  throw UsageError(key + " = " + path +
                   ": unknown format; accepted extensions are .mtx (Matrix Market), .el and .wel "
                   "(gapbs edge lists)");
}

EdgeFile EdgeFile::open(const std::string& path) {
  EdgeFile f;
  f.path = path;
  f.format = format_of(path, "graph file");
  std::ifstream in = open_or_fail(path);
  if (f.format != Format::mtx) {
    f.has_weights = f.format == Format::wel;
    return f;
  }
  std::string line;
  if (!std::getline(in, line)) bad(path, 1, "empty file: a Matrix Market banner was expected");
  try {
    const Teuchos::MatrixMarket::Banner banner(line, false);
    if (banner.objectType() != "matrix" || banner.matrixType() != "coordinate")
      bad(path, 1,
          "a " + banner.objectType() + " in " + banner.matrixType() +
              " format: a graph is a sparse matrix (matrix coordinate)");
    if (banner.dataType() == "complex") bad(path, 1, "complex entries cannot be edge weights");
    if (banner.symmType() != "general" && banner.symmType() != "symmetric")
      bad(path, 1, banner.symmType() + " matrix: accepted are general and symmetric");
    f.has_weights = banner.dataType() != "pattern";
    f.symmetric = banner.symmType() == "symmetric";
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    bad(path, 1, message_of(e));
  }
  std::size_t line_no = 1;
  try {
    Teuchos::MatrixMarket::CoordPatternReader<NoAdder, long long> reader;
    const auto dims = reader.readDimensions(in, line_no, false).first;
    if (dims[0] != dims[1] || dims[0] < 1)
      bad(path, static_cast<long long>(line_no),
          "a " + std::to_string(dims[0]) + " x " + std::to_string(dims[1]) +
              " matrix: the adjacency matrix of a graph is square and not empty");
    if (dims[0] > kMaxVertex + 1 || dims[2] < 0)
      bad(path, static_cast<long long>(line_no),
          "size line out of range: at most 2^42 vertices and a non-negative entry count");
    f.vertices = dims[0];
    f.entries = dims[2];
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    bad(path, static_cast<long long>(line_no), message_of(e));
  }
  const std::streamoff at = in.tellg();
  f.data_offset = at < 0 ? std::filesystem::file_size(path) : static_cast<std::uint64_t>(at);
  f.data_line = static_cast<std::int64_t>(line_no) + 1;
  return f;
}

Csr read_csr(EdgeFile& file, bool weighted, MPI_Comm comm, double* read_seconds, TargetBits bits) {
  if (weighted && !file.has_weights)
    throw UsageError(file.path + ": the graph has no weights (a ." + format_name(file.format) +
                     (file.format == EdgeFile::Format::mtx ? " pattern" : "") +
                     " file); SSSP needs a .wel file or a real or integer .mtx file");
  return weighted ? read_as<WeightedEdge>(file, comm, read_seconds, bits)
                  : read_as<Edge>(file, comm, read_seconds, bits);
}

}  // namespace ht
