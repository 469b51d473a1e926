#!/usr/bin/env bash
# graph500_bfs `hybrid`, 1D against 2D partition, counted per rank per search
# by mpi_counts (PMPI, LD_PRELOAD; also loaded as a Kokkos tool so that it
# counts inside the "Graph500: BFS" region only: the searches, without
# kernel 1 or validation), and per level (a level ends at the BFS's
# allreduce over all ranks): messages, bytes, collectives, bytes out of
# them, distinct peers.  One thread a rank; ranks beyond the cores are
# oversubscribed: the counts are exact, the times are not.
#   bfs2d.sh <build dir> <libht_mpi_counts.so> <SCALE> "<P...>" <out dir> [searches]
#   bfs2d.sh build build/perf/scaling/libht_mpi_counts.so 16 "4 16 64 256" docs/scaling
# Appends to <out dir>/bfs2d.csv a row per partition, P and rank (created
# with its header when missing), and each run's per-level counts from its
# results file to <out dir>/bfs2d_steps.csv (steps.py extract).  Exits 1
# if a 2D level has a rank with more distinct peers than R + C - 2.
set -euo pipefail
build=$1
lib=$(realpath "$2")
scale=$3
nps=$4
dest=$5
searches=${6:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/perf/common/mpirun.sh"
g500_deck bfs
mkdir -p "$dest"
csv=$dest/bfs2d.csv
[[ -s $csv ]] ||
  echo "partition,P,R,C,rank,searches,sends,send_bytes,collectives,received_bytes,levels,level_peers_sum,level_peers_max,search_peers_max" >"$csv"

for np in $nps; do
  for part in 1d 2d; do
    rm -f "$out/counts"
    # mpi_counts writes a rank's line as it enters MPI_Finalize, after the
    # run's results file; at 256 ranks on 2 cores Open MPI's teardown has
    # reported a rank "exiting improperly" after that.  Such a run counts
    # when every rank's line is there; the exit status is shown.
    rc=0
    mpirun -np "$np" "${flags[@]}" -x LD_PRELOAD="$lib" -x KOKKOS_TOOLS_LIBS="$lib" \
      -x HT_MPI_COUNTS="$out/counts" "$build/apps/graph500_bfs" "$deck" \
      --set Graph500/SCALE="$scale" --set Graph500/NBFS="$searches" \
      --set Graph500/variant=hybrid --set Graph500/partition="$part" --set Graph500/grid=auto \
      --set Profile/enabled=false --set Output/file="$out/r.h5" --set Output/overwrite=true \
      --kokkos-num-threads=1 --kokkos-disable-warnings >"$out/log" 2>&1 || rc=$?
    if ((rc != 0)); then
      grep -q "^results: " "$out/log" || { cat "$out/log" >&2; exit 1; }
      echo "$part on $np ranks: mpirun exited $rc after the results were written" >&2
    fi
    [[ $(awk 'NF == 17' "$out/counts" | wc -l) -eq $np ]] || {
      echo "$part on $np ranks: $(wc -l <"$out/counts") of $np ranks counted in the search" >&2
      exit 1
    }
    # The grid: auto is the most square R x C with R <= C (docs/running.md).
    read -r R C < <(awk -v p="$np" -v d="$part" 'BEGIN {
      if (d == "1d") { print 1, p; exit }
      for (r = int(sqrt(p)); r >= 1; --r) if (p % r == 0) { print r, p / r; exit } }')
    awk -v d="$part" -v p="$np" -v R="$R" -v C="$C" '{
      printf "%s,%d,%d,%d,%d", d, p, R, C, $1
      for (i = 9; i <= 17; ++i) printf ",%s", $i
      printf "\n" }' "$out/counts" >>"$csv"
    /usr/bin/python3 "$root/perf/scaling/steps.py" extract "$out/r.h5" "bfs_hybrid_$part" "$np" \
      "$dest/bfs2d_steps.csv"
    awk -F, -v d="$part" -v p="$np" '$1 == d && $2 == p {
        s = $6; m += $7 / s; b += $8 / s; c += $9 / s; r += $10 / s; l += $11 / s
        q += $12 / $11; if ($13 > x) x = $13; n++ }
      END { printf "%s P=%d: per rank per search %.0f messages, %.0f bytes sent, %.1f collectives, %.0f bytes out of them, %.1f levels; peers a level %.1f (mean), %d (most)\n",
        d, p, m / n, b / n, c / n, r / n, l / n, q / n, x }' "$csv"
    if [[ $part == 2d ]]; then
      most=$(awk -F, -v p="$np" '$1 == "2d" && $2 == p && $13 > x {x = $13} END {print x + 0}' "$csv")
      ((most <= R + C - 2)) || {
        echo "2d P=$np ($R x $C): a level with $most distinct peers, above R + C - 2 = $((R + C - 2))" >&2
        exit 1
      }
    fi
  done
done
