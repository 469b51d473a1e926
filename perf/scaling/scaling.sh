#!/usr/bin/env bash
# Every driver at many rank counts, with what each rank asks of MPI counted
# by mpi_counts (PMPI, LD_PRELOAD): point-to-point messages and bytes,
# collectives and their bytes in and out, barriers.  Each driver runs twice,
# with k and 2k trials; the difference is the cost of k trials (a search and
# its validation, a UTS repetition, a GEMM multiplication), free of start-up,
# kernel 1 and the results file.  One thread per rank; ranks beyond the cores
# are oversubscribed: the counts are exact, the times are not.
#   scaling.sh <build dir> <libht_mpi_counts.so> [rank counts] [out dir]
#   scaling.sh build build/perf/scaling/libht_mpi_counts.so "1 2 4 8 16 32 64" docs/scaling
# Writes <out dir>/counts.csv (per driver, P and rank: per-trial counts; no
# times, which oversubscription makes meaningless), then model.py fits,
# plots and extrapolates them.  The drivers' own counts per step and trial
# (their results files' comm/ group) go to <out dir>/steps.csv, plotted by
# steps.py.
set -euo pipefail
build=$1
lib=$(realpath "$2")
nps=${3:-1 2 4 8 16 32 64}
dest=${4:-$build/perf/scaling}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/perf/common/mpirun.sh"
source "$root/perf/measure.sh"
g500_deck bfs
mkdir -p "$dest"
csv=$dest/counts.csv
echo "driver,P,rank,sends,send_bytes,collectives,collective_bytes,received_bytes,barriers" >"$csv"
steps=$dest/steps.csv
rm -f "$steps"

# One run: driver tag, np, trials, then the app and its arguments; prints
# nothing, leaves $out/counts.<trials> ("rank size sends ...", a line a rank).
run() {
  local tag=$1 np=$2 trials=$3
  shift 3
  rm -f "$out/counts.$trials"
  ht_app "$out/log" "$np" 1 -x LD_PRELOAD="$lib" -x HT_MPI_COUNTS="$out/counts.$trials" "$@" \
    --set Profile/enabled=false --set Output/file="$out/r.h5" --set Output/overwrite=true
  [[ $(wc -l <"$out/counts.$trials") -eq $np ]] || {
    echo "$tag on $np ranks: $(wc -l <"$out/counts.$trials") of $np ranks counted" >&2
    exit 1
  }
}

# Per rank: (counts with 2k trials - counts with k) / k.
measure() { # tag np k app-and-args (the trial key is given as {T})
  local tag=$1 np=$2 k=$3
  shift 3
  local args=("$@")
  run "$tag" "$np" "$k" "${args[@]//\{T\}/$k}"
  run "$tag" "$np" $((2 * k)) "${args[@]//\{T\}/$((2 * k))}"
  /usr/bin/python3 "$root/perf/scaling/steps.py" extract "$out/r.h5" "$tag" "$np" "$steps"
  join <(sort -n "$out/counts.$k" | cut -d' ' -f1-8) \
    <(sort -n "$out/counts.$((2 * k))" | cut -d' ' -f1-8) |
    awk -v tag="$tag" -v np="$np" -v k="$k" '
      { printf "%s,%d,%d", tag, np, $1
        for (i = 3; i <= 8; ++i) printf ",%g", ($(i + 7) - $i) / k
        printf "\n" }' >>"$csv"
  echo "$tag P=$np: $(awk -F, -v t="$tag" -v p="$np" '$1 == t && $2 == p {m += $4; b += $5; c += $6; r += $8; n++}
    END {printf "per rank per trial: %.0f messages, %.0f bytes, %.1f collectives, %.0f bytes out of them", m / n, b / n, c / n, r / n}' "$csv")"
}

g500=$build/apps/graph500_bfs
for np in $nps; do
  measure bfs_hybrid "$np" 4 "$g500" "$deck" --set Graph500/SCALE=14 --set Graph500/NBFS={T} \
    --set Graph500/variant=hybrid
  measure bfs_hybrid_2d "$np" 4 "$g500" "$deck" --set Graph500/SCALE=14 --set Graph500/NBFS={T} \
    --set Graph500/variant=hybrid --set Graph500/partition=2d
  measure bfs_mpi "$np" 4 "$g500" "$deck" --set Graph500/SCALE=14 --set Graph500/NBFS={T} \
    --set Graph500/variant=mpi
  measure sssp "$np" 4 "$g500" "$deck" --set Graph500/SCALE=14 --set Graph500/NBFS={T} \
    --set Graph500/kernels=sssp
  measure uts_T1 "$np" 1 "$build/apps/uts" "$root/input/uts_T1.yaml" \
    --set Search/repetitions={T}
  q=$(awk -v p="$np" 'BEGIN {q = int(sqrt(p) + 0.5); print (q * q == p) ? q : 0}')
  if ((q > 0)); then  # Cannon needs a square grid
    measure gemm "$np" 1 "$build/apps/cannon_gemm" "$root/input/gemm_default.xml" \
      --set GEMM/N=$((256 * q)) --set GEMM/tile=128 --set GEMM/repetitions={T}
  fi
done
echo "counts: $csv"
# CTest measurements: per rank per trial at the largest P, each driver.
top=${nps##* }
awk -F, -v p="$top" '$2 == p {m[$1] += $4; c[$1] += $6; r[$1] += $8; n[$1]++}
  END {for (d in n) printf "%s %g %g %g\n", d, m[d] / n[d], c[d] / n[d], r[d] / n[d]}' "$csv" |
  while read -r d m c r; do
    ht_measure "${d}_messages_per_rank_P$top" "$m"
    ht_measure "${d}_collectives_per_rank_P$top" "$c"
    ht_measure "${d}_collective_bytes_out_per_rank_P$top" "$r"
  done
# The searches alone (no validation), 1D against 2D, at the largest P:
# per rank per search, and the most distinct peers of a level (bfs2d.sh
# fails the run if a 2D level has more than R + C - 2).
rm -f "$dest/bfs2d.csv" "$dest/bfs2d_steps.csv"
bash "$root/perf/scaling/bfs2d.sh" "$build" "$lib" 14 "$top" "$dest" 4
awk -F, 'NR > 1 {d = $1; s = $6; m[d] += $7 / s; b[d] += $8 / s; r[d] += $10 / s; n[d]++
    if ($13 > x[d]) x[d] = $13}
  END {for (d in n) printf "%s %g %g %g %d\n", d, m[d] / n[d], b[d] / n[d], r[d] / n[d], x[d]}' \
  "$dest/bfs2d.csv" |
  while read -r d m b r x; do
    ht_measure "bfs_hybrid_${d}_search_messages_per_rank_P$top" "$m"
    ht_measure "bfs_hybrid_${d}_search_bytes_sent_per_rank_P$top" "$b"
    ht_measure "bfs_hybrid_${d}_search_collective_bytes_out_per_rank_P$top" "$r"
    ht_measure "bfs_hybrid_${d}_level_peers_max_P$top" "$x"
  done
/usr/bin/python3 "$root/perf/scaling/model.py" "$csv" "$dest"
/usr/bin/python3 "$root/perf/scaling/steps.py" plot "$steps" "$dest" >/dev/null
echo "plot: $dest/scaling.png, model: $dest/model.md; per step: $dest/steps.png, $dest/steps.md"
