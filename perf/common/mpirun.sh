# Sourced by every benchmark script: how its runs are launched and read.
#  - flags: the mpirun flags every run gets.  Ranks are not bound (a rank's
#    threads need more than one core); Open MPI is also told that ranks may
#    exceed cores, and that root may run.
#  - ht_app <log> <ranks> <threads> <exe> [args...]: one run of a driver, its
#    output in <log>; the log is shown and the script exits 1 if it fails.
#  - g500_value <log> <key> [bfs|sssp]: a value of graph500_bfs's output block
#    (the 3.0 reference's): "<kernel> <key>:" (kernel bfs by default), else
#    "<key>:" (the header's and nedge's lines).
flags=(--bind-to none)
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
  flags+=(--oversubscribe)
  [[ $(id -u) -ne 0 ]] || flags+=(--allow-run-as-root)
fi

ht_app() {
  local log=$1 np=$2 nt=$3
  shift 3
  mpirun -np "$np" "${flags[@]}" "$@" --kokkos-num-threads="$nt" --kokkos-disable-warnings \
    >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
}

g500_value() {
  awk -v k="$2:" -v p="${3:-bfs}" '
    $1 == p && $2 == k { print ($3 == "!" ? $4 : $3); found = 1; exit }
    $1 == k { v = $2 }
    END { if (!found && v != "") print v }' "$1"
}
