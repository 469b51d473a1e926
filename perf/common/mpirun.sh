# Sourced by every benchmark script: how its runs are launched and read.
#  - flags: the mpirun flags every run gets.  Ranks are not bound (a rank's
#    threads need more than one core); Open MPI is also told that ranks may
#    exceed cores, and that root may run.
#  - ht_app <log> <ranks> <threads> <exe> [args...]: one run of a driver, its
#    output in <log>; the log is shown and the script exits 1 if it fails.
#  - g500_value <log> <key> [bfs|sssp]: a value of graph500_bfs's output block
#    (the 3.0 reference's): "<kernel> <key>:" (kernel bfs by default), else
#    "<key>:" (the header's and nedge's lines).
#  - g500_reference <ranks> <exe> <SCALE> <BFS|SSSP>: a Graph500 reference
#    (2.1.4's or 3.0's) on edgefactor 16, the mean seconds of its first
#    HT_REF_SEARCHES (8) "Time for <kernel>" lines; then it is stopped (it
#    runs 64 searches, each validated).
#  - ht_variants <graph500_bfs> [awk condition]: the BFS variants' names, in
#    the table's order (graph500_bfs --list variants), those whose line meets
#    the condition: $2 is the work (single, tasks, tasks_and_io, chunks), $3
#    what it reports, $4 the fewest tasks it runs with, then traits (visits_once,
#    bottom_up, partition_2d).
#  - ht_pick <graph500_bfs> <words>: the BFS variants, in the table's order,
#    whose --list variants line holds one of the words: a name, a work
#    (chunks), a report (redundancy) or a trait (visits_once), so that a
#    script's default takes in a new variant of its kind.
#  - out: a scratch folder of the script's own, removed when it exits.
#  - g500_deck <kernels> [NBFS]: writes a graph500_bfs deck (edgefactor 16)
#    into $out and sets deck to its path.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
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

ht_variants() {
  mpirun -np 1 "${flags[@]}" "$1" --list variants | awk "${2:-1} { print \$1 }"
}

ht_pick() {
  mpirun -np 1 "${flags[@]}" "$1" --list variants |
    awk -v want=" $2 " '{ for (i = 1; i <= NF; ++i) if (index(want, " " $i " ")) { print $1; next } }'
}

g500_value() {
  awk -v k="$2:" -v p="${3:-bfs}" '
    $1 == p && $2 == k { print ($3 == "!" ? $4 : $3); found = 1; exit }
    $1 == k { v = $2 }
    END { if (!found && v != "") print v }' "$1"
}

g500_deck() {
  deck=$out/deck.yaml
  printf 'graph500_bfs:\n  Graph500:\n    kernels: %s\n    edgefactor: 16\n' "$1" >"$deck"
  [[ -z ${2:-} ]] || printf '    NBFS: %s\n' "$2" >>"$deck"
}

g500_reference() {
  local log=$out/reference.log want=${HT_REF_SEARCHES:-8}
  OMP_NUM_THREADS=1 mpirun -np "$1" "${flags[@]}" "$2" "$3" 16 >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null && (($(grep -c "^Time for $4" "$log") < want)); do sleep 0.5; done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  grep "^Time for $4" "$log" | head -n "$want" | awk '{s += $NF; n++} END {if (n) print s / n}'
}
