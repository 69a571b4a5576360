#!/usr/bin/env bash
# Runs the unit tests (`ctest -L unit`) N times in a row, default 20, while stress-ng keeps every
# core busy, and stops at the first failure: the unit tier must pass on a loaded machine (issue 11,
# acceptance 6). Prints the run count and, on a failure, the failing tests and their output.
# Builds nothing: build the unit tests first (hack/build.sh). CTRL_BUILD_DIR selects the build
# directory; CTRL_STRESS_JOBS the ctest parallelism (default: one per core, on top of the load).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
RUNS="${1:-20}"
CORES="$(nproc)"
JOBS="${CTRL_STRESS_JOBS:-${CORES}}"

if ! command -v stress-ng >/dev/null 2>&1; then
    echo "stress-unit: stress-ng is missing: run hack/install-deps.sh" >&2
    exit 2
fi
if [[ ! -f "${BUILD_DIR}/CTestTestfile.cmake" ]]; then
    echo "stress-unit: no tests in ${BUILD_DIR}: build first (hack/build.sh)" >&2
    exit 2
fi

stress-ng --cpu "${CORES}" --cpu-load 100 --timeout 24h --quiet &
STRESS_PID=$!
stop_stress() {
    kill -TERM "${STRESS_PID}" 2>/dev/null || true
    wait "${STRESS_PID}" 2>/dev/null || true
}
trap stop_stress EXIT

LOG="$(mktemp -t ctrl-stress-unit.XXXXXX)"
echo "stress-unit: ${RUNS} runs of ctest -L unit (-j ${JOBS}) with stress-ng on ${CORES} cores" >&2
for ((run = 1; run <= RUNS; run++)); do
    start=${SECONDS}
    if ! ctest --test-dir "${BUILD_DIR}" -L unit --no-tests=error --output-on-failure -j "${JOBS}" >"${LOG}" 2>&1; then
        echo "stress-unit: run ${run} of ${RUNS} FAILED after $((run - 1)) clean runs in a row; failing tests:"
        sed -n '/The following tests FAILED:/,$p' "${LOG}" | grep -E '^[[:space:]]+[0-9]+ - ' || tail -n 20 "${LOG}"
        echo "stress-unit: the failing run's output: ${LOG}"
        exit 1
    fi
    tests="$(grep -Eo 'out of [0-9]+' "${LOG}" | grep -Eo '[0-9]+' | tail -1 || true)"
    echo "stress-unit: run ${run} of ${RUNS} passed (${tests:-?} tests, $((SECONDS - start)) s)"
done
rm -f "${LOG}"
echo "stress-unit: ${RUNS} of ${RUNS} runs in a row passed under stress-ng"
