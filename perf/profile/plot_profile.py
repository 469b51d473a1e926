#!/usr/bin/python3
"""Plots the imbalance profile of a HybridTasks results file (PNG).

Top: the task timelines of one group (a BFS search, a GEMM repetition) on
one rank: one row per lane (task, or worker thread for chunked tasks), one
bar per task record, coloured by iteration (BFS level, GEMM step).
Bottom: imbalance per iteration step, (slowest - fastest) / slowest lane,
for every rank (mean over the groups, weighted by the slowest time).

usage: plot_profile.py <results.h5> <out.png> [--group G] [--rank R]
"""
import argparse

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("png")
    ap.add_argument("--group", type=int, default=None,
                    help="group to draw (default: the slowest one)")
    ap.add_argument("--rank", type=int, default=0)
    a = ap.parse_args()

    with h5py.File(a.results, "r") as f:
        if "profile" not in f:
            raise SystemExit(f"{a.results}: no profile (run with Profile/enabled = true)")
        p = f["profile"]
        app = f.attrs.get("app", "")
        app = app.decode() if isinstance(app, bytes) else str(app)
        variant = f.attrs.get("variant", b"")
        variant = variant.decode() if isinstance(variant, bytes) else str(variant)

        def rows(name):
            d = p[name][()]
            return d.reshape(d.shape[0], -1)

        rec = {k: rows("record_" + k)[a.rank] for k in
               ("iteration", "lane", "start", "end", "busy")}
        group, step = rows("iteration_group"), rows("iteration_step")
        slowest, fastest = rows("iteration_slowest"), rows("iteration_fastest")

    ranks = group.shape[0]
    keep = rec["iteration"] >= 0
    it = rec["iteration"][keep].astype(int)
    lane, start, end = rec["lane"][keep].astype(int), rec["start"][keep], rec["end"][keep]
    g_of, s_of = group[a.rank].astype(int), step[a.rank].astype(int)
    if a.group is None:  # the group whose iterations took longest on this rank
        per_group = {}
        for i, g in enumerate(g_of):
            per_group[g] = per_group.get(g, 0.0) + slowest[a.rank][i]
        a.group = max(per_group, key=per_group.get)
    mine = g_of[it] == a.group
    if not mine.any():
        raise SystemExit(f"group {a.group} has no task records on rank {a.rank}")
    t0 = start[mine].min()

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7),
                                      gridspec_kw={"height_ratios": [3, 2]})
    steps = sorted(set(s_of[it[mine]]))
    cmap = plt.get_cmap("tab10")
    for s in steps:
        sel = mine & (s_of[it] == s)
        top.barh(lane[sel], 1e3 * (end[sel] - start[sel]), left=1e3 * (start[sel] - t0),
                 height=0.8, color=cmap(s % 10), edgecolor="black", linewidth=0.2,
                 label=f"{'level' if app == 'graph500_bfs' else 'step'} {s}")
    top.set_xlabel("ms since the group's first task")
    top.set_ylabel("lane")
    top.set_yticks(sorted(set(lane[mine])))
    top.set_title(f"{app} {variant}: task timelines, group {a.group}, rank {a.rank}")
    top.legend(fontsize="small", ncol=min(len(steps), 6), loc="upper right")

    nsteps = int(step.max()) + 1
    for r in range(ranks):
        spread = np.zeros(nsteps)
        total = np.zeros(nsteps)
        for i in range(group.shape[1]):
            s = int(step[r][i])
            spread[s] += slowest[r][i] - fastest[r][i]
            total[s] += slowest[r][i]
        imb = np.divide(spread, total, out=np.zeros(nsteps), where=total > 0)
        bottom.plot(range(nsteps), imb, marker="o", label=f"rank {r}")
    bottom.set_xlabel("level" if app == "graph500_bfs" else "step")
    bottom.set_ylabel("imbalance (slowest - fastest) / slowest")
    bottom.set_ylim(0, 1.05)
    bottom.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(a.png, dpi=110)
    print(f"{a.png}: group {a.group}, {int(mine.sum())} task records, {ranks} ranks")


if __name__ == "__main__":
    main()
