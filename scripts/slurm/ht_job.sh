# Sourced by the batch scripts in scripts/slurm/: where the build is, how a
# rank's Kokkos threads are placed, how ranks are launched, where results go.
#
# Environment (all optional):
#   HT_ROOT       the HybridTasks checkout (default: the directory sbatch ran in)
#   HT_BIN        the drivers (default: $HT_ROOT/build/apps)
#   HT_LAUNCHER   mpirun (default: Open MPI takes its ranks from the allocation)
#                 or srun (then HT_SRUN_MPI names the PMI plugin, e.g. pmix)
#   HT_RESULTS    parent of the per-job results directory (default: $HT_ROOT/results)
#   HT_SET        extra driver options, e.g. "--set Graph500/NBFS=16"
set -euo pipefail
HT_ROOT=${HT_ROOT:-${SLURM_SUBMIT_DIR:-$PWD}}
HT_BIN=${HT_BIN:-$HT_ROOT/build/apps}
HT_LAUNCHER=${HT_LAUNCHER:-mpirun}
read -r -a ht_set <<<"${HT_SET:-}"
[[ -x $HT_BIN/cannon_gemm && -x $HT_BIN/graph500_bfs && -x $HT_BIN/uts ]] || {
  echo "no drivers in $HT_BIN: build first (scripts/test or cmake --build), or set HT_BIN" >&2
  exit 2
}
# One OpenMP thread per core of the rank, spread over its cores, so Kokkos'
# worker threads neither stack on one core nor migrate.
export OMP_PLACES=${OMP_PLACES:-cores} OMP_PROC_BIND=${OMP_PROC_BIND:-spread}
if [[ $(id -u) -eq 0 && $HT_LAUNCHER == mpirun ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
results=${HT_RESULTS:-$HT_ROOT/results}/${SLURM_JOB_NAME:-job}-${SLURM_JOB_ID:-$$}
mkdir -p "$results"
echo "job ${SLURM_JOB_ID:-?} on ${SLURM_JOB_NUM_NODES:-1} node(s) (${SLURM_JOB_NODELIST:-?}); results in $results"

# ht_launch <ranks> <threads per rank> <driver> <args...>: the driver on
# <ranks> ranks, each bound to <threads> cores, with that many Kokkos threads.
ht_launch() {
  local np=$1 nt=$2 exe=$3
  shift 3
  echo "+ $np ranks x $nt threads: $(basename "$exe") $*"
  case $HT_LAUNCHER in
    mpirun)
      OMP_NUM_THREADS=$nt mpirun -np "$np" --map-by "slot:PE=$nt" --bind-to core \
        "$HT_BIN/$exe" "$@" "${ht_set[@]}" --kokkos-num-threads="$nt" ;;
    srun)
      OMP_NUM_THREADS=$nt srun --ntasks="$np" --cpus-per-task="$nt" --cpu-bind=cores \
        ${HT_SRUN_MPI:+--mpi=$HT_SRUN_MPI} "$HT_BIN/$exe" "$@" "${ht_set[@]}" \
        --kokkos-num-threads="$nt" ;;
    *)
      echo "HT_LAUNCHER=$HT_LAUNCHER: accepted are mpirun and srun" >&2
      exit 2 ;;
  esac
}
