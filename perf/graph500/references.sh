#!/usr/bin/env bash
# HybridTasks' BFS beside the field's references, on the same cores, in one
# run (references built by build_references.sh; none of their code is ours):
#  - hybrid on 1 rank x T threads vs gapbs `bfs` (direction-optimizing) on
#    T OpenMP threads: gapbs' time / ours (>= 0.8 is the target);
#  - every variant on R ranks x 1 thread vs the Graph500 2.1.4 reference's
#    bfs_replicated on R ranks: its time / ours (>= 2 for the best);
#  - each variant's 1 x 1 -> R x 1 speedup (> 1: more ranks pay).
# Times are mean seconds per search: gapbs' "Average Time" and our
# mean_time over 16 searches; the reference's own per-search lines ("Time for
# BFS i") over its first HT_REF_SEARCHES (8), after which it is stopped: it
# always runs 64 searches and its validation takes seconds per search.
#   references.sh <graph500_bfs> [scales] [threads] [ranks]
#   HT_GAPBS_BFS=/tmp/refs/gapbs/bfs HT_GRAPH500_REPLICATED=... references.sh build/apps/graph500_bfs "18 20"
set -euo pipefail
exe=$1
scales=${2:-18 20}
threads=${3:-2}
ranks=${4:-2}
gapbs=${HT_GAPBS_BFS:-}
g500=${HT_GRAPH500_REPLICATED:-}
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck bfs 16
source "$(dirname "$0")/../measure.sh"

ours() { # ranks threads variant scale -> mean seconds
  local log=$out/ours.log
  ht_app "$log" "$1" "$2" "$exe" "$deck" --set Graph500/variant="$3" \
    --set Graph500/SCALE="$4" --set Output/file="$out/o.h5" --set Output/overwrite=true
  g500_value "$log" mean_time
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

printf '%-6s %-46s %12s %12s %8s\n' SCALE comparison ours_s theirs_s ratio
for s in $scales; do
  if [[ -x $gapbs ]]; then
    mine=$(ours 1 "$threads" hybrid "$s")
    theirs=$(OMP_NUM_THREADS=$threads "$gapbs" -g "$s" -k 16 -n 16 | awk '/Average Time/ {print $3}')
    printf '%-6s %-46s %12.6f %12.6f %8s\n' "$s" "hybrid 1x$threads / gapbs bfs $threads thr" \
      "$mine" "$theirs" "$(ratio "$theirs" "$mine")"
    ht_measure "ref_hybrid_1x${threads}_vs_gapbs_scale$s" "$(ratio "$theirs" "$mine")"
  else
    echo "(gapbs skipped: set HT_GAPBS_BFS, see build_references.sh)"
  fi
  theirs=
  if [[ -x $g500 ]]; then
    theirs=$(g500_reference "$ranks" "$g500" "$s" BFS)
  else
    echo "(Graph500 reference skipped: set HT_GRAPH500_REPLICATED, see build_references.sh)"
  fi
  for v in $(ht_variants "$exe" '$2 == "single" || $2 == "chunks"'); do
    one=$(ours 1 1 "$v" "$s")
    many=$(ours "$ranks" 1 "$v" "$s")
    printf '%-6s %-46s %12.6f %12.6f %8s\n' "$s" "$v ${ranks}x1 / $v 1x1 (speedup)" "$many" \
      "$one" "$(ratio "$one" "$many")"
    ht_measure "ref_${v}_speedup_1x1_to_${ranks}x1_scale$s" "$(ratio "$one" "$many")"
    if [[ -n $theirs ]]; then
      printf '%-6s %-46s %12.6f %12.6f %8s\n' "$s" "$v ${ranks}x1 / g500 replicated" "$many" \
        "$theirs" "$(ratio "$theirs" "$many")"
      ht_measure "ref_${v}_${ranks}x1_vs_g500_replicated_scale$s" "$(ratio "$theirs" "$many")"
    fi
  done
done
