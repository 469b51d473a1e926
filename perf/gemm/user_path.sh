#!/usr/bin/env bash
# The task GEMM as a user runs it (cannon_gemm on the default deck, 1 rank x
# 2 threads, launched by hand as the README shows) under each OpenMP binding
# a user may have, against bench_gemm's task GEMM, alternated over rounds in
# one run.  Reports the median GFLOP/s of each and the ratio to bench_gemm,
# as CTest measurements; scripts/bench checks them against a baseline.
#   user_path.sh <cannon_gemm> <bench_gemm> [rounds] [N]
set -euo pipefail
app=$1
bench=$2
rounds=${3:-5}
n=${4:-2048}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/perf/common/mpirun.sh"
source "$root/perf/measure.sh"

driver() { # env... -> GFLOP/s of the median repetition
  env "$@" mpirun -np 1 "${flags[@]}" "$app" "$root/input/gemm_default.xml" --set GEMM/N="$n" \
    --set Output/file="$out/g.h5" --set Output/overwrite=true --kokkos-num-threads=2 2>&1 |
    awk '/^time .*GFLOP/ {for (i = 2; i <= NF; ++i) if ($i == "GFLOP/s") print $(i-1)}'
}
benchmark() {
  env "$@" mpirun -np 1 "${flags[@]}" "$bench" --n="$n" --tiles=256 --reps=3 --ref-threads=2 \
    --kokkos-num-threads=2 2>&1 | awk '/task GEMM/ {for (i = 1; i < NF; ++i) if ($i == "GEMM") print $(i+1)}'
}
declare -A runs=()
configs=(unset false spread bench)
for ((r = 0; r < rounds; ++r)); do
  for c in "${configs[@]}"; do
    case $c in
      unset) x=$(driver -u OMP_PROC_BIND -u OMP_PLACES) ;;
      false) x=$(driver -u OMP_PLACES OMP_PROC_BIND=false) ;;
      spread) x=$(driver OMP_PROC_BIND=spread OMP_PLACES=threads) ;;
      bench) x=$(benchmark -u OMP_PLACES OMP_PROC_BIND=false) ;;
    esac
    runs[$c]+="$x "
  done
done
med() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
b=$(med "${runs[bench]}")
echo "== task GEMM, N = $n, 1 rank x 2 threads, $rounds alternated rounds (GFLOP/s)"
for c in "${configs[@]}"; do
  m=$(med "${runs[$c]}")
  label=$([[ $c == bench ]] && echo "bench_gemm (OMP_PROC_BIND=false)" || echo "cannon_gemm, OMP_PROC_BIND=$c")
  awk -v l="$label" -v m="$m" -v b="$b" -v r="${runs[$c]}" \
    'BEGIN { printf "%-40s median %6.1f  ratio to bench %.2f   runs: %s\n", l, m, m / b, r }'
  [[ $c == bench ]] || ht_measure "gemm_user_path_bind_${c}_over_bench" \
    "$(awk -v m="$m" -v b="$b" 'BEGIN { printf "%.4f", m / b }')"
done
