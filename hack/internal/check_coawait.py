#!/usr/bin/env python3
"""Finds the temporaries GCC 12 destroys twice in a coroutine (GCC PR 99576).

The entry point is hack/check-coawait.sh, which documents the usage. This file builds one
clang-query AST matcher, runs it over each translation unit (two at a time) and prints one line
per finding. The rules come from ASan reproductions on GCC 12.2 (docs/decisions.md, decision 16): in a
coroutine, inside a full-expression that contains a co_await of that coroutine,
  - aggregate initialization (braced, designated, `{}` or C++20 parenthesized) of a class or array
    whose destructor is not trivial,
  - a lambda whose closure type has a non-trivial destructor (a by-copy capture of such a value),
  - a conditional expression (?:) whose result is a temporary with a non-trivial destructor,
  - a defaulted argument whose default expression holds one of the above
are destroyed twice (or the heap is corrupted). Constructor calls, std::string temporaries,
literals, function-returned prvalues and trivially destructible aggregates are not hit and not
reported.
"""

import argparse
import concurrent.futures
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# A record type's destructor is non-trivial if it is user-provided or virtual, or if a base or a
# member (or array member) has a non-trivial destructor. AST matchers cannot recurse, so the
# rule is unrolled; six levels cover the standard library's containers, optional and variant
# nested inside user aggregates and lambdas.
NESTING_DEPTH = 6

KINDS = {
    "aggregate": "aggregate initialization of a type with a non-trivial destructor",
    "lambda": "lambda capturing by copy a value with a non-trivial destructor",
    "conditional": "conditional expression (?:) yielding a temporary with a non-trivial destructor",
    "defaultarg": "defaulted argument built by aggregate initialization, a capturing lambda or ?:",
    "awaitarm": "co_await in an arm of a conditional expression (?:) of a type with a non-trivial destructor",
}


def record_type(decl):
    return (f"qualType(anyOf(hasCanonicalType(recordType(hasDeclaration({decl}))), "
            f"hasCanonicalType(arrayType(hasElementType(recordType(hasDeclaration({decl})))))))")


def matcher_script():
    lines = ["set bind-root false", "set output diag", "enable output dump",
             "let nontrivial0 cxxRecordDecl(has(cxxDestructorDecl(anyOf(isUserProvided(), isVirtual()))))"]
    for level in range(1, NESTING_DEPTH + 1):
        below = f"nontrivial{level - 1}"
        lines.append(f"let nontrivial{level} cxxRecordDecl(anyOf({below}, "
                     f"has(fieldDecl(hasType({record_type(below)}))), isDerivedFrom({below})))")
    lines.append(f"let T {record_type(f'nontrivial{NESTING_DEPTH}')}")
    bound_branch = "ignoringParenCasts(cxxBindTemporaryExpr())"
    lines.append(
        'let unsafe expr(anyOf(initListExpr(hasType(T)).bind("aggregate"), '
        'lambdaExpr(hasType(T)).bind("lambda"), '
        f'conditionalOperator(hasType(T), anyOf(hasTrueExpression({bound_branch}), '
        f'hasFalseExpression({bound_branch}))).bind("conditional"), '
        # GCC 12 corrupted the heap with `x = c ? co_await a() : co_await b();` (a Status): a
        # co_await in an arm of ?: of such a type.
        'conditionalOperator(hasType(T), anyOf(hasTrueExpression(hasDescendant(coawaitExpr())), '
        'hasTrueExpression(ignoringParenImpCasts(coawaitExpr())), '
        'hasFalseExpression(hasDescendant(coawaitExpr())), '
        'hasFalseExpression(ignoringParenImpCasts(coawaitExpr())))).bind("awaitarm"), '
        # clang-query has no matcher for C++20 parenthesized aggregate initialization
        # (CXXParenListInitExpr): take class-typed expressions of no common kind and keep, in
        # parse(), those whose dump names that node.
        'expr(hasType(T), unless(anyOf(cxxConstructExpr(), callExpr(), initListExpr(), lambdaExpr(), '
        'conditionalOperator(), declRefExpr(), memberExpr(), castExpr(), materializeTemporaryExpr(), '
        'cxxBindTemporaryExpr(), exprWithCleanups(), parenExpr(), coawaitExpr(), opaqueValueExpr(), '
        'cxxDefaultArgExpr(), arraySubscriptExpr(), unaryOperator(), '
        'binaryOperator(), cxxThisExpr()))).bind("other")))')
    # A default argument's expression sits at the declaration; report it at the call.
    default_arg = ('forEachArgumentWithParam(cxxDefaultArgExpr().bind("defaultarg"), '
                   'parmVarDecl(hasInitializer(expr(anyOf(unsafe, hasDescendant(unsafe))))))')
    lines.append(f"let unsafeDefault expr(anyOf(callExpr({default_arg}), cxxConstructExpr({default_arg})))")
    lines.append('let own coawaitExpr(forCallable(equalsBoundNode("fn")))')
    lines.append(
        'match expr(anyOf(expr(unsafe, unless(hasAncestor(cxxDefaultArgExpr()))), unsafeDefault.bind("call")), '
        'unless(isExpansionInSystemHeader()), '
        'forCallable(functionDecl(hasBody(coroutineBodyStmt())).bind("fn")), '
        'anyOf(hasAncestor(own.bind("inside")), hasDescendant(own), '
        'hasAncestor(expr(forCallable(equalsBoundNode("fn")), hasDescendant(own)))))')
    return "\n".join(lines) + "\n"


NOTE = re.compile(r'^(?P<loc>.+?:\d+:\d+): note: "(?P<name>\w+)" binds here$')
BINDING = re.compile(r'^Binding for "(?P<name>\w+)":$')
QUOTED = re.compile(r"'([^']*)'")
DIAG_ERROR = re.compile(r"^(?P<loc>.+?:\d+:\d+): (?:fatal )?error: (?P<msg>.*)$")
MISSING_HEADER = re.compile(r"^(?P<loc>.+?:\d+:\d+): fatal error: '(?P<header>[^']+)' file not found$")
INCLUDE_OPTIONS = ("-I", "-isystem", "-iquote", "-idirafter")


def parse(output):
    """Returns (findings, errors) from clang-query's diag+dump output of one TU."""
    findings, errors = set(), []
    for block in re.split(r"^Match #\d+:$", output, flags=re.M)[1:]:
        locations, types, heads, current = {}, {}, {}, None
        for line in block.splitlines():
            note = NOTE.match(line)
            if note:
                locations.setdefault(note["name"], note["loc"])
                continue
            binding = BINDING.match(line)
            if binding:
                current = binding["name"]
                continue
            if current and current not in types and line.strip():
                quoted = QUOTED.findall(line)
                types[current] = quoted[0] if quoted else "?"
                heads[current] = line
        if "other" in types:
            if not heads.get("other", "").startswith("CXXParenListInitExpr "):
                continue
            types["aggregate"], locations["aggregate"] = types["other"], locations.get("other")
        kind = "defaultarg" if "defaultarg" in types else next((k for k in KINDS if k in types), None)
        if kind is None:
            continue
        loc = locations.get("call" if kind == "defaultarg" else kind)
        if loc is None:
            continue
        type_name = types[kind]
        if type_name.startswith("(lambda at"):
            type_name = "closure"
        where = "inside co_await" if "inside" in types else "in the same full-expression as a co_await"
        findings.add((loc, kind, type_name, where))
    for line in output.splitlines():
        error = DIAG_ERROR.match(line)
        if error:
            errors.append(line)
    return findings, errors


@functools.lru_cache(maxsize=None)
def database_entries(build_dir):
    """compile_commands.json of build_dir: {normalized source path: (arguments, directory)}."""
    try:
        with open(os.path.join(build_dir, "compile_commands.json")) as f:
            entries = json.load(f)
    except (OSError, ValueError):
        return {}
    commands = {}
    for entry in entries:
        directory = entry.get("directory", "")
        path = os.path.realpath(os.path.join(directory, entry["file"]))
        arguments = entry.get("arguments") or shlex.split(entry.get("command", ""))
        commands[path] = (arguments, directory)
    return commands


def include_dirs(tu, build_dir, flags):
    """The include directories (-I, -isystem, -iquote, -idirafter) tu is compiled with, absolute."""
    if flags is not None:
        arguments, directory = flags, os.getcwd()
    else:
        arguments, directory = database_entries(build_dir).get(tu, ([], build_dir))
    dirs = []
    for i, argument in enumerate(arguments):
        for option in INCLUDE_OPTIONS:
            if argument == option and i + 1 < len(arguments):
                dirs.append(arguments[i + 1])
            elif argument.startswith(option) and len(argument) > len(option):
                dirs.append(argument[len(option):])
    return [os.path.realpath(os.path.join(directory, d)) for d in dirs]


def explain(error, dirs, build_dir):
    """(key, message) for one of clang's error lines. A header not found while the translation
    unit has include directories that do not exist yet or lie in the build tree is one that the
    build generates (ctrl-gen's typed kinds, ctrl_generate_kinds): the message says so, not just
    "could not parse", and the key is the header, so that it is reported once."""
    missing = MISSING_HEADER.match(error)
    generated = [d for d in dirs if not os.path.isdir(d) or d.startswith(build_dir + os.sep)] if missing else []
    if not generated:
        return error, f"could not parse: {error}"
    return missing["header"], (
        f"generated header {missing['header']} missing: build the project first (it is written at build "
        f"time, e.g. by ctrl-gen, into one of {', '.join(sorted(set(generated)))}); included at {missing['loc']}")


def find_clang_query():
    for name in [os.environ.get("CLANG_QUERY", ""), "clang-query-19", "clang-query-18", "clang-query-17",
                 "clang-query"]:
        if name and shutil.which(name):
            return name
    sys.exit("check-coawait: clang-query (Debian clang-tools-19) is missing; run hack/install-deps.sh")


def run_one(clang_query, script_path, tu, build_dir, flags):
    # Boost < 1.81 only enables co_await for clang with <experimental/coroutine>; the flag is
    # guarded by #if !defined, so newer Boost ignores it.
    extra = ["-DBOOST_ASIO_HAS_CO_AWAIT=1", "-w", "-Wno-error", "-Wno-unknown-warning-option"]
    cmd = [clang_query, "-f", script_path] + [f"--extra-arg={a}" for a in extra]
    if flags is not None:
        cmd += [tu, "--"] + flags
    else:
        cmd += ["-p", build_dir, tu]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    findings, errors = parse(proc.stdout)
    if errors:
        dirs = include_dirs(tu, build_dir, flags)
        errors = [explain(error, dirs, build_dir) for error in errors]
    if proc.returncode != 0 and not errors:
        error = f"{tu}: clang-query exited with {proc.returncode}: {proc.stdout[-2000:]}"
        errors.append((error, f"could not parse: {error}"))
    return tu, findings, errors


def cache_dir():
    """Where a translation unit's clean result is remembered (CTRL_COAWAIT_CACHE, default
    ~/.cache/ctrl/check-coawait): one empty file per key, kept across clones like ccache's objects."""
    default = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ctrl", "check-coawait")
    return os.environ.get("CTRL_COAWAIT_CACHE") or default


@functools.lru_cache(maxsize=None)
def ninja_deps(build_dir):
    """{object path relative to build_dir: its dependencies} for the objects ninja's deps log calls
    VALID (built from the sources as they are); {} when there is no such log (not ninja, not built)."""
    try:
        out = subprocess.run(["ninja", "-C", build_dir, "-t", "deps"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, errors="replace", check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    deps, current = {}, None
    for line in out.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            obj, _, rest = line.partition(": #deps")
            current = deps.setdefault(obj, []) if "(VALID)" in rest else None
        elif current is not None:
            current.append(line.strip())
    return deps


@functools.lru_cache(maxsize=None)
def file_digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def cache_key(tu, build_dir, salt, root):
    """A digest of everything the check of tu depends on: the matcher and clang-query (salt), tu's
    compile command and the contents of every file its last build included (ninja's deps log). None
    when that is not known (no database entry, no valid deps): the unit is then always checked.
    The checkout's path (root) is left out, so a clone at another path finds the same keys."""
    def portable(text):
        return text.replace(root, "<root>")

    arguments, directory = database_entries(build_dir).get(tu, (None, None))
    if not arguments or "-o" not in arguments[:-1]:
        return None
    output = os.path.join(directory, arguments[arguments.index("-o") + 1])
    deps = ninja_deps(build_dir).get(os.path.relpath(output, build_dir))
    if not deps:
        return None
    digest = hashlib.sha256(salt.encode())
    digest.update(portable("\0".join([tu] + arguments)).encode())
    try:
        for dep in deps:
            digest.update(f"\0{portable(dep)}\0{file_digest(os.path.join(build_dir, dep))}".encode())
    except OSError:
        return None
    return digest.hexdigest()


def translation_units(root, build_dir):
    database = os.path.join(build_dir, "compile_commands.json")
    if not os.path.exists(database):
        sys.exit(f"check-coawait: {database} is missing; configure with cmake first (hack/build.sh)")
    with open(database) as f:
        entries = json.load(f)
    units = set()
    for entry in entries:
        path = os.path.normpath(os.path.join(entry.get("directory", ""), entry["file"]))
        if not path.endswith(".cpp") or not path.startswith(root + os.sep):
            continue
        with open(path, errors="replace") as source:
            if "co_await" in source.read():
                units.add(path)
    return sorted(units)


def main():
    parser = argparse.ArgumentParser(prog="hack/check-coawait.sh", description=__doc__.splitlines()[0])
    parser.add_argument("-p", dest="build_dir", help="directory holding compile_commands.json (default: build)")
    parser.add_argument("-j", dest="jobs", type=int, default=2, help="translation units checked at once (default 2)")
    parser.add_argument("--no-cache", action="store_true",
                        help="check every unit, even one whose inputs a clean check already saw")
    parser.add_argument("files", nargs="*", help="translation units to check (default: every .cpp with co_await)")
    argv = sys.argv[1:]
    flags = None
    if "--" in argv:
        flags = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = parser.parse_args(argv)

    root = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    build_dir = os.path.realpath(args.build_dir or os.path.join(root, "build"))
    if args.files:
        units = [os.path.realpath(f) for f in args.files]
    elif flags is not None:
        sys.exit("check-coawait: `-- FLAGS` needs FILES")
    else:
        units = translation_units(root, build_dir)
    clang_query = find_clang_query()
    # A file the database does not list would be parsed with flags clang-query guesses from a
    # neighbour (no generated include directories): say which build compiles it instead.
    unlisted = [] if flags is not None else [tu for tu in units if tu not in database_entries(build_dir)]
    for tu in unlisted:
        print(f"check-coawait: {os.path.relpath(tu)} is not in {build_dir}/compile_commands.json: check it with "
              f"the build that compiles it (e.g. -DCTRL_BUILD_BENCH=ON for test/bench) or pass -- FLAGS",
              file=sys.stderr)
    if unlisted:
        return 2

    # A unit whose inputs are byte for byte those of an earlier clean check is not checked again.
    keys = {}
    if flags is None and not args.no_cache:
        version = subprocess.run([clang_query, "--version"], stdout=subprocess.PIPE, text=True).stdout
        salt = matcher_script() + version + open(__file__).read()
        keys = {tu: cache_key(tu, build_dir, salt, root) for tu in units}
    remembered = [tu for tu in units if keys.get(tu) and os.path.exists(os.path.join(cache_dir(), keys[tu]))]
    to_check = [tu for tu in units if tu not in set(remembered)]

    findings, errors = set(), []
    with tempfile.NamedTemporaryFile("w", suffix=".query", delete=False) as script:
        script.write(matcher_script())
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            jobs = [pool.submit(run_one, clang_query, script.name, tu, build_dir, flags) for tu in to_check]
            for job in concurrent.futures.as_completed(jobs):
                tu, tu_findings, tu_errors = job.result()
                findings |= tu_findings
                errors += tu_errors
                if keys.get(tu) and not tu_findings and not tu_errors:
                    os.makedirs(cache_dir(), exist_ok=True)
                    open(os.path.join(cache_dir(), keys[tu]), "w").close()
    finally:
        os.unlink(script.name)

    cwd = os.getcwd()
    # One line per source line and kind: nested braces and template instantiations merge.
    merged = {}
    for loc, kind, type_name, where in findings:
        path, line, col = loc.rsplit(":", 2)
        entry = merged.setdefault((path, int(line), kind, where), [int(col), set()])
        entry[0] = min(entry[0], int(col))
        entry[1].add(type_name)
    for (path, line, kind, where), (col, types) in sorted(merged.items()):
        shown = os.path.relpath(path, cwd) if path.startswith(cwd + os.sep) else path
        print(f"{shown}:{line}:{col}: {KINDS[kind]} (type {', '.join(sorted(types))}) {where}")
    sys.stdout.flush()
    # A missing generated header is named once, however many translation units include it.
    shown = {}
    for key, message in errors:
        shown.setdefault(key, message)
    for message in shown.values():
        print(f"check-coawait: {message}", file=sys.stderr)
    print(f"check-coawait: {len(units)} translation units checked ({len(remembered)} unchanged since a clean check "
          f"in {cache_dir()}), {len(merged)} findings"
          + (f", {len(errors)} parse errors" if errors else ""), file=sys.stderr)
    if errors:
        return 2
    return 1 if merged else 0


if __name__ == "__main__":
    sys.exit(main())
