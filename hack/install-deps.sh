#!/usr/bin/env bash
# Installs every Debian package the project needs to build, test, benchmark and run its
# demo. Idempotent and quiet: when everything is present it returns in about a second.
set -euo pipefail

PACKAGES=(
    build-essential cmake ninja-build pkg-config git ca-certificates curl openssl ccache
    mold                            # the linker when installed (CMakeLists.txt CTRL_LINKER): links ~4x faster than GNU ld
    libboost1.74-all-dev            # Asio, Beast, system, ... (decision 2)
    libcpprest-dev                  # the alternative transport (decision 8)
    libyaml-cpp-dev                 # kubeconfig
    prometheus-cpp-dev              # metrics
    rapidjson-dev libsimdjson-dev   # the object model (decision 3)
    libgtest-dev libgmock-dev googletest
    libbenchmark-dev
    libssl-dev zlib1g-dev
    clang-format clang-tidy
    clang-tools-19 python3          # hack/check-coawait.sh (clang-query-19)
    clang-19                        # hack/build-clang.sh: the second compiler
    libclang-rt-19-dev llvm-19      # hack/fuzz.sh: libFuzzer, clang's sanitizer runtimes, llvm-symbolizer
    stress-ng                       # hack/stress-unit.sh: the unit tests on a loaded machine
    prometheus                      # the manager's integration test scrapes with a real Prometheus (and promtool)
    kubectl                         # e2e tests and hack/bench.sh --vs apply manifests and CRDs with it
    linux-perf                      # profiles of the side-by-side benchmark's slower rows
    python3-matplotlib              # hack/bench.sh --vs controller-runtime --curve draws docs/cost-curve.svg (Debian's python3)
    gdb                             # a crashed integration test prints every thread's stack (test/support/crash_stacks.cpp)
    podman runc                     # hack/image.sh, run-local.sh --image, operator_image_e2e_test: the operator image (hack/internal/podman.sh)
    mmdebstrap                      # hack/image.sh: the local debian:bookworm base image, without a registry
    uidmap                          # podman run by a user other than root (rootless; the project's machines run as root)
)

missing=()
for pkg in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("${pkg}")
    fi
done

if ((${#missing[@]} > 0)); then
    echo "install-deps: installing ${missing[*]}" >&2
    SUDO=""
    [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    ${SUDO} apt-get update -qq >/dev/null
    ${SUDO} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v kubectl >/dev/null 2>&1; then
    echo "install-deps: note: kubectl is not installed; the integration tests that drive kubectl need it" >&2
fi
echo "install-deps: all packages present" >&2
