#!/usr/bin/env bash
# How long the validators take: the median seconds of validate_bfs and
# validate_sssp over a run's searches, at given SCALEs and ranks x threads,
# as CTest measurements (validate_s<SCALE>_<layout>_<bfs|sssp>_median_s).
# Pass two executables to compare them, alternated round by round:
#   validation.sh <graph500_bfs> [SCALEs] [layouts] [NBFS] [rounds] [<other graph500_bfs>]
#   validation.sh build/apps/graph500_bfs 16 "1x1 2x1" 64 3 /tmp/old/graph500_bfs
# The second executable's figures are named ..._other.
set -euo pipefail
exe=$1
scales=${2:-16}
layouts=${3:-1x1 2x1}
nbfs=${4:-64}
rounds=${5:-1}
other=${6:-}
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck bfs,sssp "$nbfs"
source "$(dirname "$0")/../measure.sh"

printf '%-5s %-6s %-6s %-6s %12s %12s\n' round SCALE layout binary bfs_s sssp_s
one() { # round scale layout tag exe
  local np=${3%x*} nt=${3#*x} log=$out/run.log
  # A new file each run: older drivers have no Output/overwrite.
  rm -f "$out/r.h5"
  ht_app "$log" "$np" "$nt" "$5" "$deck" --set Graph500/SCALE="$2" --set Output/file="$out/r.h5"
  local b s
  b=$(g500_value "$log" median_validate bfs)
  s=$(g500_value "$log" median_validate sssp)
  printf '%-5s %-6s %-6s %-6s %12s %12s\n' "$1" "$2" "$3" "$4" "$b" "$s"
  local suffix=""
  [[ $4 == this ]] || suffix=_other
  ht_measure "validate_s$2_$3_bfs_median_s$suffix" "$b"
  ht_measure "validate_s$2_$3_sssp_median_s$suffix" "$s"
}
for ((r = 1; r <= rounds; ++r)); do
  for scale in $scales; do
    for layout in $layouts; do
      if [[ -z $other ]]; then
        one "$r" "$scale" "$layout" this "$exe"
      elif ((r % 2)); then
        one "$r" "$scale" "$layout" this "$exe"
        one "$r" "$scale" "$layout" other "$other"
      else
        one "$r" "$scale" "$layout" other "$other"
        one "$r" "$scale" "$layout" this "$exe"
      fi
    done
  done
done
