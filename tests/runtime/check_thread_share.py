"""The thread count a rank takes, checked as a user meets it.

    check_thread_share.py <results folder> <ranks,...> <mpiexec> <preflags...> -- <driver> <args...>

Runs <driver> with `--bind-to none` (the preflags) and no thread flag on each
rank count given (1, 2 and 4; cannon_gemm needs squares), with OMP_NUM_THREADS and KOKKOS_NUM_THREADS unset, and checks:
  1. every rank takes its share, max(1, cores // ranks), named on the first
     line ("(the share of ...)") and in the results file (threads_source);
  2. ranks x threads <= cores, unless the ranks alone exceed the cores;
  3. exactly one warning, ours, when ranks exceed the cores; none otherwise;
     Kokkos' own ("oversubscribing") never;
then, on 2 ranks if listed, asks for every core on each (--kokkos-num-threads=
cores, more than the share), and on 1 for OMP_NUM_THREADS=1: the first gets
one warning in our words, the second keeps the variable's count and names it.
"""
import os
import re
import subprocess
import sys

import h5py

folder = sys.argv[1]
rank_counts = [int(r) for r in sys.argv[2].split(",")]
split = sys.argv.index("--")
launcher, command = sys.argv[3:split], sys.argv[split + 1:]
cores = len(os.sched_getaffinity(0))
env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "KOKKOS_NUM_THREADS")}
KOKKOS_WORDS = re.compile(r"oversubscribing|Kokkos::OpenMP::initialize WARNING")


def run(ranks, extra, name, environment=env):
    out = os.path.join(folder, name + ".h5")
    cmd = launcher[:1] + ["-np", str(ranks)] + launcher[1:] + command + extra + [
        "--set", "Output/file=" + out, "--set", "Output/overwrite=true"]
    p = subprocess.run(cmd, env=environment, capture_output=True, text=True, timeout=300)
    text = p.stdout + p.stderr
    print("$", " ".join(cmd), "\n", text)
    assert p.returncode == 0, f"exit {p.returncode}"
    assert not KOKKOS_WORDS.search(text), "Kokkos' own warning reached the user"
    first = p.stdout.splitlines()[0]
    m = re.match(r"\S+: (\d+) ranks? x (\d+) threads? \(([^)]*)\)", first)
    assert m, f"first line: {first!r}"
    assert int(m.group(1)) == ranks
    with h5py.File(out, "r") as f:
        attrs = {k: v.decode() if isinstance(v, bytes) else v for k, v in f.attrs.items()}
    warnings = [line for line in p.stderr.splitlines() if ": warning: " in line]
    return int(m.group(2)), m.group(3), attrs, warnings


for ranks in rank_counts:
    threads, reason, attrs, warnings = run(ranks, [], f"share_np{ranks}")
    share = max(1, cores // ranks)
    assert threads == share, (ranks, threads, share)
    assert reason.startswith(f"the share of {cores} core"), reason
    assert ranks == 1 or f"among {ranks} ranks" in reason, reason
    assert attrs["threads_source"] == "share" and attrs["threads_per_rank"] == threads
    assert attrs["thread_share"] == share and attrs["node_ranks"] == ranks, attrs
    assert ranks * threads <= max(cores, ranks)
    if ranks > cores:
        assert len(warnings) == 1 and "oversubscribed" in warnings[0], warnings
    else:
        assert not warnings, warnings

# More threads than the share: one warning, ours, from rank 0 alone.
if 2 in rank_counts:
    threads, reason, attrs, warnings = run(2, [f"--kokkos-num-threads={cores}"], "asked_np2")
    assert threads == cores and reason == "--kokkos-num-threads", (threads, reason)
    assert len(warnings) == 1, warnings
    assert re.search(rf"warning: {cores} threads a rank \(--kokkos-num-threads\) where rank "
                     rf"0's share is {max(1, cores // 2)} .*oversubscribed", warnings[0]), warnings
    assert attrs["threads_source"] == "--kokkos-num-threads"

# The OpenMP variable is the user's choice: kept and named.
if 1 in rank_counts:
    threads, reason, attrs, warnings = run(1, [], "omp_np1", dict(env, OMP_NUM_THREADS="1"))
    assert threads == 1 and reason == "OMP_NUM_THREADS" and not warnings, (threads, reason,
                                                                           warnings)
print("thread share: every check passed")
