#!/usr/bin/env bash
# Formats the project's C++ sources with the root .clang-format.
#   hack/format.sh           rewrite files in place
#   hack/format.sh --check   change nothing; list unformatted files and fail if any
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

command -v clang-format >/dev/null || { echo "format: clang-format is missing; run hack/install-deps.sh" >&2; exit 1; }
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
    'runtime/*.cpp' 'runtime/*.hpp' 'tools/*.cpp' 'tools/*.hpp' 'controllers/*.cpp' 'controllers/*.hpp' 'examples/*.cpp' 'examples/*.hpp' 'test/*.cpp' 'test/*.hpp' | sort -u)
((${#files[@]} > 0)) || exit 0

existing=()
for f in "${files[@]}"; do [[ -f "${f}" ]] && existing+=("${f}"); done

if [[ "${1:-}" == "--check" ]]; then
    # One clang-format per batch of files, a batch per core; each finding starts "file:line:col:".
    findings="$(mktemp)"
    rc=0
    printf '%s\0' "${existing[@]}" |
        xargs -0 -n 64 -P "$(nproc)" clang-format --dry-run --Werror >/dev/null 2>"${findings}" || rc=$?
    mapfile -t bad < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*/\1/p' "${findings}" | sort -u)
    if ((rc != 0 && ${#bad[@]} == 0)); then
        echo "format: clang-format failed (exit ${rc}) without naming a file:" >&2
        cat "${findings}" >&2
        rm -f "${findings}"
        exit 1
    fi
    rm -f "${findings}"
    if ((${#bad[@]} > 0)); then
        echo "format: these files are not formatted (run hack/format.sh):" >&2
        printf '  %s\n' "${bad[@]}" >&2
        exit 1
    fi
    echo "format: ${#existing[@]} files formatted" >&2
else
    clang-format -i "${existing[@]}"
fi
