#!/usr/bin/env python3
"""Tests of the performance regression gate (perf/gate/perf_gate.py) on
synthetic figures: it fails on a regression and passes on noise, in both
directions, never fails on an improvement, reads CTest's Test.xml, keeps a
history, updates baselines on purpose, and plots the history."""
import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
GATE_DIR = os.path.join(HERE, "..", "..", "perf", "gate")
sys.path.insert(0, GATE_DIR)
import perf_gate  # noqa: E402

BASELINE = """figure,value,tolerance,better,note
gemm_ratio,0.90,0.10,higher,task GEMM / dgemm
profile_cost,1.00,0.05,lower,profiler on / off
"""

TEST_XML = """<?xml version="1.0" encoding="UTF-8"?>
<Site><Testing><Test Status="passed"><Name>perf_gemm</Name><Results>
<NamedMeasurement type="numeric/double" name="Execution Time"><Value>12.5</Value></NamedMeasurement>
<NamedMeasurement type="numeric/double" name="gemm_ratio"><Value>0.93</Value></NamedMeasurement>
<NamedMeasurement type="text/string" name="Completion Status"><Value>Completed</Value></NamedMeasurement>
</Results></Test><Test Status="passed"><Name>perf_profile</Name><Results>
<NamedMeasurement type="numeric/double" name="profile_cost"><Value>0.99</Value></NamedMeasurement>
</Results></Test></Testing></Site>
"""


class Gate(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.baseline = self.path("baseline.csv", BASELINE)

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name, text=None):
        p = os.path.join(self.dir.name, name)
        if text is not None:
            with open(p, "w") as f:
                f.write(text)
        return p

    def check(self, figures):
        out = io.StringIO()
        with redirect_stdout(out):
            code = perf_gate.check(self.baseline, figures)
        return code, out.getvalue()

    def test_noise_within_tolerance_passes(self):
        code, out = self.check({"gemm_ratio": 0.83, "profile_cost": 1.04})
        self.assertEqual(code, 0, out)
        self.assertIn("2 ok, 0 regressed", out)

    def test_higher_is_better_figure_that_drops_fails(self):
        code, out = self.check({"gemm_ratio": 0.80, "profile_cost": 1.0})
        self.assertEqual(code, 1, out)
        # figure, baseline, now and the change are printed
        line = next(l for l in out.splitlines() if l.startswith("gemm_ratio"))
        self.assertIn("0.9", line)
        self.assertIn("0.8", line)
        self.assertIn("-11.1%", line)
        self.assertIn("REGRESSION", line)

    def test_lower_is_better_figure_that_grows_fails(self):
        code, out = self.check({"gemm_ratio": 0.9, "profile_cost": 1.06})
        self.assertEqual(code, 1, out)
        self.assertIn("REGRESSION (lower is better)", out)

    def test_improvements_never_fail(self):
        code, out = self.check({"gemm_ratio": 1.5, "profile_cost": 0.5})
        self.assertEqual(code, 0, out)

    def test_a_figure_not_measured_is_reported_not_failed(self):
        code, out = self.check({"gemm_ratio": 0.9})
        self.assertEqual(code, 0, out)
        self.assertIn("not measured", out)

    def test_a_bad_baseline_is_refused_with_the_figure_and_value(self):
        bad = self.path("bad.csv", "figure,value,tolerance,better,note\nx,1,0.1,faster,\n")
        with self.assertRaises(SystemExit) as e:
            perf_gate.read_baseline(bad)
        self.assertIn("better = 'faster'", str(e.exception))

    def test_collect_reads_numeric_measurements_of_test_xml(self):
        figures = perf_gate.collect(self.path("Test.xml", TEST_XML))
        self.assertEqual(figures["gemm_ratio"], 0.93)
        self.assertEqual(figures["profile_cost"], 0.99)
        self.assertNotIn("Completion Status", figures)
        self.assertNotIn("Execution Time", figures)  # CTest's own, not a figure

    def test_update_keeps_tolerances_and_takes_new_values(self):
        perf_gate.update(self.baseline, {"gemm_ratio": 0.95, "new_figure": 3.0})
        rows = {r["figure"]: r for r in perf_gate.read_baseline(self.baseline)}
        self.assertEqual(rows["gemm_ratio"]["value"], 0.95)
        self.assertEqual(rows["gemm_ratio"]["tolerance"], 0.10)
        self.assertEqual(rows["profile_cost"]["value"], 1.0)
        self.assertNotIn("new_figure", rows)  # gating a figure is a decision

    def test_a_new_machine_class_takes_the_templates_rows(self):
        fresh = os.path.join(self.dir.name, "new-class.csv")
        perf_gate.update(fresh, {"gemm_ratio": 0.7, "profile_cost": 1.01}, self.baseline)
        rows = {r["figure"]: r for r in perf_gate.read_baseline(fresh)}
        self.assertEqual(rows["gemm_ratio"]["value"], 0.7)
        self.assertEqual(rows["gemm_ratio"]["tolerance"], 0.10)
        self.assertEqual(rows["profile_cost"]["better"], "lower")

    def test_history_appends_runs_and_plots(self):
        history = self.path("history.csv")
        perf_gate.append(history, {"gemm_ratio": 0.9}, "abc1234", "2026-11-22T10:00", "vm")
        perf_gate.append(history, {"gemm_ratio": 0.92}, "def5678", "2026-11-22T11:00", "vm")
        with open(history, newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([r["revision"] for r in rows], ["abc1234", "def5678"])
        png = self.path("trend.png")
        subprocess.run([sys.executable, os.path.join(GATE_DIR, "plot_history.py"), history, png,
                        self.baseline], check=True, capture_output=True)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_calibrate_takes_the_median_and_twice_the_spread(self):
        history = self.path("history.csv")
        for i, (g, p) in enumerate([(0.90, 1.00), (0.80, 1.01), (0.88, 0.99), (0.5, 1.0)]):
            perf_gate.append(history, {"gemm_ratio": g, "profile_cost": p}, f"r{i}",
                             f"2026-11-2{i}T00:00", "vm")
        # the last three runs: gemm 0.80, 0.88, 0.5 -> median 0.8, spread 37.5%: dropped
        perf_gate.calibrate(self.baseline, history, 3)
        rows = {r["figure"]: r for r in perf_gate.read_baseline(self.baseline)}
        self.assertNotIn("gemm_ratio", rows)
        self.assertEqual(rows["profile_cost"]["value"], 1.0)
        # the first three: gemm 0.90, 0.80, 0.88 -> median 0.88, spread 9.1% -> 20%
        self.baseline = self.path("baseline.csv", BASELINE)
        rows = [r for r in csv.DictReader(open(history)) if not r["time"].startswith("2026-11-23")]
        short = self.path("short.csv")
        with open(short, "w", newline="") as f:
            w = csv.DictWriter(f, perf_gate.HISTORY_FIELDS)
            w.writeheader()
            w.writerows(rows)
        perf_gate.calibrate(self.baseline, short, 3)
        rows = {r["figure"]: r for r in perf_gate.read_baseline(self.baseline)}
        self.assertEqual(rows["gemm_ratio"]["value"], 0.88)
        self.assertAlmostEqual(rows["gemm_ratio"]["tolerance"], 0.20)
        self.assertAlmostEqual(rows["profile_cost"]["tolerance"], 0.05)  # the row's own floor
        # A committed file: plain newlines, as the repository keeps them.
        with open(self.baseline, "rb") as f:
            self.assertNotIn(b"\r", f.read())

    def test_command_line_exit_codes(self):
        figures = self.path("figures.csv")
        perf_gate.write_figures(figures, {"gemm_ratio": 0.5, "profile_cost": 1.0})
        gate = os.path.join(GATE_DIR, "perf_gate.py")
        bad = subprocess.run([sys.executable, gate, "check", self.baseline, figures],
                             capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1, bad.stdout)
        perf_gate.write_figures(figures, {"gemm_ratio": 0.88, "profile_cost": 1.0})
        ok = subprocess.run([sys.executable, gate, "check", self.baseline, figures],
                            capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stdout)


class Paired(unittest.TestCase):
    """compare: the paired mode's verdict on rounds of two revisions."""

    def compare(self, ref, cand, size=0.10):
        with tempfile.TemporaryDirectory() as d:
            baseline = os.path.join(d, "b.csv")
            with open(baseline, "w") as f:
                f.write(BASELINE)
            out = io.StringIO()
            with redirect_stdout(out):
                code = perf_gate.compare(baseline, ref, cand, size)
        return code, out.getvalue()

    # Five rounds each, spread about +-3% around their centre.
    NOISE = [1.00, 0.97, 1.03, 0.99, 1.02]

    def rounds(self, centre):
        return [centre * x for x in self.NOISE]

    def test_same_revision_twice_passes(self):
        code, out = self.compare({"gemm_ratio": self.rounds(0.9)},
                                 {"gemm_ratio": [0.9 * x for x in reversed(self.NOISE)]})
        self.assertEqual(code, 0, out)
        self.assertIn("0 regressed", out)

    def test_significant_drop_beyond_the_size_fails(self):
        code, out = self.compare({"gemm_ratio": self.rounds(0.9)}, {"gemm_ratio": self.rounds(0.72)})
        self.assertEqual(code, 1, out)
        line = next(l for l in out.splitlines() if l.startswith("gemm_ratio"))
        self.assertIn("-20.0%", line)
        self.assertIn("REGRESSION", line)

    def test_lower_is_better_figure_that_rises_fails(self):
        code, out = self.compare({"profile_cost": self.rounds(1.0)},
                                 {"profile_cost": self.rounds(1.25)})
        self.assertEqual(code, 1, out)

    def test_a_drop_smaller_than_the_size_passes_even_if_significant(self):
        code, out = self.compare({"gemm_ratio": self.rounds(0.9)}, {"gemm_ratio": self.rounds(0.85)})
        self.assertEqual(code, 0, out)

    def test_a_drop_the_spread_explains_is_not_significant(self):
        # Medians 20% apart, but the rounds overlap: no evidence.
        ref = [0.9, 0.5, 1.3, 0.6, 1.2]
        cand = [0.72, 0.4, 1.1, 0.5, 1.25]
        code, out = self.compare({"gemm_ratio": ref}, {"gemm_ratio": cand})
        self.assertEqual(code, 0, out)
        self.assertIn("worse, not significant", out)

    def test_three_rounds_cannot_show_a_regression(self):
        # The smallest one-sided p of 3 against 3 is 1/20 = 0.05, not < 0.05.
        code, out = self.compare({"gemm_ratio": [0.9, 0.91, 0.92]},
                                 {"gemm_ratio": [0.5, 0.51, 0.52]})
        self.assertEqual(code, 0, out)

    def test_improvements_and_ungated_figures_never_fail(self):
        code, out = self.compare({"gemm_ratio": self.rounds(0.9), "other": self.rounds(5)},
                                 {"gemm_ratio": self.rounds(1.2), "other": self.rounds(1)})
        self.assertEqual(code, 0, out)
        self.assertIn("not gated", out)


if __name__ == "__main__":
    unittest.main()
