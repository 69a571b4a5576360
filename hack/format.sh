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
    bad=()
    for f in "${existing[@]}"; do
        clang-format --dry-run --Werror "${f}" >/dev/null 2>&1 || bad+=("${f}")
    done
    if ((${#bad[@]} > 0)); then
        echo "format: these files are not formatted (run hack/format.sh):" >&2
        printf '  %s\n' "${bad[@]}" >&2
        exit 1
    fi
    echo "format: ${#existing[@]} files formatted" >&2
else
    clang-format -i "${existing[@]}"
fi
