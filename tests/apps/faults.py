#!/usr/bin/env python3
"""The fault suite: faults one rank sees alone, as real machines give them,
each of which must end every rank within 20 s, non-zero, with a message that
names the fault, none of Open MPI's, the C++ library's or HDF5's own error
text, and no results file (nor its temporary).  The last rank of an MPMD
launch gets the fault (`mpirun -np N-1 app : -np 1 <fault> app`):

  file        the graph file in the others' working folder, not in its own
              (a node-local copy one node lacks)
  setting:V   environment variable V (each one runtime/HT_Settings.hpp lists)
              set on that rank alone
  flag        a bad --kokkos-num-threads on that rank alone
  alloc@P     an allocation failing as phase P begins (HT_TEST_FAULT)
  kill@P      the rank killed as phase P begins
  sizes       (every rank) an edge list whose largest id is 2^42 - 1: refused
              before kernel 1 allocates, naming the vertex count and
              Graph500/relabel

  faults.py --exe <graph500_bfs> --ranks N --case CASE --scratch DIR [--settings HPP]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

LIMIT = 20  # seconds every rank has to end
FOREIGN = r"ORTE_ERROR_LOG|std::|terminate called|HDF5-DIAG|Segmentation fault|core dumped"
VALUE = {"HT_EXCHANGE_END": "nbx", "HT_HUGE_PAGES": "0", "HT_MEMORY_CHECK": "warn",
         "HT_MPI_THREAD_LEVEL": "serialized", "HT_PROGRESS_SECONDS": "1"}


def launch(n):
    cmd = ["mpirun", "--bind-to", "none", "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd + ["-np", str(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--scratch", required=True)
    a = ap.parse_args()
    n, case = a.ranks, a.case
    a.exe = os.path.abspath(a.exe)
    shutil.rmtree(a.scratch, ignore_errors=True)
    here, there = os.path.join(a.scratch, "here"), os.path.join(a.scratch, "there")
    os.makedirs(here)
    os.makedirs(there)
    # A small weighted graph: a ring with chords, ids from 0.
    with open(os.path.join(here, "g.wel"), "w") as f:
        for u in range(512):
            f.write("%d %d %d\n%d %d %d\n" % (u, (u + 1) % 512, 1 + u % 7, u, (u * 37) % 512, 3))
    out = os.path.join(a.scratch, "results", "run.h5")
    args = ["--set", "Output/file=" + out, "--set", "Graph500/NBFS=2",
            "--kokkos-num-threads=1"]
    plain = [a.exe, "-s", "10"] + args
    on_file = [a.exe, "--set", "Graph500/file=g.wel"] + args
    env = {}
    if case == "file":
        cmd = (launch(n - 1) + ["--wdir", here] + on_file + [":"] + ["-np", "1", "--wdir", there]
               + on_file)
        want, code = r"rank %d \(node [^)]*\): g\.wel: cannot open: No such file or directory; " \
            r"the graph file must be readable on every node" % (n - 1), 2
    elif case.startswith("setting:"):
        var = case.split(":", 1)[1]
        cmd = launch(n - 1) + plain + [":", "-np", "1", "env", "%s=%s" % (var, VALUE.get(var, "1"))] \
            + plain
        want, code = r"rank %d \(node [^)]*\): %s is '%s' here but unset on rank 0" % (
            n - 1, var, re.escape(VALUE.get(var, "1"))), 2
    elif case == "flag":
        cmd = launch(n - 1) + plain + [":", "-np", "1"] + plain + ["--kokkos-num-threads=many"]
        want, code = r"rank %d \(node [^)]*\): --kokkos-num-threads=many: the Kokkos threads" % (
            n - 1), 2
    elif case.startswith(("alloc@", "kill@")):
        kind, phase = case.split("@", 1)
        kernels = ["--set", "Graph500/kernels=bfs,sssp"]
        cmd = (launch(n - 1) + plain + kernels + [":", "-np", "1", "env",
                                                 "HT_TEST_FAULT=" + case] + plain + kernels)
        want = (r"rank %d: error: out of memory in %s" % (n - 1, re.escape(phase)) if kind == "alloc"
                else r"rank %d .*exited on signal 9" % (n - 1))
        code = None  # any non-zero
    elif case == "sizes":
        with open(os.path.join(here, "sparse.el"), "w") as f:
            f.write("0 4398046511103\n1 2\n")
        cmd = launch(n) + ["--wdir", here, a.exe, "--set", "Graph500/file=sparse.el",
                           "--set", "Graph500/kernels=bfs"] + args
        want, code = r"4398046511104 vertices.*Graph500/relabel", 2
    else:
        sys.exit("faults.py: unknown case '%s'" % case)
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=LIMIT + 10, env=dict(os.environ, **env))
        rc, text = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        rc, text = "hung", (e.stdout or b"").decode(errors="replace")
    took = time.time() - t0
    print(" ".join(cmd))
    print(text)
    print("exit %s after %.1f s" % (rc, took))
    failures = []
    if rc == "hung" or took > LIMIT:
        failures.append("not ended within %d s" % LIMIT)
    elif rc == 0 or (code is not None and rc != code):
        failures.append("exit %s, expected %s" % (rc, code if code is not None else "non-zero"))
    if not re.search(want, text):
        failures.append("no message naming the fault: /%s/" % want)
    m = re.search(FOREIGN, text)
    if m:
        failures.append("foreign error text: '%s'" % m.group(0))
    left = os.listdir(os.path.dirname(out)) if os.path.isdir(os.path.dirname(out)) else []
    if left:
        failures.append("files left where the results go: %s" % left)
    print("\n".join("FAILED: " + f for f in failures) or "passed: %s on %d ranks" % (case, n))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
