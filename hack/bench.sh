#!/usr/bin/env bash
# Builds the benchmarks (-DCTRL_BUILD_BENCH=ON) into $CTRL_BUILD_DIR (default: build) and runs every
# executable in <build>/test/bench named *_bench, printing its figures. Extra arguments go to each
# benchmark binary, e.g. `hack/bench.sh --benchmark_filter=WatchDecoder --benchmark_repetitions=5`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
JOBS="${CTRL_JOBS:-$(nproc)}"
step() { echo "== bench.sh: $*" >&2; }

generator=()
command -v ninja >/dev/null && [[ ! -f "${BUILD_DIR}/Makefile" ]] && generator=(-G Ninja)
step "configuring ${BUILD_DIR} with CTRL_BUILD_BENCH=ON"
cmake -S "${ROOT}" -B "${BUILD_DIR}" "${generator[@]}" -DCTRL_WERROR=ON -DCTRL_BUILD_BENCH=ON >/dev/null
build_type="$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "${BUILD_DIR}/CMakeCache.txt")"
if [[ "${build_type}" == "Debug" || -z "${build_type}" ]]; then
    step "warning: CMAKE_BUILD_TYPE is '${build_type}': figures from an unoptimized build mean little"
fi
step "building the benchmarks (${build_type})"
cmake --build "${BUILD_DIR}" -j "${JOBS}" --target ctrl_benchmarks

shopt -s nullglob
benches=()
for bin in "${BUILD_DIR}"/test/bench/*_bench; do
    [[ -f "${bin}" && -x "${bin}" ]] && benches+=("${bin}")
done
if [[ ${#benches[@]} -eq 0 ]]; then
    step "no *_bench executables in ${BUILD_DIR}/test/bench"
    exit 1
fi

status=0
for bin in "${benches[@]}"; do
    step "running $(basename "${bin}")"
    "${bin}" "$@" || { status=$?; step "$(basename "${bin}") failed with status ${status}"; }
done
exit "${status}"
