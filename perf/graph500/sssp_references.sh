#!/usr/bin/env bash
# Kernel 3 (SSSP) beside the field's references, on the same cores, in one
# run, mean seconds per search (edgefactor 16):
#  - graph500_bfs (Graph500/kernels = sssp, 16 keys) on R ranks x 1 thread
#    against the Graph500 3.0 reference's graph500_reference_bfs_sssp on R
#    ranks, R = 1 and 2: its time / ours (target >= 3); its per-search lines
#    ("Time for SSSP i") over its first HT_REF_SEARCHES (8), then it is
#    stopped (it runs 64 BFS and 64 SSSP with validation);
#  - ours on 1 rank x 2 threads against gapbs's sssp on 2 threads, both
#    reading the same file: write_wel --unique writes our Kronecker graph as
#    gapbs builds it (each undirected pair once at its lightest weight, no
#    self-loops; weights scaled to gapbs's integers [1, 255]); gapbs's
#    converter serializes it, graph500_bfs reads it (Graph500/file); each
#    gets its best delta: gapbs's of 1, 2, 4, 8, ours of 0.25, 0.5, 1, 2
#    (the same units): gapbs's time / ours (target >= 0.8);
#  - 2 x 1 against 1 x 1 (faster?).
#   sssp_references.sh <graph500_bfs> <write_wel> [scales]
#   source <(perf/graph500/build_references.sh) && perf/graph500/sssp_references.sh \
#     build/apps/graph500_bfs build/perf/graph500/write_wel "18 20"
set -euo pipefail
exe=$1
wel=$2
scales=${3:-18 20}
g500=${HT_GRAPH500_SSSP:-}
gapbs=${HT_GAPBS_SSSP:-}
converter=${HT_GAPBS_CONVERTER:-}
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck sssp 16
source "$(dirname "$0")/../measure.sh"

ours() { # ranks threads scale [deck settings...] -> mean seconds
  local log=$out/ours.log np=$1 nt=$2 scale=$3
  shift 3
  ht_app "$log" "$np" "$nt" "$exe" "$deck" --set Graph500/SCALE="$scale" "$@" \
    --set Output/file="$out/o.h5" --set Output/overwrite=true --set Profile/enabled=false
  g500_value "$log" mean_time sssp
}
best_of() { # "seconds delta" lines -> the fastest
  sort -g | head -n 1
}
gapbs_best() { # -> gapbs's best mean seconds over deltas on g.wsg, and that delta
  local d
  for d in 1 2 4 8; do
    echo "$(OMP_NUM_THREADS=2 "$gapbs" -f "$out/g.wsg" -n 16 -d "$d" | awk '/Average Time/ {print $3}') $d"
  done | best_of
}
ours_file_best() { # scale -> our best mean seconds over deltas on g.wel (1 x 2), and that delta
  local d
  for d in 0.25 0.5 1 2; do
    echo "$(ours 1 2 "$1" --set Graph500/file="$out/g.wel" --set Graph500/delta="$d") $d"
  done | best_of
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

printf '%-6s %-48s %12s %12s %8s\n' SCALE comparison ours_s theirs_s ratio
for s in $scales; do
  one=$(ours 1 1 "$s")
  two=$(ours 2 1 "$s")
  printf '%-6s %-48s %12.6f %12.6f %8s\n' "$s" "sssp 2x1 / 1x1 (speedup)" "$two" "$one" "$(ratio "$one" "$two")"
  ht_measure "sssp_speedup_1x1_to_2x1_scale$s" "$(ratio "$one" "$two")"
  ht_measure "sssp_1x1_seconds_scale$s" "$one"  # for paired runs (scripts/bench --against)
  ht_measure "sssp_2x1_seconds_scale$s" "$two"
  if [[ -x $g500 ]]; then
    for r in 1 2; do
      mine=$one
      [[ $r == 2 ]] && mine=$two
      theirs=$(g500_reference "$r" "$g500" "$s" SSSP)
      printf '%-6s %-48s %12.6f %12.6f %8s\n' "$s" "sssp ${r}x1 / graph500 3.0 reference, $r ranks" \
        "$mine" "$theirs" "$(ratio "$theirs" "$mine")"
      ht_measure "sssp_${r}x1_vs_g500_reference_scale$s" "$(ratio "$theirs" "$mine")"
    done
  else
    echo "(Graph500 3.0 reference skipped: set HT_GRAPH500_SSSP, see build_references.sh)"
  fi
  if [[ -x $gapbs && -x $converter ]]; then
    "$wel" --unique "$s" 16 2 "$out/g.wel" >/dev/null
    "$converter" -f "$out/g.wel" -s -w -b "$out/g.wsg" >/dev/null
    read -r mine ours_delta < <(ours_file_best "$s")
    read -r theirs delta < <(gapbs_best)
    printf '%-6s %-48s %12.6f %12.6f %8s\n' "$s" \
      "sssp 1x2 / gapbs sssp 2 threads, one file (delta $ours_delta / $delta)" \
      "$mine" "$theirs" "$(ratio "$theirs" "$mine")"
    ht_measure "sssp_1x2_vs_gapbs_scale$s" "$(ratio "$theirs" "$mine")"
  else
    echo "(gapbs skipped: set HT_GAPBS_SSSP and HT_GAPBS_CONVERTER, see build_references.sh)"
  fi
done
