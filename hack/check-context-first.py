#!/usr/bin/env python3
"""Fails when a public header declares a parameter of type Context anywhere but first.

As in Go, a call that takes a Context takes it first: Get(ctx, key, obj), SleepFor(ctx, d). This
scans every header under runtime/ outside internal/ folders (with --internal, those too), strips
comments and string literals, and looks at every parenthesised list: a parameter whose type is
Context (by value, const&, & or &&, named or not, with or without a default) that is not the
first of its list is reported as file:line. Calls are not declarations and do not match: an
argument such as std::move(ctx) or Context::Background() has no type. Function types inside
std::function<...(...)> are parameter lists too and are held to the same rule.
Exit 1 with the list when any is found; otherwise prints "check-context-first: ok".
Run by ctest as check_context_first (label tool)."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = os.path.join(ROOT, "runtime")
# Comments and literals (replaced by spaces, newlines kept so line numbers hold).
NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# One parameter whose type is Context: [const] [ctrl::]Context [const] [&|&&] [name] [= default].
CONTEXT_PARAM = re.compile(r'^(?:const\s+)?(?:::)?(?:ctrl::)?Context\s*(?:const\s*)?(?:&&|&)?\s*(?:[A-Za-z_]\w*)?\s*(?:=.*)?$', re.S)
OPEN = {"(": ")", "<": ">", "[": "]", "{": "}"}


def blank(match):
    return re.sub(r"[^\n]", " ", match.group(0))


def split_top(text, start, end):
    """Splits text[start:end] at its top-level commas; yields (offset, piece)."""
    depth, piece_start = [], start
    i = start
    while i < end:
        c = text[i]
        if c in "([{":
            depth.append(OPEN[c])
        elif c in ")]}":
            if depth:
                depth.pop()
        elif c == "<":
            # A template argument list, not a comparison: only when a name precedes it.
            j = i - 1
            while j >= start and text[j].isspace():
                j -= 1
            if j >= start and (text[j].isalnum() or text[j] == "_"):
                depth.append(">")
        elif c == ">" and depth and depth[-1] == ">":
            depth.pop()
        elif c == "," and not depth:
            yield piece_start, text[piece_start:i]
            piece_start = i + 1
        i += 1
    yield piece_start, text[piece_start:end]


def matching(text, i):
    """Index of the ')' closing the '(' at i, or -1."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def violations(text):
    """(line, parameter) for each Context parameter that is not first in its list."""
    text = NOISE.sub(blank, text)
    found = []
    for m in re.finditer(r"\(", text):
        close = matching(text, m.start())
        if close < 0:
            continue
        pieces = list(split_top(text, m.start() + 1, close))
        for index, (offset, piece) in enumerate(pieces):
            if index == 0 or not CONTEXT_PARAM.match(piece.strip()):
                continue
            lead = len(piece) - len(piece.lstrip())
            line = text.count("\n", 0, offset + lead) + 1
            found.append((line, " ".join(piece.split())))
    return found


def headers(internal):
    for dirpath, dirs, files in os.walk(RUNTIME):
        if not internal:
            dirs[:] = [d for d in dirs if d != "internal"]
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".hpp"):
                yield os.path.join(dirpath, f)


def main():
    internal = "--internal" in sys.argv[1:]
    bad = []
    for path in headers(internal):
        with open(path, encoding="utf-8") as fh:
            for line, param in violations(fh.read()):
                bad.append(f"{os.path.relpath(path, ROOT)}:{line}: '{param}' is not the first parameter")
    for b in bad:
        print(b)
    if bad:
        print(f"check-context-first: {len(bad)} declaration(s) take a Context after another parameter")
        return 1
    print("check-context-first: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
