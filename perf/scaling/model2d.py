#!/usr/bin/python3
"""Graph500 BFS `hybrid`, 1D against 2D: tables of the measured counts
(bfs2d.sh, combblas.sh) and a time model weak-scaled to many ranks.

  model2d.py <bfs2d.csv> <bfs2d_steps.csv> <combblas.csv|-> <SCALE> <TEPS> <out dir> [F]

TEPS: one rank's median TEPS (graph500_bfs hybrid, np 1, one thread).
F: 2D's compute a rank over 1D's (default 1), measured where each rank has
a core (perf/graph500/partition.sh: 1D's MTEPS over 2D's at P = 2 and 4).
Prints the tables (Markdown, as in docs/scaling.md) and writes
<out dir>/model2d.png.

Fabric: alpha = 1.5 us a message; 12.5 GB/s a link; a collective costs
alpha log2 P plus the bytes it brings out over the link.  Each rank
computes its share of the edges at one rank's TEPS, 2D F times as long: a
bottom-up level searches a vertex's neighbours block by block along its
grid row, so a row's hubs are no longer first.

Weak scaling at n = 2^22 vertices a rank (N = nP, edgefactor 16), from the
counts measured at the largest P (P_m, N_m = 2^SCALE vertices), per search
and rank:
  levels, collectives   as measured (the level count of a Kronecker graph
                        hardly grows with N);
  messages              levels x peers a level: P - 1 in 1D (at 2^22
                        vertices a rank every rank has edges to every
                        other), R + C - 2 in 2D;
  bytes sent            1D: as the rank's vertices (its remote finds):
                        measured x (n / (N_m / P_m)); 2D: as N / R (a
                        bottom-up level passes the bitmap of each rank's
                        unvisited vertices C - 1 times along the row):
                        measured x (N / R) / (N_m / R_m);
  bytes out of          1D: as N (each bottom-up level gathers the whole
  collectives           N/8-byte bitmap); 2D: as N / C (the column's
                        bitmap, frontier lists and parents of a row block):
                        measured x (N / C) / (N_m / C_m).
"""
import csv
import math
import sys
from collections import defaultdict

ALPHA = 1.5e-6
LINK = 12.5e9
EDGEFACTOR = 16
N_RANK = 2 ** 22
PS = [2 ** k for k in range(6, 15)]  # 64 ... 16,384, plotted
SMALL = [2 ** k for k in range(1, 6)]  # also searched for the crossover


def grid(p):
    r = int(math.isqrt(p))
    while p % r:
        r -= 1
    return r, p // r


def ours(path):
    """(partition, P) -> means over ranks per search, and the most peers."""
    acc = defaultdict(lambda: defaultdict(float))
    for r in csv.DictReader(open(path)):
        a = acc[(r["partition"], int(r["P"]))]
        s = float(r["searches"])
        for k in ("sends", "send_bytes", "collectives", "received_bytes", "levels"):
            a[k] += float(r[k]) / s
        a["peers_mean"] += float(r["level_peers_sum"]) / float(r["levels"])
        a["peers_max"] = max(a["peers_max"], float(r["level_peers_max"]))
        a["n"] += 1
        a["R"], a["C"] = float(r["R"]), float(r["C"])
    for a in acc.values():
        for k in ("sends", "send_bytes", "collectives", "received_bytes", "levels", "peers_mean"):
            a[k] /= a["n"]
    return acc


def combblas(path):
    acc = defaultdict(lambda: defaultdict(float))
    if path == "-":
        return acc
    for r in csv.DictReader(open(path)):
        a = acc[int(r["P"])]
        for k in ("sends", "send_bytes", "collectives", "received_bytes", "level_peers_mean"):
            a[k] += float(r[k])
        a["levels"] += float(r["levels"])
        a["peers_max"] = max(a["peers_max"], float(r["level_peers_max"]))
        a["n"] += 1
    for a in acc.values():
        for k in ("sends", "send_bytes", "collectives", "received_bytes", "levels",
                  "level_peers_mean"):
            a[k] /= a["n"]
    return acc


def busiest_level(path):
    """(partition, P) -> the largest level's bytes out of collectives (mean over ranks)."""
    most = defaultdict(float)
    for r in csv.DictReader(open(path)):
        if r["kind"] == "step" and r["count"] == "collective_bytes":
            key = (r["driver"].rsplit("_", 1)[1], int(r["P"]))
            most[key] = max(most[key], float(r["mean"]))
    return most


def predict(m, part, p, pm, nm, teps, f2d=1.0):
    """Seconds a search and GTEPS at P = p, weak-scaled from measured m (at pm)."""
    n = N_RANK * p
    r, c = grid(p) if part == "2d" else (1, p)
    rm, cm = grid(pm) if part == "2d" else (1, pm)
    peers = (r + c - 2) if part == "2d" else p - 1
    messages = m["levels"] * peers
    sent = m["send_bytes"] * ((n / r) / (nm / rm) if part == "2d" else N_RANK / (nm / pm))
    out = m["received_bytes"] * ((n / c) / (nm / cm) if part == "2d" else n / nm)
    compute = EDGEFACTOR * N_RANK / teps * (f2d if part == "2d" else 1.0)
    comm = (messages * ALPHA + sent / LINK + m["collectives"] * ALPHA * math.log2(p)
            + out / LINK)
    t = compute + comm
    return t, EDGEFACTOR * n / t / 1e9, comm


def main():
    bfs, steps, cb, scale, teps, out = sys.argv[1:7]
    scale, teps = int(scale), float(teps)
    f2d = float(sys.argv[7]) if len(sys.argv) > 7 else 1.0
    nm = 2 ** scale
    m = ours(bfs)
    c = combblas(cb)
    level = busiest_level(steps)
    ps = sorted({p for _, p in m})
    lines = ["Per rank per search, means over ranks, SCALE %d (messages / bytes sent / "
             "collectives / bytes out of collectives):" % scale, "",
             "| P | grid | 1D | 2D | sent + out, 1D → 2D |", "|---|---|---|---|---|"]
    f = lambda a: "%.0f / %s / %.1f / %s" % (a["sends"], format(round(a["send_bytes"]), ","),
                                            a["collectives"],
                                            format(round(a["received_bytes"]), ","))
    for p in ps:
        a, b = m.get(("1d", p)), m.get(("2d", p))
        if not a or not b:
            continue
        lines.append("| %d | %d × %d | %s | %s | %s → %s |" % (
            p, b["R"], b["C"], f(a), f(b), format(round(a["send_bytes"] + a["received_bytes"]), ","),
            format(round(b["send_bytes"] + b["received_bytes"]), ",")))
    lines += ["", "Per level (a level ends at the BFS's allreduce over all ranks): distinct peers a level, mean and most (bound R + C − 2 for 2D); the "
              "busiest level's bytes out of collectives against N/8 (1D) or N/(8C) (2D):", "",
              "| P | 1D peers mean / most | 1D busiest level out (N/8) "
              "| 2D peers mean / most (R + C − 2) | 2D busiest level out (N/(8C)) |",
              "|---|---|---|---|---|"]
    for p in ps:
        a, b = m.get(("1d", p)), m.get(("2d", p))
        if not a or not b:
            continue
        lines.append("| %d | %.1f / %d | %s (%s) | %.1f / %d (%d) | %s (%s) |" % (
            p, a["peers_mean"], a["peers_max"], format(round(level[("1d", p)]), ","),
            format(nm // 8, ","), b["peers_mean"], b["peers_max"],
            b["R"] + b["C"] - 2, format(round(level[("2d", p)]), ","),
            format(round(nm / (8 * b["C"])), ",")))
    if c:
        lines += ["", "Beside CombBLAS `DirOptBFS` (2D), same SCALE, per rank per search "
                  "(messages / bytes sent / bytes out of collectives; peers a level, mean / most):",
                  "", "| P | ours 2D | CombBLAS | sent + out, ours 2D / CombBLAS |",
                  "|---|---|---|---|"]
        for p in sorted(c):
            b, k = m.get(("2d", p)), c[p]
            if not b:
                continue
            g = lambda a, mean, most: "%.0f / %s / %s; %.1f / %d" % (
                a["sends"], format(round(a["send_bytes"]), ","),
                format(round(a["received_bytes"]), ","), mean, most)
            ours_total = b["send_bytes"] + b["received_bytes"]
            their_total = k["send_bytes"] + k["received_bytes"]
            lines.append("| %d | %s | %s | %s / %s (%.2f) |" % (
                p, g(b, b["peers_mean"], b["peers_max"]), g(k, k["level_peers_mean"], k["peers_max"]),
                format(round(ours_total), ","), format(round(their_total), ","),
                ours_total / their_total))

    pm = max(p for (d, p) in m if ("1d", p) in m and ("2d", p) in m)
    rows = {d: [predict(m[(d, pm)], d, p, pm, nm, teps, f2d) for p in PS] for d in ("1d", "2d")}
    # The crossover: the least P from which on 2D is faster at every P modelled.
    every = SMALL + PS
    faster = [predict(m[("2d", pm)], "2d", p, pm, nm, teps, f2d)[0]
              < predict(m[("1d", pm)], "1d", p, pm, nm, teps)[0] for p in every]
    cross = next((p for i, p in enumerate(every) if all(faster[i:])), None)
    lines += ["", "Time model, weak-scaled at 2^22 vertices a rank from the counts at P = %d "
              "(one rank: %.1f MTEPS; 2D's compute × %.2f): seconds a search (of which "
              "communication) and GTEPS:" % (pm, teps / 1e6, f2d), "", "| P | 1D s (comm) | 1D GTEPS | 2D s (comm) | 2D GTEPS |",
              "|---|---|---|---|---|"]
    for p, a, b in zip(PS, rows["1d"], rows["2d"]):
        lines.append("| %s | %.3f (%.3f) | %.0f | %.3f (%.3f) | %.0f |" % (
            format(p, ","), a[0], a[2], a[1], b[0], b[2], b[1]))
    lines += ["", "2D overtakes 1D at P = %s." % (format(cross, ",") if cross else "(not within "
                                                     "%d)" % PS[-1])]
    print("\n".join(lines))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    for d, style, color in (("1d", "o-", "C0"), ("2d", "s-", "C1")):
        ax1.plot(PS, [r[0] for r in rows[d]], style, color=color, label=d.upper() + " search")
        ax1.plot(PS, [r[2] for r in rows[d]], style.replace("-", ":"), color=color,
                 label=d.upper() + " its communication")
        ax2.plot(PS, [r[1] for r in rows[d]], style, color=color, label=d.upper())
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ranks P (2^22 vertices a rank)")
        if cross and cross >= PS[0]:
            ax.axvline(cross, color="grey", lw=0.8)
        ax.legend(fontsize=8)
    ax1.set_yscale("log")
    ax2.set_yscale("log")
    ax1.set_ylabel("seconds a search")
    ax2.set_ylabel("GTEPS")
    ax2.set_title("2D overtakes 1D at P = %s" % (cross or "-"), fontsize=9)
    fig.tight_layout()
    fig.savefig(out + "/model2d.png", dpi=90)


if __name__ == "__main__":
    main()
