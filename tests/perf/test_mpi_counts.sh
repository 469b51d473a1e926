#!/usr/bin/env bash
# perf/scaling/mpi_counts counts exactly the calls mpi_counts_probe makes,
# on each of its 2 ranks, and the search region's levels and peers;
# without the library loaded, nothing is counted.
#   test_mpi_counts.sh <mpi_counts_probe> <libht_mpi_counts.so>
set -euo pipefail
probe=$1
lib=$2
source "$(dirname "$0")/../../perf/common/mpirun.sh"
mpirun -np 2 "${flags[@]}" -x LD_PRELOAD="$lib" -x HT_MPI_COUNTS="$out/counts" "$probe"
# rank size sends send_bytes collectives collective_bytes received_bytes barriers,
# then in the search region: searches sends send_bytes collectives
# received_bytes levels level_peers_sum level_peers_max search_peers_max
want0="0 2 5 164 4 72 76 2 1 1 4 1 4 1 1 1 1"
want1="1 2 5 164 4 72 76 2 1 1 4 1 4 1 1 1 1"
got=$(sort -n "$out/counts")
if [[ $got != "$want0"$'\n'"$want1" ]]; then
  printf 'counted:\n%s\nexpected:\n%s\n%s\n' "$got" "$want0" "$want1" >&2
  exit 1
fi
mpirun -np 2 "${flags[@]}" -x HT_MPI_COUNTS="$out/unloaded" "$probe"
if [[ -e $out/unloaded ]]; then
  echo "counted without the library loaded" >&2
  exit 1
fi
echo "mpi_counts: every call counted, nothing without the library"
