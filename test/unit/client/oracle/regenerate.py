#!/usr/bin/env python3
"""Regenerates the client layer's patch testdata from what Go computes (see README.md).

  test/unit/client/oracle/regenerate.py   (needs Go and the k8s.io modules in the module cache)

writes ../testdata/patch_merge_fields.txt, strategic_merge_cases.jsonl and patch_golden.jsonl.
"""
import copy
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "..", "testdata")
ORACLE = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ctrl-patch-oracle")
KINDS = ["ConfigMap", "CronJob", "CustomResourceDefinition", "DaemonSet", "Deployment", "Event", "Job", "Lease",
         "Namespace", "Node", "PersistentVolumeClaim", "Pod", "ReplicaSet", "Secret", "Service", "ServiceAccount",
         "StatefulSet"]
MERGE_KEYS = ("name", "type", "ip", "containerPort", "mountPath", "port", "uid")


def build_oracle():
    env = dict(os.environ, GOFLAGS="-mod=mod")
    subprocess.run(["go", "build", "-o", ORACLE, "."], cwd=HERE, env=env, check=True)


def run_oracle(mode, cases):
    lines = "".join(json.dumps({"kind": k, "a": a, "b": b}) + "\n" for k, a, b in cases)
    out = subprocess.run([ORACLE, mode], input=lines, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def write_tags():
    out = subprocess.run([ORACLE, "tags"] + KINDS, capture_output=True, text=True, check=True).stdout
    with open(os.path.join(TESTDATA, "patch_merge_fields.txt"), "w") as f:
        f.write("# The fields of each kind a two-way strategic merge patch can reach that carry patch tags, as Go reflection\n")
        f.write("# over k8s.io/api v0.37.2 and apimachinery v0.37.2 lists them: <Kind>.<json path> strategy=<patchStrategy> key=<patchMergeKey>.\n")
        f.write("".join(line + "\n" for line in sorted(out.splitlines())))


# Named cases: a Pod, a Deployment and a Service edited the ways operators edit them.
def named_cases():
    cases = []

    def case(name, kind, a, b):
        cases.append((name, kind, a, b))

    def pod():
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "web", "namespace": "default", "resourceVersion": "42", "uid": "u1",
                             "labels": {"app": "web", "tier": "frontend"}, "finalizers": ["example.com/cleanup"]},
                "spec": {"containers": [
                    {"name": "app", "image": "nginx:1.25",
                     "env": [{"name": "MODE", "value": "prod"}, {"name": "DEBUG", "value": "0"}],
                     "ports": [{"containerPort": 8080, "protocol": "TCP"}, {"containerPort": 81, "protocol": "TCP"}]},
                    {"name": "sidecar", "image": "envoy:1"}]}}

    base = pod()
    b = copy.deepcopy(base); b["spec"]["containers"][0]["image"] = "nginx:1.27"
    case("ContainerImageChanged", "Pod", base, b)
    b = copy.deepcopy(base); b["spec"]["containers"].append({"name": "logger", "image": "fluentbit:2"})
    case("ContainerAdded", "Pod", base, b)
    b = copy.deepcopy(base); del b["spec"]["containers"][1]
    case("ContainerRemoved", "Pod", base, b)
    b = copy.deepcopy(base); b["spec"]["containers"].insert(0, {"name": "init-like", "image": "busybox"}); del b["spec"]["containers"][2]
    case("ContainerAddedAndRemoved", "Pod", base, b)
    b = copy.deepcopy(base); del b["spec"]["containers"][0]["env"][1]
    case("EnvVarRemoved", "Pod", base, b)
    b = copy.deepcopy(base); b["spec"]["containers"][0]["env"][0]["value"] = "staging"; b["spec"]["containers"][0]["env"].append({"name": "A", "value": "1"})
    case("EnvVarChangedAndAdded", "Pod", base, b)
    b = copy.deepcopy(base); b["spec"]["containers"][0]["ports"] = [{"containerPort": 9090, "protocol": "TCP"}]
    case("PortsReplacedByContainerPort", "Pod", base, b)
    b = copy.deepcopy(base); b["metadata"]["finalizers"].append("example.com/audit")
    case("FinalizerAdded", "Pod", base, b)
    b = copy.deepcopy(base); b["metadata"]["finalizers"] = []
    case("FinalizerRemovedToEmptyList", "Pod", base, b)
    b = copy.deepcopy(base); del b["metadata"]["finalizers"]
    case("FinalizersFieldRemoved", "Pod", base, b)
    a = copy.deepcopy(base); a["metadata"]["finalizers"] = ["b.io/x", "a.io/y", "c.io/z"]
    b = copy.deepcopy(a); b["metadata"]["finalizers"] = ["c.io/z", "d.io/new", "b.io/x"]
    case("FinalizersAddedRemovedReordered", "Pod", a, b)
    b = copy.deepcopy(base); del b["metadata"]["labels"]["tier"]; b["metadata"]["labels"]["track"] = "stable"
    case("LabelRemovedAndAdded", "Pod", base, b)
    b = copy.deepcopy(base); b["spec"]["containers"].reverse()
    case("ContainersReordered", "Pod", base, b)
    a = copy.deepcopy(base); a["spec"]["volumes"] = [{"name": "config", "configMap": {"name": "web-config"}}, {"name": "cache", "emptyDir": {}}]
    b = copy.deepcopy(a); b["spec"]["volumes"][0] = {"name": "config", "secret": {"secretName": "web-secret"}}
    case("VolumeSourceSwitchedRetainsKeys", "Pod", a, b)
    b = copy.deepcopy(a); b["spec"]["volumes"][0]["configMap"]["name"] = "other"
    case("VolumeFieldChangedRetainsKeys", "Pod", a, b)
    a = copy.deepcopy(base); a["spec"]["tolerations"] = [{"key": "a", "operator": "Exists"}, {"key": "b", "operator": "Exists"}]
    b = copy.deepcopy(a); del b["spec"]["tolerations"][0]
    case("TolerationsAreReplacedWhole", "Pod", a, b)
    a = copy.deepcopy(base); a["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "r1", "controller": True}]
    b = copy.deepcopy(a); b["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-2", "uid": "r2", "controller": True}]
    case("OwnerReferencesByUid", "Pod", a, b)
    a = copy.deepcopy(base); a["status"] = {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "False"}]}
    b = copy.deepcopy(a); b["status"]["phase"] = "Running"; b["status"]["conditions"][1]["status"] = "True"
    case("StatusConditionsByType", "Pod", a, b)
    a = copy.deepcopy(base); del a["spec"]["containers"][0]["env"]
    b = copy.deepcopy(base)
    case("ListAddedToEmptyOriginal", "Pod", a, b)
    a = copy.deepcopy(base); a["spec"]["containers"][0]["env"] = []
    case("EmptyOriginalListSendsModifiedWhole", "Pod", a, b)
    case("EqualObjects", "Pod", base, copy.deepcopy(base))
    a = copy.deepcopy(base); a["metadata"]["finalizers"] = ["z.io/b", "a.io/a"]
    case("EqualUnsortedFinalizers", "Pod", a, copy.deepcopy(a))
    b = copy.deepcopy(base); b["metadata"]["labels"]["app"] = "wéb ☃ \"quoted\" \\ back"; b["metadata"]["annotations"] = {"a/b~c": "x"}
    case("UnicodeAndEscaping", "Pod", base, b)
    b = copy.deepcopy(base); b["spec"]["nodeSelector"] = {"disk": "ssd"}; b["spec"]["containers"][1]["resources"] = {"limits": {"cpu": "1"}}
    case("NestedObjectsAdded", "Pod", base, b)
    d = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
         "spec": {"replicas": 2, "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
                  "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "nginx:1"}]}}}}
    e = copy.deepcopy(d); e["spec"]["strategy"] = {"type": "Recreate"}; e["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:2"
    case("DeploymentStrategyRetainKeysAndTemplate", "Deployment", d, e)
    s = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}, {"name": "alt", "port": 8080}]}}
    t = copy.deepcopy(s); t["spec"]["ports"] = [{"name": "https", "port": 443}, {"name": "metrics", "port": 9}]
    case("ServicePortsByNumberSortedAsText", "Service", s, t)
    return cases


def write_named():
    cases = named_cases()
    patches = run_oracle("smp", [(k, a, b) for _, k, a, b in cases])
    with open(os.path.join(TESTDATA, "strategic_merge_cases.jsonl"), "w") as f:
        for (name, kind, a, b), patch in zip(cases, patches):
            if drops_go_quirk(patch, a, b):
                continue  # tested inline: the runtime deliberately differs (see the test)
            f.write(json.dumps({"name": name, "kind": kind, "original": a, "modified": b, "patch": patch},
                               ensure_ascii=False, separators=(",", ":")) + "\n")


# Random cases: objects of four kinds with one to five random edits.
R = random.Random(77)
WORDS = ["a", "b", "c", "app", "web", "db", "x/y", "t~1", "é", "日本", "z", "8080", "81"]

def word(): return R.choice(WORDS)
def scalar():
    return R.choice([word(), R.randint(0, 100), True, False, None, 2.5, "", 0])

def env(): return {"name": R.choice(["A", "B", "C", "D", "PATH"]), "value": word()}
def port(): return {"containerPort": R.choice([80, 81, 443, 8080, 9090]), "protocol": R.choice(["TCP", "UDP"])}
def mount(): return {"name": word(), "mountPath": R.choice(["/a", "/b", "/c/d", "/x"])}
def uniq(items, key):
    seen, out = set(), []
    for i in items:
        if json.dumps(i[key]) not in seen:
            seen.add(json.dumps(i[key])); out.append(i)
    return out
def container(name):
    c = {"name": name, "image": word() + ":1"}
    if R.random() < 0.7: c["env"] = uniq([env() for _ in range(R.randint(0, 4))], "name")
    if R.random() < 0.5: c["ports"] = uniq([port() for _ in range(R.randint(0, 3))], "containerPort")
    if R.random() < 0.5: c["volumeMounts"] = uniq([mount() for _ in range(R.randint(0, 3))], "mountPath")
    if R.random() < 0.4: c["resources"] = {"limits": {"cpu": "1", "memory": "1Gi"}}
    if R.random() < 0.3: c["args"] = [word() for _ in range(R.randint(0, 3))]
    return c
def volume(name):
    src = R.choice([{"configMap": {"name": word()}}, {"secret": {"secretName": word()}}, {"emptyDir": {}},
                    {"hostPath": {"path": "/" + word()}}])
    v = {"name": name}; v.update(src); return v
def meta():
    m = {"name": word(), "namespace": "default", "resourceVersion": str(R.randint(1, 999)), "uid": "u-" + word()}
    if R.random() < 0.7: m["labels"] = {word(): word() for _ in range(R.randint(0, 4))}
    if R.random() < 0.4: m["annotations"] = {word(): word() for _ in range(R.randint(0, 3))}
    if R.random() < 0.6: m["finalizers"] = list(dict.fromkeys(R.choice(["f/a", "f/b", "f/c", "z", "a"]) for _ in range(R.randint(0, 3))))
    if R.random() < 0.4: m["ownerReferences"] = uniq([{"apiVersion": "v1", "kind": "X", "name": word(), "uid": R.choice(["1", "2", "3"])} for _ in range(R.randint(0, 3))], "uid")
    return m
def names(prefix, n): return R.sample([prefix + str(i) for i in range(6)], n)
def pod_spec():
    s = {"containers": [container(n) for n in names("c", R.randint(1, 3))]}
    if R.random() < 0.3: s["initContainers"] = [container(n) for n in names("i", R.randint(0, 2))]
    if R.random() < 0.5: s["volumes"] = [volume(n) for n in names("v", R.randint(0, 3))]
    if R.random() < 0.3: s["tolerations"] = [{"key": word(), "operator": "Exists"} for _ in range(R.randint(0, 2))]
    if R.random() < 0.3: s["imagePullSecrets"] = [{"name": n} for n in names("s", R.randint(0, 2))]
    if R.random() < 0.2: s["hostAliases"] = [{"ip": ip, "hostnames": [word()]} for ip in R.sample(["1.1.1.1", "2.2.2.2", "10.0.0.1"], R.randint(0, 2))]
    if R.random() < 0.3: s["nodeSelector"] = {word(): word()}
    return s
def conditions():
    return [{"type": t, "status": R.choice(["True", "False"])} for t in R.sample(["Ready", "Initialized", "PodScheduled", "Z"], R.randint(0, 3))]
def pod():
    p = {"apiVersion": "v1", "kind": "Pod", "metadata": meta(), "spec": pod_spec()}
    if R.random() < 0.5: p["status"] = {"phase": "Running", "conditions": conditions(), "podIPs": [{"ip": "10.0.0." + str(i)} for i in range(R.randint(0, 2))], "containerStatuses": [{"name": "c0", "ready": True}]}
    return p
def deployment():
    d = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(), "spec": {"replicas": R.randint(0, 3),
         "strategy": R.choice([{"type": "Recreate"}, {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}]),
         "template": {"metadata": {"labels": {"app": word()}}, "spec": pod_spec()}}}
    if R.random() < 0.5: d["status"] = {"conditions": conditions()}
    return d
def node():
    return {"apiVersion": "v1", "kind": "Node", "metadata": meta(), "spec": {"podCIDRs": R.sample(["10.0.0.0/24", "10.0.1.0/24", "fd00::/64", "10.0.0.0/24"], R.randint(0, 3))},
            "status": {"addresses": [{"type": t, "address": word()} for t in R.sample(["InternalIP", "Hostname", "ExternalIP"], R.randint(0, 3))], "conditions": conditions()}}
def service():
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(), "spec": {"ports": [{"port": p, "name": word()} for p in R.sample([80, 443, 8080, 81, 9], R.randint(0, 4))], "selector": {"app": word()}}}

def containers_of(o):
    out = []
    def walk(v):
        if isinstance(v, dict):
            out.append(v)
            for x in v.values(): walk(x)
        elif isinstance(v, list):
            for x in v: walk(x)
    walk(o)
    return out

def mutate(o):
    o = copy.deepcopy(o)
    for _ in range(R.randint(1, 5)):
        dicts = containers_of(o)
        d = R.choice(dicts)
        keys = list(d.keys())
        op = R.random()
        if keys and op < 0.25:
            k = R.choice(keys)
            if k in ("apiVersion", "kind"): continue
            v = d[k]
            if isinstance(v, list) and v:
                r = R.random()
                if r < 0.3: v.pop(R.randrange(len(v)))
                elif r < 0.5: R.shuffle(v)
                elif r < 0.7 and isinstance(v[0], dict):
                    e = copy.deepcopy(R.choice(v))
                    for kk in ("name", "type", "ip", "containerPort", "mountPath", "port", "uid"):
                        if kk in e: e[kk] = (e[kk] + "n") if isinstance(e[kk], str) else e[kk] + 1000
                    v.insert(R.randrange(len(v) + 1), e)
                elif not isinstance(v[0], (dict, list)):
                    v.insert(R.randrange(len(v) + 1), word())
                else:
                    v.clear()
            else:
                d[k] = scalar()
        elif keys and op < 0.45:
            k = R.choice(keys)
            if k not in ("apiVersion", "kind", "name", "type", "ip", "containerPort", "mountPath", "port", "uid"):
                del d[k]
        elif op < 0.65:
            d[word()] = R.choice([scalar(), {"n": scalar()}, [scalar()]])
        elif keys:
            k = R.choice(keys)
            if isinstance(d[k], str) and k not in ("apiVersion", "kind"): d[k] = d[k] + word()
    return o


def drops_go_quirk(patch, a, b):
    """Whether Go's patch carries a $setElementOrder for an unchanged list of primitives (Go sorts
    the original list in place before comparing it with modified); the runtime leaves it out."""
    if patch.startswith("ERR"):
        return True

    def walk(p, a, b):
        if not isinstance(p, dict):
            return False
        for k, v in p.items():
            if k.startswith("$setElementOrder/"):
                f = k[len("$setElementOrder/"):]
                if isinstance(a, dict) and isinstance(b, dict) and a.get(f) == b.get(f) and \
                        all(not isinstance(x, dict) for x in (b.get(f) or [])):
                    return True
            elif isinstance(v, dict) and walk(v, a.get(k) if isinstance(a, dict) else None,
                                              b.get(k) if isinstance(b, dict) else None):
                return True
        return False
    return walk(json.loads(patch), a, b)


def has_duplicates(value):
    """Whether a list holds two elements with the same merge key or primitive text: Go's unstable
    sort orders those arbitrarily."""
    if isinstance(value, dict):
        return any(has_duplicates(v) for v in value.values())
    if not isinstance(value, list):
        return False
    if value and all(isinstance(e, dict) for e in value):
        for key in MERGE_KEYS:
            texts = [str(e[key]) for e in value if key in e]
            if len(texts) != len(set(texts)):
                return True
    elif all(not isinstance(e, (dict, list)) for e in value):
        if len({str(e) for e in value}) != len(value):
            return True
    return any(has_duplicates(e) for e in value)


def write_golden():
    limits = {"Pod": 45, "Deployment": 20, "Node": 15, "Service": 15}
    gens = [pod, pod, pod, deployment, node, service]
    cases = []
    for _ in range(400):
        a = R.choice(gens)()
        b = mutate(a) if R.random() < 0.9 else copy.deepcopy(a)
        if R.random() < 0.2:
            a, b = b, a
        cases.append((a["kind"], a, b))
    strategic = run_oracle("smp", cases)
    merge = run_oracle("merge", cases)
    counts = {}
    with open(os.path.join(TESTDATA, "patch_golden.jsonl"), "w") as f:
        for (kind, a, b), s, m in zip(cases, strategic, merge):
            if drops_go_quirk(s, a, b) or has_duplicates(a) or has_duplicates(b) or m.startswith("ERR"):
                continue
            if len(json.dumps({"a": a, "b": b})) > 1500 or counts.get(kind, 0) >= limits[kind]:
                continue
            counts[kind] = counts.get(kind, 0) + 1
            f.write(json.dumps({"kind": kind, "original": a, "modified": b, "strategic": s, "merge": m},
                               ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    build_oracle()
    write_tags()
    write_named()
    write_golden()
    sys.exit(0)
