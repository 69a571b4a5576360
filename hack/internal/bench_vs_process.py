"""What the driver of `hack/bench.sh --vs controller-runtime`, its failover rows and its curve share: its
messages, its errors, running a probe to its RESULT line, the load average and the versions a table
names."""

import os
import platform
import re
import subprocess
import sys


def say(message):
    print(f"== bench_vs: {message}", file=sys.stderr, flush=True)


class BenchError(Exception):
    """A step that failed, with what and where."""


def run(cmd, timeout, env=None, capture=True):
    try:
        done = subprocess.run(cmd, capture_output=capture, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise BenchError(f"{' '.join(cmd)}: no end after {timeout} s") from e
    if done.returncode != 0:
        tail = (done.stderr or "").strip().splitlines()[-15:]
        raise BenchError(f"{' '.join(cmd)}: exit {done.returncode}\n" + "\n".join(tail))
    return done.stdout or ""


def parse_result(output, what):
    for line in output.splitlines():
        if line.startswith("RESULT"):
            figures = {}
            for pair in line.split()[1:]:
                key, _, value = pair.partition("=")
                try:
                    figures[key] = float(value)
                except ValueError as e:
                    raise BenchError(f"{what}: RESULT value {pair!r} is not a number") from e
            return figures
    raise BenchError(f"{what}: printed no RESULT line")


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def measured_commit(root):
    """The commit a run measures, read as it starts (a commit made while it runs is not what it
    built), with "+changes" when tracked files differ from it."""
    try:
        commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"
    return (commit or "?") + ("+changes" if changed else "")


def versions(bench, commit):
    peer_mod = os.path.join(bench.args.root, "test/bench/peer/go.mod")
    mods = {}
    if os.path.exists(peer_mod):
        for line in open(peer_mod):
            m = re.match(r"\s*(sigs.k8s.io/controller-runtime|k8s.io/client-go)\s+(\S+)", line)
            if m:
                mods[m.group(1)] = m.group(2)
    go = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True).stdout.strip()
    cxx = subprocess.run(["c++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return {
        "ctrl": commit, "build_type": bench.args.build_type, "cxx": cxx,
        "controller_runtime": mods.get("sigs.k8s.io/controller-runtime", "?"),
        "client_go": mods.get("k8s.io/client-go", "?"), "go": go,
        "kube_apiserver": bench.server_version, "cores": os.cpu_count(), "kernel": platform.release(),
    }


def control_plane_pid(name, cp_dir):
    """The pid of the control plane's process (in cp_dir) whose argv[0] ends with name, or None."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].endswith(name.encode()) and any(cp_dir.encode() in a for a in argv):
            return pid
    return None
