#!/usr/bin/env bash
# Our Task Bench implementation runs every dependence pattern and every
# kernel core defines, in both modes (the graph's remote edges both ways),
# with core's validation on (core is
# built with its asserts: a task given a wrong input aborts the run), plus
# several graphs at once (-and) with larger outputs.  A run passes when it
# exits 0 and core reports its timing.
#   patterns.sh <ht_taskbench> <ranks> [threads]
set -euo pipefail
exe=$1 np=$2 nt=${3:-1}
source "$(dirname "$0")/../common/mpirun.sh"
# Not random_spread: core (bf4ad19) gives it period 0 and refuses -period for
# it, then divides by the period (SIGFPE in App::check, Task Bench's own MPI
# implementation alike).
patterns="trivial no_comm stencil_1d stencil_1d_periodic dom tree fft all_to_all nearest spread
          random_nearest"
# Not compute_dgemm and memory_daxpy: core runs them only when built with
# BLAS (ENABLE_BLAS, Intel MKL); without it they abort, "No BLAS is detected".
# Not io_bound: core's kernel is a stub that asserts false.
kernels="empty busy_wait memory_bound compute_bound compute_bound2 load_imbalance"
runs=0
one() {
  ht_app "$out/log" "$np" "$nt" "$exe" "$@"
  grep -q "^Elapsed Time" "$out/log" || { cat "$out/log" >&2; echo "no timing: $*" >&2; exit 1; }
  runs=$((runs + 1))
}
for mode in graph "graph -edges persistent" spawn; do
  for p in $patterns; do
    # shellcheck disable=SC2086
    one -mode $mode -steps 9 -width 8 -type "$p" -radix 3 -kernel compute_bound -iter 64
  done
  for k in $kernels; do
    # shellcheck disable=SC2086
    one -mode $mode -steps 6 -width 4 -type stencil_1d -kernel "$k" -iter 16 -scratch 64 \
      -sample 2 -imbalance 0.5
  done
  # shellcheck disable=SC2086
  one -mode $mode -steps 7 -width 6 -type fft -output 64 -and -steps 5 -width 3 -type dom \
    -and -steps 8 -width 5 -type random_nearest -kernel memory_bound -scratch 128 -iter 8
done
echo "patterns.sh: $runs runs validated on $np ranks x $nt threads"
