#!/usr/bin/python3
"""Fits what each rank asks of MPI per trial (scaling.sh's counts.csv)
against the rank count P, extrapolates it to 1024 and 4096 ranks, names
the first term that stops scaling, and plots counts against P.

Model, per driver and count, mean over ranks, fitted with non-negative
least squares:  c(P) = a / P + b + g log2 P + d P
  a / P   a rank's share of the work (what scales);
  b       the same for every rank whatever P (e.g. a gather's whole
          result: the bottom-up BFS's bitmap, N / 8 bytes a level);
  g log2 P  trees: collectives, NBX's barrier;
  d P     every peer, every level (the level-end markers below NBX's
          threshold, all-to-all exchanges).
One rank is left out of the fit (it sends nothing, so it shows no share).
The terms that do not shrink with P (b, g log2 P, d P) are what stops
scaling; the one largest at 4096 ranks is named.  The fit is over every
measured P, though the level ends change from per-peer markers to NBX past
16 ranks: read d P as "per peer below 16".  Usage:
  model.py <counts.csv> <out dir>   (writes model.md and scaling.png)
"""
import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.optimize import nnls  # noqa: E402

KINDS = [("sends", "messages"), ("send_bytes", "bytes sent"),
         ("collectives", "collectives"), ("received_bytes", "bytes out of collectives"),
         ("barriers", "barriers")]
TERMS = ["a/P", "b", "g log2 P", "d P"]
TARGETS = [1024, 4096]


def basis(p):
    p = np.asarray(p, dtype=float)
    return np.stack([1.0 / p, np.ones_like(p), np.log2(p), p], axis=-1)


def fit(ps, ys):
    coef, _ = nnls(basis(ps), np.asarray(ys, dtype=float))
    return coef


def limiting(coef, p=TARGETS[-1]):
    """The largest term at \p p among those that do not shrink with P, and
    its share of the whole there."""
    terms = basis([p])[0] * coef
    total = terms.sum()
    i = 1 + int(np.argmax(terms[1:]))
    if terms[i] <= 0 or total <= 0:
        return None
    return TERMS[i], terms[i] / total


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    out = sys.argv[2]
    mean = defaultdict(lambda: defaultdict(list))  # (driver, kind) -> P -> values
    for r in rows:
        for k, _ in KINDS:
            mean[(r["driver"], k)][int(r["P"])].append(float(r[k]))
    drivers = sorted({r["driver"] for r in rows})
    lines = ["| driver | count | measured P | a/P | b | g log2 P | d P | at 1024 | at 4096 "
             "| largest term at 4096 |", "|---" * 10 + "|"]
    fig, axes = plt.subplots(1, len(KINDS), figsize=(4.2 * len(KINDS), 3.8))
    for ax, (k, label) in zip(axes, KINDS):
        for d in drivers:
            pts = mean[(d, k)]
            ps = sorted(p for p in pts if p > 1)  # one rank sends nothing: no share to fit
            ys = [sum(pts[p]) / len(pts[p]) for p in ps]
            if len(ps) < 2 or max(ys) <= 0:  # nothing to fit
                continue
            coef = fit(ps, ys)
            at = [float(basis([t])[0] @ coef) for t in TARGETS]
            stop = limiting(coef)
            lines.append("| %s | %s | %s | %.3g | %.3g | %.3g | %.3g | %.3g | %.3g | %s |" % (
                d, label, "–".join(map(str, (ps[0], ps[-1]))), *coef, *at,
                "%s (%.0f%%)" % (stop[0], 100 * stop[1]) if stop else "none"))
            shown = [(p, y) for p, y in zip(ps, ys) if y > 0]  # a log axis has no 0
            line, = ax.loglog([p for p, _ in shown], [y for _, y in shown], "o", label=d)
            grid = np.logspace(0, math.log10(TARGETS[-1]), 60)
            fitted = basis(grid) @ coef
            ax.loglog(grid[fitted > 0], fitted[fitted > 0], "--", color=line.get_color(),
                      linewidth=1)
        ax.set_title(label + " per rank per trial", fontsize=9)
        ax.set_xlabel("ranks P")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out + "/scaling.png", dpi=110)
    open(out + "/model.md", "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
