# Finds MPI, parallel HDF5, OpenSSL's libcrypto (UTS's SHA-1), Kokkos, Kokkos Kernels and Teuchos, picks the task
# runtime (HT_TASKS), and refuses, with the reason, what cannot work.
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

# UTS draws its trees from SHA-1 (src/uts/HT_UtsTree.cpp).
find_package(OpenSSL 1.1 REQUIRED COMPONENTS Crypto)

find_package(Kokkos REQUIRED)
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "Kokkos ${Kokkos_VERSION} is too old; HybridTasks needs 3.4 or newer.")
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

# The task runtime (src/runtime/HT_TaskRuntime.hpp): Kokkos' TaskScheduler
# where this Kokkos has the task DAG (3.4-4.7; a macro of its headers, not an
# exported option: compile), OpenMP tasks otherwise (Kokkos 5 removed tasking).
set(HT_TASKS "" CACHE STRING "Task runtime: kokkos, openmp, or empty for kokkos where Kokkos has the task DAG, else openmp")
set_property(CACHE HT_TASKS PROPERTY STRINGS "" kokkos openmp)
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
if(HT_KOKKOS_HAS_TASKDAG)
  set(_ht_dag "task DAG on")
elseif(Kokkos_VERSION VERSION_GREATER_EQUAL 5.0)
  set(_ht_dag "no task DAG (removed in Kokkos 5.0)")
elseif(Kokkos_VERSION VERSION_GREATER_EQUAL 4.5)
  set(_ht_dag "no task DAG (deprecated since 4.5; -DKokkos_ENABLE_DEPRECATED_CODE_4=ON brings it back)")
else()
  set(_ht_dag "no task DAG (-DKokkos_ENABLE_TASKDAG=ON brings it)")
endif()
if(HT_TASKS STREQUAL "")
  set(HT_TASKS_CHOSEN openmp)
  if(HT_KOKKOS_HAS_TASKDAG)
    set(HT_TASKS_CHOSEN kokkos)
  endif()
  set(_ht_why "chosen: HT_TASKS unset")
elseif(HT_TASKS STREQUAL "kokkos" OR HT_TASKS STREQUAL "openmp")
  set(HT_TASKS_CHOSEN ${HT_TASKS})
  set(_ht_why "requested with -DHT_TASKS=${HT_TASKS}")
else()
  message(FATAL_ERROR "HT_TASKS='${HT_TASKS}' is not a task runtime; accepted: kokkos, openmp, "
                      "or empty (kokkos where Kokkos has the task DAG, else openmp).")
endif()
if(HT_TASKS_CHOSEN STREQUAL "kokkos" AND NOT HT_KOKKOS_HAS_TASKDAG)
  message(FATAL_ERROR "HT_TASKS=kokkos needs Kokkos' TaskScheduler, but Kokkos ${Kokkos_VERSION} "
                      "at ${Kokkos_DIR} has ${_ht_dag}. Configure with -DHT_TASKS=openmp, or "
                      "use a Kokkos 3.4-4.7 with the task DAG.")
endif()
find_package(OpenMP REQUIRED COMPONENTS CXX)
message(STATUS "Kokkos ${Kokkos_VERSION}: devices ${Kokkos_DEVICES}, ${_ht_dag}")
message(STATUS "Task runtime: ${HT_TASKS_CHOSEN} (${_ht_why})")

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
