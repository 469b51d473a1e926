#!/usr/bin/env bash
# CombBLAS's DirOptBFS (2D direction-optimizing BFS, PASSIONLab/CombBLAS)
# counted with the same PMPI library as our drivers (mpi_counts), beside
# them in docs/scaling.md.  CombBLAS is built outside the clone, in
# ${HT_COMBBLAS_DIR:-~/.cache/hybridtasks/combblas}; none of its code enters
# this repository.
#   combblas.sh build <source>   clone and build it (source: a git
#       URL or repository, e.g. https://github.com/PASSIONLab/CombBLAS or a
#       local mirror of it), at commit $HT_COMBBLAS_COMMIT
#   combblas.sh count <libht_mpi_counts.so> <SCALE> "<P...>" <out.csv>
# DirOptBFS searches a compile-time number of keys (ITERS, 64 upstream) and
# validates nothing: it is built twice, with 4 and 8 keys, and each count per
# rank is (count with 8 - count with 4) / 4, free of graph generation and
# start-up.  The searches also run inside MPI_Pcontrol(1) ... (-1), which
# mpi_counts takes as its search region (levels, distinct peers).
# One OpenMP thread a rank; ranks beyond the cores are oversubscribed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${HT_COMBBLAS_DIR:-$HOME/.cache/hybridtasks/combblas}
commit=${HT_COMBBLAS_COMMIT:-2381a1f7}
keys=(4 8)

build() {
  local src=$1 s=$dir/src b=$dir/build k f
  # Only the library, its sorting and generator parts and the application:
  # the repository's other files (large run logs among them) are not needed.
  if [[ ! -d $s/.git ]]; then
    git clone -q --no-checkout "$src" "$s"
    git -C "$s" sparse-checkout set --no-cone /include /psort-1.0 /src /usort \
      /graph500-1.2/generator /Applications/DirOptBFS.cpp
  fi
  git -C "$s" checkout -q "$commit"
  mkdir -p "$b/obj"
  local cflags=(-O3 -fopenmp -DTHREADED -I"$s/include" -I"$s/include/CombBLAS"
    -I"$s/psort-1.0/include" -I"$s/usort/include" -I"$s/usort/include/usort"
    -I"$s/graph500-1.2/generator/include"
    -I"$s/graph500-1.2/generator/include/graph500/generator")
  local objs=()
  for f in src/CommGrid.cpp src/MPIType.cpp src/MPIOp.cpp src/MemoryPool.cpp src/hash.cpp \
    src/mmio.c usort/src/parUtils.cpp usort/src/binUtils.cpp \
    graph500-1.2/generator/{btrd_binomial_distribution,splittable_mrg,mrg_transitions}.c \
    graph500-1.2/generator/{graph_generator,permutation_gen,make_graph,utils,scramble_edges}.c; do
    local o=$b/obj/${f//\//_}.o
    if [[ $f == *.c ]]; then
      [[ -f $o ]] || mpicc -std=gnu11 "${cflags[@]}" -c "$s/$f" -o "$o"
    else
      [[ -f $o ]] || mpicxx -std=c++17 "${cflags[@]}" -c "$s/$f" -o "$o"
    fi
    objs+=("$o")
  done
  # The key count is a #define: each copy of the application gets its own.
  for k in "${keys[@]}"; do
    sed "s/^#define ITERS 64$/#define ITERS $k/" "$s/Applications/DirOptBFS.cpp" \
      >"$b/DirOptBFS_$k.cpp"
    grep -q "^#define ITERS $k$" "$b/DirOptBFS_$k.cpp" || {
      echo "combblas.sh: DirOptBFS.cpp has no '#define ITERS 64' at $commit" >&2
      exit 1
    }
    mpicxx -std=c++17 "${cflags[@]}" "$b/DirOptBFS_$k.cpp" "${objs[@]}" -o "$b/dobfs_$k"
  done
  echo "built: $b/dobfs_${keys[0]} $b/dobfs_${keys[1]}"
}

count() {
  local lib scale=$2 nps=$3 csv=$4 np k
  lib=$(realpath "$1")
  source "$root/perf/common/mpirun.sh"
  echo "P,rank,sends,send_bytes,collectives,collective_bytes,received_bytes,barriers,region_sends,region_send_bytes,region_collectives,region_received_bytes,levels,level_peers_mean,level_peers_max,search_peers" >"$csv"
  for np in $nps; do
    for k in "${keys[@]}"; do
      rm -f "$out/c.$k"
      OMP_NUM_THREADS=1 mpirun -np "$np" "${flags[@]}" -x OMP_NUM_THREADS -x LD_PRELOAD="$lib" \
        -x HT_MPI_COUNTS="$out/c.$k" "$dir/build/dobfs_$k" "$scale" >"$out/log" 2>&1 || {
        # As in bfs2d.sh: a failed teardown after every rank's count is shown, not fatal.
        grep -q "Median MTEPS" "$out/log" || { cat "$out/log" >&2; exit 1; }
        echo "CombBLAS on $np ranks: mpirun failed after the searches" >&2
      }
      [[ $(awk 'NF == 17' "$out/c.$k" | wc -l) -eq $np ]] ||
        { echo "P=$np: not every rank counted in the search region" >&2; exit 1; }
    done
    # Totals differenced over the keys (rank, then 16 fields of each run);
    # then the 8-key run's search region (one Pcontrol region around all its
    # searches) per search, per level, and the peers of its largest level
    # and of all its searches together.
    join <(sort -n "$out/c.${keys[0]}") <(sort -n "$out/c.${keys[1]}") |
      awk -v np="$np" -v k="${keys[0]}" -v k2="${keys[1]}" '{
        printf "%d,%d", np, $1
        for (i = 3; i <= 8; ++i) printf ",%g", ($(i + 16) - $i) / k
        printf ",%g,%g,%g,%g,%g,%g,%d,%d\n", $26 / k2, $27 / k2, $28 / k2, $29 / k2, $30 / k2,
          $31 / $30, $32, $33
      }' >>"$csv"
    echo "CombBLAS P=$np: $(awk -F, -v p="$np" '$1 == p {m += $3; b += $4; r += $7; q += $14; if ($15 > x) x = $15; n++}
      END {printf "per rank per search: %.0f messages, %.0f bytes sent, %.0f bytes out of collectives; peers a level %.1f (mean), %d (most)", m / n, b / n, r / n, q / n, x}' "$csv")"
  done
}

case ${1:-} in
  build) build "${2:?combblas.sh build <git source>}" ;;
  count) count "${2:?}" "${3:?}" "${4:?}" "${5:?}" ;;
  *)
    echo "usage: combblas.sh build <git source> | count <libht_mpi_counts.so> <SCALE> \"<P...>\" <out.csv>" >&2
    exit 2
    ;;
esac
