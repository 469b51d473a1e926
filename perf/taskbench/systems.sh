# Sourced by metg.sh and imbalance.sh: the systems they run side by side.
# Sets order (system names, in run order) and cmd[name] (the command prefix,
# Task Bench's graph flags follow), for each HybridTasks build given in "$@"
# (both modes, 1 x cores and cores x 1) and each Task Bench implementation
# found: build_reference.sh's variables, or HT_TASKBENCH_DIR's tree where
# those are unset.  Needs flags (common/mpirun.sh) and cores.
if [[ -n ${HT_TASKBENCH_DIR:-} ]]; then
  for v in MPI_NONBLOCK:mpi/nonblock MPI_BULK:mpi/bulk_synchronous MPI_OPENMP:mpi_openmp/forall \
    OPENMP:openmp/main STARPU:starpu/main; do
    var=HT_TASKBENCH_${v%%:*} exe=$HT_TASKBENCH_DIR/${v#*:}
    [[ -n ${!var:-} || ! -x $exe ]] || export "$var=$exe"
  done
fi
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
