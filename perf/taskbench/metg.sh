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
#   PATTERNS="stencil_1d nearest" KMAX=18 KMIN=4 STEPS=1000 CORES=2 (defaults)
#   OTHERS=graph2x1 : HybridTasks graph 2 x 1 and MPI nonblock only for the
#   patterns after the first two (the 'every other pattern' comparison).
set -euo pipefail
outdir=$1
shift
source "$(dirname "$0")/../common/mpirun.sh"
cores=${CORES:-2} steps=${STEPS:-1000} kmax=${KMAX:-18} kmin=${KMIN:-4}
patterns=${PATTERNS:-stencil_1d nearest}
mkdir -p "$outdir"
if [[ -n ${HT_TASKBENCH_DIR:-} ]]; then
  for v in MPI_NONBLOCK:mpi/nonblock MPI_BULK:mpi/bulk_synchronous MPI_OPENMP:mpi_openmp/forall \
    OPENMP:openmp/main STARPU:starpu/main; do
    var=HT_TASKBENCH_${v%%:*} exe=$HT_TASKBENCH_DIR/${v#*:}
    [[ -n ${!var:-} || ! -x $exe ]] || export "$var=$exe"
  done
fi
csv=$outdir/sweep.csv
echo "system,pattern,iter,elapsed,flops,tasks" >"$csv"

# system name -> command prefix (the graph's flags follow).
declare -A cmd
order=()
add() {
  order+=("$1")
  cmd[$1]=$2
}
for exe in "$@"; do
  rt=$("$exe" -steps 1 -width 1 2>/dev/null | sed -n 's/^HybridTasks [a-z]* mode, \([a-z-]*\),.*/\1/p')
  for mode in graph spawn; do
    add "ht-$rt-$mode-1x$cores" "mpirun -np 1 ${flags[*]} $exe -mode $mode --kokkos-num-threads=$cores"
    add "ht-$rt-$mode-${cores}x1" "mpirun -np $cores ${flags[*]} $exe -mode $mode --kokkos-num-threads=1"
  done
done
[[ -z ${HT_TASKBENCH_MPI_NONBLOCK:-} ]] ||
  add "mpi-nonblock-${cores}x1" "mpirun -np $cores ${flags[*]} $HT_TASKBENCH_MPI_NONBLOCK"
[[ -z ${HT_TASKBENCH_MPI_BULK:-} ]] ||
  add "mpi-bulk_synchronous-${cores}x1" "mpirun -np $cores ${flags[*]} $HT_TASKBENCH_MPI_BULK"
if [[ -n ${HT_TASKBENCH_MPI_OPENMP:-} ]]; then
  add "mpi+openmp-forall-1x$cores" "mpirun -np 1 ${flags[*]} -x OMP_NUM_THREADS=$cores $HT_TASKBENCH_MPI_OPENMP"
  add "mpi+openmp-forall-${cores}x1" "mpirun -np $cores ${flags[*]} -x OMP_NUM_THREADS=1 $HT_TASKBENCH_MPI_OPENMP"
fi
[[ -z ${HT_TASKBENCH_OPENMP:-} ]] || add "openmp-tasks-1x$cores" "$HT_TASKBENCH_OPENMP -worker $cores"
[[ -z ${HT_TASKBENCH_STARPU:-} ]] || add "starpu-1x$cores" "$HT_TASKBENCH_STARPU -core $cores"

first_two=$(echo "$patterns" | awk '{print $1, $2}')
for pattern in $patterns; do
  for ((k = kmax; k >= kmin; --k)); do
    for system in "${order[@]}"; do
      if [[ " $first_two " != *" $pattern "* && -n ${OTHERS:-} ]]; then
        [[ $system == ht-*-graph-${cores}x1 || $system == mpi-nonblock-* ]] || continue
      fi
      log=$out/run.log
      # shellcheck disable=SC2086
      ${cmd[$system]} -steps "$steps" -width "$cores" -type "$pattern" -kernel compute_bound \
        -iter $((1 << k)) >"$log" 2>&1 || { cat "$log" >&2; echo "metg.sh: $system failed" >&2; exit 1; }
      awk -v s="$system" -v p="$pattern" -v i=$((1 << k)) '
        /^Total Tasks/ { t = $3 } /^Elapsed Time/ { e = $3 } /^FLOP\/s/ { f = $2 }
        END { if (e == "") exit 1; printf "%s,%s,%d,%s,%s,%s\n", s, p, i, e, f, t }' "$log" >>"$csv"
    done
  done
  echo "metg.sh: $pattern swept" >&2
done
/usr/bin/python3 "$(dirname "$0")/metg.py" "$csv" "$cores" "$outdir"
