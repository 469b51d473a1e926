#!/usr/bin/env bash
# What the imbalance profiler costs: the same BFS with Profile/enabled on and
# off, alternated over rounds in one run; the ratio of the medians.  It
# reports figures as CTest measurements; scripts/bench checks them against a
# baseline.
#   profile_overhead.sh <graph500_bfs> [SCALE] [NBFS] [rounds] [variants] [ranks x threads]
set -euo pipefail
exe=$1
scale=${2:-18}
nbfs=${3:-16}
rounds=${4:-3}
layout=${6:-1x2}
np=${layout%x*}
nt=${layout#*x}
source "$(dirname "$0")/../common/mpirun.sh"
# ht_pick's words; by default the variants whose tasks are the level's work
# (a lock's waits, or one worker, would hide what the profiler costs).
variants=$(ht_pick "$exe" "${5:-tasks chunks}")
g500_deck bfs
source "$(dirname "$0")/../measure.sh"
median_of() { # variant on|off -> median BFS seconds
  ht_app "$out/log" "$np" "$nt" "$exe" "$deck" --set Graph500/SCALE="$scale" \
    --set Graph500/variant="$1" --set Graph500/NBFS="$nbfs" --set Profile/enabled="$2" \
    --set Output/file="$out/p.h5" --set Output/overwrite=true
  g500_value "$out/log" median_time
}
echo "== Profiler on vs off, SCALE $scale, NBFS $nbfs, $layout, $rounds rounds (alternated)"
printf '%-11s %12s %12s %10s\n' variant on_s off_s overhead
for v in $variants; do
  on=() off=()
  for ((r = 0; r < rounds; ++r)); do
    # Which goes first alternates too: the first run after another variant's
    # can find the machine in a different state.
    if ((r % 2)); then
      off+=("$(median_of "$v" false)")
      on+=("$(median_of "$v" true)")
    else
      on+=("$(median_of "$v" true)")
      off+=("$(median_of "$v" false)")
    fi
  done
  med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
  a=$(med "${on[@]}")
  b=$(med "${off[@]}")
  awk -v v="$v" -v a="$a" -v b="$b" 'BEGIN { printf "%-11s %12.6f %12.6f %9.1f%%\n", v, a, b, 100 * (a / b - 1) }'
  ht_measure "profile_cost_${v}_on_over_off" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')"
  echo "  on:  ${on[*]}"
  echo "  off: ${off[*]}"
done
