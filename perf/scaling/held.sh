#!/usr/bin/env bash
# What a rank holds as ranks grow: graph500_bfs `hybrid` (BFS, NBFS
# validated searches, 1 thread a rank, oversubscribed: the counts are exact,
# the times are not) at each P, its per-rank byte counters (held/<phase>/
# <kind>: graph, exchange buffers, search state) collected by held.py into
# <csv>.  Exits 1 if, in 2D, the exchange bytes a rank holds grow faster than
# the peers it addresses (R + C - 2) from the first P to any other.
#   held.sh <graph500_bfs> [SCALE] [P...] [csv] [partitions] [NBFS]
#   held.sh build/apps/graph500_bfs 16 "4 16 64 256" docs/scaling/held.csv "1d 2d" 2
set -euo pipefail
exe=$1
scale=${2:-16}
nps=${3:-4 16 64 256}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/perf/common/mpirun.sh"
csv=${4:-$out/held.csv}
partitions=${5:-2d}
nbfs=${6:-2}
g500_deck bfs "$nbfs"
rm -f "$csv"
for part in $partitions; do
  for np in $nps; do
    # At 256 ranks on 2 cores Open MPI's teardown has reported a rank
    # "exiting improperly" after the results file was written (bfs2d.sh):
    # such a run counts when the file is there; the exit status is shown.
    rm -f "$out/r.h5"
    rc=0
    mpirun -np "$np" "${flags[@]}" "$exe" "$deck" --set Graph500/SCALE="$scale" \
      --set Graph500/variant=hybrid --set Graph500/partition="$part" --set Graph500/grid=auto \
      --set Profile/enabled=false --set Output/file="$out/r.h5" --set Output/overwrite=true \
      --kokkos-num-threads=1 --kokkos-disable-warnings >"$out/log" 2>&1 || rc=$?
    if ((rc != 0)); then
      [[ -f $out/r.h5 ]] && grep -q "^results: " "$out/log" || { cat "$out/log" >&2; exit 1; }
      echo "$part on $np ranks: mpirun exited $rc after the results were written" >&2
    fi
    grep "^held a rank" "$out/log" | sed "s/^/$part P=$np: /"
    /usr/bin/python3 "$root/perf/scaling/held.py" extract "$out/r.h5" "$csv"
  done
done
rc=0
for part in $partitions; do
  /usr/bin/python3 "$root/perf/scaling/held.py" check "$csv" "$part" || { [[ $part != 2d ]] || rc=1; }
  echo
done
exit $rc
