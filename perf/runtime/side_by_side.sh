#!/usr/bin/env bash
# The two task runtimes' BFS side by side on a machine with more cores than
# the perf tests assume: the same SCALE and layouts (ranks x threads filling
# the cores, each rank bound to its own), alternated build by build, round by
# round.  Prints one line per run: round, layout, variant, build, median
# seconds per search, harmonic-mean TEPS.  Open MPI's mpirun.
#   side_by_side.sh <build dir A> <build dir B> [SCALE] [rounds] [layouts] [variants]
#   side_by_side.sh build build-openmp 21 2 "1x16 2x8 4x4 16x1" visits_once
# Variants: ht_pick's words (perf/common/mpirun.sh), as bfs_figures.sh.
set -euo pipefail
a=$1 b=$2
scale=${3:-21} rounds=${4:-2} layouts=${5:-1x16 2x8 4x4 16x1}
source "$(dirname "$0")/../common/mpirun.sh" # g500_value (the runs bind their own way)
variants=$(ht_pick "$a/apps/graph500_bfs" "${6:-visits_once}")
g500_deck bfs
export OMP_MAX_TASK_PRIORITY=${OMP_MAX_TASK_PRIORITY:-2} OMP_PLACES=cores OMP_PROC_BIND=spread
for ((r = 1; r <= rounds; ++r)); do
  for layout in $layouts; do
    np=${layout%x*} nt=${layout#*x}
    for variant in $variants; do
      for build in "$a" "$b"; do
        log=$out/run.log
        mpirun -np "$np" --oversubscribe --map-by "slot:PE=$nt" --bind-to core \
          $([[ $(id -u) -ne 0 ]] || echo --allow-run-as-root) "$build/apps/graph500_bfs" \
          "$deck" --set Graph500/SCALE="$scale" --set Graph500/variant="$variant" \
          --set Graph500/NBFS=16 --set Output/file="$out/r.h5" --set Output/overwrite=true --kokkos-num-threads="$nt" \
          >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
        echo "round $r $layout $variant $build $(sed -n 's/.*tasks: \([a-z-]*\).*/\1/p' "$log" | head -1)" \
          "median_s=$(g500_value "$log" median_time)" \
          "hmean_TEPS=$(g500_value "$log" harmonic_mean_TEPS)"
      done
    done
  done
done
