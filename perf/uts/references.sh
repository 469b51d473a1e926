#!/usr/bin/env bash
# HybridTasks' uts beside the UTS reference on the same cores, alternated in
# rounds, nodes per second (the tree's nodes / the search's seconds, both
# programs timing the search alone):
#   - 1 rank x 1 thread against `uts-seq`, and against uts_serial (the same
#     tree code and SHA-1 walked with no task: the task overhead per node;
#     uts-seq hashes with its own portable SHA-1, ours with OpenSSL's);
#   - 2 ranks x 1 thread and 1 rank x 2 threads against `uts-mpi-ws` on 2
#     ranks (its work stealing against ours, and against threads);
#   - 2 x 1 against 1 x 1 with stealing on, off, and with a messaging thread
#     instead of polling.
# Ratios are taken inside each round and their median over the rounds is
# printed and recorded as CTest measurements (uts_<tree>_<what>).  Without
# HT_UTS_SEQ / HT_UTS_MPI_WS (see build_reference.sh) only our own ratios run.
#   references.sh <uts> [trees] [rounds] [uts_serial]
#   source <(perf/uts/build_reference.sh)
#   perf/uts/references.sh build/apps/uts "T1L T3L" 3 build/perf/uts/uts_serial
set -euo pipefail
exe=$1
trees=${2:-T1L T3L}
rounds=${3:-3}
serial=${4:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
seq=${HT_UTS_SEQ:-}
ws=${HT_UTS_MPI_WS:-}
source "$root/perf/common/mpirun.sh"
source "$root/perf/measure.sh"
declare -A opts=([T1]="-t 1 -a 3 -d 10 -b 4 -r 19" [T3]="-t 0 -b 2000 -q 0.124875 -m 8 -r 42"
  [T1L]="-t 1 -a 3 -d 13 -b 4 -r 29" [T2L]="-t 1 -a 2 -d 23 -b 7 -r 220"
  [T3L]="-t 0 -b 2000 -q 0.200014 -m 5 -r 7")

ours() { # tree ranks threads [--set ...] -> nodes/s
  local tree=$1 np=$2 nt=$3
  shift 3
  ht_app "$out/ours.log" "$np" "$nt" "$exe" "$root/input/uts_$tree.yaml" \
    --set Output/file="$out/r.h5" --set Output/overwrite=true --set Profile/enabled=false "$@"
  awk '$1 == "tree_size:" {n = $2} $1 == "mean_time:" {t = $2} END {printf "%.6g\n", n / t}' \
    "$out/ours.log"
}
ref() { # tree ranks (1: uts-seq) -> nodes/s
  local tree=$1 np=$2
  if [[ $np == 1 ]]; then
    "$seq" ${opts[$tree]} >"$out/ref.log" 2>&1
  else
    mpirun -np "$np" "${flags[@]}" "$ws" ${opts[$tree]} >"$out/ref.log" 2>&1
  fi
  awk '/Tree size =/ {gsub(",", ""); n = $4} /Wallclock time =/ {t = $4} END {printf "%.6g\n", n / t}' \
    "$out/ref.log"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

printf '%-4s %-5s %10s %10s %10s %10s %10s %10s %10s %10s  (Mnodes/s)\n' tree round uts-seq \
  serial ours1x1 mpi-ws2 ours2x1 2x1_off 2x1_thr ours1x2
for tree in $trees; do
  : >"$out/$tree.ratios"
  for ((r = 1; r <= rounds; r++)); do
    s=NaN w=NaN z=NaN
    [[ -z $seq ]] || s=$(ref "$tree" 1)
    [[ -z $serial ]] || z=$("$serial" "$tree" | awk '{printf "%.6g", $2 / $3}')
    a=$(ours "$tree" 1 1)
    [[ -z $ws ]] || w=$(ref "$tree" 2)
    b=$(ours "$tree" 2 1)
    c=$(ours "$tree" 2 1 --set Stealing/enabled=false)
    d=$(ours "$tree" 2 1 --set Stealing/progress=thread)
    e=$(ours "$tree" 1 2)
    echo "$s $a $w $b $c $d $e $z" >>"$out/$tree.ratios"
    awk -v t="$tree" -v r="$r" '{printf "%-4s %-5s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f\n",
      t, r, $1 / 1e6, $8 / 1e6, $2 / 1e6, $3 / 1e6, $4 / 1e6, $5 / 1e6, $6 / 1e6, $7 / 1e6}' \
      <<<"$s $a $w $b $c $d $e $z"
  done
  figure() { # name awk-expression over s a w b c d e z
    local v
    v=$(awk "{s=\$1; a=\$2; w=\$3; b=\$4; c=\$5; d=\$6; e=\$7; z=\$8; print $2}" "$out/$tree.ratios" | median)
    printf '  %-34s %s\n' "uts_${tree}_$1" "$v"
    ht_measure "uts_${tree}_$1" "$v"
  }
  echo "$tree, medians over $rounds rounds:"
  figure 1x1_mnodes "a / 1e6"
  figure 2x1_mnodes "b / 1e6"
  figure 2x1_speedup "b / a"
  figure 2x1_off_speedup "c / a"
  figure thread_over_polling "d / b"
  figure 1x2_speedup "e / a"
  if [[ -n $serial ]]; then figure 1x1_over_serial "a / z"; fi
  if [[ -n $seq ]]; then figure 1x1_over_uts_seq "a / s"; fi
  if [[ -n $ws ]]; then
    figure 2x1_over_uts_mpi_ws "b / w"
    figure 1x2_over_uts_mpi_ws "e / w"
  fi
done
