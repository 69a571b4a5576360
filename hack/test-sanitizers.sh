#!/usr/bin/env bash
# Builds the unit tests (and the tests labelled asan-proof) with GCC under AddressSanitizer and
# UndefinedBehaviorSanitizer into build-asan, warnings as errors, and runs them: any heap error,
# leak or undefined behaviour fails the run. Extra arguments go to ctest, e.g. `-R Queue`.
#
#   hack/test-sanitizers.sh                  configure (Debug), build `unit_tests` and
#                                            `asan_proof_tests`, run them
#   CTRL_ASAN_BUILD_DIR=DIR ...              build directory (default: build-asan)
#   CTRL_SANITIZE=address ...                other sanitizers (default: address,undefined)
#
# The asan-proof tests run against the real control plane (hack/setup-envtest.sh, cached).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_ASAN_BUILD_DIR:-${ROOT}/build-asan}"
SANITIZE="${CTRL_SANITIZE:-address,undefined}"
JOBS="${CTRL_JOBS:-$(nproc)}"
step() { echo "== test-sanitizers.sh: $*" >&2; }

step "configuring ${BUILD_DIR} (-fsanitize=${SANITIZE})"
source "${ROOT}/hack/internal/ccache.sh"
generator=()
command -v ninja >/dev/null && [[ ! -f "${BUILD_DIR}/Makefile" ]] && generator=(-G Ninja)
cmake -S "${ROOT}" -B "${BUILD_DIR}" "${generator[@]}" "${CCACHE_LAUNCHER[@]}" -DCMAKE_BUILD_TYPE=Debug -DCTRL_WERROR=ON \
    -DCTRL_SANITIZE="${SANITIZE}" >/dev/null

step "building unit_tests and asan_proof_tests"
cmake --build "${BUILD_DIR}" -j "${JOBS}" --target unit_tests asan_proof_tests

if [[ -z "${CTRL_ENVTEST_BIN_DIR:-}" ]]; then
    CTRL_ENVTEST_BIN_DIR="$("${ROOT}/hack/setup-envtest.sh" | tail -1)"
    export CTRL_ENVTEST_BIN_DIR
fi
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:${ASAN_OPTIONS}}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:${UBSAN_OPTIONS}}"

step "running the unit tests"
status=0
ctest --test-dir "${BUILD_DIR}" -L unit --output-on-failure --no-tests=error "$@" || status=$?
step "running the asan-proof tests"
ctest --test-dir "${BUILD_DIR}" -L asan-proof --output-on-failure --no-tests=ignore "$@" || status=$?
exit "${status}"
