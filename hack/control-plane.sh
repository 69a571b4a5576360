#!/usr/bin/env bash
# The local control plane of the demo: the etcd + kube-apiserver the integration tests use, run in
# the background by the built ctrl-control-plane binary.
#
#   hack/control-plane.sh up       start it; prints `export KUBECONFIG=...` (so: eval "$(hack/control-plane.sh up)")
#   hack/control-plane.sh down     stop it (SIGTERM, SIGKILL after 30 s)
#   hack/control-plane.sh status   whether it runs, where, which version; exit 1 when not running
#
#   CTRL_BUILD_DIR          build directory holding ctrl-control-plane (default: build, under the repo root)
#   CTRL_CONTROL_PLANE_DIR  its work dir: kubeconfig, PKI, etcd data, logs
#                           (default: ${XDG_RUNTIME_DIR:-/tmp}/ctrl-control-plane)
#   CTRL_CONTROL_PLANE_WAIT seconds `up` waits for readiness (default 1800: the first run may have to
#                           build kube-apiserver and etcd, see hack/setup-envtest.sh)
#   CTRL_FEATURE_GATES      kube-apiserver's --feature-gates, e.g. ShardedListAndWatch=true (the
#                           server-side shard selector, alpha); default: none
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-build}"
[[ "${BUILD_DIR}" == /* ]] || BUILD_DIR="${ROOT}/${BUILD_DIR}"
DIR="${CTRL_CONTROL_PLANE_DIR:-${XDG_RUNTIME_DIR:-/tmp}/ctrl-control-plane}"
WAIT_SECONDS="${CTRL_CONTROL_PLANE_WAIT:-1800}"
PID_FILE="${DIR}/ctrl-control-plane.pid"
LOG_FILE="${DIR}/ctrl-control-plane.log"
KUBECONFIG_FILE="${DIR}/kubeconfig"

say() { echo "control-plane: $*" >&2; }
die() { say "error: $*"; exit 1; }

# Prints the pid of the running ctrl-control-plane of DIR, or fails.
running_pid() {
    [[ -f "${PID_FILE}" ]] || return 1
    local pid
    pid="$(cat "${PID_FILE}")"
    [[ "${pid}" =~ ^[0-9]+$ ]] && kill -0 "${pid}" 2>/dev/null || return 1
    # A recycled pid is not ours.
    tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null | grep -q 'ctrl-control-plane' || return 1
    echo "${pid}"
}

find_binary() {
    local candidate
    for candidate in "${BUILD_DIR}/tools/ctrl-control-plane/ctrl-control-plane" "${BUILD_DIR}/bin/ctrl-control-plane"; do
        if [[ -x "${candidate}" ]]; then
            echo "${candidate}"
            return 0
        fi
    done
    die "no ctrl-control-plane under ${BUILD_DIR}; build it first: cmake --build ${BUILD_DIR} --target ctrl-control-plane"
}

up() {
    if pid="$(running_pid)"; then
        say "already running (pid ${pid})"
        echo "export KUBECONFIG=${KUBECONFIG_FILE}"
        return 0
    fi
    local binary
    binary="$(find_binary)"
    mkdir -p "${DIR}"
    rm -f "${KUBECONFIG_FILE}" "${PID_FILE}"
    gates=()
    [[ -n "${CTRL_FEATURE_GATES:-}" ]] && gates=("--apiserver-flag=--feature-gates=${CTRL_FEATURE_GATES}")
    nohup "${binary}" up --dir "${DIR}" --setup-command "${ROOT}/hack/setup-envtest.sh" "${gates[@]}" >"${LOG_FILE}" 2>&1 </dev/null &
    local pid=$!
    echo "${pid}" >"${PID_FILE}"
    say "starting (pid ${pid}, log ${LOG_FILE})"
    # ctrl-control-plane writes the kubeconfig once the apiserver is ready.
    local waited=0
    until [[ -s "${KUBECONFIG_FILE}" ]]; do
        if ! kill -0 "${pid}" 2>/dev/null; then
            tail -n 40 "${LOG_FILE}" >&2 || true
            rm -f "${PID_FILE}"
            die "ctrl-control-plane exited before it was ready (log above, ${LOG_FILE})"
        fi
        if ((waited >= WAIT_SECONDS * 5)); then
            kill -TERM "${pid}" 2>/dev/null || true
            tail -n 40 "${LOG_FILE}" >&2 || true
            die "not ready within ${WAIT_SECONDS} s; stopped it (log above, ${LOG_FILE})"
        fi
        sleep 0.2
        waited=$((waited + 1))
    done
    kubectl --kubeconfig "${KUBECONFIG_FILE}" get --raw /readyz >/dev/null ||
        die "the kubeconfig is written but /readyz fails; see ${LOG_FILE}"
    grep '^control plane:' "${LOG_FILE}" >&2 || true
    echo "export KUBECONFIG=${KUBECONFIG_FILE}"
}

down() {
    local pid
    if ! pid="$(running_pid)"; then
        say "not running"
        rm -f "${PID_FILE}"
        return 0
    fi
    kill -TERM "${pid}"
    local waited=0
    while kill -0 "${pid}" 2>/dev/null; do
        if ((waited >= 150)); then
            say "still running after 30 s; sending SIGKILL"
            kill -KILL "${pid}" 2>/dev/null || true
            break
        fi
        sleep 0.2
        waited=$((waited + 1))
    done
    rm -f "${PID_FILE}" "${KUBECONFIG_FILE}"
    say "stopped"
}

status() {
    local pid
    if ! pid="$(running_pid)"; then
        say "not running"
        return 1
    fi
    local server version ready
    server="$(kubectl --kubeconfig "${KUBECONFIG_FILE}" config view --minify -o 'jsonpath={.clusters[0].cluster.server}' 2>/dev/null || true)"
    version="$(kubectl --kubeconfig "${KUBECONFIG_FILE}" get --raw /version 2>/dev/null |
        sed -n 's/.*"gitVersion": *"\([^"]*\)".*/\1/p' || true)"
    ready="$(kubectl --kubeconfig "${KUBECONFIG_FILE}" get --raw /readyz 2>/dev/null || echo "not ready")"
    echo "running: pid ${pid}, ${server:-no server yet}, kube-apiserver ${version:-?}, readyz ${ready}"
    echo "export KUBECONFIG=${KUBECONFIG_FILE}"
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    status) status ;;
    *)
        echo "usage: $0 up|down|status" >&2
        exit 2
        ;;
esac
