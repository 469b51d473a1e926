#!/usr/bin/env bash
# The hybrid MPI+Kokkos-tasks study's tables, at a size this machine holds:
#  1. per variant: BFS time, speedup and efficiency against the task count
#     (speedup against the variant's smallest task count; efficiency = speedup
#     / (tasks / smallest)), lock time and redundant visits where reported;
#  2. processes x tasks at a fixed total.
#   study_tables.sh <graph500_bfs> [SCALE] [NBFS] [cores]
set -euo pipefail
exe=$1
scale=${2:-18}
nbfs=${3:-16}
cores=${4:-$(nproc)}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common/mpirun.sh"
# The study's variants: those not cut into chunks, each with the work ($2 of
# graph500_bfs --list variants) and the fewest tasks it runs with ($4).
declare -A work=() fewest=()
study=()
while read -r name kind _ least _; do
  [[ $kind != chunks ]] || continue
  study+=("$name") work[$name]=$kind fewest[$name]=$least
done < <(mpirun -np 1 "${flags[@]}" "$exe" --list variants)
run() { # variant ranks tasks -> the data row of bench_bfs.sh
  local threads=$(($3 < cores ? $3 : cores))
  bash "$here/bench_bfs.sh" "$exe" "$scale" "$2" "$1" "$threads" "$nbfs" "$3" |
    grep -v '^<CTestMeasurement' | tail -n 1
}

echo "== Table 1: one rank, SCALE $scale, NBFS $nbfs, threads = min(tasks, $cores)"
printf '%-11s %-6s %12s %8s %10s %10s %10s\n' variant tasks median_s speedup efficiency lock_s redundancy
for variant in "${study[@]}"; do
  # One worker: 1; tasks: the fewest, one more, 4 and 8 (1 2 4 8, or 2 3 4 8
  # where one task receives).
  counts=1
  [[ ${work[$variant]} == single ]] ||
    counts=$(printf '%s\n' "${fewest[$variant]}" $((fewest[$variant] + 1)) 4 8 | sort -nu)
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
for variant in "${study[@]}"; do
  [[ ${work[$variant]} != single ]] || continue
  for pair in "1 4" "2 2" "4 1"; do
    read -r np nt <<<"$pair"
    ((nt >= fewest[$variant])) || continue # where one task receives
    row=$(run "$variant" "$np" "$nt")
    read -r _ _ _ tasks _ teps median _ _ <<<"$row"
    printf '%-11s %-6s %-6s %12.6f %14.4g\n' "$variant" "$np" "$tasks" "$median" "$teps"
  done
done
