#!/usr/bin/env bash
# The project's one test command. On a fresh machine it installs the packages, builds the
# control plane (kube-apiserver + etcd, cached under ~/.cache/ctrl), checks formatting, builds
# with warnings as errors, checks co_await expressions (hack/check-coawait.sh) and runs every
# test, by ctest label: unit (no sockets), fake (loopback sockets to a scripted server, no control
# plane), integration (against the real control plane), e2e, tool and install (the installed
# package built into another project and tested against the real control plane:
# hack/test-install.sh). Extra arguments go to ctest, e.g. `hack/test.sh -L unit`, `-L fake`,
# `-L install` or `-R Object`. Tests run $CTRL_TEST_JOBS at a time (default: one per core; each
# integration test has its own control plane on its own ports; the guide runs alone).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
TEST_JOBS="${CTRL_TEST_JOBS:-$(nproc)}"
step() { echo "== test.sh: $*" >&2; }

step "installing packages"
"${ROOT}/hack/install-deps.sh"

step "building the control plane (cached after the first run)"
CTRL_ENVTEST_BIN_DIR="$("${ROOT}/hack/setup-envtest.sh" | tail -1)"
export CTRL_ENVTEST_BIN_DIR
step "control plane binaries: ${CTRL_ENVTEST_BIN_DIR}"

step "checking formatting"
"${ROOT}/hack/format.sh" --check

step "building (warnings are errors)"
CTRL_BUILD_DIR="${BUILD_DIR}" "${ROOT}/hack/build.sh"

step "checking co_await expressions for temporaries GCC 12 destroys twice (hack/check-coawait.sh)"
status=0
"${ROOT}/hack/check-coawait.sh" -p "${BUILD_DIR}" || status=$?

step "running tests"
cd "${BUILD_DIR}"
ctest -j "${TEST_JOBS}" --output-on-failure --no-tests=error "$@" || status=$?
# The control planes the integration tests started: version and start-to-ready time.
grep -h "^control plane: " Testing/Temporary/LastTest.log 2>/dev/null | sort -u >&2 || true
# On failure, the failed assertions once more at the very end, where a truncated log still shows them.
if [[ "${status}" -ne 0 ]]; then
  step "failed assertions (from Testing/Temporary/LastTest.log)"
  grep -h -A8 -E "(: Failure$|^\[  FAILED  \] .*\(|Segmentation fault|Subprocess aborted|\*\*\*Timeout)" \
    Testing/Temporary/LastTest.log 2>/dev/null | grep -v -E "^[IWE][0-9]{4} " | head -80 >&2 || true
  # A crashed integration binary printed every thread's stack (test/support/crash_stacks.cpp).
  grep -h -A150 "^ctrl test: fatal signal" Testing/Temporary/LastTest.log 2>/dev/null |
    grep -E "^(ctrl test|Thread |#[0-9])" | head -150 >&2 || true
fi
exit "${status}"
