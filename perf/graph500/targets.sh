#!/usr/bin/env bash
# Every BFS variant at the same ranks x threads, in one run: time, TEPS, lock
# time, redundant visits and the imbalance profile, then the ratios that the
# chunked variants are measured by (against each of the others, the MPI-only
# one on the same cores).  It reports figures
# as CTest measurements; scripts/bench checks them against a baseline.
#   targets.sh <graph500_bfs> [SCALE] [NBFS] [layouts]
#   targets.sh build/apps/graph500_bfs 20 16 "1x2 2x1"
set -euo pipefail
exe=$1
scale=${2:-20}
nbfs=${3:-16}
layouts=${4:-1x2 2x1}
cores=$(nproc)
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck bfs
source "$(dirname "$0")/../measure.sh"

run() { # variant ranks threads -> log file
  local log=$out/$1-$2x$3.log
  ht_app "$log" "$2" "$3" "$exe" "$deck" --set Graph500/SCALE="$scale" \
    --set Graph500/variant="$1" --set Graph500/NBFS="$nbfs" --set Output/file="$out/$1.h5" \
    --set Output/overwrite=true --set Output/tables=true
  echo "$log"
}
get() { g500_value "$1" "$2"; }
getp() { awk -v k="$2" '$1 == "bfs" && $2 == k {print $(NF-1)}' "$1"; } # mean over ranks of a profile line

# The chunked variants are measured against the others; the baseline (MPI
# only) runs a rank per core.
baseline=$(ht_variants "$exe" '$2 == "single"')
chunked=$(ht_variants "$exe" '$2 == "chunks"')
others=$(ht_variants "$exe" '$2 != "chunks"')
echo "== BFS variants, SCALE $scale, NBFS $nbfs, $cores cores"
printf '%-7s %-11s %6s %12s %12s %8s %10s %10s %8s\n' layout variant tasks median_s hmean_MTEPS \
  lock_s redundancy imbalance waiting
for layout in $layouts; do
  np=${layout%x*}
  nt=${layout#*x}
  declare -A median=()
  for variant in $(ht_variants "$exe"); do
    threads=$nt
    [[ $variant == "$baseline" ]] && threads=1
    # The MPI-only variant uses one core per rank: on the same cores it runs
    # one rank per core.
    ranks=$np
    [[ $variant == "$baseline" ]] && ranks=$((np * nt))
    log=$(run "$variant" "$ranks" "$threads")
    median[$variant]=$(get "$log" median_time)
    lock=$(get "$log" mean_lock_time)
    red=$(get "$log" mean_redundant_visits)
    printf '%-7s %-11s %6s %12.6f %12.1f %8s %10s %10s %8s\n' "$layout" \
      "$variant$([[ $variant == "$baseline" ]] && echo "(${ranks}x1)")" "$(get "$log" tasks_per_rank)" \
      "${median[$variant]}" "$(awk -v t="$(get "$log" harmonic_mean_TEPS)" 'BEGIN{print t/1e6}')" \
      "${lock:-0}" "${red:--}" "$(getp "$log" mean_imbalance)" "$(getp "$log" waiting)"
    ht_measure "bfs_${layout}_${variant}_mteps" \
      "$(awk -v t="$(get "$log" harmonic_mean_TEPS)" 'BEGIN{print t/1e6}')"
  done
  for v in $chunked; do
    line=
    for base in $others; do
      line+=$(awk -v b="$base" -v m="${median[$v]}" -v t="${median[$base]}" \
        'BEGIN { printf ", than %s %.2fx", b, t / m }')
      ht_measure "bfs_${layout}_${v}_speedup_vs_${base}" \
        "$(awk -v m="${median[$v]}" -v b="${median[$base]}" 'BEGIN { printf "%.4f", b / m }')"
    done
    printf '%-7s %-11s faster%s\n' "$layout" "$v" "${line#,}"
  done
done
echo "(figures only: scripts/bench gates them against perf/baselines/)"
