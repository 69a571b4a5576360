"""The table of `hack/bench.sh --vs controller-runtime`: medians, spread, ratio and verdict per row,
and its place in docs/benchmarks.md."""

import statistics


def values_of(results, case, side, value):
    """The row's figure of every run of case by side; a missing key is reported, not guessed."""
    values, missing = [], []
    for r in results:
        if r["case"] == case and r["side"] == side:
            try:
                values.append(value(r["figures"]))
            except (KeyError, ZeroDivisionError) as e:
                missing.append(f"{e!r}")
    return values, missing


def cell(values, fmt):
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(values))} – {fmt.format(max(values))})"


def verdict(ours, theirs, better):
    """ahead / behind when the medians differ and the spreads do not overlap; else within spread."""
    mo, mt = statistics.median(ours), statistics.median(theirs)
    if mo == mt:
        return "even"
    ours_better = mo < mt if better == "lower" else mo > mt
    apart = max(ours) < min(theirs) or min(ours) > max(theirs)
    if not apart:
        return "within spread"
    return "**ahead**" if ours_better else "behind"


def ratio(ours, theirs):
    mo, mt = statistics.median(ours), statistics.median(theirs)
    if mt == 0:
        return "-" if mo == 0 else "inf"
    return f"{mo / mt:.2f}"


def compared(ours, theirs, fmt, better):
    """A row's cells after its label: ctrl | controller-runtime | ratio | verdict."""
    return f"{cell(ours, fmt)} | {cell(theirs, fmt)} | {ratio(ours, theirs)} | {verdict(ours, theirs, better)}"


def render_table(rows, results, meta, selected=None):
    """Markdown for every section; problems lists rows lacking a side's figures. selected: the cases
    run (--only); a row needing a case not run is left out, not a problem. None: every case."""
    v = meta["versions"]
    lines = [
        f"Made by `{meta['command']}` on {meta['date']}: {meta['pods']:,} workload pods, "
        f"{meta['runs']} run(s) of each side per row, alternating which goes first.",
        f"ctrl {v['ctrl']} ({v['build_type']}, {v['cxx']}); controller-runtime {v['controller_runtime']} "
        f"with client-go {v['client_go']} ({v['go']}); kube-apiserver {v['kube_apiserver']} and etcd on the same "
        f"{v['cores']} cores (Linux {v['kernel']}). Load average {meta['load_before']} before, "
        f"{meta['load_after']} after. Patch loads: {meta['load_in_flight']} merge patches in flight for "
        f"{meta['load_seconds']:g} s; admission loads {meta.get('webhook_seconds', meta['load_seconds']):g} s; "
        f"idle window {meta['idle_seconds']:g} s; failover "
        f"{meta.get('failover_objects', 0):,} ConfigMaps.",
        "Cells: median (min – max over the runs). Ratio: ctrl / controller-runtime. Verdict: ahead or behind "
        "only when the two spreads do not overlap.",
        "",
    ]
    problems = []
    for section, section_rows in rows:
        section_rows = [row for row in section_rows if selected is None or {row[4], row[5]} <= set(selected)]
        if not section_rows:
            continue
        lines += [f"**{section}**", "", "| figure | ctrl | controller-runtime | ratio | ctrl is |",
                  "|---|---|---|---|---|"]
        for label, value, better, fmt, ctrl_case, cr_case in section_rows:
            ours_value, theirs_value = value if isinstance(value, tuple) else (value, value)
            ours, missing_ours = values_of(results, ctrl_case, "ctrl", ours_value)
            theirs, missing_theirs = values_of(results, cr_case, "controller-runtime", theirs_value)
            if missing_ours or missing_theirs:
                problems.append(f"{label}: figures missing: ctrl {missing_ours} controller-runtime {missing_theirs}")
            if not ours or not theirs:
                problems.append(f"{label}: not measured on both sides")
                continue
            lines.append(f"| {label} | {compared(ours, theirs, fmt, better)} |")
        lines.append("")
    return "\n".join(lines), problems


def write_docs(path, table, begin, end, heading="side by side with controller-runtime (issue 16)"):
    """Replaces the text between begin and end in path (appends a section `heading` when they are absent)."""
    with open(path) as f:
        text = f.read()
    block = f"{begin}\n{table}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + f"\n\n## {heading}\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)
