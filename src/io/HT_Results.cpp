#include "io/HT_Results.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

// Throws on a negative HDF5 status; HDF5 has already printed its error stack.
hid_t check(hid_t status, const std::string& what) {
  if (status < 0) throw Error("HDF5: " + what + " failed");
  return status;
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

// A 1-D dataset of \p n elements of \p type from rank 0's \p data (collective:
// the other ranks take part with empty selections; they learn n from rank 0).
void write_from_root(MPI_Comm comm, hid_t file, hid_t lcpl, hid_t xfer, const std::string& path,
                     hid_t type, std::size_t n, const void* data) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  unsigned long long count = n;
  MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  hsize_t dims[1] = {static_cast<hsize_t>(count)};
  Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "space of " + path);
  Handle set(H5Dcreate2(file, path.c_str(), type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT), H5Dclose,
             "dataset " + path);
  Handle mem(H5Screate_simple(1, dims, nullptr), H5Sclose, "memory space");
  if (rank != 0) {
    check(H5Sselect_none(space), "empty selection of " + path);
    check(H5Sselect_none(mem), "empty selection of " + path);
  }
  check(H5Dwrite(set, type, mem, space, xfer, rank == 0 ? data : nullptr), "writing " + path);
}

}  // namespace

std::string iso_time_now() {
  char buf[64];
  std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&t));
  return buf;
}

Results::Results(MPI_Comm comm) : comm_(comm) {}

void Results::attribute(const std::string& n, const std::string& v) { text_attrs_[n] = v; }
void Results::attribute(const std::string& n, double v) { real_attrs_[n] = v; }
void Results::attribute(const std::string& n, long long v) { int_attrs_[n] = v; }
void Results::per_rank(const std::string& p, const std::vector<double>& v) { per_rank_[p] = v; }
void Results::global(const std::string& p, const std::vector<double>& v) { global_[p] = v; }
void Results::global_strings(const std::string& p, const std::vector<std::string>& v) {
  strings_[p] = v;
}

void Results::write(const std::string& file) const {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);

  // The temporary sits beside the target so that rename() is atomic.
  const auto slash = file.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
  long long pid = rank == 0 ? static_cast<long long>(getpid()) : 0;
  MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, comm_);
  const std::string tmp = dir + "." + base + ".incomplete-" + std::to_string(pid);

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

      for (const auto& [name, value] : text_attrs_) {
        Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
        check(H5Tset_size(type, value.empty() ? 1 : value.size()), "size of attribute " + name);
        write_attribute(f, name, type, value.empty() ? "" : value.data());
      }
      for (const auto& [name, value] : real_attrs_)
        write_attribute(f, name, H5T_NATIVE_DOUBLE, &value);
      for (const auto& [name, value] : int_attrs_)
        write_attribute(f, name, H5T_NATIVE_LLONG, &value);

      for (const auto& [path, mine] : per_rank_) {
        long long n = static_cast<long long>(mine.size()), lo = n, hi = n;
        MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_LONG_LONG, MPI_MIN, comm_);
        MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_LONG_LONG, MPI_MAX, comm_);
        if (lo != hi) {
          throw Error("results: per-rank dataset " + path + " has " + std::to_string(lo) + " to " +
                      std::to_string(hi) + " values on different ranks");
        }
        const int rank_dims = n == 1 ? 1 : 2;
        hsize_t dims[2] = {static_cast<hsize_t>(size), static_cast<hsize_t>(n)};
        Handle space(H5Screate_simple(rank_dims, dims, nullptr), H5Sclose, "space of " + path);
        Handle set(
            H5Dcreate2(f, path.c_str(), H5T_NATIVE_DOUBLE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT),
            H5Dclose, "dataset " + path);
        hsize_t start[2] = {static_cast<hsize_t>(rank), 0}, count[2] = {1, static_cast<hsize_t>(n)};
        check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), "row");
        Handle mem(H5Screate_simple(1, &count[1], nullptr), H5Sclose, "memory space");
        check(H5Dwrite(set, H5T_NATIVE_DOUBLE, mem, space, xfer, mine.data()), "writing " + path);
      }

      for (const auto& [path, values] : global_) {
        write_from_root(comm_, f, lcpl, xfer, path, H5T_NATIVE_DOUBLE, values.size(),
                        values.data());
      }
      for (const auto& [path, values] : strings_) {
        // Fixed-length strings as wide as the longest; every rank learns rank 0's width.
        long long width = 1;
        for (const auto& s : values) width = std::max<long long>(width, s.size());
        MPI_Bcast(&width, 1, MPI_LONG_LONG, 0, comm_);
        std::string packed;
        for (const auto& s : values) packed += s + std::string(width - s.size(), '\0');
        Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
        check(H5Tset_size(type, width), "size of strings " + path);
        write_from_root(comm_, f, lcpl, xfer, path, type, values.size(), packed.data());
      }
      f.close();  // checked: a failed close leaves an incomplete file
    }             // every handle closed: the file is complete on disk
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
