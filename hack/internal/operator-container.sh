#!/usr/bin/env bash
# Runs the operator image as a container the way a kubelet runs the Deployment's pod, in the
# foreground (hack/run-local.sh --image): user 65532, read-only root file system, every capability
# dropped, no new privileges, the ServiceAccount's token, CA and namespace mounted at
# /var/run/secrets/kubernetes.io/serviceaccount, KUBERNETES_SERVICE_HOST/PORT naming the API
# server; host network, so the API server and the operator's ports are those of this machine.
#
#   hack/internal/operator-container.sh KUBECONFIG DIR NAME IMAGE [OPERATOR ARGS...]
#
# KUBECONFIG names the cluster (its current context's server and CA) and may create tokens; DIR
# receives serviceaccount/ (a TokenRequest token of ctrl-system/ctrl-operator for 24 h, ca.crt,
# namespace); NAME is the container's. `podman run --rm` then takes this script's place (same pid):
# its output is the operator's, SIGTERM reaches the operator, its exit code is the operator's.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NAMESPACE=ctrl-system
die() { echo "operator-container.sh: error: $*" >&2; exit 1; }

(($# >= 4)) || die "usage: $0 KUBECONFIG DIR NAME IMAGE [OPERATOR ARGS...]"
kubeconfig="$1" dir="$2" name="$3" image="$4"
shift 4
kc() { kubectl --kubeconfig "${kubeconfig}" "$@"; }

server="$(kc config view --minify -o 'jsonpath={.clusters[0].cluster.server}')"
# KUBERNETES_SERVICE_HOST/PORT from the server's URL (https://host[:port], IPv6 in brackets).
host_port="${server#https://}"
host_port="${host_port%%/*}"
if [[ "${server}" == https://* && ("${host_port}" =~ ^\[(.*)\](:([0-9]+))?$ || "${host_port}" =~ ^([^:]*)(:([0-9]+))?$) ]]; then
    service_host="${BASH_REMATCH[1]}" service_port="${BASH_REMATCH[3]:-443}"
else
    die "cannot take an https host and port from the server '${server}' of ${kubeconfig}"
fi

# What a kubelet mounts for the pod, readable by the container's user (mode 0644, as a kubelet's).
sa_dir="${dir}/serviceaccount"
mkdir -p "${sa_dir}"
kc create token ctrl-operator -n "${NAMESPACE}" --duration=24h >"${sa_dir}/token"
kc config view --raw --minify --flatten -o 'jsonpath={.clusters[0].cluster.certificate-authority-data}' |
    base64 -d >"${sa_dir}/ca.crt"
[[ -s "${sa_dir}/ca.crt" ]] ||
    die "${kubeconfig} names no CA for ${server} (certificate-authority), which the in-cluster configuration needs"
printf '%s' "${NAMESPACE}" >"${sa_dir}/namespace"
chmod 755 "${sa_dir}"
chmod 644 "${sa_dir}/token" "${sa_dir}/ca.crt" "${sa_dir}/namespace"

exec "${ROOT}/hack/internal/podman.sh" run --rm --name "${name}" --pull=never --network=host \
    --user=65532:65532 --read-only --cap-drop=ALL --security-opt=no-new-privileges \
    --volume "${sa_dir}:/var/run/secrets/kubernetes.io/serviceaccount:ro" \
    --env "KUBERNETES_SERVICE_HOST=${service_host}" --env "KUBERNETES_SERVICE_PORT=${service_port}" \
    "${image}" "$@"
