#!/usr/bin/env bash
# Peak resident memory per rank against the rank count, 1D against 2D:
# graph500_bfs (BFS only, variant hybrid, 1 thread a rank, NBFS searches,
# each validated) at one SCALE for each partition and P, oversubscribed.
# Per rank, from the results file: the resident memory before kernel 1
# (graph/rss_before_bytes: MPI, Kokkos, the deck) and the peak of the run
# (run/peak_rss_bytes); their difference is the graph's part (kernel 1, the
# searches, the validation, and the MPI buffers opened after start-up).
# Beside them, what the graph's structures hold, counted exactly
# (graph/bytes: the CSR and the 2D block), which no allocator or MPI buffer
# blurs.  Columns: max and mean over ranks, in MiB; "unit" is N/P + N/sqrt(P)
# in Ki vertices, and "*_B_per_unit" a mean over it: flat in P where the
# memory falls as N/P + N/sqrt(P).  Prints a Markdown table.
#   memory.sh <graph500_bfs> [SCALE] [ranks] [partitions] [NBFS]
#   memory.sh build/apps/graph500_bfs 18 "4 16 64" "1d 2d" 2
set -euo pipefail
exe=$1
scale=${2:-18}
ranks=${3:-4 16 64}
partitions=${4:-1d 2d}
nbfs=${5:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/perf/common/mpirun.sh"
g500_deck bfs "$nbfs"
command -v h5dump >/dev/null || {
  echo "memory.sh: h5dump (hdf5-tools) is needed to read the per-rank figures" >&2
  exit 1
}

# The integers of dataset $2 of results file $1, one a line.
values() {
  h5dump -d "$2" -y -w 0 "$1" | awk '/^ *DATA *\{/ && !done { on = 1; next }
    on && /\}/ { on = 0; done = 1 } on { gsub(/,/, " "); for (i = 1; i <= NF; ++i) print $i }'
}

n=$((1 << scale))
echo "SCALE $scale ($n vertices), edgefactor 16, BFS hybrid, $nbfs searches validated, 1 thread a rank"
echo
echo "| partition | P | grid | before_max | before_mean | peak_max | peak_mean | graph_max | graph_mean | held_max | held_mean | unit (Ki) | graph_B_per_unit | held_B_per_unit | construction_s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for part in $partitions; do
  for np in $ranks; do
    log=$out/$part.np$np.log
    ht_app "$log" "$np" 1 "$exe" "$deck" --set Graph500/SCALE="$scale" \
      --set Graph500/variant=hybrid --set Graph500/partition="$part" \
      --set Output/file="$out/m.h5" --set Output/overwrite=true
    grid=$(grep -o 'partition on a [0-9]*x[0-9]* grid' "$log" | awk '{print $4}' || true)
    paste <(values "$out/m.h5" graph/rss_before_bytes) <(values "$out/m.h5" run/peak_rss_bytes) \
      <(values "$out/m.h5" graph/bytes) |
      awk -v part="$part" -v np="$np" -v grid="${grid:-1x$np}" -v n="$n" \
        -v k1="$(g500_value "$log" construction_time)" '
        { mib = 1048576; b = $1 / mib; p = $2 / mib; g = p - b; h = $3 / mib
          if (NR == 1 || b > bm) bm = b; if (NR == 1 || p > pm) pm = p; if (NR == 1 || g > gm) gm = g
          if (NR == 1 || h > hm) hm = h
          bs += b; ps += p; gs += g; hs += h; r++ }
        END { unit = n / np + n / sqrt(np)
          printf "| %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.0f | %.0f | %.1f | %.2f |\n",
            part, np, grid, bm, bs / r, pm, ps / r, gm, gs / r, hm, hs / r, unit / 1024,
            gs / r * mib / unit, hs / r * mib / unit, k1 }'
  done
done
