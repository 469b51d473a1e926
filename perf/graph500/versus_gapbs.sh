#!/usr/bin/env bash
# HybridTasks against gapbs, paired: each round runs ours and gapbs one
# after the other on the same cores, rounds alternate which goes first, and
# the figures are the medians over rounds of each side's mean seconds per
# search (ratio = gapbs / ours: > 1, ours is faster).
#  - BFS: `hybrid` on 1 rank x T threads (generated Kronecker graph, 16 keys)
#    against gapbs `bfs` (direction-optimizing) on T threads (its own
#    Kronecker graph, -g SCALE -k 16, 16 sources), for each SCALE and T.
#  - SSSP: on gapbs's own weighted graph (converter -g SCALE -k 16 -w -e:
#    a .wel holding each edge both ways, integer weights 1-255), which ours
#    reads (Graph500/file) and gapbs reads serialized (.wsg); ours on 1 x 2
#    and 2 x 1, delta HT_SSSP_DELTA (2), gapbs `sssp -d HT_GAPBS_DELTA` (2,
#    its fastest of 1, 2, 4, 8 here) on 2 threads.
#   versus_gapbs.sh <graph500_bfs> [rounds] [bfs scales] [threads] [sssp scale]
#   source <(perf/graph500/build_references.sh /tmp/refs)
#   perf/graph500/versus_gapbs.sh build/apps/graph500_bfs 3 "18 20 22" "1 2" 20
#   perf/graph500/versus_gapbs.sh build/apps/graph500_bfs 5 "" "" 20     # SSSP alone
set -euo pipefail
exe=$1
rounds=${2:-3}
scales=${3-18 20 22}  # given empty (""), no BFS; likewise no SSSP
threads=${4:-1 2}
sssp_scale=${5-20}
bfs=${HT_GAPBS_BFS:-}
sssp=${HT_GAPBS_SSSP:-}
converter=${HT_GAPBS_CONVERTER:-}
source "$(dirname "$0")/../common/mpirun.sh"
g500_deck bfs 16
source "$(dirname "$0")/../measure.sh"
[[ -z $scales || -x $bfs ]] ||
  { echo "versus_gapbs.sh: set HT_GAPBS_BFS (see build_references.sh)" >&2; exit 1; }

ours() { # ranks threads [deck settings...] -> mean seconds of the kernel in $kernel
  local log=$out/ours.log np=$1 nt=$2
  shift 2
  ht_app "$log" "$np" "$nt" "$exe" "$deck" "$@" --set Output/file="$out/o.h5" --set Output/overwrite=true \
    --set Profile/enabled=false
  g500_value "$log" mean_time "$kernel"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
# pair <name> <ours command...> -- <theirs command...>: rounds, alternated.
pair() {
  local name=$1 i ours_cmd=() theirs_cmd=()
  shift
  while [[ $1 != -- ]]; do ours_cmd+=("$1"); shift; done
  shift
  theirs_cmd=("$@")
  : >"$out/ours.t"; : >"$out/theirs.t"
  for ((i = 0; i < rounds; ++i)); do
    if ((i % 2 == 0)); then
      "${ours_cmd[@]}" >>"$out/ours.t"; "${theirs_cmd[@]}" >>"$out/theirs.t"
    else
      "${theirs_cmd[@]}" >>"$out/theirs.t"; "${ours_cmd[@]}" >>"$out/ours.t"
    fi
  done
  local mine theirs
  mine=$(median <"$out/ours.t")
  theirs=$(median <"$out/theirs.t")
  printf '%-44s %12.6f %12.6f %8s   (ours: %s; gapbs: %s)\n' "$name" "$mine" "$theirs" \
    "$(ratio "$theirs" "$mine")" "$(tr '\n' ' ' <"$out/ours.t")" "$(tr '\n' ' ' <"$out/theirs.t")"
  ht_measure "gapbs_over_ours_${name// /_}" "$(ratio "$theirs" "$mine")"
}
gapbs_bfs() { OMP_NUM_THREADS=$1 "$bfs" -g "$2" -k 16 -n 16 | awk '/Average Time/ {print $3}'; }
gapbs_sssp() { OMP_NUM_THREADS=2 "$sssp" -f "$out/k.wsg" -n 16 -d "${HT_GAPBS_DELTA:-2}" | awk '/Average Time/ {print $3}'; }

printf '%-44s %12s %12s %8s\n' comparison ours_s gapbs_s ratio
kernel=bfs
for s in $scales; do
  for t in $threads; do
    pair "bfs hybrid 1x$t scale$s" ours 1 "$t" --set Graph500/variant=hybrid \
      --set Graph500/SCALE="$s" -- gapbs_bfs "$t" "$s"
  done
done
if [[ -n $sssp_scale ]]; then
  if [[ -x $sssp && -x $converter ]]; then
    "$converter" -g "$sssp_scale" -k 16 -w -e "$out/k.wel" >/dev/null
    "$converter" -f "$out/k.wel" -s -w -b "$out/k.wsg" >/dev/null
    g500_deck sssp 16
    kernel=sssp
    for layout in "1 2" "2 1"; do
      read -r np nt <<<"$layout"
      pair "sssp ${np}x${nt} scale$sssp_scale" ours "$np" "$nt" \
        --set Graph500/file="$out/k.wel" --set Graph500/delta="${HT_SSSP_DELTA:-2}" \
        -- gapbs_sssp
    done
  else
    echo "(SSSP skipped: set HT_GAPBS_SSSP and HT_GAPBS_CONVERTER, see build_references.sh)"
  fi
fi
