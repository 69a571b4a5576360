#!/usr/bin/env bash
# Test of hack/check-coawait.sh: it must report every line of planted_unsafe.cpp marked
# `// expect: <kind>[, <kind>]` with exactly those kinds, and nothing in planted_safe.cpp.
# Needs clang-query (hack/install-deps.sh), not the control plane. Registered in ctest (label tool).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${HERE}/../.." && pwd)"
cd "${HERE}"

status=0
output="$("${ROOT}/hack/check-coawait.sh" planted_unsafe.cpp planted_safe.cpp -- -std=c++20)" || status=$?
echo "${output}"
if ((status != 1)); then
    echo "check_planted: FAIL: the checker exited ${status}, want 1 (findings in planted_unsafe.cpp only)" >&2
    exit 1
fi

declare -A kind_word=([aggregate]=aggregate [lambda]=lambda [conditional]=conditional [defaultarg]=defaulted)
expected="$(grep -n '// expect:' planted_unsafe.cpp | sed -E 's/^([0-9]+):.*\/\/ expect: (.*)$/\1 \2/' |
    while read -r line kinds; do
        for kind in ${kinds//,/ }; do echo "planted_unsafe.cpp:${line} ${kind_word[${kind}]}"; done
    done | sort -u)"
found="$(echo "${output}" | sed -nE 's/^([^:]+):([0-9]+):[0-9]+: (aggregate|lambda|conditional|defaulted) .*/\1:\2 \3/p' | sort -u)"

if [[ "${expected}" != "${found}" ]]; then
    echo "check_planted: FAIL: findings differ from the planted expectations (< expected, > found):" >&2
    diff <(echo "${expected}") <(echo "${found}") >&2 || true
    exit 1
fi
echo "check_planted: $(echo "${expected}" | wc -l) planted unsafe forms found, none in planted_safe.cpp"
