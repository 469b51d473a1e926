#!/usr/bin/env bash
# Fetches and builds the field's reference BFS and SSSP codes beside the
# project, for the side-by-side runs of references.sh and
# sssp_references.sh; none of their code enters this repository.  Needs network access to GitHub (or mirrors given as URLs).
#   build_references.sh [dir]            (default /tmp/ht-references)
#   GAPBS_URL=... GRAPH500_URL=... build_references.sh /tmp/refs
# Prints the two environment variables references.sh reads.
set -euo pipefail
dir=${1:-/tmp/ht-references}
gapbs_url=${GAPBS_URL:-https://github.com/sbeamer/gapbs.git}
g500_url=${GRAPH500_URL:-https://github.com/graph500/graph500.git}
mkdir -p "$dir"
cd "$dir"
[[ -d gapbs ]] || git clone -q "$gapbs_url" gapbs
make -C gapbs -s bfs sssp converter >&2
[[ -d graph500 ]] || git clone -q "$g500_url" graph500
git -C graph500 checkout -q graph500-2.1.4  # the MPI reference with bfs_replicated
make -C graph500/mpi -s graph500_mpi_replicated >&2 2>/dev/null
# The 3.0 reference with kernel 3 (branch newreference), beside 2.1.4's.
# -fcommon: its headers define globals that gcc >= 10 would refuse twice.
[[ -d graph500-3 ]] || git clone -q "$g500_url" graph500-3
git -C graph500-3 checkout -q newreference
make -C graph500-3/src -s graph500_reference_bfs_sssp \
  CFLAGS="-Drestrict=__restrict__ -O3 -DGRAPH_GENERATOR_MPI -DREUSE_CSR_FOR_VALIDATION -I../aml -fcommon" \
  >&2 2>/dev/null
echo "export HT_GAPBS_BFS=$dir/gapbs/bfs"
echo "export HT_GRAPH500_REPLICATED=$dir/graph500/mpi/graph500_mpi_replicated"
echo "export HT_GAPBS_SSSP=$dir/gapbs/sssp HT_GAPBS_CONVERTER=$dir/gapbs/converter"
echo "export HT_GRAPH500_SSSP=$dir/graph500-3/src/graph500_reference_bfs_sssp"
