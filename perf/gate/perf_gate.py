#!/usr/bin/env python3
"""The performance regression gate: figures from a benchmark run against a
machine class's baseline, a history of runs, and baselines updated on purpose.

A figure is one number a benchmark in perf/ printed as a CTest measurement
(<CTestMeasurement type="numeric/double" name="...">), so `ctest -T Test`
keeps it in Testing/<tag>/Test.xml.  A baseline (perf/baselines/<class>.csv)
gives each gated figure its value, a relative tolerance and which way is
better; a figure regresses when it is worse than the baseline by more than
the tolerance.  Figures without a baseline are recorded, not gated.

  perf_gate.py collect <Test.xml> <figures.csv>
  perf_gate.py check <baseline.csv> <figures.csv>          exit 1 on a regression
  perf_gate.py update <baseline.csv> <figures.csv> [template.csv]
                                                           new values, same tolerances (a new
                                                           baseline takes the template's rows)
  perf_gate.py append <history.csv> <figures.csv> <revision> <time> <machine>
  perf_gate.py calibrate <baseline.csv> <history.csv> [runs]
        values and tolerances from the last runs (default 3) of the same code:
        value = their median; tolerance = 2 x the largest relative deviation of
        a run from that median, at least the floor (10%, or the row's own when
        smaller), rounded up to 5%; a figure whose tolerance would pass 50% is
        too noisy on this machine to gate and is dropped (printed).
  perf_gate.py compare <baseline.csv> <reference.csv> <candidate.csv> [size] [alpha]
        the paired mode (scripts/bench --against REV): each file holds every
        round's figures (figure,value rows, repeated), of the reference
        revision and of the candidate, run alternately in one session.  A
        gated figure (a row of the baseline, for its direction) regresses when
        the candidate's median is worse than the reference's by more than
        size (default 0.10) AND the Mann-Whitney U test (scipy; one-sided,
        toward worse) gives p < alpha (default 0.05): a change the spread of
        the rounds cannot explain.  With n rounds each the smallest p is
        1 / C(2n, n): 4 rounds are the fewest that can show one at 0.05.
"""
import csv
import os
import sys
import xml.etree.ElementTree as ET

BASELINE_FIELDS = ["figure", "value", "tolerance", "better", "note"]
HISTORY_FIELDS = ["time", "revision", "machine", "figure", "value"]


# Numeric measurements CTest adds to every test by itself.
CTEST_OWN = {"Execution Time", "Processors", "Cost"}


def collect(test_xml):
    """{figure: value} from the numeric measurements of a CTest Test.xml."""
    figures = {}
    for m in ET.parse(test_xml).getroot().iter("NamedMeasurement"):
        if m.get("type") != "numeric/double" or m.get("name") in CTEST_OWN:
            continue
        value = m.find("Value")
        if value is None or value.text is None:
            continue
        try:
            figures[m.get("name")] = float(value.text)
        except ValueError:
            pass
    return figures


def read_figures(path):
    with open(path, newline="") as f:
        return {r["figure"]: float(r["value"]) for r in csv.DictReader(f)}


def write_figures(path, figures):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["figure", "value"])
        for name in sorted(figures):
            w.writerow([name, repr(figures[name])])


def read_baseline(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if not r["figure"].startswith("#")]
    for r in rows:
        r["value"] = float(r["value"])
        r["tolerance"] = float(r["tolerance"])
        if r["better"] not in ("higher", "lower"):
            raise SystemExit(f"{path}: figure {r['figure']}: better = '{r['better']}', "
                             "accepted are higher and lower")
        if not 0 <= r["tolerance"] < 1:
            raise SystemExit(f"{path}: figure {r['figure']}: tolerance = {r['tolerance']}, "
                             "accepted is a fraction in [0, 1)")
    return rows


def verdict(row, now):
    """(change, regressed): the relative change, and whether it is worse than
    the baseline by more than the tolerance in the direction that matters."""
    base = row["value"]
    change = (now - base) / abs(base) if base else 0.0
    worse = -change if row["better"] == "higher" else change
    return change, worse > row["tolerance"]


def check(baseline_path, figures):
    rows = read_baseline(baseline_path)
    failed = missing = 0
    print(f"{'figure':52} {'baseline':>11} {'now':>11} {'change':>8} {'tolerance':>9}  verdict")
    for r in rows:
        name = r["figure"]
        if name not in figures:
            missing += 1
            print(f"{name:52} {r['value']:11.4g} {'-':>11} {'-':>8} {r['tolerance']:9.0%}  not measured")
            continue
        now = figures[name]
        change, bad = verdict(r, now)
        failed += bad
        print(f"{name:52} {r['value']:11.4g} {now:11.4g} {change:+8.1%} {r['tolerance']:9.0%}  "
              + (f"REGRESSION ({r['better']} is better)" if bad else "ok"))
    ungated = sorted(set(figures) - {r["figure"] for r in rows})
    if ungated:
        print(f"recorded, not gated: {', '.join(ungated)}")
    print(f"{len(rows) - failed - missing} ok, {failed} regressed, {missing} not measured "
          f"(baseline {baseline_path})")
    return 1 if failed else 0


def update(baseline_path, figures, template=None):
    if os.path.exists(baseline_path):
        rows = read_baseline(baseline_path)
    elif template and os.path.exists(template):
        rows = read_baseline(template)  # which figures are gated, and how tightly
        for r in rows:
            r["note"] = (r.get("note") or "") + f" (tolerance from {os.path.basename(template)})"
    else:
        rows = []
    known = {r["figure"] for r in rows}
    for r in rows:
        if r["figure"] in figures:
            r["value"] = figures[r["figure"]]
    with open(baseline_path, "w", newline="") as f:
        w = csv.DictWriter(f, BASELINE_FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({**r, "value": f"{r['value']:.6g}"})
    new = sorted(set(figures) - known)
    print(f"{baseline_path}: {len(rows)} figures updated"
          + (f"; not gated (add a row to gate them): {', '.join(new)}" if new else ""))
    return 0


def append(history_path, figures, revision, time, machine):
    fresh = not os.path.exists(history_path)
    os.makedirs(os.path.dirname(os.path.abspath(history_path)), exist_ok=True)
    with open(history_path, "a", newline="") as f:
        w = csv.writer(f)
        if fresh:
            w.writerow(HISTORY_FIELDS)
        for name in sorted(figures):
            w.writerow([time, revision, machine, name, repr(figures[name])])
    print(f"{history_path}: {len(figures)} figures appended ({revision}, {time})")
    return 0


def calibrate(baseline_path, history_path, runs=3, floor=0.10, ceiling=0.50):
    with open(history_path, newline="") as f:
        rows = list(csv.DictReader(f))
    times = sorted({r["time"] for r in rows})[-runs:]
    values = {}
    for r in rows:
        if r["time"] in times:
            values.setdefault(r["figure"], []).append(float(r["value"]))
    kept, dropped = [], []
    for b in read_baseline(baseline_path):
        v = sorted(values.get(b["figure"], []))
        if len(v) < 2:
            kept.append(b)  # not measured often enough to calibrate: left as it was
            continue
        median = v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2])
        spread = max(abs(x - median) / abs(median) for x in v) if median else 0.0
        tol = max(min(floor, b["tolerance"]), 2 * spread)
        tol = -(-round(tol * 1000) // 50) * 0.05  # up to the next 5%
        if tol > ceiling:
            dropped.append((b["figure"], spread, v))
            continue
        b.update(value=median, tolerance=round(tol, 2))
        kept.append(b)
    with open(baseline_path, "w", newline="") as f:
        w = csv.DictWriter(f, BASELINE_FIELDS, lineterminator="\n")
        w.writeheader()
        for r in kept:
            w.writerow({**r, "value": f"{r['value']:.6g}"})
    print(f"{baseline_path}: {len(kept)} figures calibrated on {len(times)} runs")
    for name, spread, v in dropped:
        print(f"  dropped {name}: runs {v} deviate up to {spread:.0%} from their median")
    return 0


def read_samples(path):
    """{figure: [value per round]} from figure,value rows, a figure repeated."""
    samples = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            samples.setdefault(r["figure"], []).append(float(r["value"]))
    return samples


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2])


def compare(baseline_path, ref, cand, size=0.10, alpha=0.05):
    """Exit status 1 when a gated figure of cand is significantly worse than
    ref by more than size (see the module's doc)."""
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        raise SystemExit("perf_gate.py compare needs scipy (Debian: python3-scipy, "
                         "which scripts/deps.sh installs)")
    better = {r["figure"]: r["better"] for r in read_baseline(baseline_path)}
    failed = 0
    print(f"{'figure':48} {'reference':>10} {'candidate':>10} {'change':>8} {'p':>7} {'n':>5}  verdict")
    for name in sorted(set(ref) & set(cand)):
        a, b = ref[name], cand[name]
        ma, mb = median(a), median(b)
        change = (mb - ma) / abs(ma) if ma else 0.0
        direction = better.get(name)
        if direction is None:
            p = mannwhitneyu(b, a, alternative="two-sided").pvalue
            verdict = "not gated"
        else:
            # One-sided, toward worse: candidate lower when higher is better.
            p = mannwhitneyu(b, a, alternative="less" if direction == "higher" else "greater").pvalue
            worse = -change if direction == "higher" else change
            bad = worse > size and p < alpha
            failed += bad
            verdict = (f"REGRESSION ({direction} is better)" if bad else
                       "worse, not significant" if worse > size else "ok")
        print(f"{name:48} {ma:10.4g} {mb:10.4g} {change:+8.1%} {p:7.3f} {len(a):>2}/{len(b):<2}  {verdict}")
    only = sorted(set(ref) ^ set(cand))
    if only:
        print(f"measured in one revision only: {', '.join(only)}")
    print(f"{failed} regressed (worse by more than {size:.0%} with p < {alpha})")
    return 1 if failed else 0


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    cmd, args = argv[1], argv[2:]
    if cmd == "collect" and len(args) == 2:
        figures = collect(args[0])
        write_figures(args[1], figures)
        print(f"{args[1]}: {len(figures)} figures from {args[0]}")
        return 0
    if cmd == "check" and len(args) == 2:
        return check(args[0], read_figures(args[1]))
    if cmd == "update" and len(args) in (2, 3):
        return update(args[0], read_figures(args[1]), *args[2:])
    if cmd == "calibrate" and len(args) in (2, 3):
        return calibrate(args[0], args[1], *(int(a) for a in args[2:]))
    if cmd == "compare" and len(args) in (3, 4, 5):
        return compare(args[0], read_samples(args[1]), read_samples(args[2]),
                       *(float(a) for a in args[3:]))
    if cmd == "append" and len(args) == 5:
        return append(args[0], read_figures(args[1]), *args[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
