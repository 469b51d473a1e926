#!/usr/bin/env bash
# Kernel 1 from a graph file: how fast graph500_bfs reads and parses a .wel
# file (Graph500/file) and builds its graph, beside gapbs's reader and
# builder on the same file, same cores, in one run.  The file is write_wel's
# Kronecker graph (edgefactor 16, every edge, integer weights as gapbs's
# converter writes them), or HT_GRAPH_FILE (e.g. gapbs's own `converter -g
# 20 -k 16 -w -e` output, or a .el); the page cache holds it after the first
# read, so this times parsing, not the disk.
#  - ours: the "graph_generation:" seconds (the reading) and the
#    "construction_time:" of a 1-key run, best of 3, at 1 x 1, 1 x 2 and
#    2 x 1 (every bad-line check on);
#  - gapbs: its converter's "Read Time" (one thread) and "Build Time" (-s:
#    both directions, as ours) for the same file, best of 3, on the cores of
#    the layout, when HT_GAPBS_CONVERTER is set.
# Prints MB/s and ratios; CTest measurements: file_read_<layout>_vs_gapbs,
# file_build_<layout>_vs_gapbs (gapbs's seconds / ours) and
# file_read_speedup_1x1_to_<layout>.
#   file_reading.sh <graph500_bfs> <write_wel> [SCALE]
#   source <(perf/graph500/build_references.sh) && perf/graph500/file_reading.sh \
#     build/apps/graph500_bfs build/perf/graph500/write_wel 20
set -euo pipefail
exe=$1
wel=$2
scale=${3:-20}
converter=${HT_GAPBS_CONVERTER:-}
source "$(dirname "$0")/../common/mpirun.sh"
source "$(dirname "$0")/../measure.sh"
g500_deck bfs 1

file=${HT_GRAPH_FILE:-$out/g.wel}
[[ -n ${HT_GRAPH_FILE:-} ]] || "$wel" "$scale" 16 2 "$file" >/dev/null
mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN {printf "%.1f", b / 1e6}')
kernels=bfs
[[ $file == *.el ]] || kernels=bfs,sssp
ours() { # ranks threads -> "reading construction", the best seconds of 3 each
  for _ in 1 2 3; do
    ht_app "$out/log" "$1" "$2" "$exe" "$deck" --set Graph500/file="$file" \
      --set Graph500/kernels=$kernels --set Output/file="$out/o.h5" --set Output/overwrite=true \
      --set Profile/enabled=false
    echo "$(g500_value "$out/log" graph_generation) $(g500_value "$out/log" construction_time)"
  done | sort -g -k1,1 | awk 'NR == 1 {r = $1} {b = (NR == 1 || $2 < b) ? $2 : b} END {print r, b}'
}
gapbs() { # threads -> "Read Time, Build Time", the best of 3 each
  for _ in 1 2 3; do
    OMP_NUM_THREADS=$1 "$converter" -f "$file" -s -b "$out/g.sg" |
      awk '/Read Time/ {r = $3} /Build Time/ {b = $3} END {print r, b}'
  done | awk 'NR == 1 || $1 < r {r = $1} NR == 1 || $2 < b {b = $2} END {print r, b}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
rate() { awk -v s="$1" -v mb="$mb" 'BEGIN {printf "%.0f", mb / s}'; }

echo "$(basename "$file"), $mb MB"
[[ -x $converter ]] || echo "(gapbs skipped: set HT_GAPBS_CONVERTER, see build_references.sh)"
one=""
for layout in 1x1 1x2 2x1; do
  read -r s build < <(ours "${layout%x*}" "${layout#*x}")
  [[ -n $one ]] || one=$s
  line=$(printf '%-16s read %7.3f s %6s MB/s, build %7.3f s' "graph500_bfs $layout" "$s" "$(rate "$s")" "$build")
  if [[ -x $converter ]]; then
    # gapbs on the layout's cores (2 x 1: its 2 threads).
    cores=$((${layout%x*} * ${layout#*x}))
    read -r theirs their_build < <(gapbs "$cores")
    line+=$(printf ' | gapbs read %7.3f s (%s x), build %6.3f s on %d (%s x)' "$theirs" \
      "$(ratio "$theirs" "$s")" "$their_build" "$cores" "$(ratio "$their_build" "$build")")
    ht_measure "file_read_${layout}_vs_gapbs" "$(ratio "$theirs" "$s")"
    ht_measure "file_build_${layout}_vs_gapbs" "$(ratio "$their_build" "$build")"
  fi
  if [[ $layout != 1x1 ]]; then
    line+=$(printf '   %s x 1x1' "$(ratio "$one" "$s")")
    ht_measure "file_read_speedup_1x1_to_$layout" "$(ratio "$one" "$s")"
  fi
  echo "$line"
done
