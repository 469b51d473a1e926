#!/usr/bin/env python3
"""Checks a graph500_bfs results file: the run's metadata, one row per search
key in every per-key dataset, tables that agree with the levels, what the
variant reports, and the profile arrays, all consistent with the run; and
kernel 3's datasets when it ran (check_sssp_results.py).

usage: check_graph500_results.py <file.h5> <ranks> <threads> <variant> [direction [partition]]
(direction: a bottom-up variant's forced top-down or bottom-up, checked level
by level; partition: 1d, the default, or 2d).  What the variant reports comes
from `graph500_bfs --list variants`, saved in the file $HT_BFS_VARIANTS.
"""
import sys

import os

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_comm import check_comm  # noqa: E402
from check_sssp_results import check_sssp  # noqa: E402

path, ranks, threads, variant = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
direction = sys.argv[5] if len(sys.argv) > 5 else "auto"
partition = sys.argv[6] if len(sys.argv) > 6 else "1d"
# A line per variant: name, work, reports, min_tasks, then traits (bfs_variants_list()).
with open(os.environ["HT_BFS_VARIANTS"]) as listing:
    kinds = {w[0]: w[1:] for w in (line.split() for line in listing) if w}
assert variant in kinds, (variant, sorted(kinds))
work, reports, traits = kinds[variant][0], kinds[variant][1], kinds[variant][3:]
bottom_up = "bottom_up" in traits
assert partition == "1d" or "partition_2d" in traits, (variant, partition, traits)
with h5py.File(path, "r") as f:
    a = f.attrs
    for key in ("app", "deck", "git_revision", "kokkos", "kokkos_backend", "task_runtime",
                "mpi_thread_level",
                "start_time", "end_time", "ranks", "threads_per_rank", "SCALE", "edgefactor",
                "variant", "NBFS", "tasks_per_rank", "target_bits", "row_order", "kernels"):
        assert key in a, f"attribute {key} missing"
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
    assert text(a["app"]) == "graph500_bfs", a["app"]
    assert text(a["variant"]) == variant, (a["variant"], variant)
    assert a["ranks"] == ranks, (a["ranks"], ranks)
    assert a["threads_per_rank"] == threads, (a["threads_per_rank"], threads)
    hmean_file = f["bfs/harmonic_mean_TEPS"][()]
    assert f["bfs/harmonic_mean_TEPS"].shape == () and hmean_file > 0
    assert f["bfs/harmonic_mean_TEPS"].attrs["units"] in (b"TEPS", "TEPS")
    assert a["tasks_per_rank"] >= 1
    assert a["target_bits"] in (32, 64), a["target_bits"]
    assert text(a["row_order"]) in ("degree", "input"), a["row_order"]
    assert text(a["partition"]) == partition, (a["partition"], partition)
    if partition == "2d":
        rows, cols = (int(x) for x in text(a["grid"]).split("x"))
        assert rows * cols <= ranks, (a["grid"], ranks)  # the others spare
    else:
        assert "grid" not in a, a["grid"]
    vertices, edges = f["graph/vertices"][()], f["graph/edges"][()]
    assert 0 < vertices <= 2 ** int(a["SCALE"]), (vertices, a["SCALE"])
    assert edges > 0
    assert f["graph/generation_seconds"][()] >= 0 and f["graph/construction_seconds"][()] >= 0
    # Every dataset says its units; counts, keys and levels are integers.
    datasets = []
    f.visititems(lambda name, d: datasets.append(d) if isinstance(d, h5py.Dataset) else None)
    for d in datasets:
        assert "units" in d.attrs, f"{d.name} has no units"
    for name in ("graph/vertices", "graph/edges", "bfs/keys", "bfs/nedge", "bfs/levels",
                 "bfs/frontier", "bfs/messages", "bfs/bytes", "bfs/bytes_sent"):
        assert f[name].dtype == np.int64, (name, f[name].dtype)
    assert f["bfs/bottom_up"].dtype == np.uint8
    # How the exchanges' levels ended: as HT_EXCHANGE_END asked, else by ranks.
    asked = os.environ.get("HT_EXCHANGE_END", "auto")
    want = asked if asked in ("markers", "nbx") else ("nbx" if ranks > 16 else "markers")
    assert text(a["level_end"]) == want, (a["level_end"], want)

    keys = f["bfs/keys"][()]
    nkeys = len(keys)
    assert nkeys >= 1 and nkeys == a["NBFS"], (nkeys, a["NBFS"])
    n = 2 ** int(a["SCALE"])
    assert ((keys >= 0) & (keys < n)).all(), keys
    for name in ("seconds", "nedge", "teps", "levels", "validate_seconds", "lock_seconds",
                 "redundant_visits"):
        assert f["bfs/" + name].shape == (nkeys,), (name, f["bfs/" + name].shape)
    seconds, nedge, teps = f["bfs/seconds"][()], f["bfs/nedge"][()], f["bfs/teps"][()]
    assert (seconds > 0).all() and (nedge > 0).all()
    assert np.allclose(teps, nedge / seconds), (teps, nedge / seconds)
    hmean = nkeys / np.sum(1.0 / teps)
    assert np.isclose(hmean_file, hmean, rtol=1e-9), (hmean_file, hmean)

    # [keys, levels] tables: level 0 is the key alone, and a search of L
    # levels has L non-empty frontiers.
    levels = f["bfs/levels"][()]
    frontier = f["bfs/frontier"][()]
    width = frontier.shape[1]
    assert frontier.shape == (nkeys, width) and width == levels.max(), (frontier.shape, levels)
    assert (frontier[:, 0] == 1).all(), frontier[:, 0]
    for k in range(nkeys):
        assert (frontier[k, : levels[k]] > 0).all(), (k, frontier[k], levels[k])
        assert (frontier[k, levels[k]:] == 0).all(), (k, frontier[k], levels[k])
        assert frontier[k].sum() <= n
    for name in ("messages", "bytes", "bottom_up"):
        assert f["bfs/" + name].shape == (nkeys, width), name
    if ranks == 1:
        assert (f["bfs/messages"][()] == 0).all(), "one rank sends no messages"
    elif not (bottom_up and direction == "bottom-up" and partition == "1d"):
        assert f["bfs/messages"][()].sum() > 0, "several ranks exchange messages"
    assert f["bfs/bytes_sent"].shape == (ranks,)
    rss = f["run/peak_rss_bytes"][()]
    assert rss.shape == (ranks,) and (rss > 1 << 20).all(), rss  # every rank, > 1 MiB
    est = f["run/estimated_bytes"][()]  # made before kernel 1, MPI and Kokkos included
    assert est.shape == (ranks,) and (est > 16 << 20).all(), est
    before = f["graph/rss_before_bytes"][()]  # before kernel 1: a part of the peak
    assert before.shape == (ranks,) and (before > 1 << 20).all() and (before <= rss).all(), before
    held = f["graph/bytes"][()]  # at least the CSR's offsets: 8 bytes a vertex
    assert held.shape == (ranks,) and held.sum() >= 8 * vertices, (held, vertices)
    # What each rank held at most, by kind, in kernel 1, in the searches and
    # in their validation:
    # the CSR (8 bytes a vertex at least) in both, and the searches' parents
    # (8 bytes a vertex) on every rank; byte counts, never negative.  The
    # graph does not change in the searches: its mark there is graph/bytes
    # when each structure is counted once (the 1D CSR; in 2D, the block too).
    for phase in ("kernel1", "searches", "validation"):
        for kind in ("graph", "exchange", "search"):
            d = f[f"held/{phase}/{kind}"]
            assert d.shape == (ranks,) and d.dtype == np.int64, (d.name, d.shape, d.dtype)
            assert (d[()] >= 0).all(), (d.name, d[()])
        graph_high = f[f"held/{phase}/graph"][()]
        assert (graph_high > 0).all() and graph_high.sum() >= 8 * vertices, (phase, graph_high)
    graph_high = f["held/searches/graph"][()]
    assert (graph_high <= held).all(), ("graph counted twice?", graph_high, held)
    if partition == "1d":
        assert (graph_high == held).all(), (graph_high, held)
    search_high = f["held/searches/search"][()]
    assert (search_high > 0).all() and search_high.sum() >= 8 * vertices, search_high

    # Where each rank's time went, per level, summed over the keys, all on
    # one clock: no part negative, the four parts add up to each level's own
    # total (1e-9 s of rounding per level and key), and the levels lie inside
    # the searches (each search's time is its slowest rank's).
    parts = {}
    for name in ("expand", "communicate", "wait", "sync", "total"):
        d = f["bfs/level_" + name + "_seconds"][()]
        assert d.shape[0] == ranks and d.shape[1] >= levels.max(), (name, d.shape, levels.max())
        assert (d >= -1e-9 * nkeys).all(), (name, d)
        parts[name] = d
    total = parts.pop("total")
    summed = sum(parts.values())
    assert np.allclose(summed, total, rtol=0, atol=1e-9 * nkeys), (summed, total)
    assert (total.sum(axis=1) <= seconds.sum() + 1e-9 * nkeys).all(), (total.sum(axis=1), seconds.sum())
    assert (parts["expand"].sum(axis=1) > 0).all(), parts
    if ranks > 1:
        assert ((parts["communicate"] + parts["wait"] + parts["sync"]).sum(axis=1) > 0).all(), parts

    # Directions: 1 where a level was searched bottom-up, else 0.
    up = f["bfs/bottom_up"][()]
    assert set(np.unique(up)) <= {0, 1}, up
    if bottom_up:
        if direction == "top-down":
            assert (up == 0).all(), up
        if direction == "bottom-up":
            for k in range(nkeys):
                assert (up[k, : levels[k]] == 1).all(), (k, up[k], levels[k])
            # A bottom-up level sends no messages in 1D; in 2D it passes
            # its bitmap along the grid row.
            if partition == "1d":
                assert (f["bfs/messages"][()] == 0).all()
    else:
        assert (up == 0).all(), up

    lock, redundant = f["bfs/lock_seconds"][()], f["bfs/redundant_visits"][()]
    assert (lock >= 0).all()
    if reports == "redundancy":
        assert (redundant >= 1).all(), redundant  # visits >= distinct vertices
    else:
        assert (redundant == 0).all(), redundant  # not reported
    if "visits_once" in traits:
        assert (redundant == 1).all(), redundant  # a vertex is claimed once
    if reports != "lock_time":
        assert (lock == 0).all(), lock

    # The profile (on by default, recorded whether or not it is printed):
    # per-rank rows, one iteration per level.
    p = f["profile/bfs"]
    for name in ("record_iteration", "record_lane", "record_busy_seconds",
                 "iteration_slowest_seconds", "iteration_imbalance"):
        assert p[name].ndim == 2 and p[name].shape[0] == ranks, (name, p[name].shape)
    assert p["record_iteration"].dtype == np.int64
    imb = p["iteration_imbalance"][()]
    assert ((imb >= 0) & (imb <= 1)).all()
    assert p["mean_imbalance_over_ranks"].shape == (3,)
    if work != "single":
        assert p["record_count"][()].sum() > 0, "task variants record their tasks"
    # MPI counts: a step per level searched (the frontier table's nonzero
    # entries), each with the level's closing sum.
    check_comm(f, "bfs", ranks, nkeys, exact=True, min_collectives=1)
    trial = f["comm/bfs/step_trial"][()]
    for k in range(nkeys):
        assert (trial == k).sum() == (frontier[k] > 0).sum(), (k, trial, frontier[k])
    # Kernel 3, when the run made it (Graph500/kernels).
    if "sssp" in text(a.get("kernels", "bfs")):
        check_sssp(f, ranks)
print(f"{path}: ok ({variant}, {ranks} ranks x {threads} threads, {nkeys} keys)")
