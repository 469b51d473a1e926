#!/usr/bin/env python3
"""Plots each figure's trend from a benchmark history (scripts/bench appends
one row per figure and run), one panel per figure, runs in time order, with
the baseline and its tolerance band when a baseline file is given.

usage: plot_history.py <history.csv> <out.png> [baseline.csv]
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

if len(sys.argv) not in (3, 4):
    sys.exit(__doc__)
history, out = sys.argv[1], sys.argv[2]
series = {}
with open(history, newline="") as f:
    for r in csv.DictReader(f):
        series.setdefault(r["figure"], []).append((r["time"], r["revision"], float(r["value"])))
if not series:
    sys.exit(f"{history}: no figures")
baseline = {}
if len(sys.argv) == 4:
    with open(sys.argv[3], newline="") as f:
        baseline = {r["figure"]: r for r in csv.DictReader(f)}

names = sorted(series)
cols = min(3, len(names))
rows = math.ceil(len(names) / cols)
fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 2.8 * rows), squeeze=False)
for ax, name in zip(axes.flat, names):
    points = sorted(series[name])
    ys = [p[2] for p in points]
    ax.plot(range(len(ys)), ys, marker="o", lw=1.2)
    ax.set_xticks(range(len(ys)))
    ax.set_xticklabels([p[1][:7] for p in points], rotation=45, fontsize=7)
    if name in baseline:
        b = float(baseline[name]["value"])
        tol = float(baseline[name]["tolerance"])
        ax.axhline(b, color="gray", lw=1)
        ax.axhspan(b * (1 - tol), b * (1 + tol), color="gray", alpha=0.15)
    ax.set_title(name, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
for ax in axes.flat[len(names):]:
    ax.axis("off")
fig.tight_layout()
fig.savefig(out, dpi=90)
print(f"{out}: {len(names)} figures, {max(len(v) for v in series.values())} runs")
