#!/usr/bin/env bash
# Builds the stand-in for a Kokkos 5 stack (a Kokkos without the task DAG,
# C++20) from Kokkos and Kokkos Kernels source trees you already have, and
# Teuchos alone from the Trilinos source scripts/deps.sh caches; prints the
# prefix.  Kokkos 4.6 built with Kokkos_ENABLE_DEPRECATED_CODE_4=OFF refuses
# to compile its task headers, as Kokkos 5.0 (which removed them) does.
#
#   scripts/kokkos5-standin.sh <kokkos-src> <kokkos-kernels-src>
#   HT_DEPS_PREFIX=<printed prefix> scripts/test     # the suite on that stack
#
# Nothing is downloaded: take the sources from a release tarball or a clone
# (tag 4.6.01 of kokkos/kokkos and kokkos/kokkos-kernels was used).
set -euo pipefail
say() { printf '[standin] %s\n' "$*" >&2; }
die() {
  printf '[standin] error: %s\n' "$*" >&2
  exit 1
}
(($# == 2)) || die "usage: $0 <kokkos-src> <kokkos-kernels-src>"
kokkos_src=$(cd "$1" && pwd) kk_src=$(cd "$2" && pwd)
[[ -f $kokkos_src/core/src/Kokkos_Core.hpp ]] || die "$1 is not a Kokkos source tree (no core/src/Kokkos_Core.hpp)"
[[ -d $kk_src/blas ]] || die "$2 is not a Kokkos Kernels source tree (no blas/)"
version=$(sed -n 's/.*project(Kokkos VERSION \([0-9.]*\).*/\1/p' "$kokkos_src/CMakeLists.txt" | head -1)
[[ -n $version ]] || version=$(awk '/set\(Kokkos_VERSION_MAJOR/{M=$2} /set\(Kokkos_VERSION_MINOR/{m=$2} /set\(Kokkos_VERSION_PATCH/{p=$2} END{gsub(/\)/,"",M);gsub(/\)/,"",m);gsub(/\)/,"",p);print M"."m"."p}' "$kokkos_src/CMakeLists.txt")

deps_prefix=$("$(dirname "$0")/deps.sh") # Debian packages and the Trilinos source
cache=${HT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hybridtasks}
trilinos=$cache/src/trilinos-13.2.0
[[ -f $trilinos/PackagesList.cmake ]] || die "no Trilinos source in $trilinos (scripts/deps.sh unpacks it)"
prefix=$cache/standin-kokkos-$version-cxx20-nodeprecated
jobs=${HT_JOBS:-$(nproc)}
if [[ -f $prefix/.hybridtasks-complete ]]; then
  say "cached at $prefix"
  echo "$prefix"
  exit 0
fi
work=$cache/standin-build-$version
mkdir -p "$work"
step() { # name, source, log: configure, build, install
  local name=$1 src=$2
  shift 2
  say "$name: configure, build ($jobs jobs), install; log $work/$name.log"
  cmake -G Ninja -S "$src" -B "$work/$name" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_RPATH="$prefix/lib" "$@" >"$work/$name.log" 2>&1 &&
    cmake --build "$work/$name" -j "$jobs" >>"$work/$name.log" 2>&1 &&
    cmake --install "$work/$name" >>"$work/$name.log" 2>&1 || die "$name failed; see $work/$name.log"
}
rm -rf "$prefix"
step kokkos "$kokkos_src" -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON \
  -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF
step kokkos-kernels "$kk_src" -DCMAKE_CXX_STANDARD=20 -DKokkosKernels_ENABLE_TPL_BLAS=ON \
  -DKokkosKernels_INST_DOUBLE=ON -DKokkosKernels_INST_LAYOUTLEFT=ON -DKokkosKernels_INST_ORDINAL_INT=ON \
  -DKokkosKernels_INST_OFFSET_SIZE_T=ON -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF \
  -DBLAS_LIBRARIES=openblas -DBLAS_LIBRARY_DIRS=/usr/lib/x86_64-linux-gnu
# Teuchos needs no Kokkos: Trilinos' own Kokkos stays off.
step teuchos "$trilinos" -DCMAKE_CXX_STANDARD=17 -DTrilinos_ENABLE_ALL_PACKAGES=OFF \
  -DTrilinos_ENABLE_ALL_OPTIONAL_PACKAGES=OFF -DTrilinos_ENABLE_Teuchos=ON -DTrilinos_ENABLE_Kokkos=OFF \
  -DTrilinos_ENABLE_TESTS=OFF -DTrilinos_ENABLE_Fortran=OFF -DTPL_ENABLE_MPI=ON \
  -DCMAKE_C_COMPILER=mpicc -DCMAKE_CXX_COMPILER=mpicxx \
  -DTPL_BLAS_LIBRARIES=/usr/lib/x86_64-linux-gnu/libopenblas.so \
  -DTPL_LAPACK_LIBRARIES=/usr/lib/x86_64-linux-gnu/libopenblas.so
# Trilinos 13.2 declares one constructor with a template-id, which C++20
# forbids (CWG 2237; later Trilinos releases dropped it): fix the installed
# header, the only one of those the project includes.
sed -i 's/^\(  *\)AbstractArrayValidator<ValidatorType, EntryType>();/\1AbstractArrayValidator();/' \
  "$prefix/include/Teuchos_StandardParameterEntryValidators.hpp"
touch "$prefix/.hybridtasks-complete"
say "installed in $prefix (deps of the default stack: $deps_prefix)"
echo "$prefix"
