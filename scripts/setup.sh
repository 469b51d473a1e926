# Sourced by scripts/run, scripts/test and scripts/bench: installs what is
# missing (scripts/deps.sh), configures once and builds.  Defines ht_mpirun.
set -euo pipefail
HT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# HT_TASKS=kokkos|openmp picks the task runtime (empty: as configure decides,
# see docs/install.md); each named one builds in its own directory.
HT_TASKS=${HT_TASKS:-}
case $HT_TASKS in
"" | kokkos | openmp) ;;
*)
  printf '[hybridtasks] error: HT_TASKS=%s is not a task runtime; accepted: kokkos, openmp\n' "$HT_TASKS" >&2
  exit 2
  ;;
esac
HT_BUILD=${HT_BUILD_DIR:-$HT_ROOT/build${HT_TASKS:+-$HT_TASKS}}

ht_say() { printf '[hybridtasks] %s\n' "$*" >&2; }

ht_setup() {
  local prefix
  prefix=$("$HT_ROOT/scripts/deps.sh")
  # (Re)configure when new, or when the dependencies moved (their *_DIR are cached).
  if [[ ! -f $HT_BUILD/build.ninja ]] ||
    ! grep -qx "CMAKE_PREFIX_PATH:[A-Z]*=$prefix" "$HT_BUILD/CMakeCache.txt" 2>/dev/null ||
    ! grep -qx "HT_TASKS:[A-Z]*=$HT_TASKS" "$HT_BUILD/CMakeCache.txt" 2>/dev/null; then
    rm -f "$HT_BUILD/CMakeCache.txt"
    ht_say "configuring in $HT_BUILD"
    cmake -S "$HT_ROOT" -B "$HT_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" -DHT_TASKS="$HT_TASKS" >"$HT_BUILD.configure.log" 2>&1 || {
      cat "$HT_BUILD.configure.log" >&2
      ht_say "configure failed"
      exit 1
    }
    grep -E 'Task runtime:|Kokkos [0-9]' "$HT_BUILD.configure.log" | sed 's/^-- /[hybridtasks] /' >&2 || true
  fi
  ht_say "building"
  # Compiler lines only: errors and warnings pass, per-file progress does not.
  if ! cmake --build "$HT_BUILD" -j "$(nproc)" >"$HT_BUILD.build.log" 2>&1; then
    cat "$HT_BUILD.build.log" >&2
    ht_say "build failed"
    exit 1
  fi
  grep -vE '^\[[0-9]+/[0-9]+\] ' "$HT_BUILD.build.log" >&2 || true
}

# ht_mpirun <ranks> <threads> <program> [args...]: Open MPI's mpirun with what a
# small machine needs: more ranks than cores allowed, and no binding of a rank
# to one core (which would stack all its threads on that core).  An empty
# <threads> leaves each rank its share of the cores.
ht_mpirun() {
  local np=$1 nt=$2
  shift 2
  local flags=(-np "$np" --bind-to none)
  if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
    flags+=(--oversubscribe)
    [[ $(id -u) -ne 0 ]] || flags+=(--allow-run-as-root)
  fi
  # The driver itself says once when ranks x threads oversubscribe the cores.
  # OMP_MAX_TASK_PRIORITY: the OpenMP runtime honours task priorities.
  OMP_PROC_BIND=${OMP_PROC_BIND:-false} OMP_MAX_TASK_PRIORITY=${OMP_MAX_TASK_PRIORITY:-2} mpirun "${flags[@]}" "$@" ${nt:+--kokkos-num-threads="$nt"}
}
