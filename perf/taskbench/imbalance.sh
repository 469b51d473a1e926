#!/usr/bin/env bash
# Load imbalance, the reason to over-decompose into tasks: Task Bench's
# load_imbalance kernel (each task's iterations drawn up to (1 + IMBALANCE)
# x ITER), WIDTH points per step on the same cores, every system of
# systems.sh, ROUNDS rounds alternated; prints the median FLOP/s of each and
# its ratio to MPI nonblock's.  The pattern is stencil_1d: each step waits
# for its neighbours, so a slow point holds up the next step, which a static
# split of the points cannot even out and a dynamic schedule can.  (With
# Task Bench's default, trivial, nothing waits, and over 200 steps every
# split evens out: all systems are within 1% there.)
#   imbalance.sh <ht_taskbench> [<ht_taskbench of another build> ...]
#   TYPE=stencil_1d WIDTH=16 STEPS=200 ITER=65536 IMBALANCE=1.0 ROUNDS=3 CORES=2
set -euo pipefail
source "$(dirname "$0")/../common/mpirun.sh"
cores=${CORES:-2} width=${WIDTH:-16} steps=${STEPS:-200} iter=${ITER:-65536}
source "$(dirname "$0")/systems.sh"
for ((r = 0; r < ${ROUNDS:-3}; ++r)); do
  for system in "${order[@]}"; do
    # shellcheck disable=SC2086
    ${cmd[$system]} -steps "$steps" -width "$width" -type "${TYPE:-stencil_1d}" \
      -kernel load_imbalance -iter "$iter" \
      -imbalance "${IMBALANCE:-1.0}" >"$out/run.log" 2>&1 ||
      { cat "$out/run.log" >&2; echo "imbalance.sh: $system failed" >&2; exit 1; }
    awk -v s="$system" '/^FLOP\/s/ { print s, $2 }' "$out/run.log" >>"$out/flops"
  done
done
median() { grep "^$1 " "$out/flops" | awk '{print $2}' | sort -g | awk '{ x[NR] = $1 }
  END { print (NR % 2) ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }'; }
ref=$(median "mpi-nonblock-${cores}x1" 2>/dev/null || true)
echo "| system | median FLOP/s | / MPI nonblock |"
echo "|---|---|---|"
for system in "${order[@]}"; do
  m=$(median "$system")
  awk -v s="$system" -v m="$m" -v r="${ref:-0}" \
    'BEGIN { printf "| %s | %.3g | %s |\n", s, m, (r > 0 ? sprintf("%.3f", m / r) : "") }'
done
