#!/usr/bin/env bash
# The project's main job: list every pod of a cluster with the pod lister (controllers/podlister),
# as `kubectl get pods -A` does, paged through the ctrl client.
#
#   hack/run-local.sh                  build; start a local real control plane (kube-apiserver +
#                                      etcd on loopback); create 3 namespaces x 20 pods in it
#                                      (kept; a re-run reuses them); list them; leave it running
#   hack/run-local.sh --kubeconfig F   build; list the pods of the cluster in F (no local control
#                                      plane, nothing created). $KUBECONFIG counts as --kubeconfig.
#   hack/run-local.sh ... -- ARGS      pass ARGS to podlister, e.g. -- -o json, -- --chunk-size 10
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
step() { echo "== run-local.sh: $*" >&2; }

kubeconfig="${KUBECONFIG:-}"
lister_args=()
while (($# > 0)); do
    case "$1" in
        --kubeconfig) kubeconfig="${2:?--kubeconfig needs a path}"; shift 2 ;;
        --kubeconfig=*) kubeconfig="${1#*=}"; shift ;;
        --) shift; lister_args=("$@"); break ;;
        -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run-local.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
local_cluster=false
[[ -z "${kubeconfig}" ]] && local_cluster=true

step "installing packages"
"${ROOT}/hack/install-deps.sh"

if ${local_cluster}; then
    step "building the control plane (cached after the first run)"
    CTRL_ENVTEST_BIN_DIR="$("${ROOT}/hack/setup-envtest.sh" | tail -1)"
    export CTRL_ENVTEST_BIN_DIR
fi

step "building"
CTRL_BUILD_DIR="${BUILD_DIR}" "${ROOT}/hack/build.sh" -DCTRL_BUILD_TESTS=ON

if ${local_cluster}; then
    step "starting the local control plane"
    export_line="$(CTRL_BUILD_DIR="${BUILD_DIR}" "${ROOT}/hack/control-plane.sh" up | tail -1)"
    kubeconfig="${export_line#export KUBECONFIG=}"
    step "creating 3 namespaces x 20 pods (demo-1..demo-3; pods stay Pending: no scheduler or kubelet runs)"
    "${BUILD_DIR}/test/support/ctrl-workload" --kubeconfig "${kubeconfig}" --prefix demo \
        --namespaces 3 --pods-per-namespace 20 --nodes 3
fi

[[ -r "${kubeconfig}" ]] || { echo "run-local.sh: kubeconfig '${kubeconfig}' is not readable" >&2; exit 1; }
step "listing every pod of the cluster in ${kubeconfig}"
"${BUILD_DIR}/controllers/podlister/podlister" --kubeconfig "${kubeconfig}" "${lister_args[@]}"

if ${local_cluster}; then
    cat <<MSG

The local control plane keeps running. Use it with:
    export KUBECONFIG=${kubeconfig}
    kubectl get pods -A
    ${BUILD_DIR}/controllers/podlister/podlister --chunk-size 10
Stop it with:
    hack/control-plane.sh down
MSG
fi
