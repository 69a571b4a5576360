#!/usr/bin/env python3
"""Lists, for each folder under runtime/, the namespaces its files declare, and fails unless each
folder holds one: runtime/core holds ctrl, runtime/<folder> holds ctrl::<folder>, and both may nest
namespaces inside their own (ctrl::cache::internal, ctrl::api::corev1). Anonymous namespaces and
namespace aliases are not declarations of a namespace. Run by hack/test.sh (ctest: check_namespaces)."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = os.path.join(ROOT, "runtime")
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\bnamespace\b\s*([A-Za-z_][\w:]*)?\s*(=|\{)|[{}]', re.S)


def declared(text):
    """The fully qualified namespaces a file opens (aliases and anonymous ones left out)."""
    stack, found = [], set()  # stack: the namespace path at each open brace, or None for other braces
    for m in TOKEN.finditer(text):
        tok = m.group(0)
        if tok.startswith(("//", "/*", '"')):
            continue
        if tok == "{":
            stack.append(None)
        elif tok == "}":
            if stack:
                stack.pop()
        elif m.group(2) == "=":
            continue  # namespace alias
        else:
            outer = next((s for s in reversed(stack) if s is not None), "")
            name = m.group(1)
            if name is None:  # anonymous: stays in the enclosing namespace
                stack.append(outer)
                continue
            full = f"{outer}::{name}" if outer else name
            found.add(full)
            stack.append(full)
    return found


def main():
    failed = False
    for folder in sorted(os.listdir(RUNTIME)):
        path = os.path.join(RUNTIME, folder)
        if not os.path.isdir(path):
            continue
        want = "ctrl" if folder == "core" else f"ctrl::{folder}"
        names = set()
        for dirpath, _, files in os.walk(path):
            for f in files:
                if f.endswith((".hpp", ".cpp")):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        names |= declared(fh.read())
        # Only runtime/core owns ctrl itself; a namespace outside ctrl is a third party's, named by a
        # forward declaration (prometheus-cpp's classes in runtime/metrics).
        own = sorted(n for n in names if n == want or n.startswith(want + "::"))
        third_party = sorted(n for n in names if n != "ctrl" and not n.startswith("ctrl::"))
        wrong = sorted(set(names) - set(own) - set(third_party) - {"ctrl"})
        line = f"runtime/{folder}/ -> {want}"
        if len(own) > 1:
            line += f"  (nested: {', '.join(n for n in own if n != want)})"
        if third_party:
            line += f"  (forward declares: {', '.join(third_party)})"
        print(line)
        if wrong:
            failed = True
            print(f"  ERROR: runtime/{folder}/ also declares {', '.join(wrong)}")
    if failed:
        print("check-namespaces: each folder under runtime/ must hold one namespace (and those nested in it)")
        return 1
    print("check-namespaces: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
