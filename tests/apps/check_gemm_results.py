#!/usr/bin/env python3
"""Checks a cannon_gemm results file: run metadata, per-rank timings and the
validation verdict are all there and consistent with the run.

usage: check_results.py <file.h5> <ranks> <threads>
"""
import sys

import h5py
import numpy as np

from check_comm import check_comm

path, ranks, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with h5py.File(path, "r") as f:
    a = f.attrs
    for key in ("app", "deck", "git_revision", "kokkos", "kokkos_backend", "task_runtime",
                "mpi_thread_level",
                "start_time", "end_time", "ranks", "threads_per_rank", "N"):
        assert key in a, f"attribute {key} missing"
    assert a["ranks"] == ranks, (a["ranks"], ranks)
    assert a["threads_per_rank"] == threads, (a["threads_per_rank"], threads)
    assert b"<ParameterList" in a["deck"] or "<ParameterList" in str(a["deck"])
    reps = len(f["gemm/seconds"])
    assert reps >= 1 and len(f["gemm/gflops"]) == reps
    for phase in ("skew", "compute", "communication", "wait", "total"):
        d = f["gemm/" + phase + "_seconds"]
        assert d.shape == (ranks, reps), (phase, d.shape)
        assert (d[()] >= 0).all(), phase
        assert d.attrs["units"] in (b"s", "s"), phase
    assert (f["gemm/total_seconds"][()] > 0).all()
    assert np.isclose(f["gemm/median_seconds"][()], np.median(f["gemm/seconds"][()]))
    assert f["gemm/median_gflops"][()] > 0
    rss = f["run/peak_rss_bytes"][()]
    assert rss.shape == (ranks,) and (rss > 1 << 20).all(), rss  # every rank, > 1 MiB
    err, bound = f["gemm/freivalds_error"][()], f["gemm/freivalds_bound"][()]
    assert err <= bound, (err, bound)
    assert f["gemm/valid"].dtype == np.uint8 and f["gemm/valid"][()] == 1
    # MPI counts: the skew and q steps are the whole multiplication.
    check_comm(f, "gemm", ranks, reps, exact=True)
    q = round(ranks ** 0.5)
    assert len(f["comm/gemm/step_trial"]) == reps * (q + 1), (len(f["comm/gemm/step_trial"]), q)
print(f"{path}: ok ({ranks} ranks x {threads} threads, {reps} repetitions)")
