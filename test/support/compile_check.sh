#!/usr/bin/env bash
# Runs the compiler on a source (syntax only) and checks the outcome: what ctrl_compile_test registers.
#   compile_check.sh COMPILER FLAGS_FILE SOURCE [DEFINE [ERROR_REGEX...]]
# FLAGS_FILE holds -I and -D options, one a line (a response file). DEFINE ("-" for none) is defined
# as a macro for this compilation. Without an ERROR_REGEX the source must compile; with some, it must
# fail and its diagnostics must match every one (grep -E).
set -euo pipefail
compiler="$1" flags="$2" source="$3" define="${4:--}"
shift $(($# < 4 ? $# : 4))
args=("@${flags}" -std=c++20 -fsyntax-only)
[[ "${define}" != "-" ]] && args+=("-D${define}")

status=0
output="$("${compiler}" "${args[@]}" "${source}" 2>&1)" || status=$?
what="$(basename "${source}")"
[[ "${define}" != "-" ]] && what+=" with ${define}"
if (($# == 0)); then
    if ((status != 0)); then
        echo "${output}"
        echo "compile_check: FAIL: ${what} must compile" >&2
        exit 1
    fi
    echo "compile_check: ${what} compiles"
    exit 0
fi
if ((status == 0)); then
    echo "compile_check: FAIL: ${what} compiled; it must not" >&2
    exit 1
fi
for pattern in "$@"; do
    if ! grep -Eq -- "${pattern}" <<<"${output}"; then
        echo "${output}"
        echo "compile_check: FAIL: ${what} failed, but no diagnostic matches: ${pattern}" >&2
        exit 1
    fi
done
echo "${output}" | grep -E "error|declared here" | head -4
echo "compile_check: ${what} does not compile, as it must"
