#!/usr/bin/env bash
# Builds the benchmarks (-DCTRL_BUILD_BENCH=ON) into $CTRL_BUILD_DIR (default: build) and runs every
# executable in <build>/test/bench named *_bench, printing its figures. Extra arguments go to each
# benchmark binary, e.g. `hack/bench.sh --benchmark_filter=WatchDecoder --benchmark_repetitions=5`.
#
#   hack/bench.sh --vs controller-runtime [--pods N] [--runs R] [--smoke] [--no-docs] [--only ROWS]
#                 [--failover-objects F]
#       ctrl side by side with controller-runtime: installs the packages, builds ctrl-vs-probe and the
#       Go peer (test/bench/peer, cached under ~/.cache/ctrl/peer), starts a local real control
#       plane, makes the workload and runs both sides alternately, R times each (default 5) over N
#       pods (default 10,000); prints the table and writes it into docs/benchmarks.md. The failover
#       rows (--only '^failover-') run two replicas of each side over F ConfigMaps (default 10,000);
#       the webhook rows (--only '^webhook-') serve the sample's SecurityGroupPolicy validator on each
#       side's webhook server under one admission load, directly and through the API server.
#       --smoke: 200 pods, one run, short loads, docs untouched (CI). test/bench/vs/PROTOCOL.md
#       says what each row measures; hack/internal/bench_vs.py --help lists every option.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
JOBS="${CTRL_JOBS:-$(nproc)}"
step() { echo "== bench.sh: $*" >&2; }

vs=""
if [[ "${1:-}" == "--vs" || "${1:-}" == --vs=* ]]; then
    if [[ "$1" == "--vs" ]]; then vs="${2:-}"; shift 2 || shift; else vs="${1#--vs=}"; shift; fi
    if [[ "${vs}" != "controller-runtime" ]]; then
        step "error: --vs takes controller-runtime (the only peer there is), not '${vs}'"
        exit 2
    fi
    step "installing packages"
    "${ROOT}/hack/install-deps.sh"
    step "building the control plane (cached after the first run)"
    CTRL_ENVTEST_BIN_DIR="$("${ROOT}/hack/setup-envtest.sh" | tail -1)"
    export CTRL_ENVTEST_BIN_DIR
fi

source "${ROOT}/hack/internal/ccache.sh"
generator=()
command -v ninja >/dev/null && [[ ! -f "${BUILD_DIR}/Makefile" ]] && generator=(-G Ninja)
build_type_flag=()
[[ -f "${BUILD_DIR}/CMakeCache.txt" ]] || build_type_flag=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
step "configuring ${BUILD_DIR} with CTRL_BUILD_BENCH=ON"
cmake -S "${ROOT}" -B "${BUILD_DIR}" "${generator[@]}" "${CCACHE_LAUNCHER[@]}" "${build_type_flag[@]}" -DCTRL_WERROR=ON -DCTRL_BUILD_BENCH=ON >/dev/null
build_type="$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "${BUILD_DIR}/CMakeCache.txt")"
if [[ "${build_type}" == "Debug" || -z "${build_type}" ]]; then
    step "warning: CMAKE_BUILD_TYPE is '${build_type}': figures from an unoptimized build mean little"
fi

if [[ -n "${vs}" ]]; then
    step "building ctrl-vs-probe, ctrl-workload and ctrl-control-plane (${build_type})"
    cmake --build "${BUILD_DIR}" -j "${JOBS}" --target ctrl-vs-probe ctrl-workload ctrl-control-plane >&2
    peer="$("${ROOT}/hack/internal/build-peer.sh" | tail -1)"
    exec python3 "${ROOT}/hack/internal/bench_vs.py" --root "${ROOT}" --build-dir "${BUILD_DIR}" \
        --peer "${peer}" --build-type "${build_type}" "$@"
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
