# Sourced by the batch scripts beside it (scripts/slurm/ in a checkout,
# <prefix>/share/hybridtasks/slurm/ where installed): where the drivers and
# decks are, how a rank's Kokkos threads are placed, how ranks are launched,
# where results go.  A sweep goes on past a failed run; the job then lists
# the failed runs and exits non-zero.
#
# Environment (all optional):
#   HT_ROOT       the checkout whose scripts/slurm/ the batch script takes
#                 (default: the folder sbatch ran in, if a checkout; else the
#                 HybridTasks installed beside the graph500_bfs on PATH)
#   HT_BIN        the drivers (default: a checkout's build/apps, an
#                 installation's bin/)
#   HT_LAUNCHER   srun (default) or mpirun (Open MPI takes its ranks from the
#                 allocation)
#   HT_SRUN_MPI   srun's --mpi plugin (default: the site's MpiDefault; Open MPI
#                 needs pmix, `srun --mpi=list` shows what the site has)
#   HT_RESULTS    parent of the per-job results folder (default: a checkout's
#                 results/; installed, results/ in the folder sbatch ran in)
#   HT_SET        extra driver options, e.g. "--set Graph500/NBFS=16"
set -euo pipefail
ht_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ $ht_here == */scripts/slurm && -d $ht_here/../../input ]]; then # a checkout
  HT_ROOT=$(cd "$ht_here/../.." && pwd)
  ht_decks=$HT_ROOT/input
  HT_BIN=${HT_BIN:-$HT_ROOT/build/apps}
  HT_RESULTS=${HT_RESULTS:-$HT_ROOT/results}
else # installed: <prefix>/share/hybridtasks/slurm
  ht_decks=$(cd "$ht_here/../input" && pwd)
  HT_BIN=${HT_BIN:-$(cd "$ht_here/../../.." && pwd)/bin}
  HT_RESULTS=${HT_RESULTS:-${SLURM_SUBMIT_DIR:-$PWD}/results}
fi
HT_LAUNCHER=${HT_LAUNCHER:-srun}
read -r -a ht_set <<<"${HT_SET:-}"
# A requeued job (same id, same folder) replaces the files its first start left.
((${SLURM_RESTART_COUNT:-0} == 0)) || ht_set+=(--set Output/overwrite=true)
# ht_driver <driver>: exits 2 unless HT_BIN holds it (ht_launch and ht_list
# check each driver they run).
ht_driver() {
  [[ -x $HT_BIN/$1 ]] || {
    echo "ht_job.sh: no HybridTasks driver $1 in $HT_BIN: build the checkout first (scripts/test or cmake --build), or set HT_BIN to the drivers' folder" >&2
    exit 2
  }
}
[[ -d $HT_BIN ]] && HT_BIN=$(cd "$HT_BIN" && pwd)
case $HT_LAUNCHER in
  srun | mpirun) ;;
  *) echo "ht_job.sh: HT_LAUNCHER=$HT_LAUNCHER: accepted are srun and mpirun" >&2; exit 2 ;;
esac
# Cores per rank: what the job asked for (--cpus-per-task, default 1).
ht_cpus=${SLURM_CPUS_PER_TASK:-1}
# One OpenMP thread per core of the rank, spread over its cores, so Kokkos'
# worker threads neither stack on one core nor migrate.
export OMP_PLACES=${OMP_PLACES:-cores} OMP_PROC_BIND=${OMP_PROC_BIND:-spread}
if [[ $(id -u) -eq 0 && $HT_LAUNCHER == mpirun ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
results=$HT_RESULTS/${SLURM_JOB_NAME:-job}-${SLURM_JOB_ID:-$$}
mkdir -p "$results"
results=$(cd "$results" && pwd)
# The drivers run from the job's folder, so that a results file named by a
# relative path (or a driver's default name) lands there too.
cd "$results"
echo "job ${SLURM_JOB_ID:-?} on ${SLURM_JOB_NUM_NODES:-1} node(s) (${SLURM_JOB_NODELIST:-?}); results in $results"

# ht_launch <ranks> <threads per rank> <driver> <args...>: the driver on
# <ranks> ranks, each bound to <threads> cores, with that many Kokkos threads.
# A failed run is recorded, and the sweep goes on.
ht_runs=0
ht_failed=()
ht_launch() {
  local np=$1 nt=$2 exe=$3 rc=0
  shift 3
  ht_driver "$exe"
  ht_runs=$((ht_runs + 1))
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
  esac || rc=$?
  ((rc == 0)) || ht_failed+=("$np ranks x $nt threads: $exe $* (exit $rc)")
}

# ht_list <driver> <name>: what `<driver> --list <name>` prints, run as one rank.
ht_list() {
  ht_driver "$1"
  case $HT_LAUNCHER in
    srun) srun --ntasks=1 --cpus-per-task=1 ${HT_SRUN_MPI:+--mpi=$HT_SRUN_MPI} "$HT_BIN/$1" --list "$2" ;;
    mpirun) mpirun -np 1 "$HT_BIN/$1" --list "$2" ;;
  esac
}

# At the job's end: the failed runs, if any, and a non-zero exit.
ht_end() {
  local rc=$?
  if ((${#ht_failed[@]})); then
    echo "ht_job.sh: ${#ht_failed[@]} of $ht_runs runs failed:" >&2
    printf '  %s\n' "${ht_failed[@]}" >&2
    ((rc != 0)) || rc=1
  fi
  exit "$rc"
}
trap ht_end EXIT
