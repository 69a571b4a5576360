#!/usr/bin/env python3
"""Draws the cost curve of `hack/bench.sh --vs controller-runtime --curve`.

    bench_vs_plot.py CURVE_JSON OUT_SVG

CURVE_JSON is what bench_vs_curve.py wrote (<state>/curve.json). Each panel is one figure against the
object count (both axes logarithmic): ctrl and controller-runtime, pods (solid) and ServiceMonitors
(dashed); a point is the median of the runs, its bar the min-max. Needs matplotlib (Debian's
python3-matplotlib, installed by hack/install-deps.sh); bench_vs_curve.py runs it with /usr/bin/python3.
"""

import json
import statistics
import sys

import matplotlib

matplotlib.use("svg")
matplotlib.rcParams["svg.hashsalt"] = "ctrl-cost-curve"  # the same ids each run: a diff shows only data
import matplotlib.pyplot as plt  # noqa: E402

MIB = 1024.0 * 1024.0
SIDES = {"ctrl": "tab:blue", "controller-runtime": "tab:orange"}
KINDS = {"pods": "-", "servicemonitors": "--"}

# (title, case suffix, value(figures)); the values as bench_vs_curve.py's CURVE_ROWS compute them.
PANELS = [
    ("RSS held per object after sync (bytes)", "sync",
     lambda f: (f["rss_after_bytes"] - f["rss_before_bytes"]) / f["pods"]),
    ("Start -> synced (s)", "sync", lambda f: f["sync_s"]),
    ("client CPU to sync (s)", "sync", lambda f: f["cpu_s"]),
    ("Start -> every object reconciled (s)", "reconcile", lambda f: f["all_s"]),
    ("idle operator, RSS settled (MiB)", "idle", lambda f: f["rss_settled_bytes"] / MIB),
    ("API server CPU during the sync (s)", "sync", lambda f: f["apiserver_cpu_s"]),
]


def series(results, case, side, value):
    """(sizes, medians, lower errors, upper errors) of one line."""
    by_size = {}
    for r in results:
        if r["case"] == case and r["side"] == side:
            try:
                by_size.setdefault(r["pods"], []).append(value(r["figures"]))
            except (KeyError, ZeroDivisionError):
                continue
    sizes = sorted(by_size)
    meds = [statistics.median(by_size[s]) for s in sizes]
    low = [m - min(by_size[s]) for s, m in zip(sizes, meds)]
    high = [max(by_size[s]) - m for s, m in zip(sizes, meds)]
    return sizes, meds, low, high


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        data = json.load(f)
    results, meta = data["results"], data["meta"]
    fig, axes = plt.subplots(2, 3, figsize=(15, 9))
    for ax, (title, suffix, value) in zip(axes.flat, PANELS):
        for kind, style in KINDS.items():
            for side, color in SIDES.items():
                sizes, meds, low, high = series(results, f"{kind}-{suffix}", side, value)
                if not sizes:
                    continue
                ax.errorbar(sizes, meds, yerr=[low, high], color=color, linestyle=style, marker="o", markersize=4,
                            capsize=3, label=f"{side}, {kind}")
        ax.set_title(title, fontsize=11)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("objects")
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    v = meta["versions"]
    fig.suptitle(f"ctrl {v['ctrl']} and controller-runtime {v['controller_runtime']}: cost against object count "
                 f"({meta['date']}, {v['cores']} cores, kube-apiserver {v['kube_apiserver']})", fontsize=12)
    fig.tight_layout()
    fig.savefig(sys.argv[2], format="svg", metadata={"Date": None})
    return 0


if __name__ == "__main__":
    sys.exit(main())
