#!/usr/bin/env python3
"""The performance smoke: every fast path of HybridTasks timed against
something that does not go through it, in one run, so that the figures do
not depend on the machine and a slowdown in any one path shows in CI.

Each figure is a ratio of two timings taken in the same run: the rounds
alternate the order of the runs (every other round runs them backwards),
and each side of a ratio is its best over the rounds (the least seconds,
the most edges a second), since a busy machine only ever adds time; a
search's rate is the median of its searches.  bounds.csv gives each figure
the band it must stay in: from 10 runs on the 2-core VM, [least / m, most x
m] with m = 1.5 (1.3 where the runs spread over 2x), narrower than 3x, so a
3x slowdown of a path leaves it; the 1 x 2 / 1 x 1 and 2D / 1D figures
spread too far for that (two workers stall, issue 58) and get m = 2, a
sanity bound.  A figure outside its band fails the smoke, and so does a run
that fails.  Every figure is also printed as a CTest measurement, so that
scripts/bench records it and gates it against perf/baselines/.

The paths and what each is divided by (our own reference codes in
smoke_reference.cpp and results_write.cpp; nothing of the library's):
  reading        graph500_bfs's reading of a .wel / one strtoll-strtod pass
                 over the same bytes; .wel / .el of the same graph
  construction   graph500_bfs's construction / a counting-sort CSR build
  BFS, SSSP      the reference's BFS and Dijkstra edges a second / ours;
                 SSSP / BFS per edge; 1 x 2 / 1 x 1 on Kronecker, uniform
                 and grid graphs; 2D / 1D on 2 ranks; profiler on / off
  GEMM           bench_gemm: task GEMM / one OpenBLAS dgemm
  UTS            seconds a node / seconds a plain SHA-1
  results        Results::write / the same datasets by plain HDF5 calls
  task runtimes  this build / the other runtime's build (when there is one)

  smoke.py --bin <build dir> --bounds <bounds.csv> [--rounds N] [--scale S]
           [--other <other build dir>] [--figures-only]
"""
import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

LAUNCH = ["mpirun", "--bind-to", "none", "--oversubscribe"]
if hasattr(os, "geteuid") and os.geteuid() == 0:
    LAUNCH.append("--allow-run-as-root")


class RunFailed(Exception):
    pass


def run(cmd, env=None):
    """Output of \\p cmd; RunFailed with its output when it fails."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=env)
    if p.returncode != 0:
        raise RunFailed("%s\nexit %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout[-4000:]))
    return p.stdout


def keyed(text):
    """{key: number} of the output's "key: number" lines; graph500_bfs's
    kernel blocks give "bfs key" and "sssp key"."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^\s*(?:(bfs|sssp)\s+)?([A-Za-z_]\w*):\s+(?:!\s+)?([-+0-9.eE]+)\s*$", line)
        if m:
            out[(m.group(1) + " " if m.group(1) else "") + m.group(2)] = float(m.group(3))
    return out


class Smoke:
    def __init__(self, args, scratch):
        self.a = args
        self.tmp = scratch
        b = args.bin
        self.g500 = os.path.join(b, "apps", "graph500_bfs")
        self.uts = os.path.join(b, "apps", "uts")
        self.ref = os.path.join(b, "perf", "smoke", "smoke_reference")
        self.rw = os.path.join(b, "perf", "smoke", "results_write")
        self.gemm = os.path.join(b, "perf", "gemm", "bench_gemm")
        self.wel = os.path.join(b, "perf", "graph500", "write_wel")

    # -- inputs ---------------------------------------------------------
    def files(self):
        """The same Kronecker graph in every format graph500_bfs reads: .wel
        (write_wel's), .el, DIMACS .gr, Matrix Market .mtx and SNAP .txt."""
        wel = os.path.join(self.tmp, "g.wel")
        run([self.wel, str(self.a.scale), "16", "2", wel])
        with open(wel) as fh:
            edges = [line.split() for line in fh]
        n = 1 + max(max(int(u), int(v)) for u, v, _ in edges)
        paths = {"wel": wel}
        for fmt, head, line in (
                ("el", "", lambda u, v, w: "%s %s\n" % (u, v)),
                ("gr", "p sp %d %d\n" % (n, len(edges)),
                 lambda u, v, w: "a %d %d %s\n" % (int(u) + 1, int(v) + 1, w)),
                ("mtx", "%%%%MatrixMarket matrix coordinate integer general\n%d %d %d\n" % (
                    n, n, len(edges)), lambda u, v, w: "%d %d %s\n" % (int(u) + 1, int(v) + 1, w)),
                ("txt", "# SNAP edge list\n# FromNodeId ToNodeId\n",
                 lambda u, v, w: "%s\t%s\n" % (u, v))):
            paths[fmt] = os.path.join(self.tmp, "g." + fmt)
            with open(paths[fmt], "w") as out:
                out.write(head)
                out.writelines(line(*e) for e in edges)
        return paths

    # -- runs: each returns {name: number} --------------------------------
    def graph500(self, ranks, threads, *sets, binary=None):
        cmd = LAUNCH + ["-np", str(ranks), binary or self.g500, "-s", str(self.a.scale),
                        "-n", str(self.a.keys), "--set", "Output/file=" + self.tmp + "/o.h5",
                        "--set", "Output/overwrite=true", "--kokkos-num-threads=%d" % threads,
                        "--kokkos-disable-warnings"]
        for s in sets:
            cmd += ["--set", s]
        return keyed(run(cmd))

    def reference(self, *args):
        return keyed(run([self.ref] + list(args)))

    def plan(self, files):
        """(name, thunk) of every run of a round."""
        g, f = self.graph500, "Graph500/file="
        off, bfs = "Profile/enabled=false", "Graph500/kernels=bfs"
        runs = [
            ("wel_1x1", lambda: g(1, 1, f + files["wel"])),
            ("wel_1x1_noprofile", lambda: g(1, 1, f + files["wel"], off)),
            ("ref_graph", lambda: self.reference("graph", files["wel"], str(self.a.keys))),
            ("ref_read", lambda: self.reference("read", files["wel"])),
            ("uts_1x1", lambda: keyed(run(LAUNCH + [
                "-np", "1", self.uts, os.path.join(self.a.source, "input", "uts_T1.yaml"),
                "--set", "Output/file=" + self.tmp + "/u.h5", "--set", "Output/overwrite=true",
                "--set", off, "--kokkos-num-threads=1", "--kokkos-disable-warnings"]))),
            ("ref_sha1", lambda: self.reference("sha1", "2000000")),
            ("results", lambda: keyed(run(LAUNCH + ["-np", "1", self.rw, self.tmp]))),
            ("gemm", lambda: self.gemm_run()),
        ]
        for fmt in ("el", "gr", "mtx", "txt"):
            runs.append((fmt + "_1x1", lambda fmt=fmt: g(1, 1, f + files[fmt], bfs)))
        for kind in ("kronecker", "uniform", "grid"):
            for t in (1, 2):
                runs.append(("%s_1x%d" % (kind, t),
                             lambda k=kind, t=t: g(1, t, "Graph500/generator=" + k)))
        for p in ("1d", "2d"):
            runs.append(("kronecker_2x1_" + p, lambda p=p: g(2, 1, "Graph500/partition=" + p)))
        if self.a.other:
            other = os.path.join(self.a.other, "apps", "graph500_bfs")
            runs.append(("other_1x2", lambda: g(1, 2, "Graph500/generator=kronecker",
                                                binary=other)))
        return runs

    def gemm_run(self):
        out = run(LAUNCH + ["-np", "1", self.gemm, "--n=1024", "--tiles=256", "--ref-threads=2",
                            "--reps=3", "--kokkos-num-threads=2", "--kokkos-disable-warnings"])
        m = re.findall(r'name="gemm_1x2_tile256_ratio_to_dgemm">([0-9.eE+-]+)<', out)
        if not m:
            raise RunFailed("bench_gemm printed no ratio:\n" + out[-2000:])
        return {"ratio": float(m[-1])}


# Keys where more is better (rates); every other key is seconds or a ratio
# of seconds, where less is.
RATES = ("median_TEPS", "bfs_teps", "sssp_teps")


def best(rounds):
    """Each run's best value of each key over the rounds."""
    out = {}
    for name in rounds[0]:
        out[name] = {}
        for key in rounds[0][name]:
            xs = [r[name][key] for r in rounds if key in r[name]]
            out[name][key] = max(xs) if key.endswith(RATES) else min(xs)
    return out


def figures(r):
    """{figure: value} of the runs \\p r (each run's best values)."""
    def time_of(run, kernel):  # seconds a search
        return 1.0 / r[run][kernel + " median_TEPS"]

    f = {
        "smoke_read_wel_over_plain": r["wel_1x1"]["graph_generation"] / r["ref_read"]["read_seconds"],
        "smoke_read_wel_over_el": r["wel_1x1"]["graph_generation"] / r["el_1x1"]["graph_generation"],
        "smoke_read_gr_over_el": r["gr_1x1"]["graph_generation"] / r["el_1x1"]["graph_generation"],
        "smoke_read_mtx_over_el": r["mtx_1x1"]["graph_generation"] / r["el_1x1"]["graph_generation"],
        "smoke_read_snap_over_el": r["txt_1x1"]["graph_generation"] / r["el_1x1"]["graph_generation"],
        "smoke_read_el_over_plain": r["el_1x1"]["graph_generation"] / r["ref_read"]["read_seconds"],
        "smoke_construction_over_reference":
            r["wel_1x1"]["construction_time"] / r["ref_graph"]["build_seconds"],
        "smoke_bfs_over_reference": r["ref_graph"]["bfs_teps"] / r["wel_1x1"]["bfs median_TEPS"],
        "smoke_sssp_over_reference": r["ref_graph"]["sssp_teps"] / r["wel_1x1"]["sssp median_TEPS"],
        "smoke_sssp_over_bfs": time_of("wel_1x1", "sssp") / time_of("wel_1x1", "bfs"),
        "smoke_profile_on_over_off":
            time_of("wel_1x1", "bfs") / time_of("wel_1x1_noprofile", "bfs"),
        "smoke_uts_node_over_sha1": (r["uts_1x1"]["mean_time"] / r["uts_1x1"]["tree_size"]) /
                                    (r["ref_sha1"]["sha1_seconds"] / 2e6),
        "smoke_results_write_over_plain": r["results"]["ratio"],
        "smoke_gemm_over_dgemm": 1.0 / r["gemm"]["ratio"],  # seconds over seconds
    }
    for kind in ("kronecker", "uniform", "grid"):
        for k in ("bfs", "sssp"):
            f["smoke_%s_%s_1x2_over_1x1" % (kind, k)] = \
                time_of(kind + "_1x2", k) / time_of(kind + "_1x1", k)
    for k in ("bfs", "sssp"):
        f["smoke_%s_2d_over_1d" % k] = time_of("kronecker_2x1_2d", k) / time_of("kronecker_2x1_1d", k)
    if "other_1x2" in r:
        f["smoke_bfs_runtime_over_other"] = time_of("kronecker_1x2", "bfs") / time_of("other_1x2", "bfs")
    return f


def report(value, rounds, bounds, other):
    """Prints each figure's \\p value, its spread over the \\p rounds and its
    verdict; returns how many failed: out of their band, or banded but not
    measured."""
    failed = 0
    print("%-40s %9s %9s %9s  %-17s %s" % ("figure", "value", "round min", "max", "band", "verdict"))
    for name in sorted(value):
        m, xs = value[name], [r[name] for r in rounds] or [value[name]]
        print('<CTestMeasurement type="numeric/double" name="%s">%.4g</CTestMeasurement>' % (name, m))
        band, verdict = "", "(no band)"
        if name in bounds:
            lo, hi, _ = bounds[name]
            ok = lo <= m <= hi
            failed += not ok
            band, verdict = "[%.3g, %.3g]" % (lo, hi), "ok" if ok else "OUT OF BAND"
        print("%-40s %9.4g %9.4g %9.4g  %-17s %s" % (name, m, min(xs), max(xs), band, verdict))
    optional = set() if other else {"smoke_bfs_runtime_over_other"}
    for name in sorted(set(bounds) - set(value) - optional):
        print("%-40s not measured: FAILED" % name)
        failed += 1
    return failed


def read_bounds(path):
    with open(path) as fh:
        rows = [r for r in csv.DictReader(fh)]
    return {r["figure"]: (float(r["low"]), float(r["high"]), r["what"]) for r in rows}


# A 3x slowdown planted in each path, as it shows in a round's runs: what
# the self-test proves some figure sees.
PLANTED = {
    "reading": lambda run, k: 3.0 if k == "graph_generation" else 1.0,
    "construction": lambda run, k: 3.0 if k == "construction_time" else 1.0,
    "bfs": lambda run, k: 1 / 3.0 if k == "bfs median_TEPS" and run != "other_1x2" else 1.0,
    "sssp": lambda run, k: 1 / 3.0 if k == "sssp median_TEPS" else 1.0,
    "gemm": lambda run, k: 1 / 3.0 if run == "gemm" else 1.0,
    "uts": lambda run, k: 3.0 if run == "uts_1x1" and k == "mean_time" else 1.0,
    "results": lambda run, k: 3.0 if run == "results" else 1.0,
    "task runtime": lambda run, k: 1 / 3.0 if k.endswith("TEPS") and "_1x2" in run and
    run != "other_1x2" else 1.0,
}


def self_test():
    """The smoke's own logic on made-up runs: the output parser, every
    planted 3x slowdown moving some figure 3x, and the verdicts."""
    text = "graph_generation:  0.25\nbfs  median_TEPS:     !  4.5e+07\nresults: /x.h5\n"
    assert keyed(text) == {"graph_generation": 0.25, "bfs median_TEPS": 4.5e7}, keyed(text)
    g = {"graph_generation": 0.2, "construction_time": 0.3, "bfs median_TEPS": 5e7,
         "sssp median_TEPS": 1e7}
    runs = {name: dict(g) for name in ("wel_1x1", "wel_1x1_noprofile", "el_1x1", "gr_1x1",
                                       "mtx_1x1", "txt_1x1", "other_1x2")}
    for kind in ("kronecker", "uniform", "grid"):
        runs[kind + "_1x1"], runs[kind + "_1x2"] = dict(g), dict(g)
    runs["kronecker_2x1_1d"], runs["kronecker_2x1_2d"] = dict(g), dict(g)
    runs.update(ref_graph={"build_seconds": 0.1, "bfs_teps": 1e8, "sssp_teps": 2e7},
                ref_read={"read_seconds": 0.5}, uts_1x1={"mean_time": 0.4, "tree_size": 4e6},
                ref_sha1={"sha1_seconds": 0.3}, results={"ratio": 2.0}, gemm={"ratio": 0.8})
    nominal = figures(runs)
    for path, scale in PLANTED.items():
        planted = {run: {k: v * scale(run, k) for k, v in vals.items()}
                   for run, vals in runs.items()}
        moved = {f: v / nominal[f] for f, v in figures(planted).items()}
        assert any(abs(m - 3) < 1e-9 or abs(m - 1 / 3.0) < 1e-9 for m in moved.values()), \
            "a 3x slowdown in %s moves no figure 3x: %s" % (path, moved)
    # Each side's best over the rounds: a round slowed by a busy machine is
    # not the figure.
    busy = {run: {k: v * (3.0 if k.endswith("_time") or k == "graph_generation" else 1.0)
                  for k, v in vals.items()} for run, vals in runs.items()}
    assert figures(best([runs, busy])) == nominal
    band = {f: (v / 2, v * 2, "") for f, v in nominal.items()}
    assert report(nominal, [nominal, nominal], band, True) == 0
    slow = dict(nominal, smoke_bfs_over_reference=nominal["smoke_bfs_over_reference"] * 3)
    assert report(slow, [nominal], band, True) == 1
    del slow["smoke_gemm_over_dgemm"]
    assert report(slow, [], band, True) == 2  # out, and a banded figure missing
    print("smoke self-test: passed (%d planted slowdowns each seen)" % len(PLANTED))
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the build directory")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), help="the source tree (input decks)")
    ap.add_argument("--bounds", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=int, default=16)
    ap.add_argument("--keys", type=int, default=8)
    ap.add_argument("--other", default="", help="a build of the other task runtime")
    ap.add_argument("--figures-only", action="store_true", help="no bounds checked")
    a = ap.parse_args()
    if a.other and not os.access(os.path.join(a.other, "apps", "graph500_bfs"), os.X_OK):
        a.other = ""
    bounds = read_bounds(a.bounds)
    scratch = tempfile.mkdtemp(prefix="ht-smoke-")
    t0 = time.time()
    try:
        s = Smoke(a, scratch)
        plan = s.plan(s.files())
        raw = []
        for i in range(a.rounds):
            order = plan if i % 2 == 0 else plan[::-1]
            raw.append({name: thunk() for name, thunk in order})
        value, rounds = figures(best(raw)), [figures(r) for r in raw]
    except RunFailed as e:
        print("smoke: a run failed: %s" % e)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    failed = report(value, rounds, {} if a.figures_only else bounds, bool(a.other))
    print("smoke: %d figures, %d rounds, %.0f s; %s" % (
        len(value), a.rounds, time.time() - t0,
        "%d failed" % failed if failed else "all within their bands"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
