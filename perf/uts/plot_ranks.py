#!/usr/bin/python3
"""Plots where each rank's time went in uts runs (PNG): per rank, seconds
expanding nodes (busy) and without work (idle), stacked, one panel per
results file side by side (say stealing on and off), with the nodes each
rank expanded and the steals it made written over its bar.

usage: plot_ranks.py <out.png> <results.h5> [<results.h5> ...]
"""
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    png, files = sys.argv[1], sys.argv[2:]
    fig, axes = plt.subplots(1, len(files), figsize=(4.5 * len(files), 4), squeeze=False,
                             sharey=True)
    for ax, path in zip(axes[0], files):
        with h5py.File(path, "r") as f:
            if text(f.attrs.get("app", "")) != "uts":
                raise SystemExit(f"{path}: not a uts results file")
            busy, idle = f["uts/rank_busy_s"][()], f["uts/rank_idle_s"][()]
            nodes, steals = f["uts/rank_nodes"][()], f["uts/rank_steals"][()]
            reps = len(f["uts/seconds"][()])
            title = (f"{text(f.attrs['uts_tree'])}, {len(busy)} ranks x "
                     f"{int(f.attrs['threads_per_rank'])}, stealing {text(f.attrs['stealing'])}")
            if text(f.attrs["stealing"]) == "on":
                title += f" ({text(f.attrs['steal_progress'])})"
        r = np.arange(len(busy))
        ax.bar(r, busy / reps, color="tab:blue", label="busy")
        ax.bar(r, idle / reps, bottom=busy / reps, color="tab:gray", label="idle")
        for k in r:
            ax.text(k, (busy[k] + idle[k]) / reps, f"{nodes[k] / reps:.3g} nodes\n{steals[k] / reps:.0f} steals",
                    ha="center", va="bottom", fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("rank")
        ax.set_xticks(r)
    axes[0][0].set_ylabel("seconds per search (mean over a rank's workers)")
    axes[0][0].legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"{png}: {len(files)} run(s), one panel each")


if __name__ == "__main__":
    main()
