"""Checks a kernel's MPI counts in a results file (drivers/HT_CommRecord.hpp):
comm/<kernel>/{kernel,verify}/<count> hold one row a rank and a column a
trial; the steps, when the kernel has them, are tagged with their trial in
order, and each trial's steps together hold no more than the trial's kernel
(exactly as much where the kernel is nothing but its steps)."""
import numpy as np

COUNTS = ("messages", "bytes", "collectives", "collective_bytes", "barriers")


def check_comm(f, kernel, ranks, trials, steps=True, exact=False, min_collectives=0):
    """steps: the kernel records steps; exact: its steps are the whole kernel;
    min_collectives: the fewest collectives a trial of the kernel makes."""
    g = f["comm/" + kernel]
    part = {}
    for p in ("kernel", "verify"):
        for c in COUNTS:
            d = g[p + "/" + c]
            assert d.dtype == np.int64, (kernel, p, c, d.dtype)
            assert d.shape == (ranks, trials), (kernel, p, c, d.shape, ranks, trials)
            d = d[()]
            assert (d >= 0).all() and (d == np.floor(d)).all(), (kernel, p, c, d)
            part[p, c] = d
    assert (part["kernel", "collectives"] >= min_collectives).all(), part["kernel", "collectives"]
    if ranks == 1:  # a lone rank sends nothing
        assert (part["kernel", "messages"] == 0).all(), part["kernel", "messages"]
    if not steps:
        assert "step" not in g, kernel
        return
    assert g["step_trial"].dtype == np.int64
    trial = g["step_trial"][()]
    assert len(trial) >= trials and (np.diff(trial) >= 0).all(), trial
    assert set(trial.astype(int)) == set(range(trials)), (trial, trials)
    for c in COUNTS:
        d = g["step/" + c][()]
        assert d.shape == (ranks, len(trial)), (kernel, c, d.shape)
        for t in range(trials):
            summed = d[:, trial == t].sum(axis=1)
            whole = part["kernel", c][:, t]
            if exact:
                assert (summed == whole).all(), (kernel, c, t, summed, whole)
            else:
                assert (summed <= whole).all(), (kernel, c, t, summed, whole)
