#!/usr/bin/env bash
# Test of hack/check-coawait.sh: it must report every line of planted_unsafe.cpp marked
# `// expect: <kind>[, <kind>]` with exactly those kinds, and nothing in planted_safe.cpp; a header
# missing from an include directory not made yet (a generated one) is named as such, another
# missing header is a parse error.
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

declare -A kind_word=([aggregate]=aggregate [lambda]=lambda [conditional]=conditional [defaultarg]=defaulted
    [awaitarm]=co_await)
expected="$(grep -n '// expect:' planted_unsafe.cpp | sed -E 's/^([0-9]+):.*\/\/ expect: (.*)$/\1 \2/' |
    while read -r line kinds; do
        for kind in ${kinds//,/ }; do echo "planted_unsafe.cpp:${line} ${kind_word[${kind}]}"; done
    done | sort -u)"
found="$(echo "${output}" | sed -nE 's/^([^:]+):([0-9]+):[0-9]+: (aggregate|lambda|conditional|defaulted|co_await) .*/\1:\2 \3/p' | sort -u)"

if [[ "${expected}" != "${found}" ]]; then
    echo "check_planted: FAIL: findings differ from the planted expectations (< expected, > found):" >&2
    diff <(echo "${expected}") <(echo "${found}") >&2 || true
    exit 1
fi
echo "check_planted: $(echo "${expected}" | wc -l) planted unsafe forms found, none in planted_safe.cpp"

# A translation unit including a header that the build would generate (its include directory does
# not exist yet), and one including a header that is nowhere.
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
printf '#include "planted_api/widget.hpp"\n' >"${work}/generated.cpp"
printf '#include "nowhere.hpp"\n' >"${work}/absent.cpp"
status=0
errors="$("${ROOT}/hack/check-coawait.sh" "${work}/generated.cpp" -- -std=c++20 "-I${work}/build/ctrl-gen/planted" 2>&1)" ||
    status=$?
if ((status != 2)) || [[ "${errors}" != *"generated header planted_api/widget.hpp missing: build the project first"* ]]; then
    echo "check_planted: FAIL: a missing generated header (exit ${status}, want 2):" >&2
    echo "${errors}" >&2
    exit 1
fi
status=0
errors="$("${ROOT}/hack/check-coawait.sh" "${work}/absent.cpp" -- -std=c++20 "-I${work}" 2>&1)" || status=$?
if ((status != 2)) || [[ "${errors}" != *"could not parse: "*"'nowhere.hpp' file not found"* ]]; then
    echo "check_planted: FAIL: a missing header that is not generated (exit ${status}, want 2):" >&2
    echo "${errors}" >&2
    exit 1
fi
echo "check_planted: a missing generated header is named as such"
