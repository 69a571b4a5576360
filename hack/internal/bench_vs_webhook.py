"""The admission webhook rows of `hack/bench.sh --vs controller-runtime` (test/bench/vs/PROTOCOL.md, "webhook").

One run of a webhook case, for one side: `ctrl-vs-probe webhook-setup` makes a throw-away CA and a
serving certificate for 127.0.0.1 in a fresh directory (envtest::InstallWebhooks, as the integration
tests) and, through the API server, installs that side's ValidatingWebhookConfiguration (namespace
vs-webhook only) pointed at a free port; that side's server (`webhook-serve`) starts on the port and
says SERVING; the one load generator (`ctrl-vs-probe webhook-load`) sends its load; the server ends
with SIGTERM and prints RESULT; the configuration is deleted. The driver reads the server's CPU
(/proc) just before and just after the load.
"""

import os
import shutil
import socket

from bench_vs_failover import Replica
from bench_vs_process import parse_result, run

SERVING_TIMEOUT_S = 60


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_cpu_seconds(pid):
    """user + system CPU seconds of pid and its children alive now (the server under `perf record`)."""
    total = 0.0
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            continue
    return total


def prepare_webhooks(bench):
    """The SecurityGroupPolicy CRD and the namespace the webhook configurations cover."""
    kubectl = ["kubectl", "--kubeconfig", bench.kubeconfig]
    crd = os.path.join(bench.args.root, "manifests/crd/securitygrouppolicies.vpcresources.k8s.aws.yaml")
    run(kubectl + ["apply", "-f", crd], timeout=120)
    run(kubectl + ["wait", "--for=condition=Established", "--timeout=120s",
                   "crd/securitygrouppolicies.vpcresources.k8s.aws"], timeout=150)
    existing = run(kubectl + ["get", "namespace", "-o", "name"], timeout=60).split()
    if "namespace/vs-webhook" not in existing:
        run(kubectl + ["create", "namespace", "vs-webhook"], timeout=60)


def run_webhook(bench, side, case, spec, cmd, run_index):
    """One run of case by side (cmd: the side's `webhook-serve` command line without --cert-dir, --port)."""
    short = "ctrl" if side == "ctrl" else "cr"
    name = f"{case}-{short}-{run_index + 1}"
    work = os.path.join(bench.state, "webhook", name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    certs = os.path.join(work, "certs")
    port = str(free_port())
    configuration = f"vs-webhook-{short}" if spec["apiserver"] else None
    common = ["--kubeconfig", bench.kubeconfig] + bench.layout + ["--cert-dir", certs, "--port", port]
    setup = [bench.ours, "webhook-setup"] + common + (["--configuration", configuration] if configuration else [])
    try:
        run(setup, timeout=120)
        server = Replica(cmd + ["--cert-dir", certs, "--port", port], os.path.join(work, "server.log"),
                         f"{name} server")
        try:
            server.wait_for("SERVING", SERVING_TIMEOUT_S)
            cpu_before = process_cpu_seconds(server.proc.pid)
            load = parse_result(run([bench.ours, "webhook-load"] + common +
                                    ["--clients", str(spec["clients"]), "--seconds", f"{bench.args.webhook_seconds:g}"] +
                                    (["--apiserver"] if spec["apiserver"] else []),
                                    timeout=bench.args.webhook_seconds + 180), f"{name}: webhook-load")
            cpu_after = process_cpu_seconds(server.proc.pid)
            served = server.result()
        finally:
            server.kill()
    finally:
        if configuration:
            run(["kubectl", "--kubeconfig", bench.kubeconfig, "delete", "validatingwebhookconfiguration",
                 configuration, "--ignore-not-found"], timeout=60)
    figures = dict(load)
    sent = load["requests"] + load["warmup_requests"]
    figures["server_cpu_s"] = cpu_after - cpu_before
    figures["server_cpu_ms_per_1000"] = (cpu_after - cpu_before) * 1e6 / sent if sent else 0
    figures["server_requests"] = served.get("requests", 0)
    figures["server_rss_bytes"] = served.get("rss_bytes", 0)
    figures["server_threads"] = served.get("threads", 0)
    return figures


def webhook_check(f, pods):
    """Every measured answer right, and the server counted at least the measured requests."""
    if f.get("errors", 1) != 0 or f.get("requests", 0) < 1:
        return f"{f.get('errors')} of {f.get('requests')} admission requests failed"
    if f.get("server_requests", 0) < f["requests"]:
        return f"the server counted {f.get('server_requests')} requests, the load measured {f['requests']}"
    return None
