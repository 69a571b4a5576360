"""The failover rows of `hack/bench.sh --vs controller-runtime` (test/bench/vs/PROTOCOL.md, "failover").

One run of a failover case, for one side: two replicas of that side's probe (`failover`, each a process
of its own) over one fresh Lease and the failover ConfigMaps. The first leads and reconciles every
object; the second starts, and once it says STANDBY (another holds the Lease; warm: its queue holds
every object) and the API server has been idle for 2 s, the leader gets SIGKILL or SIGTERM. The
figures are the new leader's ACQUIRED (its first Lease write answered OK: its election),
FIRST_RECONCILE and ALL_RECONCILED times less the moment of the signal (CLOCK_REALTIME on both ends),
and the LISTs and watch-lists of ConfigMaps it sent after it said STANDBY (its RESULT, printed once the
driver ends it with SIGTERM).
"""

import os
import signal
import subprocess
import threading
import time

from bench_vs_process import BenchError, parse_result

# How long each step may take before the run is given up.
SYNC_TIMEOUT_S = 600  # a replica's sync and first pass over every object (50,000 on a loaded machine)
FAILOVER_TIMEOUT_S = 120  # the signal -> the new leader's first reconcile
EXIT_TIMEOUT_S = 60


class Replica:
    """One probe process; its stdout read on a thread: each "<WORD> <unix ns>" line once, and RESULT."""

    def __init__(self, cmd, log_path, what):
        self.what = what
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log,
                                     text=True)
        self.stamps = {}
        self.result_line = None
        self.ended = False
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            words = line.split()
            with self.cond:
                if words and words[0] == "RESULT":
                    self.result_line = line
                elif len(words) == 2 and words[1].isdigit():
                    self.stamps.setdefault(words[0], int(words[1]))
                self.cond.notify_all()
        with self.cond:
            self.ended = True
            self.cond.notify_all()

    def wait_for(self, word, timeout):
        """The unix ns of the replica's first `word` line; BenchError when it ends or times out first."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while word not in self.stamps:
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    raise BenchError(f"{self.what}: no {word} after {timeout} s (exit {self.proc.poll()}; "
                                     f"its log: {self.log_path})")
                self.cond.wait(left)
            return self.stamps[word]

    def wait_exit(self, timeout):
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise BenchError(f"{self.what}: still running {timeout} s after its signal (log: {self.log_path})") from e
        self.reader.join(timeout=5)
        self.log.close()
        return code

    def result(self):
        """Ends the replica with SIGTERM (a graceful stop) and returns its RESULT figures."""
        self.proc.send_signal(signal.SIGTERM)
        code = self.wait_exit(EXIT_TIMEOUT_S)
        if code != 0:
            raise BenchError(f"{self.what}: exit {code} after SIGTERM (log: {self.log_path})")
        return parse_result(self.result_line or "", self.what)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.log.close()


def _measure(bench, leader, cmd, logs, name, spec):
    """Starts the standby, signals the leader, and returns the standby's stamps and RESULT."""
    standby = Replica(cmd, os.path.join(logs, f"{name}-b.log"), f"{name} standby")
    try:
        standby.wait_for("STANDBY", SYNC_TIMEOUT_S)
        bench.wait_for_idle_apiserver(quiet_seconds=2, before=f"{name}'s signal")
        killed = time.time_ns()
        leader.proc.send_signal(spec["signal"])
        standby.wait_for("FIRST_RECONCILE", FAILOVER_TIMEOUT_S)
        standby.wait_for("ELECTED", FAILOVER_TIMEOUT_S)
        if standby.wait_for("ACQUIRED", FAILOVER_TIMEOUT_S) < killed:
            raise BenchError(f"{name}: the standby wrote the Lease before the leader was signalled")
        standby.wait_for("ALL_RECONCILED", SYNC_TIMEOUT_S)
        leader_exit = leader.wait_exit(EXIT_TIMEOUT_S)
        if spec["signal"] == signal.SIGTERM and leader_exit != 0:
            raise BenchError(f"{name}: the leader exited {leader_exit} after SIGTERM (log: {leader.log_path})")
        return killed, dict(standby.stamps), standby.result()
    finally:
        standby.kill()


def run_failover(bench, side, case, spec, cmd, run_index):
    """One failover run of case by side (cmd: the probe's `failover` command line without --lease)."""
    name = f"{case}-{'ctrl' if side == 'ctrl' else 'cr'}-{run_index + 1}-{int(time.time())}"
    logs = os.path.join(bench.state, "failover-logs")
    os.makedirs(logs, exist_ok=True)
    cmd = cmd + ["--lease", name]
    leader = Replica(cmd, os.path.join(logs, f"{name}-a.log"), f"{name} leader")
    try:
        leader.wait_for("ALL_RECONCILED", SYNC_TIMEOUT_S)
        killed, stamps, result = _measure(bench, leader, cmd, logs, name, spec)
    finally:
        leader.kill()
    elected = stamps["ACQUIRED"]
    figures = dict(result)
    figures["kill_to_elected_s"] = (elected - killed) / 1e9
    figures["kill_to_first_reconcile_s"] = (stamps["FIRST_RECONCILE"] - killed) / 1e9
    figures["elected_to_first_reconcile_s"] = (stamps["FIRST_RECONCILE"] - elected) / 1e9
    figures["kill_to_all_reconciled_s"] = (stamps["ALL_RECONCILED"] - killed) / 1e9
    figures["standby_to_kill_s"] = (killed - stamps["STANDBY"]) / 1e9
    return figures
