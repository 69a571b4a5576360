#!/usr/bin/env python3
"""ctrl side by side with controller-runtime: the driver of `hack/bench.sh --vs controller-runtime`.

One local real control plane, one workload (ctrl-workload's ~8 KB pods), one patch load generator
(`ctrl-vs-probe patch-load`); ctrl's probe (ctrl-vs-probe) and controller-runtime's (cr-peer) run
alternately, each run a process of its own, R times; the table shows medians, spread (min-max) and
the ratio ctrl / controller-runtime. test/bench/vs/PROTOCOL.md says what every figure means.
hack/bench.sh builds the binaries and calls this with --root, --build-dir and --peer.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_vs_curve import finish_curve, run_curve  # noqa: E402
from bench_vs_failover import run_failover  # noqa: E402
from bench_vs_process import (BenchError, control_plane_pid, load_average, measured_commit, parse_result,  # noqa: E402
                              run, say, versions)
from bench_vs_rows import ROWS, CASES  # noqa: E402
from bench_vs_table import render_table, write_docs  # noqa: E402
from bench_vs_webhook import prepare_webhooks, run_webhook  # noqa: E402

PODS_PER_NAMESPACE = 100
DOCS_BEGIN = "<!-- bench-vs:begin (hack/bench.sh --vs controller-runtime writes this section) -->"
DOCS_END = "<!-- bench-vs:end -->"


# The scenarios whose figures include a cache's sync: each waits for a collected, idle API server.
SYNCING_SCENARIOS = ("sync", "reconcile", "idle")


class Bench:
    """The control plane, the workload and the probes of one comparison run."""

    def __init__(self, args):
        self.args = args
        self.ours = os.path.join(args.build_dir, "test/bench/ctrl-vs-probe")
        self.workload = os.path.join(args.build_dir, "test/support/ctrl-workload")
        self.peer = args.peer
        self.state = args.state_dir
        self.cp_dir = os.path.join(self.state, "control-plane")
        self.kubeconfig = os.path.join(self.cp_dir, "kubeconfig")
        self.set_size(args.pods)
        self.results = []  # {"case", "side", "run", "pods", "figures"}
        self.cases = CASES  # what a case name means (the curve has cases of its own)
        self.selected = []  # the cases compare() runs

    def set_size(self, pods):
        """The workload's layout for `pods` objects: namespaces of PODS_PER_NAMESPACE."""
        self.namespaces = max(1, pods // PODS_PER_NAMESPACE)
        self.pods = self.namespaces * PODS_PER_NAMESPACE
        self.layout = ["--prefix", "vs", "--namespaces", str(self.namespaces),
                       "--pods-per-namespace", str(PODS_PER_NAMESPACE)]

    # --- the cluster -------------------------------------------------------------------------
    def control_plane(self, verb):
        env = dict(os.environ, CTRL_BUILD_DIR=self.args.build_dir, CTRL_CONTROL_PLANE_DIR=self.cp_dir)
        return run([os.path.join(self.args.root, "hack/control-plane.sh"), verb], timeout=1900, env=env)

    def start_control_plane(self):
        os.makedirs(self.state, exist_ok=True)
        try:
            self.control_plane("down")
        except BenchError:
            pass
        shutil.rmtree(self.cp_dir, ignore_errors=True)
        say("starting a local control plane (fresh etcd)")
        self.control_plane("up")
        self.server_version = self.version_of_server()

    def make_workload(self):
        """The workload's pods for the current size; pods there already are kept (a curve grows it)."""
        say(f"creating the workload: {self.pods:,} pods in {self.namespaces} namespaces")
        t0 = time.monotonic()
        run([self.workload, "--kubeconfig", self.kubeconfig] + self.layout + ["--concurrency", "16"], timeout=7200)
        say(f"workload made in {time.monotonic() - t0:.1f} s")

    def start_cluster(self):
        self.start_control_plane()
        self.make_workload()
        self.install_crds()
        if any(CASES[case].get("failover") for case in self.selected):
            self.make_failover_objects()
        if any(CASES[case].get("webhook") for case in self.selected):
            say("installing the SecurityGroupPolicy CRD and namespace vs-webhook")
            prepare_webhooks(self)
        self.wait_for_idle_apiserver()

    def wait_for_idle_apiserver(self, quiet_seconds=3, limit_seconds=180, before=None):
        """Waits until the API server has used < 5% of a core for `quiet_seconds` in a row, so work it
        still does after the workload and the CRDs (OpenAPI of the new CRDs, say), or after the
        previous probe, is neither counted in a sync's server CPU nor slows it. Before the first row
        on 2026-12-04 it found the server idle within 3 s; in the full run after it, ctrl's
        stripped syncs (each run's first row, after the last run's patch loads) were charged 0.56-1.80
        s of server CPU against 0.45-1.24 s for the kept ones. `before`: the probe it waits for (says
        so only when it waited longer than the quiet window)."""
        t0 = time.monotonic()
        quiet = 0
        last = self.apiserver_cpu_seconds()
        while last is not None and quiet < quiet_seconds and time.monotonic() - t0 < limit_seconds:
            time.sleep(1)
            now = self.apiserver_cpu_seconds()
            if now is None:
                return
            quiet = quiet + 1 if now - last < 0.05 else 0
            last = now
        waited = time.monotonic() - t0
        if quiet < quiet_seconds:
            say(f"warning: API server still busy after {limit_seconds} s; measuring anyway")
        elif before is None:
            say(f"API server idle after {waited:.0f} s")
        elif waited > quiet_seconds + 1:
            say(f"  waited {waited:.0f} s for an idle API server before {before}")

    def collect_apiserver_garbage(self):
        """Has kube-apiserver run a full garbage collection now (Go's pprof heap endpoint with gc=1,
        which the server serves to an admin), so that the garbage of the probes before is not collected
        during the next one. At 100,000 pods the server's heap is 8-16 GB and one collection costs it
        seconds of CPU; before this, whichever probe crossed the heap goal paid for it: ctrl's
        reconcile-from-start probes at 100,000 pods were charged 4.6-16.4 s of server CPU and took
        7.3-12.3 s, the slow ones right after the reads probes (2026-12-06)."""
        try:
            run(["kubectl", "--kubeconfig", self.kubeconfig, "get", "--raw", "/debug/pprof/heap?gc=1&debug=1"],
                timeout=300)
        except BenchError as e:
            say(f"warning: could not have the API server collect its garbage: {e}")

    def settle_apiserver(self, before):
        """Decision 81's treatment before a measurement: the server's garbage collected, then the
        server idle. `before`: what is measured next (named when the wait was long)."""
        self.collect_apiserver_garbage()
        self.wait_for_idle_apiserver(before=before)

    def stop_cluster(self):
        try:
            self.control_plane("down")
        except BenchError as e:
            say(f"warning: stopping the control plane: {e}")

    def apiserver_cpu_seconds(self):
        """user + system CPU seconds of this control plane's kube-apiserver, or None when not found."""
        pid = control_plane_pid("kube-apiserver", self.cp_dir)
        if pid is None:
            return None
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def version_of_server(self):
        out = run(["kubectl", "--kubeconfig", self.kubeconfig, "version", "-o", "json"], timeout=60)
        return json.loads(out).get("serverVersion", {}).get("gitVersion", "?")

    def install_crds(self):
        docs = []
        for i in range(1, 51):
            docs.append(f"""apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: things.bench{i}.ctrl.dev}}
spec:
  group: bench{i}.ctrl.dev
  names: {{kind: Thing, listKind: ThingList, plural: things, singular: thing}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}
""")
        path = os.path.join(self.state, "discovery-crds.yaml")
        with open(path, "w") as f:
            f.write("---\n".join(docs))
        say("installing the 50 discovery CRDs")
        kubectl = ["kubectl", "--kubeconfig", self.kubeconfig]
        run(kubectl + ["apply", "-f", path], timeout=120)
        run(kubectl + ["wait", "--for=condition=Established", "crd", "--all", "--timeout=120s"], timeout=150)

    def make_failover_objects(self):
        """The ConfigMaps the failover replicas reconcile, in namespace vs-failover (PROTOCOL.md)."""
        count = self.args.failover_objects
        say(f"creating the {count:,} failover ConfigMaps")
        made = parse_result(run([self.ours, "failover-objects", "--kubeconfig", self.kubeconfig, "--prefix", "vs",
                                 "--count", str(count)], timeout=3600), "failover-objects")
        say(f"failover ConfigMaps made in {made.get('seconds', 0):.1f} s ({made.get('existing', 0):.0f} were there)")

    # --- one probe run -----------------------------------------------------------------------
    def binary(self, side):
        return self.ours if side == "ctrl" else self.peer

    def probe(self, side, case, run_index=0):
        spec = self.cases[case]
        scenario_args = spec["args"](self.args)
        if side == "controller-runtime":
            scenario_args += spec.get("peer_args", lambda a: [])(self.args)
        cmd = [self.binary(side), spec["scenario"], "--kubeconfig", self.kubeconfig] + self.layout + scenario_args
        what = f"{side} {case}"
        if side in self.args.profile:
            data = os.path.join(self.state, f"perf-{side}-{case}.data")
            cmd = ["perf", "record", "-F", "499", "-g", "-q", "-o", data, "--"] + cmd
            say(f"  profiling {what} into {data} (perf report -i {data} --no-children)")
        if spec.get("failover"):
            figures = run_failover(self, side, case, spec["failover"], cmd, run_index)
        elif spec.get("webhook"):
            figures = run_webhook(self, side, case, spec["webhook"], cmd, run_index)
        elif spec.get("load"):
            figures = self.probe_under_load(cmd, what)
        else:
            server_cpu = self.apiserver_cpu_seconds()
            figures = parse_result(run(cmd, timeout=900), what)
            if server_cpu is not None and self.apiserver_cpu_seconds() is not None:
                # The API server's share of a run: the probe's warm-up (one small list) and its
                # work, e.g. encoding every pod of a sync in the format the probe asked for.
                figures["apiserver_cpu_s"] = self.apiserver_cpu_seconds() - server_cpu
        problem = spec["check"](figures, self.pods) if "check" in spec else None
        if problem:
            raise BenchError(f"{what}: {problem}")
        return figures

    def probe_under_load(self, cmd, what):
        """Runs a probe that prints SYNCED, then the patch load, then tells the probe STOP."""
        record = os.path.join(self.state, "load.rec")
        if os.path.exists(record):
            os.unlink(record)
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            line = ""
            deadline = time.monotonic() + 900
            while line.strip() != "SYNCED":
                line = proc.stdout.readline()
                if not line or time.monotonic() > deadline:
                    raise BenchError(f"{what}: ended or stalled before SYNCED (exit {proc.poll()})")
            # The load starts on a collected, idle server: the garbage of the probe's own sync (the
            # 10,000-pod list it was sent) is not collected in the middle of one side's load only.
            self.settle_apiserver(before=f"{what}'s load")
            load = parse_result(run([self.ours, "patch-load", "--kubeconfig", self.kubeconfig] + self.layout +
                                    ["--concurrency", str(self.args.load_in_flight),
                                     "--seconds", str(self.args.load_seconds), "--out", record],
                                    timeout=self.args.load_seconds + 120), f"{what}: patch-load")
            proc.stdin.write(f"STOP {record} {int(load.get('answered', 0))}\n")
            proc.stdin.flush()
            out, _ = proc.communicate(timeout=120)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        if proc.returncode != 0:
            raise BenchError(f"{what}: exit {proc.returncode}")
        figures = parse_result(out, what)
        figures["load_answered"] = load.get("answered", 0)
        figures["load_errors"] = load.get("errors", 0)
        return figures

    # --- the comparison ----------------------------------------------------------------------
    def select(self):
        """The cases --only selects (every case without it), in CASES' order."""
        self.selected = [case for case in CASES
                         if not self.args.only or any(re.search(p, case) for p in self.args.only)]

    def compare(self):
        groups = self.selected
        for run_index in range(self.args.runs):
            say(f"run {run_index + 1} of {self.args.runs} (load average {load_average()})")
            for case in groups:
                sides = ["ctrl", "controller-runtime"]
                if (run_index + groups.index(case)) % 2 == 1:
                    sides.reverse()
                for side in sides:
                    if side not in self.cases[case].get("sides", ("ctrl", "controller-runtime")):
                        continue
                    if self.cases[case]["scenario"] in SYNCING_SCENARIOS:
                        self.settle_apiserver(before=f"{side} {case}")
                    t0 = time.monotonic()
                    figures = self.probe(side, case, run_index)
                    say(f"  {side:18s} {case:28s} {time.monotonic() - t0:6.1f} s")
                    self.results.append({"case": case, "side": side, "run": run_index, "pods": self.pods,
                                         "figures": figures})


def sizes_of(parser, text):
    """A comma-separated list of object counts, each a positive multiple of PODS_PER_NAMESPACE."""
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        parser.error(f"sizes {text!r}: not a comma-separated list of numbers")
    if not sizes or any(n < PODS_PER_NAMESPACE or n % PODS_PER_NAMESPACE for n in sizes):
        parser.error(f"sizes {text!r}: each must be a multiple of {PODS_PER_NAMESPACE}")
    return sizes


# Options that say where things are, not what was measured: left out of the command a table names.
PLACE_OPTIONS = ("--root", "--build-dir", "--peer", "--build-type", "--state-dir")


def figure_arguments(argv):
    """The arguments that shaped the figures: argv without PLACE_OPTIONS and their values."""
    kept, skip_value = [], False
    for arg in argv:
        if skip_value:
            skip_value = False
        elif arg in PLACE_OPTIONS:
            skip_value = True
        elif not arg.startswith(tuple(f"{option}=" for option in PLACE_OPTIONS)):
            kept.append(arg)
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", required=True)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--peer", required=True, help="the cr-peer binary")
    parser.add_argument("--build-type", default="?")
    parser.add_argument("--pods", type=int, default=10000, help="workload pods, in namespaces of 100 (10000)")
    parser.add_argument("--runs", type=int, default=None, help="runs of each side per row (5; --curve: 3)")
    parser.add_argument("--load-seconds", type=float, default=30,
                        help="patch load per loaded run (30: the server's own throughput varies +-17%% between "
                             "10 s windows, +-5%% between 30 s ones; docs/decisions.md, decision 82)")
    parser.add_argument("--webhook-seconds", type=float, default=10, help="admission load per webhook run (10)")
    parser.add_argument("--load-in-flight", type=int, default=4, help="patches in flight (4)")
    parser.add_argument("--idle-seconds", type=float, default=10, help="idle window (10)")
    parser.add_argument("--seconds", type=float, default=2, help="each timed read / queue loop (2)")
    parser.add_argument("--failover-objects", type=int, default=10000,
                        help="ConfigMaps the failover replicas reconcile (10000). On 2 cores: made in ~7 s, "
                             "the four failover cases x 5 runs x 2 sides in ~3.5 min; 50000: ~40 s and ~4.5 min")
    parser.add_argument("--smoke", action="store_true",
                        help="200 pods, one run, 2 s loads, docs untouched: that both sides still work (CI)")
    parser.add_argument("--curve", action="store_true",
                        help="the cost curve (bench_vs_curve.py): sync, reads, reconcile-from-start and idle at each "
                             "of --curve-sizes pods and --curve-custom-sizes ServiceMonitors; tables and "
                             "docs/cost-curve.svg. With --smoke: 200 and 1,000 of each, one run, docs untouched")
    parser.add_argument("--curve-sizes", default="1000,10000,100000", help="pod counts of the curve")
    parser.add_argument("--curve-custom-sizes", default="1000,10000,100000", help="ServiceMonitor counts of the curve")
    parser.add_argument("--no-docs", action="store_true", help="print the table, leave docs/benchmarks.md alone")
    parser.add_argument("--only", action="append", default=[], help="cases matching this regex only (repeatable)")
    parser.add_argument("--state-dir", default=os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser(
        "~/.cache")), "ctrl", "bench-vs"), help="control plane, load record and results (~/.cache/ctrl/bench-vs)")
    parser.add_argument("--keep-cluster", action="store_true", help="leave the control plane running")
    parser.add_argument("--profile", action="append", default=[], choices=["ctrl", "controller-runtime"],
                        help="run that side's probes under `perf record -g` (data in the state dir); "
                             "implies --no-docs, as perf's cost is in the figures")
    args = parser.parse_args()
    if args.runs is None:
        args.runs = 3 if args.curve else 5
    if args.smoke and args.curve:
        args.curve_sizes = args.curve_custom_sizes = "200,1000"
    if args.smoke:
        args.pods, args.runs, args.load_seconds, args.idle_seconds, args.seconds = 200, 1, 2, 2, 0.3
        args.webhook_seconds = 2
        args.failover_objects = 200
        args.no_docs = True
    if args.profile:
        args.no_docs = True
    if args.runs < 1 or args.pods < 1 or args.failover_objects < 1:
        parser.error("--runs, --pods and --failover-objects must be at least 1")
    for path in (os.path.join(args.build_dir, "test/bench/ctrl-vs-probe"), args.peer):
        if not os.access(path, os.X_OK):
            parser.error(f"{path} is not an executable: build it first (hack/bench.sh does)")

    bench = Bench(args)
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = load_average()
    commit = measured_commit(args.root)
    curve = None
    try:
        if args.curve:
            curve = run_curve(bench, sizes_of(parser, args.curve_sizes), sizes_of(parser, args.curve_custom_sizes))
        else:
            bench.select()
            bench.start_cluster()
            bench.compare()
    except BenchError as e:
        say(f"error: {e}")
        return 1
    finally:
        if not args.keep_cluster:
            bench.stop_cluster()
    meta = {
        "command": "hack/bench.sh --vs controller-runtime" + "".join(f" {a}" for a in figure_arguments(sys.argv[1:])),
        "date": started.strftime("%Y-%m-%d %H:%M UTC"), "pods": bench.pods, "runs": args.runs,
        "load_before": load_before, "load_after": load_average(), "versions": versions(bench, commit),
        "load_seconds": args.load_seconds, "load_in_flight": args.load_in_flight, "idle_seconds": args.idle_seconds,
        "webhook_seconds": args.webhook_seconds,
        "failover_objects": args.failover_objects,
    }
    if curve is not None:
        meta["curve"] = curve
        try:
            return finish_curve(bench, args, meta)
        except BenchError as e:
            say(f"error: {e}")
            return 1
    with open(os.path.join(args.state_dir, "results.json"), "w") as f:
        json.dump({"meta": meta, "results": bench.results}, f, indent=1)
    table, problems = render_table(ROWS, bench.results, meta, bench.selected)
    print(table)
    if problems:
        for p in problems:
            say(f"error: {p}")
        return 1
    if not args.no_docs:
        docs = os.path.join(args.root, "docs/benchmarks.md")
        write_docs(docs, table, DOCS_BEGIN, DOCS_END)
        say(f"wrote the table into {docs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
