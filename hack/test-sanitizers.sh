#!/usr/bin/env bash
# Builds the tests with GCC under sanitizers, warnings as errors, and runs them against the real
# control plane (hack/setup-envtest.sh, cached): any heap error, leak, undefined behaviour or data
# race fails the run. Two builds, one after the other:
#
#   asan  build-asan, Debug, AddressSanitizer + UndefinedBehaviorSanitizer: the unit tests (the fuzz
#         corpus replays among them), the co_await proofs (label asan-proof) and every integration
#         test
#   tsan  build-tsan, -O1, ThreadSanitizer: the unit tests and the integration tests labelled
#         concurrency (cache churn with cut connections, controller workers, leader election)
#
#   hack/test-sanitizers.sh                  both
#   hack/test-sanitizers.sh asan             one of them (asan or tsan)
#   hack/test-sanitizers.sh tsan -R Queue    arguments after the build's name go to ctest
#   CTRL_ASAN_BUILD_DIR=DIR, CTRL_TSAN_BUILD_DIR=DIR   build directories
#   CTRL_TEST_JOBS=N      integration tests run N at a time (default: one per core); those that hold
#                         short Leases (LEASES in test/integration/CMakeLists.txt) run alone in a
#                         sanitized build: ASan runs ~2x and TSan 5-15x slower, and a second test
#                         with its control plane on few cores can starve a lease's renewals. Unit
#                         tests always run one per core
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="${CTRL_JOBS:-$(nproc)}"
TEST_JOBS="${CTRL_TEST_JOBS:-$(nproc)}"
step() { echo "== test-sanitizers.sh: $*" >&2; }

builds=(asan tsan)
if [[ $# -gt 0 && ("$1" == asan || "$1" == tsan) ]]; then
    builds=("$1")
    shift
fi

source "${ROOT}/hack/internal/ccache.sh"
if [[ -z "${CTRL_ENVTEST_BIN_DIR:-}" ]]; then
    CTRL_ENVTEST_BIN_DIR="$("${ROOT}/hack/setup-envtest.sh" | tail -1)"
    export CTRL_ENVTEST_BIN_DIR
fi
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:${ASAN_OPTIONS}}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:${UBSAN_OPTIONS}}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4${TSAN_OPTIONS:+:${TSAN_OPTIONS}}"

# configure DIR SANITIZERS CMAKE-ARGS...
configure() {
    local dir="$1" sanitize="$2"
    shift 2
    local generator=()
    command -v ninja >/dev/null && [[ ! -f "${dir}/Makefile" ]] && generator=(-G Ninja)
    step "configuring ${dir} (-fsanitize=${sanitize})"
    cmake -S "${ROOT}" -B "${dir}" "${generator[@]}" "${CCACHE_LAUNCHER[@]}" -DCTRL_WERROR=ON \
        -DCTRL_SANITIZE="${sanitize}" "$@" >/dev/null
}

# run_label DIR LABEL CTEST-ARGS...
run_label() {
    local dir="$1" label="$2"
    shift 2
    local jobs="${TEST_JOBS}"
    [[ "${label}" == unit ]] && jobs="$(nproc)"
    step "running the tests labelled ${label} in ${dir} (${jobs} at a time)"
    ctest --test-dir "${dir}" -j "${jobs}" -L "${label}" --output-on-failure --no-tests=error "$@"
}

status=0
for build in "${builds[@]}"; do
    case "${build}" in
        asan)
            dir="${CTRL_ASAN_BUILD_DIR:-${ROOT}/build-asan}"
            configure "${dir}" address,undefined -DCMAKE_BUILD_TYPE=Debug
            step "building unit_tests, asan_proof_tests and integration_tests"
            cmake --build "${dir}" -j "${JOBS}" --target unit_tests asan_proof_tests integration_tests
            run_label "${dir}" unit "$@" || status=$?
            run_label "${dir}" asan-proof "$@" || status=$?
            run_label "${dir}" integration "$@" || status=$?
            ;;
        tsan)
            # -O1: ThreadSanitizer at -O0 is several times slower, and reports the same races.
            dir="${CTRL_TSAN_BUILD_DIR:-${ROOT}/build-tsan}"
            configure "${dir}" thread -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1"
            step "building unit_tests and concurrency_tests"
            cmake --build "${dir}" -j "${JOBS}" --target unit_tests concurrency_tests
            run_label "${dir}" unit "$@" || status=$?
            run_label "${dir}" concurrency "$@" || status=$?
            ;;
    esac
done
exit "${status}"
