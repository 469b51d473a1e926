#!/usr/bin/env bash
# Configure refuses an unknown task runtime with a message that names the key,
# the value and what is accepted; and a runtime this Kokkos cannot run.
#   bad_ht_tasks.sh <source dir> <CMAKE_PREFIX_PATH> <runtime this Kokkos lacks, or "">
set -u
src=$1 prefix=$2 lacking=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() { # value expected-message
  local out rc
  out=$(cmake -S "$src" -B "$work/b$1" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DHT_TASKS="$1" \
    -DBUILD_TESTING=OFF 2>&1)
  rc=$?
  if ((rc == 0)); then
    echo "FAIL: configure with HT_TASKS=$1 succeeded"
    exit 1
  fi
  grep -q "$2" <<<"$out" || {
    echo "FAIL: HT_TASKS=$1: no '$2' in:"
    echo "$out" | tail -20
    exit 1
  }
  echo "ok: HT_TASKS=$1 refused: $(grep -o "$2.*" <<<"$out" | head -1)"
}
check bogus "HT_TASKS='bogus' is not a task runtime; accepted: kokkos, openmp"
[[ -z $lacking ]] || check "$lacking" "HT_TASKS=$lacking needs Kokkos' TaskScheduler"
