#!/usr/bin/python3
"""METG(50%) from metg.sh's sweep: per system and pattern, the smallest task
granularity (elapsed x cores / tasks, microseconds) at which FLOP/s is still
half the system's peak over the sweep, interpolated in log-granularity
between the two sweep points around 50%.  Writes metg.md (table, peaks,
ratios to MPI nonblock) and metg.png (efficiency against granularity), and
prints the ratios as CTest measurements.
   metg.py <sweep.csv> <cores> <outdir>"""
import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

path, cores, outdir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = defaultdict(list)  # (system, pattern) -> [(granularity us, flops)]
by_iter = defaultdict(list)  # the same in sweep order, for the plot's lines
for r in csv.DictReader(open(path)):
    g = float(r["elapsed"]) * cores / float(r["tasks"]) * 1e6
    runs[(r["system"], r["pattern"])].append((g, float(r["flops"])))
    by_iter[(r["system"], r["pattern"])].append((int(r["iter"]), g, float(r["flops"])))


def metg(points):
    """Smallest granularity at >= 50% of peak, interpolated towards the next
    smaller sweep point (which is below 50%), and the peak."""
    peak = max(f for _, f in points)
    pts = sorted(points, reverse=True)  # largest tasks first
    i = max(k for k, (_, f) in enumerate(pts) if f / peak >= 0.5)
    if i + 1 == len(pts):
        return pts[i][0], peak
    (g0, f0), (g1, f1) = pts[i], pts[i + 1]
    x = (f0 / peak - 0.5) / ((f0 - f1) / peak)
    return math.exp(math.log(g0) + x * (math.log(g1) - math.log(g0))), peak


systems = list(dict.fromkeys(s for s, _ in runs))
patterns = list(dict.fromkeys(p for _, p in runs))
table = {k: metg(v) for k, v in runs.items()}
ref = {p: table.get((s, p)) for s in systems if s.startswith("mpi-nonblock") for p in patterns}
lines = ["| METG(50%), us | " + " | ".join(patterns) + " | peak FLOP/s (" + patterns[0] + ") |",
         "|---" * (len(patterns) + 2) + "|"]
for s in systems:
    cells = []
    for p in patterns:
        m = table.get((s, p))
        cells.append("" if m is None or m[0] is None else "%.2f" % m[0])
    peak = table.get((s, patterns[0]))
    lines.append("| %s | %s | %s |" % (s, " | ".join(cells), "%.3g" % peak[1] if peak else ""))
lines.append("")
lines.append("Ratio to MPI nonblock's METG (lower is better), and peak FLOP/s ratio:")
lines.append("")
for s in systems:
    for p in patterns:
        m, r = table.get((s, p)), ref.get(p)
        if not m or not r or m[0] is None or r[0] is None or s.startswith("mpi-nonblock"):
            continue
        name = "taskbench_%s_%s" % (p, s)
        lines.append("- %s: METG %.2fx, peak %.3fx" % (name, m[0] / r[0], m[1] / r[1]))
        print('<CTestMeasurement type="numeric/double" name="%s_metg_ratio">%.4f</CTestMeasurement>'
              % (name, m[0] / r[0]))
open(outdir + "/metg.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))

fig, axes = plt.subplots(1, len(patterns), figsize=(6.5 * len(patterns), 5), squeeze=False)
colors = plt.get_cmap("tab20")
for ax, p in zip(axes[0], patterns):
    for k, s in enumerate(systems):
        if (s, p) not in runs:
            continue
        pts = sorted(by_iter[(s, p)], reverse=True)  # largest tasks first
        peak = max(f for _, _, f in pts)
        ours = s.startswith("ht-")
        ax.plot([g for _, g, _ in pts], [f / peak for _, _, f in pts], "-" if ours else "--",
                lw=1.8 if ours else 1.0, marker="." if ours else "", color=colors(k % 20), label=s)
    ax.axhline(0.5, color="grey", lw=0.5)
    ax.set_xscale("log")
    ax.set_xlabel("task granularity (us)")
    ax.set_ylabel("efficiency (FLOP/s / peak)")
    ax.set_title("Task Bench %s, %d cores (HybridTasks solid)" % (p, cores))
    ax.legend(fontsize=6)
fig.tight_layout()
fig.savefig(outdir + "/metg.png", dpi=110)
