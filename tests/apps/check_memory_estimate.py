#!/usr/bin/env python3
"""Checks a run's memory estimate against its measured peak: every rank has
run/estimated_bytes, made before the run (docs/running.md#errors-and-exit-codes), and its
peak resident memory run/peak_rss_bytes lies within [low, high] times it; the
graph it holds (graph/bytes: in 2D the block and the CSR's degrees) is part of both.

usage: check_memory_estimate.py <file.h5> <ranks> <threads> [low] [high]
"""
import sys

import h5py

path, ranks = sys.argv[1], int(sys.argv[2])
low = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5
high = float(sys.argv[5]) if len(sys.argv) > 5 else 2.0
with h5py.File(path, "r") as f:
    est = f["run/estimated_bytes"][()]
    peak = f["run/peak_rss_bytes"][()]
    graph = f["graph/bytes"][()]
    assert est.shape == (ranks,) and peak.shape == (ranks,), (est.shape, peak.shape)
    assert f["run/estimated_bytes"].attrs["units"] in (b"bytes", "bytes")
    ratio = peak / est
    mib = 1 << 20
    for r in range(ranks):
        print(f"rank {r}: estimate {est[r] / mib:.1f} MiB, peak {peak[r] / mib:.1f} MiB, "
              f"peak / estimate {ratio[r]:.2f}, graph {graph[r] / mib:.1f} MiB")
    assert ((ratio >= low) & (ratio <= high)).all(), f"peak / estimate outside [{low}, {high}]"
    assert ((graph < est) & (graph < peak)).all(), "the graph outweighs the estimate or the peak"
print(f"{path}: ok")
