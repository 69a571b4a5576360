#!/usr/bin/env bash
# The project's main job. Today: start a local real control plane (kube-apiserver + etcd on
# loopback) and show how to use it. As the sample operator lands, this script runs it: against
# the cluster of --kubeconfig PATH / $KUBECONFIG when given, else against the local one.
#
#   hack/run-local.sh                  build everything, start the local control plane
#   hack/run-local.sh --kubeconfig F   use the cluster in F instead (no local control plane)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
step() { echo "== run-local.sh: $*" >&2; }

kubeconfig="${KUBECONFIG:-}"
while (($# > 0)); do
    case "$1" in
        --kubeconfig) kubeconfig="${2:?--kubeconfig needs a path}"; shift 2 ;;
        --kubeconfig=*) kubeconfig="${1#*=}"; shift ;;
        -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run-local.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

step "installing packages"
"${ROOT}/hack/install-deps.sh"

if [[ -z "${kubeconfig}" ]]; then
    step "building the control plane (cached after the first run)"
    CTRL_ENVTEST_BIN_DIR="$("${ROOT}/hack/setup-envtest.sh" | tail -1)"
    export CTRL_ENVTEST_BIN_DIR
fi

step "building"
CTRL_BUILD_DIR="${BUILD_DIR}" "${ROOT}/hack/build.sh" -DCTRL_BUILD_TESTS=ON

if [[ -z "${kubeconfig}" ]]; then
    step "starting the local control plane"
    export_line="$(CTRL_BUILD_DIR="${BUILD_DIR}" "${ROOT}/hack/control-plane.sh" up | tail -1)"
    kubeconfig="${export_line#export KUBECONFIG=}"
fi

[[ -r "${kubeconfig}" ]] || { echo "run-local.sh: kubeconfig '${kubeconfig}' is not readable" >&2; exit 1; }
step "cluster in ${kubeconfig}:"
echo "  server $(kubectl --kubeconfig "${kubeconfig}" get --raw /version | sed -n 's/.*"gitVersion": *"\([^"]*\)".*/\1/p')"
kubectl --kubeconfig "${kubeconfig}" get namespaces

cat <<MSG

The control plane is running. Use it with:
    export KUBECONFIG=${kubeconfig}
    kubectl get namespaces
Stop it with:
    hack/control-plane.sh down
MSG
