#!/usr/bin/env python3
"""Runs a driver under the tests' Kokkos Tools library and checks the regions
every rank saw: the names each driver promises, how many times, and inside
which region, on the host thread; and no region left open or closed twice.

check_regions.py --tool LIB --out PREFIX --ranks N --expect FILE -- COMMAND...

FILE lists one expectation per line:  <count> <path>  where path is
region names joined by ' > ' from the outermost, and count is 'N' (exactly),
'N+' (at least) or '-' (never).
"""
import argparse
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--expect", required=True)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    for r in range(a.ranks):
        if os.path.exists(f"{a.out}.{r}"):
            os.remove(f"{a.out}.{r}")
    env = dict(os.environ, KOKKOS_TOOLS_LIBS=a.tool, HT_REGIONS=a.out)
    run = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=240)
    print(run.stdout)
    if run.returncode != 0:
        sys.exit(f"FAIL: the run exited {run.returncode}")

    expect = []
    for line in open(a.expect):
        line = line.strip()
        if line and not line.startswith("#"):
            count, path = line.split(" ", 1)
            expect.append((count, tuple(p.strip() for p in path.split(">"))))

    failed = False
    for r in range(a.ranks):
        paths, stack = {}, []
        lines = open(f"{a.out}.{r}").read().splitlines()
        for line in lines:
            if line.startswith("error:"):
                print(f"FAIL: rank {r}: {line}")
                failed = True
                continue
            thread, depth, name = line.split(" ", 2)
            if thread != "host":
                continue  # tasks' regions (Kokkos Kernels'): balanced, checked above
            del stack[int(depth):]
            stack.append(name)
            key = tuple(stack)
            paths[key] = paths.get(key, 0) + 1
        for count, path in expect:
            n = paths.get(path, 0)
            ok = (n == 0 if count == "-" else
                  n >= int(count[:-1]) if count.endswith("+") else n == int(count))
            if not ok:
                print(f"FAIL: rank {r}: '{' > '.join(path)}' seen {n} times, expected {count}")
                failed = True
        print(f"rank {r}: {len(lines)} regions, {len(paths)} distinct paths on the host thread")
    if failed:
        sys.exit(1)
    print("PASS: every expected region, nested as expected, on every rank")


if __name__ == "__main__":
    main()
