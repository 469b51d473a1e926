#!/usr/bin/env bash
# The batch scripts of scripts/slurm/ on a real Slurm: Debian's slurm-wlm and
# munge as a one-node cluster on this machine, started here and stopped at
# the end.  Each script is submitted at a tiny size with sbatch --wait; the
# job must succeed, its driver must print its validated verdict (or its
# checked counts), and every results file it wrote must read back.
#   slurm_jobs.sh <source dir> <build dir> <scratch dir>
set -euo pipefail
src=$1
build=$2
scratch=$3
python=/usr/bin/python3
say() { printf '[slurm test] %s\n' "$*"; }

# --- Slurm and munge, installed if missing ---
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  [[ $(id -u) -eq 0 ]] || { say "slurm-wlm and munge are missing and this is not root"; exit 1; }
  say "installing slurm-wlm and munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >"$scratch.apt.log" 2>&1 || {
    apt-get update -q >>"$scratch.apt.log" 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >>"$scratch.apt.log" 2>&1
  } || { cat "$scratch.apt.log"; say "could not install slurm-wlm and munge"; exit 1; }
fi

rm -rf "$scratch"
mkdir -p "$scratch/state" "$scratch/spool" "$scratch/results"
host=$(hostname)
conf=$scratch/slurm.conf
# Ports of its own, so that a site's Slurm on this machine is left alone.
cat >"$conf" <<CONF
ClusterName=hybridtasks-test
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$conf

started_munge=0
stop() {
  for d in slurmd slurmctld; do
    [[ -f $scratch/$d.pid ]] && kill "$(cat "$scratch/$d.pid")" 2>/dev/null || true
  done
  if ((started_munge)); then pkill -x munged || true; fi
}
trap stop EXIT

if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  mkdir -p /run/munge
  chown munge:munge /run/munge 2>/dev/null || true
  munged --force 2>/dev/null || { say "munged did not start"; exit 1; }
  started_munge=1
fi
slurmctld -f "$conf"
slurmd -f "$conf"
for ((i = 0; i < 30; ++i)); do
  sinfo -h -o %t 2>/dev/null | grep -qx idle && break
  sleep 1
done
sinfo -h -o %t | grep -qx idle || { sinfo; cat "$scratch/slurmctld.log"; say "the node never became idle"; exit 1; }
say "one-node cluster up: $(sinfo -h -o '%P %D %t %c')"

failed=0
# submit <script> <expect regex> <sbatch options...> -- <environment...>
submit() {
  local script=$1 expect=$2
  shift 2
  local opts=() envs=()
  while (($#)) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
  (($#)) && shift
  envs=("$@")
  local name
  name=$(basename "$script" .sbatch)
  local out=$scratch/$name.out
  say "sbatch ${opts[*]} $script (${envs[*]})"
  local rc=0
  (cd "$src" && env "${envs[@]}" HT_ROOT="$src" HT_BIN="$build/apps" \
    HT_RESULTS="$scratch/results" timeout 300 sbatch --wait --output="$out" "${opts[@]}" \
    "scripts/slurm/$name.sbatch" >/dev/null) || rc=$?
  if ((rc != 0)) || ! grep -Eq "$expect" "$out" 2>/dev/null; then
    cat "$out" 2>/dev/null || squeue
    scancel --user="$(id -un)" 2>/dev/null || true # our own cluster: its only jobs
    say "FAILED: $name (sbatch exit $rc, expected /$expect/ in its output)"
    failed=$((failed + 1))
    return
  fi
  local dir
  dir=$(sed -n 's/.*results in //p' "$out" | head -n 1)
  local files=("$dir"/*.h5)
  [[ -e ${files[0]} ]] || { cat "$out" || true; say "FAILED: $name wrote no results file"; failed=$((failed + 1)); return; }
  for f in "${files[@]}"; do
    local ranks threads variant
    ranks=$("$python" -c "import h5py,sys; print(int(h5py.File(sys.argv[1])['/'].attrs['ranks']))" "$f")
    threads=$("$python" -c "import h5py,sys; print(int(h5py.File(sys.argv[1])['/'].attrs['threads_per_rank']))" "$f")
    case $name in
      gemm*) "$python" "$src/tests/apps/check_gemm_results.py" "$f" "$ranks" "$threads" ;;
      uts*) "$python" "$src/tests/apps/check_uts_results.py" "$f" "$ranks" "$threads" T3 4112897 \
        3599034 1572 ;;
      *)
        variant=$("$python" -c "import h5py,sys; v=h5py.File(sys.argv[1])['/'].attrs['variant']; print(v.decode() if isinstance(v, bytes) else v)" "$f")
        "$python" "$src/tests/apps/check_graph500_results.py" "$f" "$ranks" "$threads" "$variant" ;;
    esac || { say "FAILED: $name: $f does not read back"; failed=$((failed + 1)); return; }
  done
  say "ok: $name (${#files[@]} results file(s) in $dir)"
}

cores=$(nproc)
small_gemm="HT_SET=--set GEMM/N=96 --set GEMM/tile=16 --set GEMM/repetitions=1"
small_graph="HT_SET=--set Graph500/SCALE=9 --set Graph500/NBFS=4"
submit gemm_study_n20000 "Freivalds .*PASSED" --cpus-per-task="$cores" -- "$small_gemm"
submit gemm_study_n45000 "Freivalds .*PASSED" --nodes=1 --cpus-per-task="$cores" -- "$small_gemm"
submit graph500_scale20_mix "BFS +4/4: .*valid" --ntasks="$cores" --cpus-per-task=1 -- "$small_graph" \
  "HT_VARIANTS=nonlocking atomic"
submit graph500_weak "weak scaling: 1 node\(s\), SCALE 8" --cpus-per-task="$cores" -- \
  HT_BASE_SCALE=8 "HT_SET=--set Graph500/NBFS=4"
submit uts_stealing "counts: +match T3" --ntasks="$cores" --cpus-per-task=1 -- HT_TREE=T3
echo "$((5 - failed)) passed, $failed failed"
((failed == 0))
