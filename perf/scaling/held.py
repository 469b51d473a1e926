#!/usr/bin/python3
"""What a rank holds by kind (graph, exchange buffers, search state), from
graph500_bfs results files (held/<phase>/<kind>, docs/results.md): collected
into a CSV, checked against the peers a rank addresses, and modelled to many
ranks.

  held.py extract <file.h5> <csv>   appends a row per rank (the header when new)
  held.py check <csv> [partition]   prints the table (Markdown); exits 1 if a
                                    rank's exchange bytes grow faster than
                                    its peers (2D: R + C - 2, 1D: P - 1)
  held.py model <csv> [SCALE a rank] [first P] [last P]
                                    the bytes a rank holds weak-scaled
                                    (defaults 26, 64, 16384), 1D and 2D

The model, per rank, N = 2^SCALE vertices (SCALE a rank + log2 P), grid
R x C (the most square, R <= C; 1D: 1 x P), peers q (R + C - 2; 1D P - 1),
fitted by least squares over the measured P of each partition:
  graph     g N/P + h (N/R + N/C)   (rows and edges a rank; a 2D block's
                                     offsets, h = 1.5 bits a slot as
                                     BlockOffsets keeps them: at small SCALE
                                     most slots have a list, 8 bytes each,
                                     which g takes, an upper bound)
  search    s N/P + t M             (parents, queues; M: the bitmaps over
                                     all vertices, N in 1D, N/R + N/C in 2D)
  exchange  x + y q + z P           (a budget, buffers a peer addressed,
                                     buffers for every rank; 1D: q = P - 1,
                                     y = 0)
each coefficient at least 0.  Graph and search are the searches' marks
(held/searches), exchange the larger of kernel 1's and the searches'.
"""
import csv
import math
import os
import sys

import h5py
import numpy as np

KINDS = ("graph", "exchange", "search")
PHASES = ("kernel1", "searches", "validation")
SLOT_BYTES = 1.5 / 8  # a 2D block's offsets a slot: its bit and a 32-bit count a word
FIELDS = ["partition", "P", "R", "C", "rank", "SCALE", "graph_bytes"] + [
    f"{phase}_{kind}" for phase in PHASES for kind in KINDS]


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def grid(p):
    r = math.isqrt(p)
    while p % r:
        r -= 1
    return r, p // r


def peers(part, p, r, c):
    return r + c - 2 if part == "2d" else p - 1


def extract(path, out):
    with h5py.File(path, "r") as f:
        a = f.attrs
        part, p = text(a["partition"]), int(a["ranks"])
        r, c = (int(x) for x in text(a["grid"]).split("x")) if part == "2d" else (1, p)
        cols = {f"{ph}_{k}": f[f"held/{ph}/{k}"][()] for ph in PHASES for k in KINDS}
        gb = f["graph/bytes"][()]
        new = not os.path.exists(out) or os.path.getsize(out) == 0
        with open(out, "a", newline="") as o:
            w = csv.DictWriter(o, FIELDS)
            if new:
                w.writeheader()
            for rank in range(p):
                row = {"partition": part, "P": p, "R": r, "C": c, "rank": rank,
                       "SCALE": int(a["SCALE"]), "graph_bytes": int(gb[rank])}
                row.update({k: int(v[rank]) for k, v in cols.items()})
                w.writerow(row)


def runs(path):
    """(partition, P) -> {R, C, SCALE, and per kind the ranks' bytes}."""
    acc = {}
    for row in csv.DictReader(open(path)):
        key = (row["partition"], int(row["P"]))
        a = acc.setdefault(key, {"R": int(row["R"]), "C": int(row["C"]),
                                 "SCALE": int(row["SCALE"]), "graph": [], "exchange": [],
                                 "search": [], "validation": []})
        # The graph as its structures count it (graph/bytes, also where an
        # owner does not charge HeldBytes); exchange buffers at their most in
        # either phase; search state in the searches.
        a["graph"].append(max(int(row["graph_bytes"]), int(row["searches_graph"])))
        a["exchange"].append(max(int(row["kernel1_exchange"]), int(row["searches_exchange"])))
        a["search"].append(int(row["searches_search"]))
        # The validator's exchange apart: it addresses every rank by design.
        a["validation"].append(int(row["validation_exchange"]))
    return acc


def check(path, part="2d"):
    acc = {p: a for (d, p), a in runs(path).items() if d == part}
    if not acc:
        sys.exit(f"held.py: no {part} runs in {path}")
    print(f"{part}, bytes a rank (max over ranks; exchange: either phase, graph and search: the searches)")
    print()
    print("| P | grid | peers | exchange | exchange a peer | search | graph | validation's exchange |")
    print("|---|---|---|---|---|---|---|---|")
    base = None
    bad = []
    for p in sorted(acc):
        a = acc[p]
        q = peers(part, p, a["R"], a["C"])
        ex = max(a["exchange"])
        print(f"| {p} | {a['R']} x {a['C']} | {q} | {ex:,} | {ex / max(q, 1):,.0f} | "
              f"{max(a['search']):,} | {max(a['graph']):,} | {max(a['validation']):,} |")
        if ex == 0:
            bad.append(f"P = {p}: no exchange bytes counted (the exchange charges no Held::exchange)")
        elif base is None:
            base = (p, q, ex)
        elif ex / base[2] > q / base[1]:
            bad.append(f"P = {p}: exchange bytes a rank grew {ex / base[2]:.2f}x from P = {base[0]}, "
                       f"faster than the peers it addresses ({q / base[1]:.2f}x: {base[1]} -> {q})")
    for b in bad:
        print(f"held.py: {part} {b}", file=sys.stderr)
    return 1 if bad else 0


def fit(cols, y):
    """Least squares with every coefficient >= 0 (drops a negative one, refits)."""
    keep = list(range(len(cols)))
    while True:
        a = np.array([[c[i] for i in keep] for c in zip(*cols)], dtype=float)
        coef = np.linalg.lstsq(a, np.array(y, dtype=float), rcond=None)[0]
        if (coef >= 0).all() or len(keep) == 1:
            full = [0.0] * len(cols)
            for i, k in enumerate(keep):
                full[k] = max(coef[i], 0.0)
            return full
        keep.pop(int(np.argmin(coef)))


def model(path, scale_rank=26, first=64, last=16384):
    acc = runs(path)
    coef = {}
    for part in ("1d", "2d"):
        rows = [(p, a) for (d, p), a in sorted(acc.items()) if d == part]
        if not rows:
            continue
        n_p, m, q, gy, sy, ey = [], [], [], [], [], []
        for p, a in rows:
            n = 2.0 ** a["SCALE"]
            n_p.append(n / p)
            m.append(n if part == "1d" else n / a["R"] + n / a["C"])
            q.append(peers(part, p, a["R"], a["C"]))
            gy.append(np.mean(a["graph"]))
            sy.append(np.mean(a["search"]))
            ey.append(np.mean(a["exchange"]))
        h = SLOT_BYTES if part == "2d" else 0.0
        graph = [y - h * mm for y, mm in zip(gy, m)]
        coef[part] = {"graph": fit([n_p], graph) + [h], "search": fit([n_p, m], sy),
                      "exchange": fit([[1.0] * len(q), q if part == "2d" else [0.0] * len(q),
                                        [float(p) for p, _ in rows]], ey)}
    print(f"Bytes a rank (mean over ranks), weak-scaled at SCALE {scale_rank} a rank "
          f"(N = 2^{scale_rank} P), GiB:")
    print()
    print("| P | SCALE | 1D graph / exchange / search | 2D grid | 2D graph / exchange / search |")
    print("|---|---|---|---|---|")
    p = first
    gib = 2.0 ** 30
    while p <= last:
        n = 2.0 ** scale_rank * p
        cells = []
        for part in ("1d", "2d"):
            if part not in coef:
                cells.append("-")
                continue
            r, c = grid(p) if part == "2d" else (1, p)
            mm = n if part == "1d" else n / r + n / c
            k = coef[part]
            g = k["graph"][0] * n / p + k["graph"][1] * (mm if part == "2d" else 0)
            s = k["search"][0] * n / p + k["search"][1] * mm
            e = k["exchange"][0] + k["exchange"][1] * peers(part, p, r, c) + k["exchange"][2] * p
            cells.append(f"{g / gib:,.2f} / {e / gib:,.3f} / {s / gib:,.2f}")
        r, c = grid(p)
        print(f"| {p:,} | {scale_rank + int(math.log2(p))} | {cells[0]} | {r} x {c} | {cells[1]} |")
        p *= 4
    print()
    for part, k in coef.items():
        print(f"{part}: graph {k['graph'][0]:.3g} N/P + {k['graph'][1]:.3g} (N/R + N/C); "
              f"search {k['search'][0]:.3g} N/P + {k['search'][1]:.3g} M; "
              f"exchange {k['exchange'][0]:.3g} + {k['exchange'][1]:.3g} q + {k['exchange'][2]:.3g} P "
              "(bytes)")
    return 0


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("extract", "check", "model"):
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "extract":
        extract(*args)
        return 0
    if cmd == "check":
        return check(*args)
    return model(args[0], *(int(x) for x in args[1:]))


if __name__ == "__main__":
    sys.exit(main())
