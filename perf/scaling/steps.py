#!/usr/bin/python3
"""What each rank asked of MPI per step and per trial, as the drivers record
it in their results files (comm/<kernel>/..., drivers/HT_CommRecord.hpp),
gathered over rank counts and plotted against P.

  steps.py extract <results.h5> <driver> <P> <steps.csv>
      appends, for every step (a BFS level, an SSSP bucket step, a Cannon
      step) and every trial's kernel, the mean and the largest count over
      the ranks: rows driver,P,kind,index,count,mean,max
  steps.py plot <steps.csv> <out dir>
      steps.png: per driver and count, the mean step's mean over ranks
      (solid) and the busiest step's busiest rank (dotted) against P;
      steps.md: the same as a table, and each trial's kernel (no
      validation) likewise.
"""
import csv
import os
import sys
from collections import defaultdict

COUNTS = ("messages", "bytes", "collectives", "collective_bytes", "barriers")
LABELS = {"messages": "messages", "bytes": "bytes sent", "collectives": "collectives",
          "collective_bytes": "bytes out of collectives", "barriers": "barriers"}
GROUP = {"bfs_hybrid": "bfs", "bfs_hybrid_1d": "bfs", "bfs_hybrid_2d": "bfs", "bfs_mpi": "bfs", "sssp": "sssp", "uts_T1": "uts", "gemm": "gemm"}


def extract(path, driver, P, out):
    import h5py
    import numpy as np

    new = not os.path.exists(out)
    with h5py.File(path, "r") as f, open(out, "a", newline="") as o:
        w = csv.writer(o)
        if new:
            w.writerow(["driver", "P", "kind", "index", "count", "mean", "max"])
        g = f["comm/" + GROUP[driver]]
        for kind, part in (("trial", "kernel"), ("step", "step")):
            if part not in g:
                continue
            for c in COUNTS:
                d = np.asarray(g[part + "/" + c][()], dtype=float).reshape(int(P), -1)
                for i in range(d.shape[1]):
                    w.writerow([driver, P, kind, i, c, "%g" % d[:, i].mean(), "%g" % d[:, i].max()])


def plot(path, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mean = defaultdict(list)  # (driver, kind, count, P) -> per-index means
    most = defaultdict(float)
    for r in csv.DictReader(open(path)):
        key = (r["driver"], r["kind"], r["count"], int(r["P"]))
        mean[key].append(float(r["mean"]))
        most[key] = max(most[key], float(r["max"]))
    drivers = sorted({k[0] for k in mean if k[1] == "step"})
    ps = sorted({k[3] for k in mean})
    fig, axes = plt.subplots(1, len(COUNTS), figsize=(4.2 * len(COUNTS), 3.8))
    lines = ["| driver | count | " + " | ".join("P = %d" % p for p in ps) + " |",
             "|---|---|" + "---|" * len(ps)]
    color = {d: "C%d" % i for i, d in enumerate(drivers)}  # one colour a driver, every panel
    for ax, c in zip(axes, COUNTS):
        ax.set_xscale("log")
        for d in drivers:
            have = [p for p in ps if mean.get((d, "step", c, p))]
            avg = [sum(mean[(d, "step", c, p)]) / len(mean[(d, "step", c, p)]) for p in have]
            top = [most[(d, "step", c, p)] for p in have]
            shown = [(p, a, t) for p, a, t in zip(have, avg, top) if t > 0]
            if shown:
                ax.plot([s[0] for s in shown], [s[1] for s in shown], "o-", color=color[d],
                        label=d)
                ax.plot([s[0] for s in shown], [s[2] for s in shown], ":", color=color[d])
            cells = {p: "%.3g / %.3g" % (a, t) for p, a, t in zip(have, avg, top)}
            lines.append("| %s | %s | %s |" % (d, LABELS[c],
                                               " | ".join(cells.get(p, "") for p in ps)))
        lo, hi = ax.get_ylim()
        if hi > 100 * max(lo, 1e-9):  # wide ranges on a log axis, small counts on a linear one
            ax.set_yscale("log")
        ax.set_title(LABELS[c] + " per rank per step", fontsize=9)
        ax.set_xlabel("ranks P")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out + "/steps.png", dpi=110)
    # Per trial, the kernel alone (validation apart): UTS has no steps.
    trials = ["| driver | count | " + " | ".join("P = %d" % p for p in ps) + " |",
              "|---|---|" + "---|" * len(ps)]
    for d in sorted({k[0] for k in mean if k[1] == "trial"}):
        for c in COUNTS:
            cells = []
            for p in ps:
                v = mean.get((d, "trial", c, p))
                cells.append("%.3g / %.3g" % (sum(v) / len(v), most[(d, "trial", c, p)]) if v else "")
            trials.append("| %s | %s | %s |" % (d, LABELS[c], " | ".join(cells)))
    text = ("Per rank per step: the mean step's mean over ranks / the busiest "
            "step's busiest rank.\n\n" + "\n".join(lines) + "\n\n"
            "Per rank per trial, the kernel alone: the mean over trials and ranks / "
            "the busiest trial's busiest rank.\n\n" + "\n".join(trials) + "\n")
    open(out + "/steps.md", "w").write(text)
    print(text)


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif len(sys.argv) == 4 and sys.argv[1] == "plot":
        plot(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
