#!/usr/bin/env bash
# METG(50%), Task Bench's headline figure: the smallest task granularity at
# which a system still reaches half its peak FLOP/s.  Sweeps -kernel
# compute_bound -iter 2^k, k from KMAX down to KMIN, -steps STEPS -width =
# cores, for HybridTasks (each given build, both modes, 1 x cores and
# cores x 1) and Task Bench's own MPI (nonblock, bulk_synchronous), MPI+OpenMP
# (forall), OpenMP and StarPU, alternated at each k on the same cores.
# Granularity = elapsed x cores / tasks; efficiency = FLOP/s / the system's
# peak over the sweep.  Writes <outdir>/sweep.csv, metg.md (the table) and
# metg.png (efficiency against granularity) via metg.py.
#   metg.sh <outdir> <ht_taskbench> [<ht_taskbench of another build> ...]
# Task Bench's binaries come from build_reference.sh's variables
# (HT_TASKBENCH_MPI_NONBLOCK, ...), or from HT_TASKBENCH_DIR's tree where
# those are unset; a missing one is skipped.
#   PATTERNS="stencil_1d nearest" KMAX=16 KMIN=4 STEPS=1000 CORES=2 (defaults)
#   OTHERS=1: for patterns other than stencil_1d and nearest, only
#   HybridTasks' graph mode on cores x 1 and MPI nonblock (the 'every other
#   pattern' comparison).
set -euo pipefail
outdir=$1
shift
source "$(dirname "$0")/../common/mpirun.sh"
cores=${CORES:-2} steps=${STEPS:-1000} kmax=${KMAX:-16} kmin=${KMIN:-4}
patterns=${PATTERNS:-stencil_1d nearest}
mkdir -p "$outdir"
csv=$outdir/sweep.csv
echo "system,pattern,iter,elapsed,flops,tasks" >"$csv"

source "$(dirname "$0")/systems.sh"

# spread at width 2 takes radix 2 and period 1 at most (core refuses more).
declare -A extra=([spread]="-radix 2 -period 1")
for pattern in $patterns; do
  for ((k = kmax; k >= kmin; --k)); do
    for system in "${order[@]}"; do
      if [[ $pattern != stencil_1d && $pattern != nearest && -n ${OTHERS:-} ]]; then
        [[ $system == ht-*-graph-${cores}x1 || $system == mpi-nonblock-* ]] || continue
      fi
      log=$out/run.log
      # shellcheck disable=SC2086
      ${cmd[$system]} -steps "$steps" -width "$cores" -type "$pattern" ${extra[$pattern]:-} \
        -kernel compute_bound \
        -iter $((1 << k)) >"$log" 2>&1 || { cat "$log" >&2; echo "metg.sh: $system failed" >&2; exit 1; }
      awk -v s="$system" -v p="$pattern" -v i=$((1 << k)) '
        /^Total Tasks/ { t = $3 } /^Elapsed Time/ { e = $3 } /^FLOP\/s/ { f = $2 }
        END { if (e == "") exit 1; printf "%s,%s,%d,%s,%s,%s\n", s, p, i, e, f, t }' "$log" >>"$csv"
    done
  done
  echo "metg.sh: $pattern swept" >&2
done
/usr/bin/python3 "$(dirname "$0")/metg.py" "$csv" "$cores" "$outdir"
