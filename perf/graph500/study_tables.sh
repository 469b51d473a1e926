#!/usr/bin/env bash
# The hybrid MPI+Kokkos-tasks study's tables, at a size this machine holds:
#  1. per variant: BFS time, speedup and efficiency against the task count
#     (speedup against the variant's smallest task count; efficiency = speedup
#     / (tasks / smallest)), lock time (locking), redundant visits (nonlocking);
#  2. processes x tasks at a fixed total.
#   study_tables.sh <graph500_bfs> [SCALE] [NBFS] [cores]
set -euo pipefail
exe=$1
scale=${2:-18}
nbfs=${3:-16}
cores=${4:-$(nproc)}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common/mpirun.sh"
# The fewest tasks each variant runs with: $4 of graph500_bfs --list variants.
declare -A fewest=()
while read -r name _ _ least _; do fewest[$name]=$least; done < <(mpirun -np 1 "${flags[@]}" "$exe" --list variants)
run() { # variant ranks tasks -> the data row of bench_bfs.sh
  local threads=$(($3 < cores ? $3 : cores))
  bash "$here/bench_bfs.sh" "$exe" "$scale" "$2" "$1" "$threads" "$nbfs" "$3" |
    grep -v '^<CTestMeasurement' | tail -n 1
}

echo "== Table 1: one rank, SCALE $scale, NBFS $nbfs, threads = min(tasks, $cores)"
printf '%-11s %-6s %12s %8s %10s %10s %10s\n' variant tasks median_s speedup efficiency lock_s redundancy
for variant in mpi locking nonlocking; do
  case $variant in
    mpi) counts="1" ;;
    locking) counts="2 3 4 8" ;;
    nonlocking) counts="1 2 4 8" ;;
  esac
  base=""
  base_tasks=""
  for nt in $counts; do
    row=$(run "$variant" 1 "$nt")
    read -r _ _ _ tasks _ _ median lock redundancy <<<"$row"
    [[ -n $base ]] || { base=$median; base_tasks=$tasks; }
    awk -v v="$variant" -v t="$tasks" -v m="$median" -v b="$base" -v bt="$base_tasks" \
      -v l="$lock" -v r="$redundancy" \
      'BEGIN { s = b / m; printf "%-11s %-6s %12.6f %8.2f %10.2f %10s %10s\n", v, t, m, s, s / (t / bt), l, r }'
  done
done

echo "== Table 2: processes x tasks at a fixed total of 4, SCALE $scale (2 cores: oversubscribed)"
printf '%-11s %-6s %-6s %12s %14s\n' variant ranks tasks median_s hmean_TEPS
for variant in locking nonlocking; do
  for pair in "1 4" "2 2" "4 1"; do
    read -r np nt <<<"$pair"
    ((nt >= fewest[$variant])) || continue # locking: one task receives
    row=$(run "$variant" "$np" "$nt")
    read -r _ _ _ tasks _ teps median _ _ <<<"$row"
    printf '%-11s %-6s %-6s %12.6f %14.4g\n' "$variant" "$np" "$tasks" "$median" "$teps"
  done
done
