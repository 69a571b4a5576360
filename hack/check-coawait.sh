#!/usr/bin/env bash
# Finds the temporaries GCC 12 destroys twice in a coroutine (GCC PR 99576): in a full-expression
# that contains a co_await, aggregate initialization of a type with a non-trivial destructor
# (`co_await f({.name = "x"})`, `co_await f(Key{ns, name})`, `co_await f({})`), a lambda that
# captures such a value by copy, a ?: yielding such a temporary (`co_await (c ? A() : B())`), and a
# defaulted argument built by one of these. Constructor calls, std::string temporaries, literals,
# named values and trivially destructible aggregates are fine and not reported.
#
#   hack/check-coawait.sh                     every .cpp of this tree that contains co_await,
#                                             with the flags of build/compile_commands.json
#   hack/check-coawait.sh [-p BUILD] FILES    those files, with BUILD/compile_commands.json
#                                             (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
#   hack/check-coawait.sh FILES -- FLAGS      those files, compiled with FLAGS (no database)
#   -j N                                      translation units checked at once (default 2)
#   --no-cache                                check every unit (see below)
#
# With a database and ninja's deps log, a unit whose compile command and included files are byte
# for byte those of an earlier clean check is not checked again: the clean result is remembered in
# $CTRL_COAWAIT_CACHE (default ~/.cache/ctrl/check-coawait), so a CI run on a new clone checks
# only what changed. Findings and parse errors are never remembered.
#
# Prints `file:line:col: <what> (type T) inside co_await` per finding and how many translation
# units were checked; exits 1 if anything was found, 2 if a file could not be parsed, else 0. A
# header that the build generates (ctrl-gen's kinds) and that is not there yet is reported as
# `generated header X missing: build the project first`, once, rather than as a parse error.
# Uses clang-query (Debian clang-tools-19, installed by hack/install-deps.sh) and python3.
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/internal/check_coawait.py" "$@"
