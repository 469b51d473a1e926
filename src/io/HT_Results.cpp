#include "io/HT_Results.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <system_error>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

// Throws on a negative HDF5 status, naming the step (write() adds the file).
hid_t check(hid_t status, const std::string& what) {
  if (status < 0) throw Error("HDF5: " + what + " failed");
  return status;
}

// HDF5 prints its error stack on stderr by default: a user sees our words
// (check()) instead.  Once, before the first HDF5 call.
void quiet_hdf5() {
  static const bool quiet = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  (void)quiet;
}

// The file beside \p file that write() first writes (see there).
std::string temporary_beside(const std::string& file, const std::string& tag) {
  const auto slash = file.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
  return dir + "." + base + tag;
}

// Owns one HDF5 identifier.  close() checks; the destructor closes what an
// exception left open, ignoring the status (the write has failed already).
class Handle {
 public:
  Handle(hid_t id, herr_t (*closer)(hid_t), const std::string& what)
      : id_(check(id, what)), close_(closer), what_(what) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  /// Closes now; for the file, whose close writes what is still buffered.
  void close() {
    const hid_t id = id_;
    id_ = -1;
    check(close_(id), "closing " + what_);
  }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
  std::string what_;
};

hid_t intermediate_groups() {
  const hid_t lcpl = check(H5Pcreate(H5P_LINK_CREATE), "link creation list");
  if (H5Pset_create_intermediate_group(lcpl, 1) < 0) {
    H5Pclose(lcpl);
    throw Error("HDF5: intermediate group creation failed");
  }
  return lcpl;
}

void write_attribute(hid_t loc, const std::string& name, hid_t type, const void* value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "scalar space");
  Handle attr(H5Acreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "attribute " + name);
  check(H5Awrite(attr, type, value), "writing attribute " + name);
}

void write_text_attribute(hid_t loc, const std::string& name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(type, value.empty() ? 1 : value.size()), "size of attribute " + name);
  write_attribute(loc, name, type, value.empty() ? "" : value.data());
}

}  // namespace

std::string iso_time_now() {
  char buf[64];
  std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&t));
  return buf;
}

Results::Results(MPI_Comm comm) : comm_(comm) {}

std::vector<long long> counts(const std::vector<double>& x) {
  std::vector<long long> n;
  n.reserve(x.size());
  for (double v : x) n.push_back(std::llround(v));
  return n;
}

void Results::attribute(const std::string& n, const std::string& v) { text_attrs_[n] = v; }
void Results::attribute(const std::string& n, double v) { real_attrs_[n] = v; }
void Results::attribute(const std::string& n, long long v) { int_attrs_[n] = v; }

void Results::per_rank(const std::string& p, double mine, const std::string& units) {
  sets_[p] = {Kind::real, true, {}, {mine}, {}, units};
}
void Results::per_rank(const std::string& p, long long mine, const std::string& units) {
  sets_[p] = {Kind::integer, true, {}, {}, {mine}, units};
}
void Results::per_rank_row(const std::string& p, const std::vector<double>& row,
                           const std::string& units) {
  sets_[p] = {Kind::real, true, {row.size()}, row, {}, units};
}
void Results::per_rank_row(const std::string& p, const std::vector<long long>& row,
                           const std::string& units) {
  sets_[p] = {Kind::integer, true, {row.size()}, {}, row, units};
}
void Results::global(const std::string& p, double value, const std::string& units) {
  sets_[p] = {Kind::real, false, {}, {value}, {}, units};
}
void Results::global(const std::string& p, long long value, const std::string& units) {
  sets_[p] = {Kind::integer, false, {}, {}, {value}, units};
}
void Results::global(const std::string& p, bool value) {
  sets_[p] = {Kind::boolean, false, {}, {}, {value ? 1LL : 0LL}, "1"};
}
void Results::global(const std::string& p, const std::vector<double>& values,
                     const std::string& units) {
  sets_[p] = {Kind::real, false, {values.size()}, values, {}, units};
}
void Results::global(const std::string& p, const std::vector<long long>& values,
                     const std::string& units) {
  sets_[p] = {Kind::integer, false, {values.size()}, {}, values, units};
}
void Results::table(const std::string& p, const std::vector<std::vector<double>>& rows, Kind kind,
                    const std::string& units) {
  std::size_t width = 0;
  for (const auto& r : rows) width = std::max(width, r.size());
  Set s{kind, false, {rows.size(), width}, {}, {}, units};
  std::vector<double> flat(rows.size() * width, 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k)
    std::copy(rows[k].begin(), rows[k].end(),
              flat.begin() + static_cast<std::ptrdiff_t>(k * width));
  if (kind == Kind::real)
    s.real = std::move(flat);
  else
    s.whole = counts(flat);
  sets_[p] = std::move(s);
}

namespace {

// The file's and memory's types of a kind, and the values in memory's type.
struct Stored {
  hid_t file, memory;
  std::vector<unsigned char> bytes;  // booleans, packed
  const void* data;                  // null for booleans: bytes.data()
};
Stored stored(const Results::Kind kind, const std::vector<double>& real,
              const std::vector<long long>& whole) {
  switch (kind) {
    case Results::Kind::real:
      return {H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, real.data()};
    case Results::Kind::integer:
      return {H5T_STD_I64LE, H5T_NATIVE_LLONG, {}, whole.data()};
    case Results::Kind::boolean:
      break;
  }
  Stored s{H5T_STD_U8LE, H5T_NATIVE_UCHAR, {}, nullptr};
  for (long long v : whole) s.bytes.push_back(v != 0 ? 1 : 0);
  return s;
}

// One dataset (collective): a per-rank one row by row, a global one from rank 0.
void write_set(MPI_Comm comm, hid_t f, hid_t lcpl, hid_t xfer, const std::string& path,
               const Results::Set& set, int rank, int size) {
  using Kind = Results::Kind;
  const std::size_t n = set.kind == Kind::real ? set.real.size() : set.whole.size();
  std::vector<hsize_t> dims, start, count;
  if (set.per_rank) {
    long long mine = static_cast<long long>(n), lo = mine, hi = mine;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_LONG_LONG, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_LONG_LONG, MPI_MAX, comm);
    if (lo != hi) {
      throw Error("per-rank dataset " + path + " has " + std::to_string(lo) + " to " +
                  std::to_string(hi) + " values on different ranks");
    }
    dims = {static_cast<hsize_t>(size)};
    start = {static_cast<hsize_t>(rank)};
    count = {1};
    if (!set.shape.empty()) {
      dims.push_back(n);
      start.push_back(0);
      count.push_back(n);
    }
  } else {
    // Every rank learns rank 0's shape; only rank 0's values are written.
    unsigned long long shape[2] = {0, 0};
    int ndims = static_cast<int>(set.shape.size());
    for (int d = 0; d < ndims; ++d) shape[d] = set.shape[d];
    MPI_Bcast(&ndims, 1, MPI_INT, 0, comm);
    MPI_Bcast(shape, 2, MPI_UNSIGNED_LONG_LONG, 0, comm);
    for (int d = 0; d < ndims; ++d) dims.push_back(static_cast<hsize_t>(shape[d]));
  }
  Handle space(dims.empty() ? H5Screate(H5S_SCALAR)
                            : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
               H5Sclose, "space of " + path);
  const Stored s = stored(set.kind, set.real, set.whole);
  Handle d(H5Dcreate2(f, path.c_str(), s.file, space, lcpl, H5P_DEFAULT, H5P_DEFAULT), H5Dclose,
           "dataset " + path);
  write_text_attribute(d, "units", set.units);
  const void* data = set.kind == Kind::boolean ? s.bytes.data() : s.data;
  hid_t mem_id = -1;
  if (set.per_rank && n > 0) {
    check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
          "row of " + path);
    const hsize_t values = n;
    mem_id = H5Screate_simple(1, &values, nullptr);
  } else {
    mem_id = dims.empty() ? H5Screate(H5S_SCALAR)
                          : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  }
  Handle mem(mem_id, H5Sclose, "memory space of " + path);
  if (n == 0 || (!set.per_rank && rank != 0)) {
    check(H5Sselect_none(space), "empty selection of " + path);
    check(H5Sselect_none(mem), "empty selection of " + path);
    data = nullptr;
  }
  check(H5Dwrite(d, s.memory, mem, space, xfer, data), "writing " + path);
}

}  // namespace

void Results::check_writable(const std::string& file, const std::string& key) const {
  namespace fs = std::filesystem;
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  const fs::path folder = fs::path(file).parent_path();
  const std::string shown = folder.empty() ? "." : folder.string();
  const std::string named = key.empty() ? "the results folder " + shown : key + " = " + file;
  const std::string elsewhere = key.empty() ? " (Output/file writes the results elsewhere)" : "";
  std::string failure;
  if (rank == 0) {
    std::error_code ec;
    if (!folder.empty() && !fs::is_directory(folder, ec) && !fs::create_directories(folder, ec) &&
        ec)
      failure = named + ": cannot create " + (key.empty() ? "it" : "its folder " + shown) + ": " +
                ec.message() + elsewhere;
    else if (fs::is_directory(file, ec))
      failure = named + ": a folder of that name is there; name a file";
  }
  throw_if_any(failure, true, comm_);

  // One rank per node tries what write() does there: create a file beside
  // the target, in its folder, so that the final rename stays in one folder.
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  if (node_rank == 0) {
    const std::string probe =
        temporary_beside(file, ".check-" + std::to_string(static_cast<long long>(getpid())) + "-" +
                                   std::to_string(rank));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
      failure = named + ": cannot create a file in " +
                (key.empty() ? "it" : "its folder " + shown) + ": " + std::strerror(errno) +
                elsewhere;
    } else {
      ::close(fd);
      if (::unlink(probe.c_str()) != 0)
        failure = named + ": cannot remove a file created in " +
                  (key.empty() ? "it" : "its folder " + shown) + ": " + std::strerror(errno);
    }
  }
  throw_if_any(failure, true, comm_);
}

void Results::write(const std::string& file) const {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  quiet_hdf5();

  // The temporary sits beside the target so that rename() is atomic.
  long long pid = rank == 0 ? static_cast<long long>(getpid()) : 0;
  MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, comm_);
  const std::string tmp = temporary_beside(file, ".incomplete-" + std::to_string(pid));

  // A failed write leaves no temporary behind: rank 0 removes it.
  const auto discard = [&] {
    if (rank == 0) std::remove(tmp.c_str());
  };
  try {
    {
      Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access list");
      check(H5Pset_fapl_mpio(fapl, comm_, MPI_INFO_NULL), "MPI-IO driver");
      Handle f(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose,
               "creating " + tmp);
      Handle lcpl(intermediate_groups(), H5Pclose, "link creation list");
      Handle xfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "transfer list");
      check(H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE), "collective transfer");

      for (const auto& [name, value] : text_attrs_) write_text_attribute(f, name, value);
      for (const auto& [name, value] : real_attrs_)
        write_attribute(f, name, H5T_NATIVE_DOUBLE, &value);
      for (const auto& [name, value] : int_attrs_)
        write_attribute(f, name, H5T_NATIVE_LLONG, &value);

      for (const auto& [path, set] : sets_) write_set(comm_, f, lcpl, xfer, path, set, rank, size);
      f.close();  // checked: a failed close leaves an incomplete file
    }             // every handle closed: the file is complete on disk
  } catch (const Error& e) {
    discard();
    throw Error("results: cannot write " + file + ": " + e.what());
  } catch (...) {
    discard();
    throw;
  }

  MPI_Barrier(comm_);
  int ok = 1;
  if (rank == 0 && std::rename(tmp.c_str(), file.c_str()) != 0) ok = 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm_);
  if (!ok) {
    discard();
    throw Error("results: cannot rename the complete results file into place as '" + file +
                "' (is it a directory, or its directory not writable?)");
  }
}

}  // namespace ht
