#!/usr/bin/env bash
# Configures and builds the project (warnings are errors) into $CTRL_BUILD_DIR (default: build).
# Extra arguments go to cmake's configure step, e.g. -DCTRL_BUILD_BENCH=ON.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
JOBS="${CTRL_JOBS:-$(nproc)}"

source "${ROOT}/hack/internal/ccache.sh"
generator=()
command -v ninja >/dev/null && [[ ! -f "${BUILD_DIR}/Makefile" ]] && generator=(-G Ninja)
cmake -S "${ROOT}" -B "${BUILD_DIR}" "${generator[@]}" "${CCACHE_LAUNCHER[@]}" -DCTRL_WERROR=ON "$@" >/dev/null
cmake --build "${BUILD_DIR}" -j "${JOBS}"
