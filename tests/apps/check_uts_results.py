#!/usr/bin/env python3
"""Checks a uts results file: the run's metadata, the tree's counts (the
named tree's published ones), per-rank rows that add up (nodes to the tree's
size, work sent to work received), one time per repetition, and the profile.

usage: check_uts_results.py <file.h5> <ranks> <threads> <tree> <nodes> <leaves> <depth>
"""
import sys

import h5py
import numpy as np

from check_comm import check_comm

path, ranks, threads, tree = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
nodes, leaves, depth = (int(x) for x in sys.argv[5:8])
with h5py.File(path, "r") as f:
    a = f.attrs
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
    for key in ("app", "deck", "git_revision", "task_runtime", "ranks", "threads_per_rank",
                "uts_tree", "uts_tree_parameters", "stealing", "steal_victim", "steal_amount",
                "steal_progress"):
        assert key in a, f"attribute {key} missing"
    assert text(a["app"]) == "uts", a["app"]
    assert text(a["uts_tree"]) == tree, (a["uts_tree"], tree)
    assert a["ranks"] == ranks and a["threads_per_rank"] == threads
    for name in ("nodes", "leaves", "depth"):
        assert f["uts/" + name].shape == () and f["uts/" + name].dtype == np.int64, name
    assert f["uts/nodes"][()] == nodes, f["uts/nodes"][()]
    assert f["uts/leaves"][()] == leaves
    assert f["uts/depth"][()] == depth
    assert f["uts/verified"].dtype == np.uint8 and f["uts/verified"][()] == 1
    secs, rate = f["uts/seconds"][()], f["uts/nodes_per_second"][()]
    assert len(secs) >= 1 and (secs > 0).all() and np.allclose(rate, nodes / secs)
    assert np.isclose(f["uts/mean_nodes_per_second"][()], nodes / secs.mean())
    reps = len(secs)
    per = {k: f["uts/rank_" + k][()] for k in ("nodes", "busy_seconds", "idle_seconds",
                                                "steal_requests",
                                                "steals", "served", "items_sent",
                                                "items_received", "task_runs", "token_rounds")}
    for k, v in per.items():
        assert v.shape == (ranks,), (k, v.shape)
        assert (v >= 0).all(), (k, v)
    # Rank 0 counts the breadth-first prefix every rank expands; the rest
    # are the workers' nodes: together the tree, once per repetition.
    assert per["nodes"].sum() == nodes * reps, (per["nodes"], nodes, reps)
    assert per["items_sent"].sum() == per["items_received"].sum()
    assert per["served"].sum() == per["steals"].sum()
    assert (per["steals"] <= per["steal_requests"]).all()
    if text(a["stealing"]) == "off":
        assert per["steal_requests"].sum() == 0
    assert (per["task_runs"] >= threads * reps).all()
    # One profile record per worker and repetition, on every rank.
    it = f["profile/uts/record_iteration"][()]
    assert it.shape[0] == ranks and ((it >= 0).sum(axis=1) == threads * reps).all(), it
    check_comm(f, "uts", ranks, reps, steps=False)  # a repetition is one search
print(f"{path}: uts {tree}, {ranks} x {threads}: counts, per-rank sums and profile consistent")
