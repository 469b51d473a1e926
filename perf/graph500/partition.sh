#!/usr/bin/env bash
# Graph500/partition on few ranks, paired: `hybrid` with partition 1d, 2d
# and auto, one after the other in each round (the order rotated every
# round), at each rank count; the figure is each partition's median over
# rounds of its harmonic-mean TEPS, and the ratios auto / faster and
# 2d / 1d.  `auto` must be within 5% of the faster partition (issue 39).
#   partition.sh <graph500_bfs> [rounds] [SCALE] [ranks] [threads] [NBFS]
#   perf/graph500/partition.sh build/apps/graph500_bfs 3 18 "2 4" 1 16
set -euo pipefail
exe=$1
rounds=${2:-3}
scale=${3:-18}
ranks=${4:-2 4}
threads=${5:-1}
nbfs=${6:-16}
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck bfs "$nbfs"
source "$(dirname "$0")/../measure.sh"

parts=(1d 2d auto)
printf '%-6s %-8s %14s %14s %14s %12s %12s\n' ranks threads 1d_mteps 2d_mteps auto_mteps \
  2d_over_1d auto_over_best
for np in $ranks; do
  declare -A teps=()
  for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < ${#parts[@]}; i++)); do
      p=${parts[(i + r) % ${#parts[@]}]}
      log=$out/np$np-$p-$r.log
      ht_app "$log" "$np" "$threads" "$exe" "$deck" --set Graph500/SCALE="$scale" \
        --set Graph500/variant=hybrid --set Graph500/partition="$p" \
        --set Output/file="$out/r.h5" --set Output/overwrite=true
      teps[$p]+="$(g500_value "$log" harmonic_mean_TEPS) "
    done
  done
  median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)] / 1e6}'; }
  one=$(median "${teps[1d]}") two=$(median "${teps[2d]}") auto=$(median "${teps[auto]}")
  read -r ratio best < <(awk -v a="$one" -v b="$two" -v c="$auto" \
    'BEGIN { m = a > b ? a : b; printf "%.3f %.3f\n", b / a, c / m }')
  printf '%-6s %-8s %14.2f %14.2f %14.2f %12s %12s\n' "$np" "$threads" "$one" "$two" "$auto" \
    "$ratio" "$best"
  ht_measure "partition_scale${scale}_np${np}_t${threads}_2d_over_1d" "$ratio"
  ht_measure "partition_scale${scale}_np${np}_t${threads}_auto_over_best" "$best"
  unset teps
done
