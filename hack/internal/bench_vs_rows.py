"""What `hack/bench.sh --vs controller-runtime` runs (CASES) and shows (ROWS).

A case is one probe invocation (test/bench/vs/PROTOCOL.md), run by both sides unless `sides`
says otherwise. A row is one figure of one case for each side; `better` says which way is good.
"""

import signal

from bench_vs_webhook import webhook_check

MIB = 1024.0 * 1024.0


def _seconds(a):
    return ["--seconds", f"{a.seconds:g}"]


def _expect(name, want):
    """A check that figure name equals want(pods)."""
    def check(f, pods):
        got = f.get(name)
        return None if got == want(pods) else f"{name} = {got}, expected {want(pods)}"
    return check


def _all_pods(name):
    return _expect(name, lambda pods: pods)


def _something_seen(f, pods):
    """A reconciler may legitimately skip a value a later patch of the same pod superseded (the
    queue merges keys), so under load a reconcile run must only have seen the load."""
    return None if f.get("load_reconciles", 0) > 0 else "no reconcile saw the load"


def _nothing_missed(f, pods):
    return None if f.get("missed") == 0 and f.get("events", f.get("load_reconciles", 1)) > 0 else \
        f"the load was not seen whole: missed = {f.get('missed')}"


def _both(*checks):
    def check(f, pods):
        for c in checks:
            problem = c(f, pods)
            if problem:
                return problem
        return None
    return check


def _failover_done(f, pods):
    """The new leader waited as a standby, was elected and reconciled every failover object."""
    if f.get("standby") != 1 or f.get("elected") != 1:
        return f"the new leader: standby = {f.get('standby')}, elected = {f.get('elected')}"
    if f.get("reconciled") != f.get("objects"):
        return f"the new leader reconciled {f.get('reconciled')} of {f.get('objects')} objects"
    return None


def _failover(sig, warm):
    """A failover case (bench_vs_failover.py): two replicas, the leader ends by sig."""
    return {"scenario": "failover", "failover": {"signal": sig}, "check": _failover_done,
            "args": lambda a: ["--objects", str(a.failover_objects)] + (["--warmup"] if warm else [])}


def _webhook(clients, apiserver):
    """A webhook case (bench_vs_webhook.py): that side's server under the one admission load."""
    return {"scenario": "webhook-serve", "webhook": {"clients": clients, "apiserver": apiserver},
            "check": webhook_check, "args": lambda a: []}


# check(figures, pods): what a run must show to count (None when fine); a smoke run fails on it.
CASES = {
    "sync-stripped": {"scenario": "sync", "args": lambda a: [], "check": _all_pods("pods")},
    "sync-stripped-protobuf": {"scenario": "sync", "args": lambda a: ["--protobuf"],
                               "sides": ("controller-runtime",), "check": _both(_all_pods("pods"), _expect("protobuf", lambda p: 1))},
    "sync-kept": {"scenario": "sync", "args": lambda a: ["--keep-managed-fields"], "check": _all_pods("pods")},
    "sync-kept-protobuf": {"scenario": "sync", "args": lambda a: ["--keep-managed-fields", "--protobuf"],
                           "sides": ("controller-runtime",), "check": _both(_all_pods("pods"), _expect("protobuf", lambda p: 1))},
    "watch": {"scenario": "watch", "args": lambda a: [], "load": True, "check": _nothing_missed},
    "reads": {"scenario": "reads", "args": _seconds, "check": _expect("cached_list_items", lambda p: min(p, 100))},
    "reconcile-1": {"scenario": "reconcile", "args": lambda a: ["--workers", "1", "--load"], "load": True,
                    "check": _both(_all_pods("pods"), _something_seen)},
    "reconcile-4": {"scenario": "reconcile", "args": lambda a: ["--workers", "4", "--load"], "load": True,
                    "check": _both(_all_pods("pods"), _something_seen)},
    "queue": {"scenario": "queue", "args": _seconds},
    "discovery-aggregated-1": {"scenario": "discovery", "args": lambda a: ["--groups", "1"]},
    "discovery-aggregated-10": {"scenario": "discovery", "args": lambda a: ["--groups", "10"]},
    "discovery-aggregated-50": {"scenario": "discovery", "args": lambda a: ["--groups", "50"]},
    "discovery-legacy-1": {"scenario": "discovery", "args": lambda a: ["--groups", "1", "--legacy"]},
    "discovery-legacy-10": {"scenario": "discovery", "args": lambda a: ["--groups", "10", "--legacy"]},
    "discovery-legacy-50": {"scenario": "discovery", "args": lambda a: ["--groups", "50", "--legacy"]},
    "idle": {"scenario": "idle", "args": lambda a: ["--seconds", f"{a.idle_seconds:g}"], "check": _all_pods("pods")},
    "failover-sigkill-warm": _failover(signal.SIGKILL, True),
    "failover-sigkill-cold": _failover(signal.SIGKILL, False),
    "failover-sigterm-warm": _failover(signal.SIGTERM, True),
    "failover-sigterm-cold": _failover(signal.SIGTERM, False),
    "webhook-direct-1": _webhook(1, False),
    "webhook-direct-8": _webhook(8, False),
    "webhook-apiserver-1": _webhook(1, True),
    "webhook-apiserver-8": _webhook(8, True),
}


def key(name, scale=1.0):
    """A RESULT figure, scaled."""
    return lambda f: f[name] * scale


def held_per(divisor):
    """Settled RSS the sync added, per pod or per JSON byte held."""
    def value(f):
        held = f["rss_after_bytes"] - f["rss_before_bytes"]
        return held / (f["pods"] if divisor == "pod" else f["json_bytes"])
    return value


def _sync_rows(variant, label):
    case = f"sync-{variant}"
    rows = [
        (f"{label}: Start -> synced (s)", key("sync_s"), "lower", "{:.2f}", case, case),
        (f"{label}: client CPU (s)", key("cpu_s"), "lower", "{:.2f}", case, case),
        (f"{label}: API server CPU during the probe (s)", key("apiserver_cpu_s"), "lower", "{:.2f}", case, case),
        (f"{label}: RSS after sync, settled (MiB)", key("rss_after_bytes", 1 / MIB), "lower", "{:.1f}", case, case),
        (f"{label}: RSS right after sync (MiB)", key("rss_raw_bytes", 1 / MIB), "lower", "{:.1f}", case, case),
        (f"{label}: RSS peak (MiB)", key("rss_peak_bytes", 1 / MIB), "lower", "{:.1f}", case, case),
        (f"{label}: RSS held per pod (B)", held_per("pod"), "lower", "{:,.0f}", case, case),
        (f"{label}: RSS held per JSON byte", held_per("json"), "lower", "{:.2f}", case, case),
    ]
    pb = f"{case}-protobuf"
    rows += [
        (f"{label}: Start -> synced (s), controller-runtime with protobuf", key("sync_s"), "lower", "{:.2f}", case, pb),
        (f"{label}: client CPU (s), controller-runtime with protobuf", key("cpu_s"), "lower", "{:.2f}", case, pb),
        (f"{label}: API server CPU during the probe (s), controller-runtime with protobuf", key("apiserver_cpu_s"),
         "lower", "{:.2f}", case, pb),
        (f"{label}: RSS held per pod (B), controller-runtime with protobuf", held_per("pod"), "lower", "{:,.0f}",
         case, pb),
    ]
    return rows


def _reconcile_rows(workers):
    case = f"reconcile-{workers}"
    w = f"{workers} worker{'s' if workers > 1 else ''}"
    return [
        (f"{w}: Start -> every pod reconciled once (s)", key("all_s"), "lower", "{:.2f}", case, case),
        (f"{w}: client CPU to reconcile all (s)", key("cpu_s"), "lower", "{:.2f}", case, case),
        (f"{w}: RSS after, settled (MiB)", key("rss_after_bytes", 1 / MIB), "lower", "{:.1f}", case, case),
        (f"{w}, patch load: reconciles/s", key("reconciles_per_s"), "higher", "{:,.0f}", case, case),
        (f"{w}, patch load: send -> reconcile p50 (ms)", key("delay_send_p50_ms"), "lower", "{:.1f}", case, case),
        (f"{w}, patch load: send -> reconcile p99 (ms)", key("delay_send_p99_ms"), "lower", "{:.1f}", case, case),
        (f"{w}, patch load: answer -> reconcile p50 (ms)", key("delay_answer_p50_ms"), "lower", "{:.1f}", case, case),
        (f"{w}, patch load: answer -> reconcile p99 (ms)", key("delay_answer_p99_ms"), "lower", "{:.1f}", case, case),
        (f"{w}, patch load: patches never reconciled (a later patch of the pod may supersede one)", key("missed"), "lower", "{:.0f}", case, case),
        (f"{w}, patch load: client CPU (s)", key("load_cpu_s"), "lower", "{:.2f}", case, case),
    ]


def _discovery_rows(kind):
    rows = []
    for groups in (1, 10, 50):
        case = f"discovery-{kind}-{groups}"
        rows.append((f"{kind}: requests to resolve {groups} kind(s) in {groups} group(s), version named",
                     key("resolve_requests"), "lower", "{:.0f}", case, case))
        rows.append((f"{kind}: requests to resolve {groups} kind(s), no version named",
                     key("resolve_unversioned_requests"), "lower", "{:.0f}", case, case))
    case = f"discovery-{kind}-1"
    rows.append((f"{kind}: requests for 10 lookups in a row of a kind that does not exist", key("miss_requests"),
                 "lower", "{:.0f}", case, case))
    return rows


def _queue_rows():
    """Like with like, from the same queue case: ctrl's PriorityQueue (its figures unprefixed) against
    controller-runtime's priority queue (the same keys), then ctrl's plain Queue (plain_ keys) against
    client-go's rate-limiting queue (cg_ keys). mixed_priority_1t_ns is measured on priority queues only."""
    shapes = [
        ("Add+Get+Done, 1 thread", "add_get_done_1t_ns"),
        ("Add+Get+Done, producer and consumer threads", "add_get_done_2t_ns"),
        ("de-duplicated Add", "dedup_add_ns"),
        ("AddAfter (insert)", "add_after_ns"),
        ("Add+Get+Done, 2 threads contending, metrics on", "contended_2t_ns"),
        ("Add+Get+Done, 2 threads contending, metrics off", "contended_2t_nometrics_ns"),
    ]
    rows = [(f"PriorityQueue: {label}", key(name), "lower", "{:,.0f}", "queue", "queue") for label, name in shapes]
    rows.append(("PriorityQueue: Add at priorities -100 and 0 alternately + Get+Done, 1 thread",
                 key("mixed_priority_1t_ns"), "lower", "{:,.0f}", "queue", "queue"))
    rows += [(f"plain Queue vs client-go: {label}", (key(f"plain_{name}"), key(f"cg_{name}")),
              "lower", "{:,.0f}", "queue", "queue") for label, name in shapes]
    return rows


def _failover_rows():
    """Seconds from the signal to the leader (kill) to what the new leader does, and what it listed."""
    rows = []
    for case, label in (("failover-sigkill-warm", "SIGKILL, warm standby"), ("failover-sigkill-cold", "SIGKILL, cold"),
                        ("failover-sigterm-warm", "SIGTERM, warm standby"), ("failover-sigterm-cold", "SIGTERM, cold")):
        rows += [
            (f"{label}: kill -> first reconcile by the new leader (s)", key("kill_to_first_reconcile_s"), "lower",
             "{:.2f}", case, case),
            (f"{label}: kill -> the new leader holds the Lease (s)", key("kill_to_elected_s"), "lower", "{:.2f}",
             case, case),
            (f"{label}: Lease taken -> first reconcile (ms)", key("elected_to_first_reconcile_s", 1000), "lower",
             "{:.1f}", case, case),
            (f"{label}: kill -> every object reconciled by the new leader (s)", key("kill_to_all_reconciled_s"),
             "lower", "{:.2f}", case, case),
            (f"{label}: LISTs and watch-lists the new leader sent after the kill", key("lists_after_standby"),
             "lower", "{:.0f}", case, case),
        ]
    return rows


def _webhook_rows():
    rows = []
    for case, label in (("webhook-direct-1", "directly, 1 client"), ("webhook-direct-8", "directly, 8 clients"),
                        ("webhook-apiserver-1", "through the API server, 1 client"),
                        ("webhook-apiserver-8", "through the API server, 8 clients")):
        rows += [
            (f"{label}: admission requests/s", key("requests_per_s"), "higher", "{:,.0f}", case, case),
            (f"{label}: latency p50 (us)", key("p50_us"), "lower", "{:,.0f}", case, case),
            (f"{label}: latency p99 (us)", key("p99_us"), "lower", "{:,.0f}", case, case),
            (f"{label}: server CPU per 1,000 requests (ms)", key("server_cpu_ms_per_1000"), "lower", "{:.1f}",
             case, case),
        ]
    return rows


# (section, [(label, value, better, format, ctrl case, controller-runtime case)]); value is
# value(figures) for both sides, or a pair (ctrl's value(figures), controller-runtime's).
ROWS = [
    ("Cold sync of the workload's pods", _sync_rows("stripped", "managedFields stripped") +
     _sync_rows("kept", "managedFields kept")),
    ("Watch under a patch load", [
        ("update events/s", key("events_per_s"), "higher", "{:,.0f}", "watch", "watch"),
        ("client CPU per 1,000 events (ms)", key("cpu_ms_per_1000_events"), "lower", "{:.1f}", "watch", "watch"),
        ("patch sent -> event in the cache p50 (ms)", key("delay_send_p50_ms"), "lower", "{:.1f}", "watch", "watch"),
        ("patch sent -> event in the cache p99 (ms)", key("delay_send_p99_ms"), "lower", "{:.1f}", "watch", "watch"),
        ("patch answered -> event p50 (ms)", key("delay_answer_p50_ms"), "lower", "{:.1f}", "watch", "watch"),
        ("patch answered -> event p99 (ms)", key("delay_answer_p99_ms"), "lower", "{:.1f}", "watch", "watch"),
        ("patches never seen", key("missed"), "lower", "{:.0f}", "watch", "watch"),
    ]),
    ("Reads (one thread; the caches over every namespace, each library's default, but for the restricted row; 100 "
     "pods in the namespace read)", [
        ("cached Get (us)", key("cached_get_us"), "lower", "{:.2f}", "reads", "reads"),
        ("cached Get, a cache restricted to the namespace (us)", key("cached_get_restricted_us"), "lower", "{:.2f}",
         "reads", "reads"),
        ("cached shared Get, no copy (us)", key("shared_get_us"), "lower", "{:.2f}", "reads", "reads"),
        ("cached List of 100 pods (us)", key("cached_list_us"), "lower", "{:.1f}", "reads", "reads"),
        ("direct Get from the API server (us)", key("direct_get_us"), "lower", "{:,.0f}", "reads", "reads"),
    ]),
    ("Reconcile: a no-op reconciler over every pod, then a patch load", _reconcile_rows(1) + _reconcile_rows(4)),
    ("Work queue (ns per item): ctrl's PriorityQueue against controller-runtime's priority queue (each a "
     "controller's default), then ctrl's plain Queue (use_priority_queue = false) against client-go's "
     "rate-limiting queue (UsePriorityQueue=false)", _queue_rows()),
    ("Discovery (a fresh lazy RESTMapper; requests counted on its transport)",
     _discovery_rows("aggregated") + _discovery_rows("legacy")),
    ("Idle operator (manager + one controller over every pod, metrics and probes served)", [
        ("Start -> every pod reconciled (s)", key("all_s"), "lower", "{:.2f}", "idle", "idle"),
        ("RSS idle, as ps shows it (MiB)", key("rss_bytes", 1 / MIB), "lower", "{:.1f}", "idle", "idle"),
        ("RSS idle, settled (MiB)", key("rss_settled_bytes", 1 / MIB), "lower", "{:.1f}", "idle", "idle"),
        ("RSS peak (MiB)", key("rss_peak_bytes", 1 / MIB), "lower", "{:.1f}", "idle", "idle"),
        ("threads", key("threads"), "lower", "{:.0f}", "idle", "idle"),
        ("CPU while idle (ms per s)", key("cpu_ms_per_s"), "lower", "{:.3f}", "idle", "idle"),
        ("wakeups while idle (per s)", key("wakeups_per_s"), "lower", "{:.1f}", "idle", "idle"),
    ]),
    ("Failover (two replicas of each side on one Lease: 3 s, renew 2 s, retry 0.5 s, released on SIGTERM; one "
     "controller over the failover ConfigMaps; warm standby: ctrl's enable_warmup, controller-runtime's "
     "EnableWarmup; seconds from the signal to the leader)", _failover_rows()),
    ("Admission webhook (the sample's SecurityGroupPolicy validator on each library's webhook server; one load "
     "generator: a valid and an invalid policy alternately, each client one request in flight over a kept-alive "
     "HTTPS connection; directly: AdmissionReviews POSTed to the server; through the API server: server-side "
     "dry-run creates)", _webhook_rows()),
]
