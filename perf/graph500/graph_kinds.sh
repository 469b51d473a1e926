#!/usr/bin/env bash
# HybridTasks against gapbs on the kinds of graph the GAP Benchmark Suite
# names: Kronecker, uniform random and road-like (a grid).  Both read the
# same weighted edge list (gapbs its serialized copy, symmetrized with -s:
# it reads edge lists as directed).  Each round runs ours and gapbs one
# after the other on the same cores, rounds alternate which goes first, and
# the figures are the medians over rounds of each side's mean seconds a
# search (ratio = gapbs / ours: > 1, ours is faster).
#  - graphs: kron20, uniform20 (gapbs converter -g / -u 20 -k 16 -w -e,
#    integer weights 1-255) and gridS (S x S vertices, each joined to its
#    right and lower neighbour, weights 1-255 from awk's seeded rand()).
#  - ours: the default deck (hybrid BFS, fused SSSP at delta auto; both in
#    one run, one read of the file) on 1 rank x T threads, HT_SEARCHES (16)
#    searches, gapbs as many trials;
#    gapbs: bfs, and sssp at each delta of 2, 32 and 255 in every round, on
#    T threads; its best delta is the one of least median over the rounds.
#  - grids only: ours on 2 x 1 and 4 x 1 too (every search validated), and
#    each layout's cost a level (BFS) and a phase (SSSP; on one rank a
#    search is one phase).
#   graph_kinds.sh <graph500_bfs> [rounds] [graphs] [threads]
#   source <(perf/graph500/build_references.sh /tmp/refs)
#   perf/graph500/graph_kinds.sh build/apps/graph500_bfs 3 "grid1024 grid2048 uniform20 kron20" "1 2"
set -euo pipefail
exe=$1
rounds=${2:-3}
graphs=${3:-grid1024 grid2048 uniform20 kron20}
threads=${4:-1 2}
searches=${HT_SEARCHES:-16}
bfs=${HT_GAPBS_BFS:-}
sssp=${HT_GAPBS_SSSP:-}
converter=${HT_GAPBS_CONVERTER:-}
deltas="2 32 255"
source "$(dirname "$0")/../common/mpirun.sh"
source "$(dirname "$0")/../measure.sh"
[[ -x $bfs && -x $sssp && -x $converter ]] ||
  { echo "graph_kinds.sh: set HT_GAPBS_BFS, HT_GAPBS_SSSP, HT_GAPBS_CONVERTER (build_references.sh)" >&2; exit 1; }

make_graph() { # name -> $out/name.wel, .sg, .wsg
  local g=$1 f=$out/$1
  case $g in
    kron*) "$converter" -g "${g#kron}" -k 16 -w -e "$f.wel" >/dev/null ;;
    uniform*) "$converter" -u "${g#uniform}" -k 16 -w -e "$f.wel" >/dev/null ;;
    grid*) awk -v n="${g#grid}" 'BEGIN {
             srand(1)
             for (r = 0; r < n; ++r) for (c = 0; c < n; ++c) {
               v = r * n + c
               if (c + 1 < n) printf "%d %d %d\n", v, v + 1, 1 + int(255 * rand())
               if (r + 1 < n) printf "%d %d %d\n", v, v + n, 1 + int(255 * rand())
             } }' >"$f.wel" ;;
    *) echo "graph_kinds.sh: unknown graph '$g' (kronS, uniformS, gridS)" >&2; exit 1 ;;
  esac
  "$converter" -f "$f.wel" -s -b "$f.sg" >/dev/null
  "$converter" -f "$f.wel" -s -w -b "$f.wsg" >/dev/null
}

# ours <np> <nt> -> "bfs_seconds bfs_levels sssp_seconds sssp_phases": one run, both kernels
# (one read of the file), means over the searches.
ours() {
  local log=$out/ours.log
  ht_app "$log" "$1" "$2" "$exe" --set Graph500/file="$out/$g.wel" --set Graph500/kernels=bfs,sssp \
    -n "$searches" --set Output/file="$out/o.h5" --set Output/overwrite=true
  echo "$(g500_value "$log" mean_time bfs)" \
    "$(awk '$1 == "BFS" { for (i = 2; i < NF; ++i) if ($(i + 1) == "levels,") { s += $i; n++ } }
            END { print s / n }' "$log")" \
    "$(g500_value "$log" mean_time sssp)" "$(g500_value "$log" mean_phases sssp)"
}
gapbs_time() { # kernel threads [delta]
  if [[ $1 == bfs ]]; then
    OMP_NUM_THREADS=$2 "$bfs" -f "$out/$g.sg" -n "$searches" | awk '/Average Time/ {print $3}'
  else
    OMP_NUM_THREADS=$2 "$sssp" -f "$out/$g.wsg" -n "$searches" -d "$3" | awk '/Average Time/ {print $3}'
  fi
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
per_step() { awk -v t="$1" -v s="$2" 'BEGIN {printf "%.1f", 1e6 * t / s}'; }

printf '%-30s %10s %10s %6s %9s\n' comparison ours_s gapbs_s ratio "ours_us/step"
row() { # name ours theirs steps
  printf '%-30s %10.5f %10s %6s %9s\n' "$1" "$2" "$3" \
    "$([[ $3 == - ]] && echo - || ratio "$3" "$2")" "$(per_step "$2" "$4")"
}
for g in $graphs; do
  make_graph "$g"
  for t in $threads; do
    : >"$out/ours.t"; : >"$out/bfs.t"
    for d in $deltas; do : >"$out/sssp$d.t"; done
    for ((i = 0; i < rounds; ++i)); do
      ((i % 2 == 0)) && ours 1 "$t" >>"$out/ours.t"
      gapbs_time bfs "$t" >>"$out/bfs.t"
      for d in $deltas; do gapbs_time sssp "$t" "$d" >>"$out/sssp$d.t"; done
      ((i % 2 == 1)) && ours 1 "$t" >>"$out/ours.t"
    done
    # gapbs at its best delta: the least median over the same rounds.
    best= best_t=
    for d in $deltas; do
      m=$(median <"$out/sssp$d.t")
      if [[ -z $best_t ]] || awk -v a="$m" -v b="$best_t" 'BEGIN {exit !(a < b)}'; then best=$d best_t=$m; fi
    done
    col() { cut -d' ' -f"$1" "$out/ours.t" | median; }
    row "bfs $g 1x$t" "$(col 1)" "$(median <"$out/bfs.t")" "$(col 2)"
    row "sssp $g 1x$t (gapbs -d $best)" "$(col 3)" "$best_t" "$(col 4)"
    ht_measure "gapbs_over_ours_bfs_${g}_1x$t" "$(ratio "$(median <"$out/bfs.t")" "$(col 1)")"
    ht_measure "gapbs_over_ours_sssp_${g}_1x$t" "$(ratio "$best_t" "$(col 3)")"
  done
  if [[ $g == grid* ]]; then
    for np in 2 4; do
      read -r tb lb ts ps < <(ours "$np" 1)
      row "bfs $g ${np}x1 (valid)" "$tb" - "$lb"
      row "sssp $g ${np}x1 (valid)" "$ts" - "$ps"
    done
  fi
done
