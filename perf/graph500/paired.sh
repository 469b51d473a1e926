#!/usr/bin/env bash
# Two builds of graph500_bfs on the same searches, rounds alternated (the
# order swapped every round), so that the machine's drift falls on both:
# the check behind "no slower" for a change to the kernels, on the layouts
# it touches.  scripts/bench --against runs the CTest benchmarks; this runs
# BFS and SSSP on Kronecker SCALE S, 16 keys, each search validated (a run
# that fails stops the script).  Prints, per layout and kernel, each build's
# median over rounds of its mean seconds a search, candidate / reference
# (< 1: the candidate is faster) and the two-sided Mann-Whitney p.
#   paired.sh <reference graph500_bfs> <candidate graph500_bfs> [rounds] [SCALE] [layouts]
#   layouts: RANKSxTHREADS-PARTITION words, default "1x2-1d 2x1-1d 4x1-1d 4x1-2d"
#   perf/graph500/paired.sh build-against/8b7eea9a0c33/build/apps/graph500_bfs \
#     build/apps/graph500_bfs 7 18
set -euo pipefail
ref=$1
cand=$2
rounds=${3:-7}
scale=${4:-18}
layouts=${5:-1x2-1d 2x1-1d 4x1-1d 4x1-2d}
source "$(dirname "$0")/../common/mpirun.sh"
samples=$out/samples.csv
echo "layout,build,kernel,seconds" >"$samples"

one() { # <reference|candidate> <exe> <layout>
  local np=${3%%x*} rest=${3#*x}
  ht_app "$out/run.log" "$np" "${rest%-*}" "$2" -s "$scale" -n 16 \
    --set Graph500/kernels=bfs,sssp --set Graph500/partition="${rest#*-}" \
    --set Output/file="$out/o.h5" --set Output/overwrite=true
  for k in bfs sssp; do echo "$3,$1,$k,$(g500_value "$out/run.log" mean_time "$k")" >>"$samples"; done
}
for ((r = 0; r < rounds; ++r)); do
  for l in $layouts; do
    if ((r % 2 == 0)); then
      one reference "$ref" "$l" && one candidate "$cand" "$l"
    else
      one candidate "$cand" "$l" && one reference "$ref" "$l"
    fi
  done
  echo "paired.sh: round $((r + 1)) of $rounds" >&2
done

python3 - "$samples" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
try:
    from scipy.stats import mannwhitneyu
except ImportError:
    mannwhitneyu = None
print(f"{'layout':10s} {'kernel':6s} {'reference_s':>12s} {'candidate_s':>12s} {'cand/ref':>8s} {'p':>6s}")
seen = []
for r in rows:
    if (r["layout"], r["kernel"]) not in seen:
        seen.append((r["layout"], r["kernel"]))
for layout, kernel in seen:
    side = {b: [float(r["seconds"]) for r in rows
                if (r["layout"], r["kernel"], r["build"]) == (layout, kernel, b)]
            for b in ("reference", "candidate")}
    a, b = statistics.median(side["reference"]), statistics.median(side["candidate"])
    p = (f"{mannwhitneyu(side['candidate'], side['reference'], alternative='two-sided').pvalue:.3f}"
         if mannwhitneyu else "-")
    print(f"{layout:10s} {kernel:6s} {a:12.5f} {b:12.5f} {b / a:8.2f} {p:>6s}")
PY
