#!/usr/bin/env bash
# The batch scripts of scripts/slurm/ on a real Slurm: Debian's slurm-wlm and
# munge as a one-node cluster on this machine, started here and stopped at
# the end.  The build is installed (cmake --install) into a prefix outside
# the clone, and each script is submitted as installed, from a folder outside
# the clone with only the prefix's bin/ on PATH (one from the checkout
# instead), at a tiny size with sbatch --wait; the job must succeed, launch
# with the launcher asked for (srun by default, as a site with
# MpiDefault=pmix has it; mpirun once), its driver must print its validated
# verdict (or its checked counts), and every results file it wrote must read
# back with the rank and thread counts the job asked for.  Then a sweep with
# failing runs must go on, list them and exit non-zero, and a job that finds
# no HybridTasks must say so and exit 2.  No job output may hold a Python
# traceback or bash's "No such file or directory" / "command not found".
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
# Outside the clone: the installation and the folder jobs are submitted from.
away=$(mktemp -d /tmp/ht-slurm-jobs.XXXXXX)
prefix=$away/prefix
mkdir -p "$away/run"
cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" ||
  { cat "$scratch/install.log"; say "cmake --install failed"; exit 1; }
# What each BFS variant reports, for check_graph500_results.py.
export HT_BFS_VARIANTS=$scratch/bfs_variants.txt
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$build/apps/graph500_bfs" \
  --list variants >"$HT_BFS_VARIANTS"
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
MpiDefault=pmix
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
  rm -rf "$away"
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
noise='Traceback|No such file or directory|command not found'
# sbatch_job <where> <out> <script name> <sbatch options...> -- <environment...>:
# sbatch --wait's exit code.  <where>: checkout (from the clone, its build's
# drivers) or installed (the installed script, from a folder outside the
# clone, the prefix's bin/ first on PATH, nothing else set); or nowhere (the
# installed script, nothing of HybridTasks on PATH).
sbatch_job() {
  local where=$1 out=$2 name=$3
  shift 3
  local opts=() envs=()
  while (($#)) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
  (($#)) && shift
  envs=("$@")
  say "sbatch ${opts[*]} $name.sbatch ($where; ${envs[*]})"
  local rc=0
  case $where in
    checkout)
      (cd "$src" && env "${envs[@]}" HT_BIN="$build/apps" HT_RESULTS="$scratch/results" \
        timeout 300 sbatch --wait --output="$out" "${opts[@]}" "scripts/slurm/$name.sbatch" \
        >/dev/null) || rc=$? ;;
    installed | nowhere)
      local path=$PATH
      [[ $where == nowhere ]] || path=$prefix/bin:$PATH
      (cd "$away/run" && env "${envs[@]}" PATH="$path" timeout 300 sbatch --wait \
        --output="$out" "${opts[@]}" "$prefix/share/hybridtasks/slurm/$name.sbatch" \
        >/dev/null) || rc=$? ;;
  esac
  return "$rc"
}

# submit <where> <script> <expect regex> <ranks> <sbatch options...> -- <environment...>
# <ranks>: the ranks every run must have had; "RxT": from the file names
# (<anything>-<ranks>x<threads>.h5).  HT_LAUNCHER in the environment: the
# launcher the job must have used (default srun).
submit() {
  local where=$1 script=$2 expect=$3 want_ranks=$4
  shift 4
  local name launcher=srun e
  name=$(basename "$script" .sbatch)
  for e in "$@"; do [[ $e == HT_LAUNCHER=* ]] && launcher=${e#HT_LAUNCHER=}; done
  local out=$scratch/$name-$launcher-$where.out
  local rc=0
  sbatch_job "$where" "$out" "$name" "$@" || rc=$?
  local why=""
  if ((rc != 0)); then
    why="sbatch exit $rc"
  elif ! grep -Eq "$expect" "$out" 2>/dev/null; then
    why="expected /$expect/ in its output"
  elif grep -Eq "$noise" "$out"; then
    why="/$noise/ in its output"
  elif ! grep -q "^+ $launcher: " "$out" || grep -v "^+ $launcher: " "$out" | grep -q "^+ [a-z]*: "; then
    why="not every run was launched by $launcher"
  elif [[ $where == installed && $(sed -n 's/.*results in //p' "$out") != "$away/run/results/"* ]]; then
    why="its results are not in results/ of the folder sbatch ran in"
  fi
  if [[ -n $why ]]; then
    cat "$out" 2>/dev/null || squeue
    scancel --user="$(id -un)" 2>/dev/null || true # our own cluster: its only jobs
    say "FAILED: $name ($why)"
    failed=$((failed + 1))
    return
  fi
  local dir
  dir=$(sed -n 's/.*results in //p' "$out" | head -n 1)
  local files=("$dir"/*.h5)
  [[ -e ${files[0]} ]] || { cat "$out" || true; say "FAILED: $name wrote no results file"; failed=$((failed + 1)); return; }
  for f in "${files[@]}"; do
    local ranks threads variant expect_ranks=$want_ranks
    ranks=$("$python" -c "import h5py,sys; print(int(h5py.File(sys.argv[1])['/'].attrs['ranks']))" "$f")
    threads=$("$python" -c "import h5py,sys; print(int(h5py.File(sys.argv[1])['/'].attrs['threads_per_rank']))" "$f")
    if [[ $want_ranks == RxT ]]; then
      [[ $f =~ -([0-9]+)x([0-9]+)\.h5$ ]] || { say "FAILED: $name: $f is not named <ranks>x<threads>"; failed=$((failed + 1)); return; }
      expect_ranks=${BASH_REMATCH[1]}
      ((threads == BASH_REMATCH[2])) || { say "FAILED: $name: $f ran $threads threads per rank"; failed=$((failed + 1)); return; }
    fi
    # A launcher that starts ranks without a PMI gives worlds of one rank each.
    ((ranks == expect_ranks)) || { cat "$out"; say "FAILED: $name: $f ran on $ranks rank(s), not $expect_ranks"; failed=$((failed + 1)); return; }
    case $name in
      gemm*) "$python" "$src/tests/apps/check_gemm_results.py" "$f" "$ranks" "$threads" ;;
      uts*) "$python" "$src/tests/apps/check_uts_results.py" "$f" "$ranks" "$threads" T3 4112897 \
        3599034 1572 ;;
      *)
        variant=$("$python" -c "import h5py,sys; v=h5py.File(sys.argv[1])['/'].attrs['variant']; print(v.decode() if isinstance(v, bytes) else v)" "$f")
        "$python" "$src/tests/apps/check_graph500_results.py" "$f" "$ranks" "$threads" "$variant" ;;
    esac || { say "FAILED: $name: $f does not read back"; failed=$((failed + 1)); return; }
    # The weak-scaling job runs kernel 2 (BFS) alone.
    if [[ $name == graph500_weak ]] && "$python" -c "import h5py,sys; n=[]; h5py.File(sys.argv[1]).visit(n.append); sys.exit(not any('sssp' in x.lower() for x in n))" "$f"; then
      say "FAILED: $name: $f has SSSP results"; failed=$((failed + 1)); return
    fi
  done
  say "ok: $name by $launcher, $where (${#files[@]} results file(s) in $dir)"
}

cores=$(nproc)
small_gemm="HT_SET=--set GEMM/N=96 --set GEMM/tile=16 --set GEMM/repetitions=1"
small_graph="HT_SET=--set Graph500/SCALE=9 --set Graph500/NBFS=4"
submit checkout gemm_study_n20000 "Freivalds .*PASSED" 1 --cpus-per-task="$cores" -- "$small_gemm"
submit installed gemm_study_n45000 "Freivalds .*PASSED" 1 --nodes=1 --cpus-per-task="$cores" -- "$small_gemm"
submit installed graph500_scale20_mix "BFS +4/4: .*valid" RxT --ntasks="$cores" --cpus-per-task=1 -- \
  "$small_graph" "HT_VARIANTS=nonlocking atomic"
submit installed graph500_weak "weak scaling: 1 node\(s\), SCALE 8" 1 --cpus-per-task="$cores" -- \
  HT_BASE_SCALE=8 "HT_SET=--set Graph500/NBFS=4"
submit installed uts_stealing "counts: +match T3" "$cores" --ntasks="$cores" --cpus-per-task=1 -- HT_TREE=T3
submit installed uts_stealing "counts: +match T3" "$cores" --ntasks="$cores" --cpus-per-task=1 -- HT_TREE=T3 \
  HT_LAUNCHER=mpirun
passed=$((6 - failed))

# expect_failure <label> <exit> <check> <sbatch_job arguments...>: the job
# exits <exit>, `<check> <output file>` succeeds, and the output holds no $noise.
expect_failure() {
  local label=$1 want=$2 check=$3 out=$scratch/$1.out rc=0
  shift 3
  sbatch_job "$1" "$out" "${@:2}" || rc=$?
  if ((rc != want)) || ! "$check" "$out" || grep -Eq "$noise" "$out"; then
    cat "$out" 2>/dev/null || squeue
    scancel --user="$(id -un)" 2>/dev/null || true
    say "FAILED: $label (exit $rc, expected $want; see $check; no /$noise/)"
    failed=$((failed + 1))
    return
  fi
  say "ok: $label (exit $rc)"
  passed=$((passed + 1))
}
# A sweep goes on past its failed runs (a variant no driver has, one run per
# split of the cores, first), runs the rest, lists the failed ones at its end
# and exits 1.
splits=0
for ((r = 1; r <= cores; ++r)); do ((cores % r)) || splits=$((splits + 1)); done
sweep_listed() {
  (($(grep -c '^+ srun: .*variant=nosuch' "$1") == splits)) &&
    (($(grep -Ec 'BFS +4/4: .*valid' "$1") == splits)) &&
    grep -qx "ht_job.sh: $splits of $((2 * splits)) runs failed:" "$1" &&
    (($(grep -Ec '^  [0-9]+ ranks x [0-9]+ threads: graph500_bfs .*Graph500/variant=nosuch .*\(exit [1-9][0-9]*\)$' "$1") == splits))
}
expect_failure sweep_past_failures 1 sweep_listed installed graph500_scale20_mix \
  --ntasks="$cores" --cpus-per-task=1 -- "$small_graph" "HT_VARIANTS=nosuch atomic"
# No checkout where sbatch ran and no drivers on PATH: it says so as the job
# starts, exit 2, before any run.
not_found_said() {
  grep -q "^HybridTasks not found: no scripts/slurm/ in $away/run .*no graph500_bfs on PATH" "$1" &&
    ! grep -q -e '^+ ' -e 'results in' "$1"
}
expect_failure not_found 2 not_found_said nowhere graph500_weak --cpus-per-task="$cores" --
echo "$passed passed, $failed failed"
((failed == 0))
