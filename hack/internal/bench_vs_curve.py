"""The cost curve of `hack/bench.sh --vs controller-runtime --curve`: the sync, reads, reconcile-from-start
and idle cases at growing object counts, for the workload's pods and for ServiceMonitors (a custom
resource both sides read as JSON), on one control plane that grows between the sizes.

Each side runs as a Go or C++ user gets it by default: ctrl reads pods in protobuf, and so does
controller-runtime (its default when rest.Config.ContentType is empty; the peer is given --protobuf);
custom resources are JSON on both sides. Results go to <state>/curve.json; the tables and the picture
(bench_vs_plot.py, run by Debian's python3 with python3-matplotlib) into docs/ unless --no-docs.
"""

import json
import os
import subprocess
import time

from bench_vs_process import BenchError, control_plane_pid, parse_result, run, say
from bench_vs_rows import MIB, held_per, key
from bench_vs_table import compared, values_of, write_docs

CURVE_BEGIN = "<!-- bench-curve:begin (hack/bench.sh --vs controller-runtime --curve writes this section) -->"
CURVE_END = "<!-- bench-curve:end -->"
PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_vs_plot.py")


def _all_objects(f, pods):
    return None if f.get("pods") == pods else f"pods = {f.get('pods')}, expected {pods}"


def _list_full(f, pods):
    want, got = min(pods, 100), f.get("cached_list_items")
    return None if got == want else f"cached_list_items = {got}, expected {want}"


def _cases(kind):
    """The four curve cases of one kind: 'pods' (controller-runtime given its default, protobuf) or
    'servicemonitors' (JSON on both sides)."""
    extra = ["--servicemonitors"] if kind == "servicemonitors" else []
    peer = [] if extra else ["--protobuf"]
    return {
        f"{kind}-sync": {"scenario": "sync", "args": lambda a: list(extra), "peer_args": lambda a: list(peer),
                         "check": _all_objects},
        f"{kind}-reads": {"scenario": "reads", "args": lambda a: ["--seconds", f"{a.seconds:g}"] + extra,
                          "peer_args": lambda a: list(peer), "check": _list_full},
        f"{kind}-reconcile": {"scenario": "reconcile", "args": lambda a: ["--workers", "1"] + extra,
                              "peer_args": lambda a: list(peer), "check": _all_objects},
        f"{kind}-idle": {"scenario": "idle", "args": lambda a: ["--seconds", f"{a.idle_seconds:g}"] + extra,
                         "peer_args": lambda a: list(peer), "check": _all_objects},
    }


CURVE_CASES = {**_cases("pods"), **_cases("servicemonitors")}

# (label, value(figures), better, format, case suffix); bench_vs_plot.py draws the ones it names.
CURVE_ROWS = [
    ("Start -> synced (s)", key("sync_s"), "lower", "{:.2f}", "sync"),
    ("client CPU to sync (s)", key("cpu_s"), "lower", "{:.2f}", "sync"),
    ("API server CPU during the sync (s)", key("apiserver_cpu_s"), "lower", "{:.2f}", "sync"),
    ("RSS held per object after sync (B)", held_per("pod"), "lower", "{:,.0f}", "sync"),
    ("RSS peak during sync (MiB)", key("rss_peak_bytes", 1 / MIB), "lower", "{:,.1f}", "sync"),
    ("cached Get, cluster-wide cache (us)", key("cached_get_us"), "lower", "{:.2f}", "reads"),
    ("cached Get, cache restricted to the namespace (us)", key("cached_get_restricted_us"), "lower", "{:.2f}",
     "reads"),
    ("cached List of 100 (us)", key("cached_list_us"), "lower", "{:,.1f}", "reads"),
    ("Start -> every object reconciled once, 1 worker (s)", key("all_s"), "lower", "{:.2f}", "reconcile"),
    ("client CPU to reconcile every object (s)", key("cpu_s"), "lower", "{:.2f}", "reconcile"),
    ("RSS after reconciling every object, settled (MiB)", key("rss_after_bytes", 1 / MIB), "lower", "{:,.1f}",
     "reconcile"),
    ("idle operator: RSS settled (MiB)", key("rss_settled_bytes", 1 / MIB), "lower", "{:,.1f}", "idle"),
    ("idle operator: RSS as ps shows it (MiB)", key("rss_bytes", 1 / MIB), "lower", "{:,.1f}", "idle"),
    ("idle operator: RSS peak (MiB)", key("rss_peak_bytes", 1 / MIB), "lower", "{:,.1f}", "idle"),
]

KIND_TITLES = {"pods": "the workload's pods (~8 KB; both sides protobuf)",
               "servicemonitors": "ServiceMonitors (monitoring.coreos.com/v1, prometheus-operator's CRD; "
                                  "both sides JSON)"}


def _process_memory(name, cp_dir):
    """VmRSS in bytes of this control plane's process whose argv[0] ends with name, or None."""
    pid = control_plane_pid(name, cp_dir)
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _control_plane_figures(bench):
    """What the control plane itself holds at this size: kube-apiserver and etcd RSS, etcd's data file."""
    db = None
    for root, _, files in os.walk(bench.cp_dir):
        if "db" in files and root.endswith(os.path.join("member", "snap")):
            db = os.path.getsize(os.path.join(root, "db"))
    return {"apiserver_rss_bytes": _process_memory("kube-apiserver", bench.cp_dir),
            "etcd_rss_bytes": _process_memory("etcd", bench.cp_dir), "etcd_db_bytes": db}


def _make_servicemonitors(bench):
    say(f"creating {bench.pods:,} ServiceMonitors in {bench.namespaces} namespaces")
    made = parse_result(run([bench.ours, "custom-objects", "--kubeconfig", bench.kubeconfig] + bench.layout +
                            ["--concurrency", "16"], timeout=7200), "custom-objects")
    say(f"ServiceMonitors made in {made.get('seconds', 0):.1f} s ({made.get('existing', 0):.0f} were there, "
        f"{made.get('json_bytes_per_object', 0):,.0f} B of JSON each)")
    return made


def run_curve(bench, sizes, custom_sizes):
    """Grows the workload through sizes (pods) and custom_sizes (ServiceMonitors), running the curve's
    cases at each; returns {"sizes": [...], "control_plane": {size: figures}} for the results' meta."""
    bench.cases = CURVE_CASES
    bench.start_control_plane()
    control_plane = {}
    for size in sorted(set(sizes) | set(custom_sizes)):
        bench.set_size(size)
        bench.make_workload()
        kinds = ["pods"]
        if size in custom_sizes:
            made = _make_servicemonitors(bench)
            control_plane.setdefault(str(bench.pods), {})["servicemonitor_json_bytes"] = \
                made.get("json_bytes_per_object")
            kinds.append("servicemonitors")
        bench.wait_for_idle_apiserver()
        control_plane.setdefault(str(bench.pods), {}).update(_control_plane_figures(bench))
        say(f"at {bench.pods:,}: control plane {control_plane[str(bench.pods)]}")
        bench.selected = [case for kind in kinds for case in CURVE_CASES if case.startswith(kind + "-")
                          and (size in sizes or kind == "servicemonitors")]
        t0 = time.monotonic()
        bench.compare()
        say(f"size {bench.pods:,} measured in {time.monotonic() - t0:.0f} s")
    return {"sizes": sorted({r["pods"] for r in bench.results}), "control_plane": control_plane}


def render_curve(results, meta):
    """Markdown: per kind, each figure at each size, ctrl beside controller-runtime."""
    v = meta["versions"]
    lines = [
        f"Made by `{meta['command']}` on {meta['date']}: {meta['runs']} run(s) of each side per row and size, "
        "alternating which goes first, each run a process of its own; one control plane grown from the "
        "smallest size to the largest.",
        f"ctrl {v['ctrl']} ({v['build_type']}, {v['cxx']}); controller-runtime {v['controller_runtime']} with "
        f"client-go {v['client_go']} ({v['go']}); kube-apiserver {v['kube_apiserver']} and etcd on the same "
        f"{v['cores']} cores (Linux {v['kernel']}). Load average {meta['load_before']} before, "
        f"{meta['load_after']} after. Idle window {meta['idle_seconds']:g} s.",
        "Cells: median (min – max). Ratio: ctrl / controller-runtime. Verdict: ahead or behind only when the "
        "two spreads do not overlap.", ""]
    problems = []
    for kind, title in KIND_TITLES.items():
        sizes = sorted({r["pods"] for r in results if r["case"].startswith(kind + "-")})
        if not sizes:
            continue
        lines += [f"**{title}**", "", "| figure | objects | ctrl | controller-runtime | ratio | ctrl is |",
                  "|---|---|---|---|---|---|"]
        for label, value, better, fmt, suffix in CURVE_ROWS:
            for size in sizes:
                at_size = [r for r in results if r["pods"] == size]
                ours, _ = values_of(at_size, f"{kind}-{suffix}", "ctrl", value)
                theirs, _ = values_of(at_size, f"{kind}-{suffix}", "controller-runtime", value)
                if not ours or not theirs:
                    problems.append(f"{kind} {label} at {size:,}: not measured on both sides")
                    continue
                lines.append(f"| {label} | {size:,} | {compared(ours, theirs, fmt, better)} |")
        lines.append("")
    cp = meta.get("curve", {}).get("control_plane", {})
    if cp:
        lines += ["**The control plane itself** (after each size's objects were made; both kinds together)", "",
                  "| objects of each kind | kube-apiserver RSS (MiB) | etcd RSS (MiB) | etcd data file (MiB) |",
                  "|---|---|---|---|"]
        for size in sorted(cp, key=int):
            f = cp[size]
            mib = [("-" if f.get(k) is None else f"{f[k] / MIB:,.0f}")
                   for k in ("apiserver_rss_bytes", "etcd_rss_bytes", "etcd_db_bytes")]
            lines.append(f"| {int(size):,} | {mib[0]} | {mib[1]} | {mib[2]} |")
        lines.append("")
    return "\n".join(lines), problems


def draw(results_path, svg_path):
    """Draws the curves with Debian's python3 (python3-matplotlib; hack/install-deps.sh installs it)."""
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else "python3"
    done = subprocess.run([python, PLOT, results_path, svg_path], capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"drawing {svg_path}: {done.stderr.strip()[-600:]}")
    say(f"drew {svg_path}")


def finish_curve(bench, args, meta):
    """Writes curve.json, prints the tables, draws the picture; docs/ unless --no-docs. Exit status."""
    results_path = os.path.join(args.state_dir, "curve.json")
    with open(results_path, "w") as f:
        json.dump({"meta": meta, "results": bench.results}, f, indent=1)
    table, problems = render_curve(bench.results, meta)
    print(table)
    svg = os.path.join(args.state_dir if args.no_docs else os.path.join(args.root, "docs"), "cost-curve.svg")
    draw(results_path, svg)
    for p in problems:
        say(f"error: {p}")
    if problems:
        return 1
    if not args.no_docs:
        write_docs(os.path.join(args.root, "docs/benchmarks.md"), table, CURVE_BEGIN, CURVE_END,
                   heading="The cost curve: 1,000 to 100,000 objects (issue 34)")
        say("wrote the curve's tables into docs/benchmarks.md")
    return 0
