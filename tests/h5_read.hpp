#pragma once
// Reading a results file back in a test (serial HDF5 calls on one rank):
// what a driver wrote is checked against what it measured.
#include <hdf5.h>

#include <algorithm>
#include <string>
#include <vector>

namespace test {

/// Every value of dataset \p path, flattened and read as doubles (HDF5
/// converts integers); empty if it is missing.
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

/// The shape of dataset \p path ({} for a scalar); {-1} if it is missing.
inline std::vector<long long> h5_shape(const std::string& file, const std::string& path) {
  std::vector<long long> shape{-1};
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return shape;
  if (H5Lexists(f, path.c_str(), H5P_DEFAULT) > 0) {
    const hid_t set = H5Dopen2(f, path.c_str(), H5P_DEFAULT);
    const hid_t space = H5Dget_space(set);
    hsize_t dims[8];
    const int n = H5Sget_simple_extent_dims(space, dims, nullptr);
    shape.assign(dims, dims + std::max(n, 0));
    H5Sclose(space);
    H5Dclose(set);
  }
  H5Fclose(f);
  return shape;
}

/// How dataset \p path is stored: "float64", "int64", "uint8" (else "other",
/// or "" if it is missing).
inline std::string h5_type(const std::string& file, const std::string& path) {
  std::string name;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return name;
  if (H5Lexists(f, path.c_str(), H5P_DEFAULT) > 0) {
    const hid_t set = H5Dopen2(f, path.c_str(), H5P_DEFAULT);
    const hid_t type = H5Dget_type(set);
    const H5T_class_t c = H5Tget_class(type);
    const std::size_t size = H5Tget_size(type);
    if (c == H5T_FLOAT && size == 8)
      name = "float64";
    else if (c == H5T_INTEGER && size == 8 && H5Tget_sign(type) == H5T_SGN_2)
      name = "int64";
    else if (c == H5T_INTEGER && size == 1 && H5Tget_sign(type) == H5T_SGN_NONE)
      name = "uint8";
    else
      name = "other";
    H5Tclose(type);
    H5Dclose(set);
  }
  H5Fclose(f);
  return name;
}

/// The `units` attribute of dataset \p path ("" if missing).
inline std::string h5_units(const std::string& file, const std::string& path) {
  std::string units;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return units;
  if (H5Lexists(f, path.c_str(), H5P_DEFAULT) > 0 &&
      H5Aexists_by_name(f, path.c_str(), "units", H5P_DEFAULT) > 0) {
    const hid_t a = H5Aopen_by_name(f, path.c_str(), "units", H5P_DEFAULT, H5P_DEFAULT);
    const hid_t type = H5Aget_type(a);
    units.resize(H5Tget_size(type));
    H5Aread(a, type, units.data());
    units.resize(units.find('\0') == std::string::npos ? units.size() : units.find('\0'));
    H5Tclose(type);
    H5Aclose(a);
  }
  H5Fclose(f);
  return units;
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
