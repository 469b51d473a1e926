#!/usr/bin/env bash
# Memory and set-up that scale with ranks: graph500_bfs on 1, 2 and 4 ranks at
# one SCALE, each rank's peak resident memory (getrusage, as the driver
# reports it), generation, construction and median BFS time, and the bytes
# per input edge at peak over all ranks.  The ratio that matters: a rank's
# peak on p ranks against the 1-rank peak / p (the issue's bound: at most
# 1.2 x (1-rank peak) / p + 100 MB, the column "bound_MiB").  Kernels: bfs
# (no weights held) or bfs,sssp (weights beside the targets).  It reports
# figures as CTest measurements and checks none of them.
#   memory.sh <graph500_bfs> [SCALE] [ranks] [variant] [kernels]
#   memory.sh build/apps/graph500_bfs 22 "1 2 4" atomic bfs,sssp
set -euo pipefail
exe=$1
scale=${2:-22}
ranks=${3:-1 2 4}
variant=${4:-atomic}
kernels=${5:-bfs}
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck "$kernels"
source "$(dirname "$0")/../measure.sh"
edges=$((16 << scale))

tag=${kernels/,/_}
echo "== Memory and set-up, SCALE $scale ($edges edges), kernels $kernels, variant $variant, 1 thread per rank"
printf '%-6s %14s %14s %10s %14s %12s %12s %12s %12s\n' ranks peak_max_MiB peak_mean_MiB bound_MiB \
  vs_1rank_over_p bytes_per_edge generation_s construct_s bfs_median_s
one=""
for np in $ranks; do
  log=$out/np$np.log
  ht_app "$log" "$np" 1 "$exe" "$deck" --set Graph500/SCALE="$scale" \
    --set Graph500/NBFS=4 --set Graph500/variant="$variant" --set Output/file="$out/m.h5" --set Output/overwrite=true
  get() { g500_value "$log" "${1%:}"; }
  read -r _ _ _ _ lo mean hi < <(grep '^peak_rss_MiB' "$log")
  [[ -n $one ]] || one=$hi
  ratio=$(awk -v h="$hi" -v o="$one" -v p="$np" 'BEGIN { printf "%.3f", h / (o / p) }')
  bound=$(awk -v o="$one" -v p="$np" 'BEGIN { printf "%.1f", 1.2 * o / p + 100e6 / 1048576 }')
  per_edge=$(awk -v m="$mean" -v p="$np" -v e="$edges" 'BEGIN { printf "%.1f", m * p * 1048576 / e }')
  printf '%-6s %14.1f %14.1f %10s %14s %12s %12s %12s %12s\n' "$np" "$hi" "$mean" "$bound" "$ratio" "$per_edge" \
    "$(get graph_generation:)" "$(get construction_time:)" "$(get median_time:)"
  ht_measure "memory_${tag}_scale${scale}_np${np}_peak_max_mib" "$hi"
  ht_measure "memory_${tag}_scale${scale}_np${np}_peak_over_1rank_per_p" "$ratio"
  ht_measure "memory_${tag}_scale${scale}_np${np}_bytes_per_edge" "$per_edge"
done
