# Sourced by the Graph500 benchmarks: the mpirun flags every run gets.
# Ranks are not bound (a rank's threads need more than one core); Open MPI
# also needs to be told that ranks may exceed cores, and that root may run.
flags=(--bind-to none)
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
  flags+=(--oversubscribe)
  [[ $(id -u) -ne 0 ]] || flags+=(--allow-run-as-root)
fi
