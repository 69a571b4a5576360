#!/usr/bin/env bash
# The second compiler: builds the unit tests with clang (Debian's clang-19) into build-clang,
# warnings as errors, and runs them (ctest -L unit). Catches code that only GCC accepts, and
# covers users on clang. Extra arguments go to ctest, e.g. `-R Queue`.
#
#   hack/build-clang.sh                       RelWithDebInfo build of target unit_tests, then ctest
#   CTRL_CLANG_BUILD_DIR=DIR ...              build directory (default: build-clang)
#   CTRL_CLANG_CXX=clang++-NN ...             another clang (default: clang++-19)
#   CTRL_CLANG_BUILD_TYPE=Debug ...           another build type (default: RelWithDebInfo)
#
# RelWithDebInfo because with Debian's Boost 1.74, 10 unit tests crash inside Boost.Asio under clang at
# -O0: see docs/decisions.md, decision 41.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_CLANG_BUILD_DIR:-${ROOT}/build-clang}"
CLANG_CXX="${CTRL_CLANG_CXX:-clang++-19}"
BUILD_TYPE="${CTRL_CLANG_BUILD_TYPE:-RelWithDebInfo}"
JOBS="${CTRL_JOBS:-$(nproc)}"
step() { echo "== build-clang.sh: $*" >&2; }

command -v "${CLANG_CXX}" >/dev/null || { echo "build-clang: ${CLANG_CXX} is missing; run hack/install-deps.sh" >&2; exit 1; }

step "configuring ${BUILD_DIR} (${CLANG_CXX}, ${BUILD_TYPE}, unit tests only)"
source "${ROOT}/hack/internal/ccache.sh"
generator=()
command -v ninja >/dev/null && [[ ! -f "${BUILD_DIR}/Makefile" ]] && generator=(-G Ninja)
cmake -S "${ROOT}" -B "${BUILD_DIR}" "${generator[@]}" "${CCACHE_LAUNCHER[@]}" -DCMAKE_CXX_COMPILER="${CLANG_CXX}" \
    -DCMAKE_BUILD_TYPE="${BUILD_TYPE}" -DCTRL_WERROR=ON -DCTRL_BUILD_INTEGRATION=OFF >/dev/null

step "building unit_tests"
cmake --build "${BUILD_DIR}" -j "${JOBS}" --target unit_tests

step "running the unit tests"
ctest --test-dir "${BUILD_DIR}" -L unit --output-on-failure --no-tests=error "$@"
