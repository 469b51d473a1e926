#!/usr/bin/env bash
# Kernel 1 from a graph file: how fast graph500_bfs reads and parses a .wel
# file (Graph500/file), beside gapbs's reader on the same file, same cores,
# in one run.  The file is write_wel's Kronecker graph (edgefactor 16, every
# edge, integer weights as gapbs's converter writes them); the page cache
# holds it after the first read, so this times parsing, not the disk.
#  - ours: the "graph_generation:" seconds (the reading) of a 1-key run, best
#    of 3, at 1 x 1, 1 x 2 and 2 x 1 (every bad-line check on);
#  - gapbs: its converter's "Read Time" for the same file, best of 3 (gapbs
#    reads an edge list on one thread), when HT_GAPBS_CONVERTER is set.
# Prints MB/s and ratios; CTest measurements: file_read_<layout>_vs_gapbs
# (gapbs's seconds / ours) and file_read_speedup_1x1_to_<layout>.
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

"$wel" "$scale" 16 2 "$out/g.wel" >/dev/null
mb=$(awk -v b="$(stat -c %s "$out/g.wel")" 'BEGIN {printf "%.1f", b / 1e6}')
best() { sort -g | head -n 1; }
ours() { # ranks threads -> best reading seconds of 3
  for _ in 1 2 3; do
    ht_app "$out/log" "$1" "$2" "$exe" "$deck" --set Graph500/file="$out/g.wel" \
      --set Output/file="$out/o.h5" --set Output/overwrite=true --set Profile/enabled=false
    g500_value "$out/log" graph_generation
  done | best
}
gapbs() { # -> best "Read Time" of 3
  for _ in 1 2 3; do
    OMP_NUM_THREADS=1 "$converter" -f "$out/g.wel" -b "$out/g.wsg" | awk '/Read Time/ {print $3}'
  done | best
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
rate() { awk -v s="$1" -v mb="$mb" 'BEGIN {printf "%.0f", mb / s}'; }

echo "SCALE $scale, $mb MB"
theirs=""
if [[ -x $converter ]]; then
  theirs=$(gapbs)
  printf '%-28s %10.3f s %8s MB/s\n' "gapbs (1 thread)" "$theirs" "$(rate "$theirs")"
else
  echo "(gapbs skipped: set HT_GAPBS_CONVERTER, see build_references.sh)"
fi
one=""
for layout in 1x1 1x2 2x1; do
  s=$(ours "${layout%x*}" "${layout#*x}")
  [[ -n $one ]] || one=$s
  line=$(printf '%-28s %10.3f s %8s MB/s' "graph500_bfs $layout" "$s" "$(rate "$s")")
  if [[ -n $theirs ]]; then
    line+=$(printf '   %s x gapbs' "$(ratio "$theirs" "$s")")
    ht_measure "file_read_${layout}_vs_gapbs" "$(ratio "$theirs" "$s")"
  fi
  if [[ $layout != 1x1 ]]; then
    line+=$(printf '   %s x 1x1' "$(ratio "$one" "$s")")
    ht_measure "file_read_speedup_1x1_to_$layout" "$(ratio "$one" "$s")"
  fi
  echo "$line"
done
