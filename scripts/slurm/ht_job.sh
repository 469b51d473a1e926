# Sourced by the batch scripts in scripts/slurm/: where the build is, how a
# rank's Kokkos threads are placed, how ranks are launched, where results go.
#
# Environment (all optional):
#   HT_ROOT       the HybridTasks checkout (default: the directory sbatch ran in)
#   HT_BIN        the drivers (default: $HT_ROOT/build/apps; an installed
#                 HybridTasks: its bin/, e.g. after `spack load hybridtasks`)
#   HT_LAUNCHER   srun (default) or mpirun (Open MPI takes its ranks from the
#                 allocation)
#   HT_SRUN_MPI   srun's --mpi plugin (default: the site's MpiDefault; Open MPI
#                 needs pmix, `srun --mpi=list` shows what the site has)
#   HT_RESULTS    parent of the per-job results folder (default: $HT_ROOT/results)
#   HT_SET        extra driver options, e.g. "--set Graph500/NBFS=16"
set -euo pipefail
HT_ROOT=$(cd "${HT_ROOT:-${SLURM_SUBMIT_DIR:-$PWD}}" && pwd)
HT_BIN=${HT_BIN:-$HT_ROOT/build/apps}
HT_LAUNCHER=${HT_LAUNCHER:-srun}
read -r -a ht_set <<<"${HT_SET:-}"
# A requeued job (same id, same folder) replaces the files its first start left.
((${SLURM_RESTART_COUNT:-0} == 0)) || ht_set+=(--set Output/overwrite=true)
[[ -x $HT_BIN/cannon_gemm && -x $HT_BIN/graph500_bfs && -x $HT_BIN/uts ]] || {
  echo "no drivers in $HT_BIN: build first (scripts/test or cmake --build), or set HT_BIN" >&2
  exit 2
}
HT_BIN=$(cd "$HT_BIN" && pwd)
case $HT_LAUNCHER in
  srun | mpirun) ;;
  *) echo "HT_LAUNCHER=$HT_LAUNCHER: accepted are srun and mpirun" >&2; exit 2 ;;
esac
# Cores per rank: what the job asked for (--cpus-per-task, default 1).
ht_cpus=${SLURM_CPUS_PER_TASK:-1}
# One OpenMP thread per core of the rank, spread over its cores, so Kokkos'
# worker threads neither stack on one core nor migrate.
export OMP_PLACES=${OMP_PLACES:-cores} OMP_PROC_BIND=${OMP_PROC_BIND:-spread}
if [[ $(id -u) -eq 0 && $HT_LAUNCHER == mpirun ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
results=${HT_RESULTS:-$HT_ROOT/results}/${SLURM_JOB_NAME:-job}-${SLURM_JOB_ID:-$$}
mkdir -p "$results"
results=$(cd "$results" && pwd)
# The drivers run from the job's folder, so that a results file named by a
# relative path (or a driver's default name) lands there too.
cd "$results"
echo "job ${SLURM_JOB_ID:-?} on ${SLURM_JOB_NUM_NODES:-1} node(s) (${SLURM_JOB_NODELIST:-?}); results in $results"

# ht_launch <ranks> <threads per rank> <driver> <args...>: the driver on
# <ranks> ranks, each bound to <threads> cores, with that many Kokkos threads.
ht_launch() {
  local np=$1 nt=$2 exe=$3
  shift 3
  echo "+ $HT_LAUNCHER: $np ranks x $nt threads: $exe $*"
  case $HT_LAUNCHER in
    srun)
      # srun does not inherit the job's --cpus-per-task (Slurm 22.05 and
      # later): each step says its own.
      OMP_NUM_THREADS=$nt srun --ntasks="$np" --cpus-per-task="$nt" --cpu-bind=cores \
        ${HT_SRUN_MPI:+--mpi=$HT_SRUN_MPI} "$HT_BIN/$exe" "$@" "${ht_set[@]}" \
        --kokkos-num-threads="$nt" ;;
    mpirun)
      OMP_NUM_THREADS=$nt mpirun -np "$np" --map-by "slot:PE=$nt" --bind-to core \
        "$HT_BIN/$exe" "$@" "${ht_set[@]}" --kokkos-num-threads="$nt" ;;
  esac
}
