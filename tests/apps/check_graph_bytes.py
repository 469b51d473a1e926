#!/usr/bin/env python3
"""Checks that a run holds at most <ratio> times the graph bytes a rank of a
reference run holds (graph/bytes, the most any rank holds), and the partition
and grid of each: partition auto on a prime rank count against the nearest
square one (comm/HT_Grid2D.hpp's rule).

usage: check_graph_bytes.py <run.h5> <partition[:grid]> <reference.h5> <partition[:grid]> <ratio>
"""
import sys

import h5py


def read(path, want):
    with h5py.File(path, "r") as f:
        a = f.attrs
        text = lambda v: v.decode() if isinstance(v, bytes) else str(v)  # noqa: E731
        got = text(a["partition"]) + (":" + text(a["grid"]) if "grid" in a else "")
        assert got == want, (path, got, want)
        return int(f["graph/bytes"][()].max()), int(a["ranks"])


run, run_part, ref, ref_part, ratio = sys.argv[1:6]
held, ranks = read(run, run_part)
ref_held, ref_ranks = read(ref, ref_part)
print(f"graph bytes a rank, most: {held} on {ranks} ranks ({run_part}), {ref_held} on {ref_ranks} "
      f"ranks ({ref_part}): {held / ref_held:.2f} times")
assert held <= float(ratio) * ref_held, f"more than {ratio} times"
print(f"{run}: ok")
