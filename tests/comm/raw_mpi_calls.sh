#!/usr/bin/env bash
# Every message, collective and barrier of the library goes through ht::mpi
# (comm/HT_CommCounts.hpp), or the counts in the results file miss it.  Fails
# naming each raw call under src/ (comments aside, and receives started
# with a "receives: uncounted" note); io/, the start-up
# (runtime/HT_Environment.cpp: the node's cores; runtime/HT_Settings.cpp: the
# settings every rank agrees) and the agreement on a bad input
# (runtime/HT_Error.cpp: throw_if_any) are exempt: they run outside every
# trial.  It first checks
# itself on a file of raw calls it must find.
#   raw_mpi_calls.sh <src dir>
set -euo pipefail
src=${1%/}
# (MPI_Send_init and its kind send nothing: the start does, counted by mpi::Start.)
p2p='I?[SBR]?send|Isendrecv|Sendrecv(_replace)?|Start|Startall'
coll='I?barrier|I?bcast|I?allreduce|I?reduce|I?reduce_scatter(_block)?|I?scan|I?exscan'
coll+='|I?gatherv?|I?allgatherv?|I?alltoall[vw]?|I?scatterv?|I?neighbor_[a-z]+'
rma='Put|Get|R?accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap'
# Names are MPI_ then a capital: match them case-blind, allow "MPI_X (" and
# "MPI_X\n  (" (the name alone on a line's end), and a name passed as a value.
pattern="(^|[^:[:alnum:]_])MPI_($p2p|$coll|$rma)([[:space:]]*[(:)]|[[:space:]]*$)"

scan() { # dir: prints "file:line: text" of each raw call outside io/ and the wrappers
  local f
  while IFS= read -r -d '' f; do
    case ${f#"$1"/} in io/* | comm/HT_CommCounts.cpp | runtime/HT_Environment.cpp | runtime/HT_Settings.cpp | runtime/HT_Error.cpp) continue ;; esac
    grep -nEi "$pattern" "$f" | grep -vE '^[0-9]+:[[:space:]]*//|// receives: uncounted$' |
      sed "s|^|$f:|" || true
  done < <(find "$1" \( -name '*.cpp' -o -name '*.hpp' \) -print0 | sort -z)
}

# The check's own check: each of these must be found.
fixture=$(mktemp -d)
trap 'rm -rf "$fixture"' EXIT
mkdir -p "$fixture/graph" "$fixture/io"
cat >"$fixture/graph/raw.cpp" <<'CPP'
MPI_Iexscan(&x, &y, 1, MPI_INT, MPI_SUM, comm, &r);
(sync ? MPI_Issend : MPI_Isend)(b, n, MPI_BYTE, d, t, comm, &r);
MPI_Allgatherv
    (b, n, MPI_BYTE, a, c, o, MPI_BYTE, comm);
MPI_Startall(2, sends);  // sends
MPI_Put(b, n, MPI_BYTE, d, 0, n, MPI_BYTE, win);
CPP
echo 'MPI_Bcast(b, 1, MPI_INT, 0, comm);' >"$fixture/io/deck.cpp"
caught=$(scan "$fixture" | wc -l)
if ((caught != 5)); then
  echo "raw_mpi_calls.sh: found $caught of the 5 raw calls planted in its fixture" >&2
  scan "$fixture" >&2
  exit 2
fi

found=$(scan "$src")
if [[ -n $found ]]; then
  printf 'MPI called around ht::mpi (comm/HT_CommCounts.hpp), so not counted:\n%s\n' "$found" >&2
  exit 1
fi
echo "every message, collective and barrier under $src goes through ht::mpi"
