#!/usr/bin/env python3
"""Checks the kernel-3 (SSSP) part of a graph500_bfs results file: one row
per search key in every sssp/ dataset, the keys and TEPS edge counts those of
the BFS from the same keys when both kernels ran (the same component), TEPS
and their harmonic mean consistent, buckets and phases as delta-stepping
takes them, messages only between ranks, and the SSSP profile's rows.

usage: check_sssp_results.py <file.h5> <ranks> <threads>
"""
import sys

import h5py
import numpy as np

from check_comm import check_comm


def check_sssp(f, ranks):
    a = f.attrs
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
    assert "sssp" in text(a["kernels"]), a["kernels"]
    for key in ("delta", "sssp_variant"):
        assert key in a, f"attribute {key} missing"
    assert a["delta"] > 0
    for name in ("harmonic_mean_TEPS", "harmonic_stddev_TEPS", "max_distance"):
        assert f["sssp/" + name].shape == (), name
    for name in ("keys", "nedge", "buckets", "phases", "relaxations", "messages"):
        assert f["sssp/" + name].dtype == np.int64, name
    keys = f["sssp/keys"][()]
    nkeys = len(keys)
    assert nkeys >= 1
    for name in ("seconds", "nedge", "teps", "validate_seconds", "buckets", "phases",
                 "relaxations", "messages"):
        assert f["sssp/" + name].shape == (nkeys,), (name, f["sssp/" + name].shape)
    seconds, nedge, teps = f["sssp/seconds"][()], f["sssp/nedge"][()], f["sssp/teps"][()]
    assert (seconds > 0).all() and (nedge > 0).all()
    assert np.allclose(teps, nedge / seconds)
    assert np.isclose(f["sssp/harmonic_mean_TEPS"][()], nkeys / np.sum(1.0 / teps), rtol=1e-9)
    if "bfs" in text(a["kernels"]):
        assert (keys == f["bfs/keys"][()]).all(), "both kernels search from the same keys"
        assert (nedge == f["bfs/nedge"][()]).all(), "a key's component is the same for both"
    buckets, phases = f["sssp/buckets"][()], f["sssp/phases"][()]
    # Each bucket takes a phase at least; classic adds its heavy phase.
    per_bucket = 2 if text(a["sssp_variant"]) == "classic" else 1
    assert (buckets >= 1).all() and (phases >= per_bucket * buckets).all(), (buckets, phases)
    assert (f["sssp/relaxations"][()] > 0).all()
    if ranks == 1:
        assert (f["sssp/messages"][()] == 0).all(), "one rank sends no messages"
    else:
        assert f["sssp/messages"][()].sum() > 0, "several ranks exchange relaxations"
    # MPI counts: a step per phase, whose level's end agrees on the next
    # bucket (by its end markers, or a reduction with nbx).
    check_comm(f, "sssp", ranks, nkeys, exact=True)
    trial = f["comm/sssp/step_trial"][()]
    phases = f["sssp/phases"][()]
    for k in range(nkeys):
        assert (trial == k).sum() == phases[k], (k, (trial == k).sum(), phases[k])
    # The profile, recorded (on by default) though not printed: a row a rank.
    if "profile/sssp" in f:
        d = f["profile/sssp/record_iteration"]
        assert d.ndim == 2 and d.shape[0] == ranks, d.shape
    return nkeys


if __name__ == "__main__":
    path, ranks, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with h5py.File(path, "r") as f:
        text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
        assert text(f.attrs["app"]) == "graph500_bfs"
        assert f.attrs["ranks"] == ranks and f.attrs["threads_per_rank"] == threads
        if text(f.attrs["kernels"]) == "sssp":
            assert "bfs" not in f, "an SSSP-only run writes no BFS datasets"
        n = check_sssp(f, ranks)
    print(f"{path}: SSSP ok ({ranks} ranks x {threads} threads, {n} keys)")
