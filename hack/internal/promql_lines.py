#!/usr/bin/env python3
"""Reads an answer of Prometheus' /api/v1/query on stdin and prints one line per series,
`name{label="value",...} value`, without the job and instance labels; exits 1 on an error answer.
Used by hack/run-local.sh and its e2e test."""
import json
import sys

answer = json.load(sys.stdin)
if answer.get("status") != "success":
    print(answer.get("error", "query failed"), file=sys.stderr)
    sys.exit(1)
data = answer["data"]
if data["resultType"] == "scalar":
    print(data["result"][1])
    sys.exit(0)
for series in sorted(data["result"], key=lambda s: sorted(s["metric"].items())):
    metric = dict(series["metric"])
    name = metric.pop("__name__", "")
    for label in ("job", "instance"):
        metric.pop(label, None)
    labels = ",".join(f'{k}="{v}"' for k, v in sorted(metric.items()))
    print(f"{name}{{{labels}}} {series['value'][1]}" if labels or not name else f"{name} {series['value'][1]}")
