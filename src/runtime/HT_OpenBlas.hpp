#pragma once
/// \file HT_OpenBlas.hpp
/// \brief The number of threads the BLAS library may use per call.
///
/// Kokkos Kernels hands host gemm to the BLAS TPL (OpenBLAS here), which would
/// start its own threads inside each Kokkos task; tasks need it single-threaded.
/// Benchmarks raise it for a reference call and put it back.

namespace ht {
/// Sets OpenBLAS' thread count; a no-op with another BLAS.
void set_blas_threads(int n);
}  // namespace ht
