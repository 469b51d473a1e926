# Finds MPI, parallel HDF5, Kokkos, Kokkos Kernels and Teuchos and refuses, with
# the reason, a Kokkos that cannot run HybridTasks' task graphs.
#
# Point CMake at an existing install with -DCMAKE_PREFIX_PATH=<prefix> (spack,
# a Trilinos build, ...); scripts/deps.sh builds one from Debian's sources.

find_package(MPI REQUIRED COMPONENTS C)

set(HDF5_PREFER_PARALLEL TRUE)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "HybridTasks needs a parallel (MPI) HDF5; found a serial one at "
                      "${HDF5_INCLUDE_DIRS}. On Debian: apt-get install libhdf5-openmpi-dev.")
endif()

find_package(Kokkos REQUIRED)
if(Kokkos_VERSION VERSION_GREATER_EQUAL 5.0)
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} has no tasking (TaskScheduler, Future, when_all "
                      "were removed in 5.0). Use Kokkos 3.4 or 4.0-4.7.")
endif()
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} is too old; HybridTasks needs 3.4 or 4.0-4.7.")
endif()
if(NOT "OPENMP" IN_LIST Kokkos_DEVICES)
  message(FATAL_ERROR "Kokkos at ${Kokkos_DIR} lacks the OpenMP backend (devices: "
                      "${Kokkos_DEVICES}). Rebuild it with -DKokkos_ENABLE_OPENMP=ON.")
endif()
if(TARGET Kokkos::kokkos)
  set(HT_KOKKOS Kokkos::kokkos)
else()
  set(HT_KOKKOS kokkos)
endif()
# The task DAG is a macro of Kokkos' headers (not an exported option): compile.
include(CheckCXXSourceCompiles)
include(CMakePushCheckState)
cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_LIBRARIES ${HT_KOKKOS})
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles([=[
#include <Kokkos_Core.hpp>
#ifndef KOKKOS_ENABLE_TASKDAG
#error no task DAG
#endif
int main() { return sizeof(Kokkos::TaskScheduler<Kokkos::OpenMP>) > 0 ? 0 : 1; }
]=] HT_KOKKOS_HAS_TASKDAG)
cmake_pop_check_state()
if(NOT HT_KOKKOS_HAS_TASKDAG)
  if(Kokkos_VERSION VERSION_GREATER_EQUAL 4.5)
    set(_ht_fix "-DKokkos_ENABLE_DEPRECATED_CODE_4=ON (tasking is deprecated since 4.5)")
  else()
    set(_ht_fix "-DKokkos_ENABLE_TASKDAG=ON")
  endif()
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} has no task DAG "
                      "(Kokkos::TaskScheduler<Kokkos::OpenMP> does not compile). Rebuild it "
                      "with ${_ht_fix}.")
endif()
message(STATUS "Kokkos ${Kokkos_VERSION}: devices ${Kokkos_DEVICES}, task DAG on")

find_package(KokkosKernels REQUIRED)
if(TARGET Kokkos::kokkoskernels)
  set(HT_KOKKOSKERNELS Kokkos::kokkoskernels)
elseif(TARGET kokkoskernels)
  set(HT_KOKKOSKERNELS kokkoskernels) # the Trilinos (TriBITS) export
else()
  message(FATAL_ERROR "KokkosKernels at ${KokkosKernels_DIR} exports neither "
                      "Kokkos::kokkoskernels nor kokkoskernels.")
endif()

find_package(Teuchos REQUIRED)
# TriBITS exports Teuchos_LIBRARIES as target names and Teuchos_INCLUDE_DIRS.
add_library(ht_teuchos INTERFACE)
target_link_libraries(ht_teuchos INTERFACE ${Teuchos_LIBRARIES})
target_include_directories(ht_teuchos SYSTEM INTERFACE ${Teuchos_INCLUDE_DIRS}
                                                       ${Teuchos_TPL_INCLUDE_DIRS})

# OpenBLAS: its threads must stay off inside tasks (openblas_set_num_threads).
include(CheckFunctionExists)
find_library(HT_OPENBLAS_LIBRARY NAMES openblas)
if(HT_OPENBLAS_LIBRARY)
  cmake_push_check_state(RESET)
  set(CMAKE_REQUIRED_LIBRARIES ${HT_OPENBLAS_LIBRARY})
  check_function_exists(openblas_set_num_threads HT_OPENBLAS_HAS_SET_NUM_THREADS)
  cmake_pop_check_state()
endif()
