#!/usr/bin/env bash
# Fetches and builds Task Bench (StanfordLegion/task-bench) beside the
# project: its core library (task graphs, kernels, validation, timing
# report), which our own Task Bench implementation links against, and the
# peer implementations we compare with: MPI (nonblock, bulk_synchronous),
# MPI+OpenMP (forall), OpenMP tasks (openmp/main) and StarPU (starpu/main).
# None of its code enters this repository.
#   build_reference.sh [dir]                       (default /tmp/ht-references)
#   TASKBENCH_URL=/path/or/url build_reference.sh  (a mirror or a local clone)
#   TASKBENCH_REV=<commit|branch> ...              (default: the tested commit)
# StarPU is built only when Debian's libstarpu-dev is installed (this script
# installs nothing).  Prints the environment variables the runs read.
set -euo pipefail
dir=${1:-/tmp/ht-references}
url=${TASKBENCH_URL:-https://github.com/StanfordLegion/task-bench.git}
# The commit these build steps were checked against (2023-07-26).
rev=${TASKBENCH_REV:-bf4ad1982d4b748bf3fd54e8239e798114e6ade8}
jobs=$(nproc)
mkdir -p "$dir"
cd "$dir"
[[ -d task-bench ]] || git clone -q "$url" task-bench
git -C task-bench checkout -q "$rev"
tb=$dir/task-bench
# Built directly with make rather than build_all.sh, which wants the
# dependency tree of get_deps.sh (downloads) and builds far more.
# core: its own flags (-O3, -mavx2 -mfma where the CPU has them, asserts
# kept, so execute_point validates every task's inputs).
make -C "$tb/core" -s -j"$jobs" >&2
# Only the two current MPI variants; deprecated/ is not needed.
make -C "$tb/mpi" -s -j"$jobs" nonblock bulk_synchronous >&2
make -C "$tb/mpi_openmp" -s forall >&2
make -C "$tb/openmp" -s main >&2
echo "export HT_TASKBENCH_DIR=$tb"
echo "export HT_TASKBENCH_MPI_NONBLOCK=$tb/mpi/nonblock"
echo "export HT_TASKBENCH_MPI_BULK=$tb/mpi/bulk_synchronous"
echo "export HT_TASKBENCH_MPI_OPENMP=$tb/mpi_openmp/forall"
echo "export HT_TASKBENCH_OPENMP=$tb/openmp/main"
# Its Makefile expects a StarPU install tree ($STARPU_DIR/lib/libstarpu-1.3.so);
# Debian puts the libraries under the multiarch dir, so the include and link
# lines come from pkg-config instead (STARPU_DIR only satisfies its check).
if pkg-config --exists starpu-1.3 starpumpi-1.3; then
  make -C "$tb/starpu" -s main STARPU_DIR="$(pkg-config --variable=prefix starpu-1.3)" \
    INC="$(pkg-config --cflags starpumpi-1.3) -I../core" \
    LIB="$(pkg-config --libs starpumpi-1.3) -L../core -lcore_s" >&2
  echo "export HT_TASKBENCH_STARPU=$tb/starpu/main"
else
  echo "build_reference.sh: StarPU 1.3 not found by pkg-config (apt-get install libstarpu-dev); starpu/main skipped" >&2
fi
