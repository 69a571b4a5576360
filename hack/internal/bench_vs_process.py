"""What the driver of `hack/bench.sh --vs controller-runtime` and its failover rows share: its messages,
its errors, and running a probe to its RESULT line."""

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
