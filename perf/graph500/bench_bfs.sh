#!/usr/bin/env bash
# Graph500 BFS benchmark: harmonic-mean TEPS of graph500_bfs over SCALEs and
# rank counts, one run, as a table (with the study's lock time and
# redundant-visit columns for the task variants).
#   bench_bfs.sh <graph500_bfs> [scales] [ranks] [variant] [threads] [NBFS] [tasks]
#   bench_bfs.sh build/apps/graph500_bfs "16 18 20" "1 2" mpi 1 16
set -euo pipefail
exe=$1
scales=${2:-16 18 20}
ranks=${3:-1 2}
variant=${4:-mpi}
threads=${5:-1}
nbfs=${6:-16}
tasks=${7:-0}
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck bfs
source "$(dirname "$0")/../measure.sh"

printf '%-6s %-6s %-8s %-6s %-11s %14s %12s %10s %10s\n' SCALE ranks threads tasks variant \
  hmean_TEPS median_s lock_s redundancy
for s in $scales; do
  for np in $ranks; do
    log=$out/s$s-np$np.log
    ht_app "$log" "$np" "$threads" "$exe" "$deck" --set Graph500/SCALE="$s" \
      --set Graph500/variant="$variant" --set Graph500/NBFS="$nbfs" --set Graph500/tasks="$tasks" \
      --set Output/file="$out/s$s-np$np.h5" --set Output/overwrite=true
    get() { g500_value "$log" "$1"; }
    lock=$(get mean_lock_time)
    redundancy=$(get mean_redundant_visits)
    printf '%-6s %-6s %-8s %-6s %-11s %14.4g %12.6f %10s %10s\n' "$s" "$np" "$threads" \
      "$(get tasks_per_rank)" "$variant" "$(get harmonic_mean_TEPS)" "$(get median_time)" \
      "${lock:--}" "${redundancy:--}"
    ht_measure "bfs_${variant}_scale${s}_np${np}_t${threads}_mteps" \
      "$(awk -v t="$(get harmonic_mean_TEPS)" 'BEGIN{print t/1e6}')"
  done
done
