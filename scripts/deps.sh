#!/usr/bin/env bash
# Installs what HybridTasks needs on a fresh Debian 12 machine and prints the
# CMake prefix of the Kokkos / Kokkos Kernels / Teuchos install on stdout.
#
# 1. Debian packages (compiler, CMake, Ninja, OpenMPI, parallel HDF5, OpenBLAS,
#    OpenSSL's libcrypto (UTS's SHA-1),
#    h5py/matplotlib for the plot scripts) -- only the missing ones.
# 2. Kokkos (OpenMP+Serial, task DAG on), Kokkos Kernels (BLAS = OpenBLAS) and
#    Teuchos, built with TriBITS from Debian's `trilinos` source package, into a
#    prefix outside the clone keyed by the Trilinos version and build options.
#    The source comes through apt with deb-src entries derived from this
#    machine's own apt sources, in a private apt state (system apt untouched).
#
# A second run does no dependency work.  Progress goes to stderr.
#
# Environment:
#   HT_DEPS_PREFIX   use this Kokkos/KokkosKernels/Teuchos prefix (spack, ...):
#                    nothing is installed or built; it is only checked.
#   HT_CACHE         cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/hybridtasks)
#   HT_JOBS          parallel build jobs (default: nproc)
set -euo pipefail

TRILINOS_VERSION=13.2.0
TRILINOS_ORIG_SHA256=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90
DEBIAN_PACKAGES=(g++ make cmake ninja-build openmpi-bin libopenmpi-dev
  libhdf5-openmpi-dev hdf5-tools libopenblas-dev liblapack-dev
  libgtest-dev libssl-dev python3-h5py python3-matplotlib python3-numpy python3-scipy)

say() { printf '[deps] %s\n' "$*" >&2; }
die() {
  printf '[deps] error: %s\n' "$*" >&2
  exit 1
}

# Options that change the binaries; their hash keys the install prefix.
tribits_options() {
  cat <<OPTS
-DCMAKE_BUILD_TYPE=Release
-DBUILD_SHARED_LIBS=ON
-DTrilinos_ENABLE_ALL_OPTIONAL_PACKAGES=OFF
-DTrilinos_ENABLE_ALL_PACKAGES=OFF
-DTrilinos_ENABLE_Kokkos=ON
-DTrilinos_ENABLE_KokkosKernels=ON
-DTrilinos_ENABLE_Teuchos=ON
-DTrilinos_ENABLE_TESTS=OFF
-DTrilinos_ENABLE_EXAMPLES=OFF
-DTrilinos_ENABLE_Fortran=OFF
-DTrilinos_ENABLE_OpenMP=ON
-DTPL_ENABLE_MPI=ON
-DKokkos_ENABLE_SERIAL=ON
-DKokkos_ENABLE_OPENMP=ON
-DKokkos_ENABLE_TASKDAG=ON
-DTPL_ENABLE_BLAS=ON
-DTPL_BLAS_LIBRARIES=/usr/lib/x86_64-linux-gnu/libopenblas.so
-DTPL_ENABLE_LAPACK=ON
-DTPL_LAPACK_LIBRARIES=/usr/lib/x86_64-linux-gnu/libopenblas.so
-DTrilinos_ENABLE_COMPLEX=OFF
-DTrilinos_ENABLE_FLOAT=OFF
OPTS
}

check_prefix() { # $1: prefix -- true when it has all three packages
  [[ -n ${HT_DEPS_PREFIX:-} || -f $1/.hybridtasks-complete ]] &&
  [[ -f $1/lib/cmake/Kokkos/KokkosConfig.cmake ||
    -f $1/lib64/cmake/Kokkos/KokkosConfig.cmake ]] &&
    [[ -d $1/lib/cmake/KokkosKernels || -d $1/lib64/cmake/KokkosKernels ]] &&
    [[ -d $1/lib/cmake/Teuchos || -d $1/lib64/cmake/Teuchos ]]
}

if [[ -n ${HT_DEPS_PREFIX:-} ]]; then
  check_prefix "$HT_DEPS_PREFIX" || die "HT_DEPS_PREFIX=$HT_DEPS_PREFIX has no Kokkos, KokkosKernels and Teuchos CMake packages (lib/cmake/{Kokkos,KokkosKernels,Teuchos})"
  say "using the given prefix $HT_DEPS_PREFIX"
  echo "$HT_DEPS_PREFIX"
  exit 0
fi

# --- 1. Debian packages -----------------------------------------------------
if [[ ! -f /etc/debian_version ]] || ! command -v apt-get >/dev/null; then
  die "this is not a Debian system, so nothing can be installed automatically.
  Install: a C++17 compiler, CMake >= 3.19 (3.21 for its presets), Ninja, MPI,
  parallel HDF5, BLAS (OpenBLAS), OpenSSL (libcrypto), and Kokkos (OpenMP,
  Kokkos_ENABLE_TASKDAG=ON, version 3.4-4.7), Kokkos Kernels and Teuchos (from spack or a Trilinos
  build), then set HT_DEPS_PREFIX=<their prefix> or configure with
  cmake -DCMAKE_PREFIX_PATH=<prefix>."
fi

missing=()
for p in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    die "missing Debian packages: ${missing[*]}
  Run as root, or: sudo apt-get install ${missing[*]}"
  fi
  say "installing Debian packages: ${missing[*]}"
  apt-get update -q >&2 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
    die "apt-get install ${missing[*]} failed (see above; no network?)"
fi

# --- 2. Kokkos / Kokkos Kernels / Teuchos from Debian's trilinos source -----
cache=${HT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hybridtasks}
key=$(tribits_options | sha256sum | cut -c1-12)
prefix=$cache/trilinos-$TRILINOS_VERSION-$key
if check_prefix "$prefix"; then
  say "Kokkos/KokkosKernels/Teuchos cached at $prefix"
  echo "$prefix"
  exit 0
fi

mkdir -p "$cache" || die "cannot create the cache directory $cache (set HT_CACHE)"
exec 9>"$cache/.lock"
flock 9 # two clones bootstrapping at once build it once
if check_prefix "$prefix"; then
  echo "$prefix"
  exit 0
fi

src_dir=$cache/src
mkdir -p "$src_dir"
orig=$src_dir/trilinos_$TRILINOS_VERSION.orig.tar.gz
if [[ ! -f $orig ]] || ! echo "$TRILINOS_ORIG_SHA256  $orig" | sha256sum -c --status; then
  say "fetching Debian's trilinos $TRILINOS_VERSION source package through apt"
  apt_dir=$cache/apt
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
  # deb-src twins of this machine's own Debian entries (one-line and deb822).
  {
    [[ -f /etc/apt/sources.list ]] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list
    for f in /etc/apt/sources.list.d/*.list; do
      [[ -f $f ]] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
      [[ -f $f ]] || continue
      awk 'function flush() {
             if (types ~ /(^| )deb( |$)/ && uris != "" && suites != "") {
               n = split(uris, u, " "); m = split(suites, s, " ")
               for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
                 printf "deb-src %s%s %s %s\n", (key != "" ? "[signed-by=" key "] " : ""), u[i], s[j], comps
             }
             types = uris = suites = comps = key = ""
           }
           /^[[:space:]]*$/ { flush(); next }
           /^Types:/      { sub(/^Types:[[:space:]]*/, "");      types = $0 }
           /^URIs:/       { sub(/^URIs:[[:space:]]*/, "");       uris = $0 }
           /^Suites:/     { sub(/^Suites:[[:space:]]*/, "");     suites = $0 }
           /^Components:/ { sub(/^Components:[[:space:]]*/, ""); comps = $0 }
           /^Signed-By:/  { sub(/^Signed-By:[[:space:]]*/, "");  key = $0 }
           END { flush() }' "$f"
    done
  } | grep -E '[[:space:]](main|contrib|non-free)' | sort -u >"$apt_dir/sources.list"
  [[ -s $apt_dir/sources.list ]] || die "no Debian apt source found in /etc/apt to derive deb-src entries from"
  apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/none"
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir" -o "Debug::NoLocking=1")
  [[ $(id -u) -ne 0 ]] || apt_opts+=(-o "APT::Sandbox::User=root") # _apt cannot write our cache
  apt-get "${apt_opts[@]}" update -q >&2 || true
  # apt only warns when it cannot download; the index files tell.
  compgen -G "$apt_dir/lists/*_Sources*" >/dev/null ||
    die "could not download Debian's source index (no network?). Connect this machine, or
  set HT_DEPS_PREFIX to an existing Kokkos + Kokkos Kernels + Teuchos install."
  (cd "$src_dir" && apt-get "${apt_opts[@]}" source --download-only -q trilinos >&2) ||
    die "apt-get source trilinos failed (see above)"
  [[ -f $orig ]] || die "this Debian release's trilinos source is not $TRILINOS_VERSION (got: $(ls "$src_dir"/*.orig.tar.* 2>/dev/null))"
  echo "$TRILINOS_ORIG_SHA256  $orig" | sha256sum -c --status ||
    die "$orig does not match the pinned SHA256 $TRILINOS_ORIG_SHA256"
fi
say "source verified (SHA256 $TRILINOS_ORIG_SHA256)"

tree=$src_dir/trilinos-$TRILINOS_VERSION
if [[ ! -f $tree/PackagesList.cmake ]]; then
  say "unpacking $orig"
  rm -rf "$tree" "$tree.tmp"
  mkdir -p "$tree.tmp"
  tar -xzf "$orig" -C "$tree.tmp" --strip-components=1
  mv "$tree.tmp" "$tree"
fi

build=$cache/build-$TRILINOS_VERSION-$key
jobs=${HT_JOBS:-$(nproc)}
say "configuring Kokkos + KokkosKernels + Teuchos (TriBITS) in $build"
mkdir -p "$build"
rm -f "$build/CMakeCache.txt" # a fresh configure; compiled objects are reused
mapfile -t opts < <(tribits_options)
cmake -G Ninja -S "$tree" -B "$build" "${opts[@]}" \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_C_COMPILER=mpicc -DCMAKE_CXX_COMPILER=mpicxx >"$build/configure.log" 2>&1 ||
  die "configure failed; see $build/configure.log"
say "building with $jobs jobs (about 10 minutes on 2 cores); log: $build/build.log"
start=$SECONDS
(cmake --build "$build" -j "$jobs" 2>&1 | while IFS= read -r line; do
  echo "$line" >>"$build/build.log"
  # one progress line a minute is enough
  if ((SECONDS - start >= ${last:=0} + 60)); then
    last=$((SECONDS - start))
    printf '[deps]   %4ds %s\n' "$last" "${line:0:100}" >&2
  fi
done) || true
cmake --build "$build" -j "$jobs" >>"$build/build.log" 2>&1 ||
  die "build failed; see $build/build.log"
# The libraries' RUNPATH names the prefix, so install in place; the stamp
# written last marks the install complete (an interrupted one is redone).
rm -rf "$prefix"
cmake --install "$build" >"$build/install.log" 2>&1 || die "install failed; see $build/install.log"
touch "$prefix/.hybridtasks-complete"
check_prefix "$prefix" || die "install in $prefix lacks Kokkos/KokkosKernels/Teuchos CMake packages"
say "installed in $prefix ($((SECONDS - start)) s)"
echo "$prefix"
