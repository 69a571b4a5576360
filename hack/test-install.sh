#!/usr/bin/env bash
# Proves ctrl can be used from another project: installs the build into a temporary prefix, moves
# the prefix elsewhere (the install tree must be relocatable), checks no installed text file names a
# path of this machine's source, build or first prefix, then configures each project against the
# moved prefix with find_package(ctrl CONFIG REQUIRED), builds it and runs its ctest tests (which
# start a real kube-apiserver + etcd through ctrl::envtest: a missing control plane fails, it is
# never skipped).
#
#   hack/test-install.sh [PROJECT_DIR...]   default: test/install/consumer
#
#   CTRL_BUILD_DIR              the built tree to install (default: build, under the repo root)
#   CTRL_ENVTEST_BIN_DIR        kube-apiserver and etcd for the projects' tests; when unset, the
#                               installed ctrl-setup-envtest builds or finds them and envtest finds
#                               them in its cache by itself
#   CTRL_KEEP_INSTALL_TEST_DIR  set: keep the temporary directory (its path is printed)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-build}"
[[ "${BUILD_DIR}" == /* ]] || BUILD_DIR="${ROOT}/${BUILD_DIR}"
BUILD_DIR="$(cd "${BUILD_DIR}" && pwd)"
START_SECONDS=${SECONDS}
step() { echo "== test-install.sh [$((SECONDS - START_SECONDS))s]: $*" >&2; }
die() { echo "test-install.sh: error: $*" >&2; exit 1; }

PROJECTS=("$@")
((${#PROJECTS[@]} > 0)) || PROJECTS=("${ROOT}/test/install/consumer")
for project in "${PROJECTS[@]}"; do
    [[ -f "${project}/CMakeLists.txt" ]] || die "${project} is not a CMake project (no CMakeLists.txt)"
done
[[ -f "${BUILD_DIR}/cmake_install.cmake" ]] || die "${BUILD_DIR} is not a configured build of ctrl"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/ctrl-test-install-XXXXXX")"
cleanup() {
    if [[ -n "${CTRL_KEEP_INSTALL_TEST_DIR:-}" ]]; then
        echo "test-install.sh: kept ${WORK}" >&2
    else
        rm -rf "${WORK}"
    fi
}
trap cleanup EXIT

step "installing ${BUILD_DIR} into ${WORK}/first-prefix"
cmake --install "${BUILD_DIR}" --prefix "${WORK}/first-prefix" >"${WORK}/install.log" ||
    { tail -20 "${WORK}/install.log" >&2; die "cmake --install failed"; }
PREFIX="${WORK}/moved/prefix"
mkdir -p "${WORK}/moved"
mv "${WORK}/first-prefix" "${PREFIX}"
step "moved the prefix to ${PREFIX}: $(find "${PREFIX}" -type f | wc -l) files, $(du -sh "${PREFIX}" | cut -f1)"

# Text files only (-I): the static libraries' debug information names the sources they were built from,
# as any library built with -g does; nothing reads it to find files.
step "checking no installed file names ${ROOT}, ${BUILD_DIR} or the first prefix"
if grep -rIl -e "${ROOT}" -e "${BUILD_DIR}" -e "${WORK}/first-prefix" "${PREFIX}"; then
    die "the installed files above name a path of this machine: the install tree is not relocatable"
fi
if grep -rl -e "${WORK}/first-prefix" "${PREFIX}"; then
    die "the installed files above name the prefix they were installed to: the install tree is not relocatable"
fi

# The installed ctrl-setup-envtest reads the pinned versions from the prefix, not from this tree.
versions="$("${PREFIX}/bin/ctrl-setup-envtest" --versions)" || die "the installed ctrl-setup-envtest does not run"
step "the installed ctrl-setup-envtest pins ${versions}"
if [[ -z "${CTRL_ENVTEST_BIN_DIR:-}" ]]; then
    step "control plane binaries: running the installed ctrl-setup-envtest"
    "${PREFIX}/bin/ctrl-setup-envtest" >"${WORK}/setup-envtest.out" ||
        die "the installed ctrl-setup-envtest failed: the projects' tests need kube-apiserver and etcd"
    step "ctrl-setup-envtest: $(tail -1 "${WORK}/setup-envtest.out") (envtest finds it in its cache)"
else
    step "control plane binaries: CTRL_ENVTEST_BIN_DIR=${CTRL_ENVTEST_BIN_DIR}"
fi

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
for project in "${PROJECTS[@]}"; do
    name="$(basename "${project}")"
    build="${WORK}/build-${name}"
    step "configuring ${project} against ${PREFIX}"
    cmake -S "${project}" -B "${build}" "${generator[@]}" -DCMAKE_PREFIX_PATH="${PREFIX}" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo >"${build}.configure.log" 2>&1 ||
        { cat "${build}.configure.log" >&2; die "configuring ${project} failed"; }
    grep -E "ctrl .* from " "${build}.configure.log" >&2 || true
    step "building ${name}"
    cmake --build "${build}" -j "${CTRL_INSTALL_TEST_JOBS:-2}" >"${build}.build.log" 2>&1 ||
        { tail -60 "${build}.build.log" >&2; die "building ${project} failed"; }
    step "running ${name}'s tests"
    ctest --test-dir "${build}" --output-on-failure --no-tests=error ||
        die "${name}'s tests failed"
done
step "passed: ${PROJECTS[*]}"
