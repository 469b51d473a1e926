#!/usr/bin/env bash
# Fetches and builds the Unbalanced Tree Search reference (UTS 2.1, the
# perarnau/uts snapshot) beside the project, for the side-by-side runs of
# perf/uts/references.sh: `uts-seq` (sequential depth-first) and `uts-mpi-ws`
# (MPI work stealing, chunks of 20 nodes, adaptive polling, Dijkstra token
# ring).  None of its code enters this repository.
#   build_reference.sh [dir]                 (default /tmp/ht-references)
#   UTS_URL=/path/or/url build_reference.sh  (a mirror or a local clone)
# Prints the environment variables references.sh reads.
set -euo pipefail
dir=${1:-/tmp/ht-references}
url=${UTS_URL:-https://github.com/perarnau/uts.git}
mkdir -p "$dir"
cd "$dir"
[[ -d uts ]] || git clone -q "$url" uts
cd uts
# The reference's own workstation configuration (gcc -O3 -std=c99, mpicc).
[[ -e config.in ]] || ln -s config/linux-workstation config.in
# -std=gnu99: its timers use gettimeofday, which strict C99 hides on glibc.
# Its rules put -lm before the objects; --no-as-needed keeps libm linked.
make -s uts-seq uts-mpi-ws CC_OPTS="-O3 -std=gnu99 -Wl,--no-as-needed" \
  MPICC_OPTS="-O3 -std=gnu99 -Wl,--no-as-needed" >&2
echo "export HT_UTS_SEQ=$dir/uts/uts-seq"
echo "export HT_UTS_MPI_WS=$dir/uts/uts-mpi-ws"
