#pragma once
// Reading a results file back in a test (serial HDF5 calls on one rank):
// what a driver wrote is checked against what it measured.
#include <hdf5.h>

#include <string>
#include <vector>

namespace test {

/// Every value of dataset \p path, flattened; empty if it is missing.
inline std::vector<double> h5_dataset(const std::string& file, const std::string& path) {
  std::vector<double> v;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return v;
  if (H5Lexists(f, path.c_str(), H5P_DEFAULT) > 0) {
    const hid_t set = H5Dopen2(f, path.c_str(), H5P_DEFAULT);
    const hid_t space = H5Dget_space(set);
    v.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Sclose(space);
    H5Dclose(set);
  }
  H5Fclose(f);
  return v;
}

/// Numeric attribute \p name of the root group; \p missing if absent.
inline double h5_attribute(const std::string& file, const std::string& name, double missing = -1) {
  double x = missing;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return x;
  if (H5Aexists(f, name.c_str()) > 0) {
    const hid_t a = H5Aopen(f, name.c_str(), H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_DOUBLE, &x);
    H5Aclose(a);
  }
  H5Fclose(f);
  return x;
}

}  // namespace test
