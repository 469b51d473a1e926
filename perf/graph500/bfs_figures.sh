#!/usr/bin/env bash
# BFS variants at given SCALEs and ranks x threads, one run each: the median
# seconds per search and the harmonic-mean TEPS, as CTest measurements
# (bfs_s<SCALE>_<layout>_<variant>_mteps), for paired comparisons such as
# scripts/bench --against-tasks openmp (the two task runtimes side by side).
# Variants: ht_pick's words (default visits_once: those whose work a level is
# the same on every run, no redundant visits, so a difference is the runtime's).
#   bfs_figures.sh <graph500_bfs> [SCALEs] [layouts] [variants] [NBFS]
#   bfs_figures.sh build/apps/graph500_bfs "18 20" "1x2 2x1" visits_once 16
set -euo pipefail
exe=$1
scales=${2:-18 20}
layouts=${3:-1x2 2x1}
nbfs=${5:-16}
source "$(dirname "$0")/../common/mpirun.sh"
variants=$(ht_pick "$exe" "${4:-visits_once}")
g500_deck bfs
source "$(dirname "$0")/../measure.sh"
get() { g500_value "$1" "$2"; }

printf '%-6s %-7s %-8s %12s %12s  %s\n' SCALE layout variant median_s hmean_MTEPS tasks
for scale in $scales; do
  for layout in $layouts; do
    np=${layout%x*} nt=${layout#*x}
    for variant in $variants; do
      log=$out/run.log
      ht_app "$log" "$np" "$nt" "$exe" "$deck" --set Graph500/SCALE="$scale" \
        --set Graph500/variant="$variant" --set Graph500/NBFS="$nbfs" --set Output/file="$out/r.h5" --set Output/overwrite=true
      mteps=$(awk -v t="$(get "$log" harmonic_mean_TEPS)" 'BEGIN{print t/1e6}')
      printf '%-6s %-7s %-8s %12.6f %12.1f  %s\n' "$scale" "$layout" "$variant" \
        "$(get "$log" median_time)" "$mteps" "$(sed -n 's/.*tasks: \([a-z-]*\).*/\1/p' "$log" | head -1)"
      ht_measure "bfs_s${scale}_${layout}_${variant}_mteps" "$mteps"
    done
  done
done
