#!/usr/bin/env python3
"""The side-by-side benchmark's table (hack/internal/bench_vs_table.py, bench_vs_rows.py): verdicts,
rows a side did not measure, the checks a run must pass, and the docs section it replaces."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../hack/internal"))
import bench_vs_rows  # noqa: E402
from bench_vs_table import render_table, verdict, write_docs  # noqa: E402

META = {"versions": {k: "v" for k in ("ctrl", "build_type", "cxx", "controller_runtime", "client_go", "go",
                                      "kube_apiserver", "cores", "kernel")},
        "command": "hack/bench.sh --vs controller-runtime", "date": "today", "pods": 10000, "runs": 3,
        "load_before": "1", "load_after": "1", "load_in_flight": 4, "load_seconds": 10, "idle_seconds": 10}
ROW = ("cached Get (us)", bench_vs_rows.key("cached_get_us"), "lower", "{:.1f}", "reads", "reads")


def results(ctrl, theirs, key="cached_get_us"):
    out = [{"case": "reads", "side": "ctrl", "run": i, "figures": {key: v}} for i, v in enumerate(ctrl)]
    out += [{"case": "reads", "side": "controller-runtime", "run": i, "figures": {key: v}}
            for i, v in enumerate(theirs)]
    return out


class VerdictTest(unittest.TestCase):
    def test_apart_spreads_decide(self):
        self.assertEqual(verdict([1, 2, 3], [5, 6, 7], "lower"), "**ahead**")
        self.assertEqual(verdict([1, 2, 3], [5, 6, 7], "higher"), "behind")

    def test_overlapping_spreads_decide_nothing(self):
        self.assertEqual(verdict([1, 2, 6], [5, 6, 7], "lower"), "within spread")


class RenderTest(unittest.TestCase):
    def test_row_shows_medians_spread_and_ratio(self):
        table, problems = render_table([("Reads", [ROW])], results([1, 2, 3], [4, 8, 9]), META)
        self.assertEqual(problems, [])
        self.assertIn("| cached Get (us) | 2.0 (1.0 – 3.0) | 8.0 (4.0 – 9.0) | 0.25 | **ahead** |", table)

    def test_a_side_without_figures_is_a_problem_not_a_row(self):
        table, problems = render_table([("Reads", [ROW])], results([1, 2], []), META)
        self.assertNotIn("| cached Get", table)
        self.assertEqual(len(problems), 1)

    def test_a_row_needing_a_case_not_selected_is_left_out(self):
        table, problems = render_table([("Reads", [ROW])], results([1, 2], []), META, selected=["queue"])
        self.assertNotIn("| cached Get", table)
        self.assertEqual(problems, [])

    def test_a_missing_key_is_a_problem(self):
        _, problems = render_table([("Reads", [ROW])], results([1], [2], key="other"), META)
        self.assertTrue(any("missing" in p for p in problems))


class ChecksTest(unittest.TestCase):
    def test_sync_must_hold_every_pod(self):
        check = bench_vs_rows.CASES["sync-stripped"]["check"]
        self.assertIsNone(check({"pods": 200}, 200))
        self.assertIn("pods = 199", check({"pods": 199}, 200))

    def test_protobuf_must_be_seen_on_the_wire(self):
        check = bench_vs_rows.CASES["sync-stripped-protobuf"]["check"]
        self.assertIsNotNone(check({"pods": 200, "protobuf": 0}, 200))

    def test_a_load_must_be_seen_whole(self):
        check = bench_vs_rows.CASES["watch"]["check"]
        self.assertIsNone(check({"missed": 0, "events": 10}, 200))
        self.assertIsNotNone(check({"missed": 3, "events": 10}, 200))


class DocsTest(unittest.TestCase):
    def test_replaces_only_between_markers(self):
        with tempfile.NamedTemporaryFile("w+", suffix=".md", delete=False) as f:
            f.write("# B\nbefore\n<!-- b -->\nold\n<!-- e -->\nafter\n")
        write_docs(f.name, "new", "<!-- b -->", "<!-- e -->")
        self.assertEqual(open(f.name).read(), "# B\nbefore\n<!-- b -->\nnew\n<!-- e -->\nafter\n")
        os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
