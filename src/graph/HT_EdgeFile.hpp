#pragma once
/// \file HT_EdgeFile.hpp
/// \brief Kernel 1 from a file: a graph read from a Matrix Market file, a
/// gapbs edge list (.el, .wel), a DIMACS shortest-path file (.gr) or a SNAP
/// edge list (.txt, .snap), distributed as the generated graph is.
///
/// Formats, chosen by the file's extension:
///  - `.mtx`: Matrix Market, `coordinate` with `real`, `integer` or `pattern`
///    entries, `general` or `symmetric`; square; indices from 1.
///  - `.el`: one edge `u v` per line, vertex ids from 0 (gapbs).
///  - `.wel`: one weighted edge `u v w` per line (gapbs).
///  - `.gr`: DIMACS shortest paths (9th DIMACS Challenge): `c` comment lines,
///    one problem line `p sp n m` before the arcs, then m arcs `a u v w`,
///    vertex ids from 1.
///  - `.txt`, `.snap`: a SNAP edge list, `u v` per line, tabs or blanks
///    between them, vertex ids from 0 (read as `.el`).
/// `%` or `#` starts a comment; fields after an entry's are ignored.  Every entry is an undirected
/// edge, stored both ways like a generated one; an edge list's graph has
/// max id + 1 vertices, a `.mtx` or `.gr` graph as many as its header says.
///
/// Distributed reading: rank r parses the lines that start in its 1/P of the
/// file's bytes (its line numbers from an MPI_Exscan of the line counts
/// before it), on all of its threads (impl/HT_EdgeText.hpp: lines of plain
/// numbers by std::from_chars, any other line field by field);
/// then the edges go to the owners of their ends in pieces (build_csr), so no
/// rank holds the whole file.
///
/// A bad file is an ht::UsageError, thrown on every rank alike (exit 2), that
/// names the file and line and, for a bad line, its text and what a line
/// holds (`path:line: what ('text'); accepted: ...`): missing or
/// unreadable, wrong banner or size line, a line that is cut short or is not
/// numbers, a vertex out of range, a negative, NaN or infinite weight, fewer
/// or more entries than the size line promises.
///
/// Ids far apart (SNAP's, a crawl's) would make a vertex of every id up to
/// the largest: Relabel numbers the ids that occur 0 to n - 1 instead, in
/// the order they first occur in the file or in rising order, and keeps the
/// file's ids (EdgeFile::original_ids) for output.  Every rank holds that map
/// (8 bytes a vertex).
///
/// Example: tests/graph/tstEdgeFile.cpp.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graph/HT_Csr.hpp"
#include "runtime/HT_Choices.hpp"

namespace ht {

/// \brief A graph file: its format and what its header (or name) says.
struct EdgeFile {
  enum class Format { mtx, el, wel, gr, snap };
  std::string path;
  Format format = Format::el;
  bool has_weights = false;       ///< `.wel`, `.gr`, or a `real` / `integer` `.mtx`
  std::int64_t vertices = -1;     ///< from the `.mtx` size or `.gr` problem line; -1 until read_csr
  std::int64_t entries = -1;      ///< from the same line; -1 for edge lists
  std::uint64_t data_offset = 0;  ///< where the entries start, in bytes
  std::int64_t data_line = 1;     ///< the line number of that byte
  bool symmetric = false;         ///< `.mtx` `symmetric`
  /// The file's id of each vertex, when read_csr relabelled them; else empty.
  std::vector<std::int64_t> original_ids;

  /// \brief The format named by \p path's extension; UsageError naming
  /// \p key and the formats accepted when it names none.
  static Format format_of(const std::string& path, const std::string& key);
  /// \brief Checks the file exists and reads its header (every rank reads
  /// it alike); ht::UsageError naming the file and line when it is bad.
  static EdgeFile open(const std::string& path);
};

/// \brief The format's name: "mtx", "el", "wel", "gr" or "snap".
const char* format_name(EdgeFile::Format f);

/// \brief How read_csr numbers the vertices: as the file does, or the ids
/// that occur 0 to n - 1 in the order they first occur, or in rising order.
enum class Relabel { none, first_seen, sorted };
/// \brief Graph500/relabel's names (runtime/HT_Choices.hpp).
inline constexpr Choices<Relabel, 3> kRelabels{
    {{Relabel::none, "none"}, {Relabel::first_seen, "first-seen"}, {Relabel::sorted, "sorted"}}};

/// \brief What read_csr does besides reading.
struct ReadOptions {
  TargetBits bits = TargetBits::automatic;
  Relabel relabel = Relabel::none;
  /// The first \p owners ranks own the vertices, as build_csr's (0: every rank).
  int owners = 0;
  /// Called on every rank once the vertex count is known and agreed, before
  /// the CSR is allocated: a check that may throw (the same on every rank).
  std::function<void(const EdgeFile&)> before_build;
};

/// \brief Kernel 1 from \p file (collective): the distributed CSR, with the
/// file's weights beside the targets when \p weighted (UsageError if the
/// file has none).  Sets file.vertices for edge lists (and file.original_ids
/// when relabelled).  Adds the seconds spent reading and parsing to
/// \p read_seconds if not null.
Csr read_csr(EdgeFile& file, bool weighted, MPI_Comm comm, double* read_seconds,
             const ReadOptions& options);
/// \brief read_csr with \p bits and otherwise the default options.
Csr read_csr(EdgeFile& file, bool weighted, MPI_Comm comm, double* read_seconds = nullptr,
             TargetBits bits = TargetBits::automatic);

}  // namespace ht
