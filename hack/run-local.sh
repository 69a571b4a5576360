#!/usr/bin/env bash
# The project's main job: the sample operator (ctrl-operator, the SecurityGroupPolicy watcher) at
# work on a real API server, watched by a real Prometheus.
#
#   hack/run-local.sh                  install packages; build; start a local real control plane
#                                      (kube-apiserver + etcd on loopback); apply
#                                      manifests/overlays/bare (CRDs, namespace, RBAC, an inert
#                                      Deployment) without its webhook configurations, and the
#                                      samples (ServiceAccounts, valid and invalid
#                                      SecurityGroupPolicies, pods: the webhooks are not up yet);
#                                      run ctrl-operator as its ServiceAccount (leader election,
#                                      secure metrics, admission webhooks with self-managed
#                                      certificates on 127.0.0.1); then apply the webhook
#                                      configurations calling it by URL and wait until the API
#                                      server does; run a Prometheus scraping it over HTTPS with a
#                                      token; print each pod's security groups, each policy's
#                                      status, the webhook refusing an invalid policy and metrics
#                                      read back from Prometheus. Everything keeps running. A
#                                      re-run reuses the control plane, the objects and
#                                      Prometheus, and restarts the operator (its webhook
#                                      configurations are removed meanwhile).
#   hack/run-local.sh --kubeconfig F   the same against the cluster in F, without a local control
#                                      plane, the Deployment or the samples ($KUBECONFIG counts too),
#                                      without the CRDs when F's cluster has its own (EKS), and
#                                      without webhooks: that API server cannot call this machine's
#                                      loopback
#   hack/run-local.sh ... --samples    create the samples in that cluster too
#   hack/run-local.sh ... --image      run the operator image (hack/image.sh builds it) as a
#                                      container instead of the binary as a process, the way a
#                                      kubelet runs it: user 65532, read-only root, no capabilities,
#                                      the ServiceAccount's token, CA and namespace mounted at
#                                      /var/run/secrets/kubernetes.io/serviceaccount; host network
#   hack/run-local.sh ... --shards N   run N operator processes (N >= 2) with the pod controller
#                                      sharded over them (--shard-ring sgp-pods): each reconciles
#                                      the pods of its buckets; replica i listens on the ports + i;
#                                      only the first serves the webhooks; Prometheus scrapes all
#   hack/run-local.sh --down           stop the operator, Prometheus and the local control plane
#   hack/run-local.sh ... -- ARGS      extra flags for ctrl-operator, e.g. -- -v 2
#
#   CTRL_STATE_DIR        pid files, logs, the operator's kubeconfig, Prometheus' data
#                         (default: ${XDG_STATE_HOME:-~/.local/state}/ctrl/run-local)
#   CTRL_METRICS_PORT     the operator's /metrics, HTTPS, on 127.0.0.1 (default 8443)
#   CTRL_PROBE_PORT       its /healthz and /readyz (default 8081)
#   CTRL_WEBHOOK_PORT     its admission webhooks, HTTPS, on 127.0.0.1 (default 9443)
#   CTRL_PROMETHEUS_PORT  Prometheus' UI and API (default 9190, beside a system Prometheus on 9090)
#   CTRL_BUILD_DIR        the build directory (default: build); CTRL_CONTROL_PLANE_DIR: see
#                         hack/control-plane.sh; CTRL_ENVTEST_BIN_DIR: kube-apiserver and etcd to
#                         use instead of hack/setup-envtest.sh's
#   CTRL_SKIP_BUILD=1     use the build as it is: no package installation, no build (tests)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
[[ "${BUILD_DIR}" == /* ]] || BUILD_DIR="${ROOT}/${BUILD_DIR}"
STATE_DIR="${CTRL_STATE_DIR:-${XDG_STATE_HOME:-${HOME}/.local/state}/ctrl/run-local}"
METRICS_PORT="${CTRL_METRICS_PORT:-8443}"
PROBE_PORT="${CTRL_PROBE_PORT:-8081}"
WEBHOOK_PORT="${CTRL_WEBHOOK_PORT:-9443}"
PROMETHEUS_PORT="${CTRL_PROMETHEUS_PORT:-9190}"
OPERATOR="${BUILD_DIR}/controllers/operator/ctrl-operator"
PODLISTER="${BUILD_DIR}/controllers/podlister/podlister"
NAMESPACE=ctrl-system
SCRAPE_SA=ctrl-metrics-reader
METRICS_READER_ROLE=metrics-reader
PROMETHEUS_URL="http://127.0.0.1:${PROMETHEUS_PORT}"
ANNOTATION=ctrl.example.com/security-groups
# The operator's admission webhooks: their configurations (manifests/webhook/webhooks.yaml) and the
# Secret of their self-managed certificates.
WEBHOOK_CONFIGURATIONS=(validatingwebhookconfiguration/ctrl-operator-sgp-rules
    mutatingwebhookconfiguration/ctrl-operator-sgp-defaults)
WEBHOOK_SECRET=ctrl-operator-webhook-certs
WAIT_SECONDS=120

step() { echo "== run-local.sh: $*" >&2; }
warn() { echo "run-local.sh: warning: $*" >&2; }
die() { echo "run-local.sh: error: $*" >&2; exit 1; }

kubeconfig="${KUBECONFIG:-}"
samples=""
down=false
image=false
operator_args=()
shards=0
MAX_SHARDS=8
while (($# > 0)); do
    case "$1" in
        --kubeconfig) kubeconfig="${2:?--kubeconfig needs a path}"; shift 2 ;;
        --kubeconfig=*) kubeconfig="${1#*=}"; shift ;;
        --samples) samples=true; shift ;;
        --down) down=true; shift ;;
        --) shift; operator_args=("$@"); break ;;
        --image) image=true; shift ;;
        --shards) shards="${2:?--shards needs a number}"; shift 2 ;;
        --shards=*) shards="${1#*=}"; shift ;;
        -h|--help) sed -n '2,49p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "run-local.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
if [[ ! "${shards}" =~ ^[0-9]+$ ]] || ((shards == 1 || shards > MAX_SHARDS)); then
    echo "run-local.sh: --shards ${shards}: give a number of replicas from 2 to ${MAX_SHARDS}" >&2
    exit 2
fi
if ((shards > 0)) && ${image}; then
    echo "run-local.sh: --shards runs operator processes; it does not go with --image" >&2
    exit 2
fi
# $KUBECONFIG naming the local control plane's own kubeconfig (as the final message suggests) is
# the local demo, not a cluster of the user's.
local_kubeconfig="${CTRL_CONTROL_PLANE_DIR:-${XDG_RUNTIME_DIR:-/tmp}/ctrl-control-plane}/kubeconfig"
if [[ -n "${kubeconfig}" && "${kubeconfig}" == "${KUBECONFIG:-}" &&
    "$(realpath -m "${kubeconfig}")" == "$(realpath -m "${local_kubeconfig}")" ]]; then
    kubeconfig=""
fi
local_cluster=false
[[ -z "${kubeconfig}" ]] && local_cluster=true
[[ -n "${samples}" ]] || samples=${local_cluster}
# Only a local control plane's API server can call the operator on this machine's loopback.
webhooks=${local_cluster}

# --- processes of the state directory: <name>.pid, checked against the command line -------------

# Prints the pid of the running process NAME (whose command line contains PATTERN), or fails.
running_pid() {
    local name="$1" pattern="$2" pid
    [[ -f "${STATE_DIR}/${name}.pid" ]] || return 1
    pid="$(cat "${STATE_DIR}/${name}.pid")"
    [[ "${pid}" =~ ^[0-9]+$ ]] && kill -0 "${pid}" 2>/dev/null || return 1
    tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null | grep -q -- "${pattern}" || return 1
    echo "${pid}"
}

# Stops NAME gracefully (SIGTERM; SIGKILL after 30 s) if it runs.
stop_process() {
    local name="$1" pattern="$2" pid waited=0
    if pid="$(running_pid "${name}" "${pattern}")"; then
        kill -TERM "${pid}" 2>/dev/null || true
        while kill -0 "${pid}" 2>/dev/null; do
            if ((waited >= 150)); then
                warn "${name} (pid ${pid}) still runs 30 s after SIGTERM; sending SIGKILL"
                kill -KILL "${pid}" 2>/dev/null || true
                break
            fi
            sleep 0.2
            waited=$((waited + 1))
        done
        step "stopped ${name} (pid ${pid})"
    fi
    rm -f "${STATE_DIR}/${name}.pid"
}

# --image: the operator's container, named after the state directory. `podman run` runs in the
# foreground as the "process" ctrl-operator (its pid file, its log, SIGTERM reaches the operator).
PODMAN="${ROOT}/hack/internal/podman.sh"
CONTAINER="ctrl-run-local-$(printf '%s' "${STATE_DIR}" | md5sum | cut -c1-8)"
stop_container() {
    command -v podman >/dev/null && "${PODMAN}" container exists "${CONTAINER}" 2>/dev/null || return 0
    # SIGTERM, SIGKILL after the Deployment's grace period (45 s); removed, so the name is free.
    "${PODMAN}" rm --force --time 45 "${CONTAINER}" >/dev/null 2>&1 || warn "podman rm --force ${CONTAINER} failed"
    step "stopped container ${CONTAINER}"
}

# Fails naming the user of 127.0.0.1:PORT when something listens there.
require_free_port() {
    local port="$1" variable="$2"
    if (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null; then
        local who
        who="$(ss -Hltnp "sport = :${port}" 2>/dev/null | sed -n 's/.*users:((\(.*\)))/\1/p' | head -1)"
        die "port ${port} is in use${who:+ by ${who}}; choose another with ${variable}=PORT"
    fi
}

# Runs CONDITION (a command) every 0.5 s until it succeeds or SECONDS pass; fails then.
wait_for() {
    local seconds="$1"
    shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.5
    done
}

# Stops the replicas a --shards run started beside ctrl-operator (ctrl-operator-1, ...).
stop_replicas() {
    local i
    for ((i = 1; i < MAX_SHARDS; i++)); do
        stop_process "ctrl-operator-${i}" ctrl-operator
    done
}

if ${down}; then
    stop_process prometheus prometheus
    stop_container
    stop_process ctrl-operator ctrl-operator
    stop_replicas
    if [[ -f "${STATE_DIR}/local-control-plane" ]]; then
        # The control plane the demo started, wherever CTRL_CONTROL_PLANE_DIR pointed then.
        control_plane_dir="$(cat "${STATE_DIR}/local-control-plane")"
        CTRL_BUILD_DIR="${BUILD_DIR}" CTRL_CONTROL_PLANE_DIR="${control_plane_dir:-${CTRL_CONTROL_PLANE_DIR:-}}" \
            "${ROOT}/hack/control-plane.sh" down
        rm -f "${STATE_DIR}/local-control-plane"
    fi
    step "everything the demo started is stopped (state, logs and Prometheus' data stay in ${STATE_DIR})"
    exit 0
fi

# --- build and cluster --------------------------------------------------------------------------

if [[ "${CTRL_SKIP_BUILD:-}" != 1 ]]; then
    step "installing packages"
    "${ROOT}/hack/install-deps.sh"
fi
command -v kubectl >/dev/null || die "kubectl is not installed (https://kubernetes.io/docs/tasks/tools/)"
if ${local_cluster}; then
    if [[ -x "${CTRL_ENVTEST_BIN_DIR:-}/kube-apiserver" && -x "${CTRL_ENVTEST_BIN_DIR:-}/etcd" ]]; then
        step "using the control plane binaries in CTRL_ENVTEST_BIN_DIR=${CTRL_ENVTEST_BIN_DIR}"
    else
        step "building the control plane (cached after the first run)"
        CTRL_ENVTEST_BIN_DIR="$("${ROOT}/hack/setup-envtest.sh" | tail -1)"
    fi
    export CTRL_ENVTEST_BIN_DIR
fi
if [[ "${CTRL_SKIP_BUILD:-}" != 1 ]]; then
    step "building"
    CTRL_BUILD_DIR="${BUILD_DIR}" "${ROOT}/hack/build.sh" -DCTRL_BUILD_TESTS=ON >&2
fi
[[ -x "${OPERATOR}" ]] || die "no operator binary at ${OPERATOR}; build it: cmake --build ${BUILD_DIR} --target ctrl-operator"
if ${image}; then
    IMAGE="localhost/$("${ROOT}/hack/image.sh" --tag)"
    if [[ "${CTRL_SKIP_BUILD:-}" != 1 ]]; then
        step "building the operator image (hack/image.sh)"
        "${ROOT}/hack/image.sh" >/dev/null
    fi
    "${PODMAN}" image exists "${IMAGE}" || die "no image ${IMAGE} in podman's storage; build it with hack/image.sh"
fi

mkdir -p "${STATE_DIR}"
chmod 700 "${STATE_DIR}"
if ${local_cluster}; then
    step "starting the local control plane (reused when it runs)"
    export_line="$(CTRL_BUILD_DIR="${BUILD_DIR}" "${ROOT}/hack/control-plane.sh" up | tail -1)"
    kubeconfig="${export_line#export KUBECONFIG=}"
    dirname "${kubeconfig}" >"${STATE_DIR}/local-control-plane"
fi

[[ -r "${kubeconfig}" ]] || die "kubeconfig '${kubeconfig}' is not readable"
kubeconfig="$(realpath "${kubeconfig}")"
kc() { kubectl --kubeconfig "${kubeconfig}" "$@"; }
server="$(kc config view --minify -o 'jsonpath={.clusters[0].cluster.server}' 2>&1)" ||
    die "kubeconfig '${kubeconfig}' is not usable: ${server}"
[[ -n "${server}" ]] || die "kubeconfig '${kubeconfig}' names no server in its current context"
if ! reached="$(kc --request-timeout=15s get --raw /version 2>&1)"; then
    die "cannot reach the API server ${server} (kubeconfig ${kubeconfig}): ${reached}"
fi

# --- manifests and samples ----------------------------------------------------------------------

# Prints the documents of the multi-document YAML on stdin whose top-level kind is not KIND.
drop_kind() {
    awk -v kind="$1" 'BEGIN { RS = "\n---\n" }
        $0 !~ ("(^|\n)kind: " kind "(\n|$)") { printf "%s%s\n", (n++ ? "---\n" : ""), $0 }'
}
# The documents of stdin without the webhook configurations (applied once the operator serves them).
drop_webhook_configurations() {
    drop_kind ValidatingWebhookConfiguration | drop_kind MutatingWebhookConfiguration
}
SGP_CRD=securitygrouppolicies.vpcresources.k8s.aws
# The CRDs come from the component manifests/components/crds (overlay manifests/overlays/bare) on
# the local control plane, and on another cluster only when it has no SecurityGroupPolicy CRD: where
# one is installed (EKS: AWS's, without a status subresource) it is left as it is.
manifests="${ROOT}/manifests/overlays/bare"
if ! ${local_cluster} && kc get crd "${SGP_CRD}" >/dev/null 2>&1; then
    manifests="${ROOT}/manifests"
    step "the cluster has its own ${SGP_CRD}: applying manifests/ without the CRDs"
fi
# The webhook configurations (failurePolicy Fail) wait until the operator serves them: before that
# they would refuse every SecurityGroupPolicy write, the samples' too. A re-run restarts the
# operator, so the ones of the last run go until then.
if ${webhooks}; then
    for configuration in "${WEBHOOK_CONFIGURATIONS[@]}"; do
        kc delete "${configuration}" --ignore-not-found >&2
    done
fi
step "applying ${manifests#"${ROOT}/"} (namespace ${NAMESPACE}, RBAC, metrics and webhook Services, Deployment, and CRDs with the overlay; not the webhook configurations yet)"
if ${local_cluster}; then
    # Its Deployment stays inert: no kubelet runs locally.
    kc kustomize "${manifests}" | drop_webhook_configurations | kc apply -f - >&2
else
    step "(not the Deployment: the local ctrl-operator is the operator of this cluster)"
    step "(not the webhook configurations: this cluster's API server cannot call the local ctrl-operator on loopback, so it serves no webhooks; the Deployment of manifests/ does, in the cluster)"
    kc kustomize "${manifests}" | drop_kind Deployment | drop_webhook_configurations | kc apply -f - >&2
    # Configurations a local run pointed at this machine's loopback have no one to call now.
    for configuration in "${WEBHOOK_CONFIGURATIONS[@]}"; do
        url="$(kc get "${configuration}" -o 'jsonpath={.webhooks[*].clientConfig.url}' 2>/dev/null || true)"
        if [[ "${url}" == https://127.0.0.1:* ]]; then
            step "deleting ${configuration}: it calls ${url%% *}, which no operator serves in this run"
            kc delete "${configuration}" >&2
        fi
    done
fi
kc wait --for=condition=Established --timeout=60s "crd/${SGP_CRD}" >&2
# --shards: the ring's Leases need list and delete besides leader election's rules.
if ((shards > 0)); then
    step "applying manifests/components/sharded/shard_ring_role.yaml (the shard ring's Leases)"
    kc apply -f "${ROOT}/manifests/components/sharded/shard_ring_role.yaml" >&2
fi

# Prometheus scrapes as a ServiceAccount bound to the manifests' metrics-reader ClusterRole.
kc get clusterrole "${METRICS_READER_ROLE}" >/dev/null ||
    die "no ClusterRole ${METRICS_READER_ROLE} (manifests/rbac/metrics_reader_role.yaml) in the cluster"
kc apply -f - >&2 <<YAML
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ${SCRAPE_SA}
  namespace: ${NAMESPACE}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: ${SCRAPE_SA}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: ${METRICS_READER_ROLE}
subjects:
  - kind: ServiceAccount
    name: ${SCRAPE_SA}
    namespace: ${NAMESPACE}
YAML

if ${samples}; then
    step "applying manifests/samples/ (namespace sgp-demo: ServiceAccounts, SecurityGroupPolicies, pods; pods stay Pending: no scheduler or kubelet runs)"
    kc apply -k "${ROOT}/manifests/samples/" >&2
fi

# --- the operator, as its ServiceAccount --------------------------------------------------------

step "writing ${STATE_DIR}/operator.kubeconfig (a TokenRequest token of ServiceAccount ${NAMESPACE}/ctrl-operator)"
umask 077
write_token_kubeconfig() {
    local service_account="$1" file="$2" token ca insecure tls_server_name
    token="$(kc create token "${service_account}" -n "${NAMESPACE}" --duration=24h)"
    ca="$(kc config view --raw --minify --flatten -o 'jsonpath={.clusters[0].cluster.certificate-authority-data}')"
    insecure="$(kc config view --minify -o 'jsonpath={.clusters[0].cluster.insecure-skip-tls-verify}')"
    tls_server_name="$(kc config view --minify -o 'jsonpath={.clusters[0].cluster.tls-server-name}')"
    {
        echo "apiVersion: v1"
        echo "kind: Config"
        echo "clusters:"
        echo "  - name: cluster"
        echo "    cluster:"
        echo "      server: ${server}"
        [[ -n "${ca}" ]] && echo "      certificate-authority-data: ${ca}"
        [[ "${insecure}" == true ]] && echo "      insecure-skip-tls-verify: true"
        [[ -n "${tls_server_name}" ]] && echo "      tls-server-name: ${tls_server_name}"
        echo "users:"
        echo "  - name: ${service_account}"
        echo "    user:"
        echo "      token: ${token}"
        echo "contexts:"
        echo "  - name: ${service_account}"
        echo "    context: {cluster: cluster, user: ${service_account}, namespace: ${NAMESPACE}}"
        echo "current-context: ${service_account}"
    } >"${file}"
}
write_token_kubeconfig ctrl-operator "${STATE_DIR}/operator.kubeconfig"
kc create token "${SCRAPE_SA}" -n "${NAMESPACE}" --duration=24h >"${STATE_DIR}/prometheus.token"
if ${image}; then
    step "the operator runs in container ${CONTAINER} of ${IMAGE}, with ServiceAccount ${NAMESPACE}/ctrl-operator's files in ${STATE_DIR}/serviceaccount/"
    operator_command=("${ROOT}/hack/internal/operator-container.sh" "${kubeconfig}" "${STATE_DIR}" "${CONTAINER}" "${IMAGE}")
else
    operator_command=("${OPERATOR}" --kubeconfig "${STATE_DIR}/operator.kubeconfig")
fi
umask 022

stop_container
stop_process ctrl-operator ctrl-operator
stop_replicas
require_free_port "${METRICS_PORT}" CTRL_METRICS_PORT
require_free_port "${PROBE_PORT}" CTRL_PROBE_PORT
shard_args=()
((shards == 0)) || shard_args=(--shard-ring sgp-pods --shard-identity run-local-0 --shard-namespace "${NAMESPACE}")
# The webhooks: a CA and a serving certificate for 127.0.0.1 that the operator makes and keeps in
# Secret ctrl-system/ctrl-operator-webhook-certs, and injects into its webhook configurations.
webhook_args=()
if ${webhooks}; then
    require_free_port "${WEBHOOK_PORT}" CTRL_WEBHOOK_PORT
    webhook_args=(--webhook-host 127.0.0.1 --webhook-port "${WEBHOOK_PORT}"
        --webhook-cert-secret "${NAMESPACE}/${WEBHOOK_SECRET}" --webhook-cert-ip 127.0.0.1)
fi
step "starting ctrl-operator (log ${STATE_DIR}/ctrl-operator.log)"
nohup "${operator_command[@]}" \
    --leader-elect --leader-election-namespace "${NAMESPACE}" \
    --metrics-bind-address "127.0.0.1:${METRICS_PORT}" --metrics-secure \
    --health-probe-bind-address "127.0.0.1:${PROBE_PORT}" \
    "${webhook_args[@]}" "${shard_args[@]}" "${operator_args[@]}" >"${STATE_DIR}/ctrl-operator.log" 2>&1 </dev/null &
echo $! >"${STATE_DIR}/ctrl-operator.pid"
# --shards N: replicas 1..N-1 on the next ports, on the same ring, without webhooks.
for ((i = 1; i < shards; i++)); do
    require_free_port "$((METRICS_PORT + i))" CTRL_METRICS_PORT
    require_free_port "$((PROBE_PORT + i))" CTRL_PROBE_PORT
    step "starting replica ctrl-operator-${i} of ring sgp-pods (log ${STATE_DIR}/ctrl-operator-${i}.log)"
    nohup "${operator_command[@]}" \
        --leader-elect --leader-election-namespace "${NAMESPACE}" \
        --metrics-bind-address "127.0.0.1:$((METRICS_PORT + i))" --metrics-secure \
        --health-probe-bind-address "127.0.0.1:$((PROBE_PORT + i))" \
        --shard-ring sgp-pods --shard-identity "run-local-${i}" --shard-namespace "${NAMESPACE}" \
        "${operator_args[@]}" >"${STATE_DIR}/ctrl-operator-${i}.log" 2>&1 </dev/null &
    echo $! >"${STATE_DIR}/ctrl-operator-${i}.pid"
done

# --- Prometheus ---------------------------------------------------------------------------------

metrics_targets="'127.0.0.1:${METRICS_PORT}'"
for ((i = 1; i < shards; i++)); do
    metrics_targets+=", '127.0.0.1:$((METRICS_PORT + i))'"
done
cat >"${STATE_DIR}/prometheus.yml.new" <<YAML
# Written by hack/run-local.sh: scrape ctrl-operator's secure /metrics with a ServiceAccount token.
global:
  scrape_interval: 5s
  scrape_timeout: 4s
  evaluation_interval: 5s
scrape_configs:
  - job_name: ctrl-operator
    scheme: https
    tls_config:
      insecure_skip_verify: true  # the operator's self-signed serving certificate
    authorization:
      type: Bearer
      credentials_file: ${STATE_DIR}/prometheus.token  # re-read on each scrape
    static_configs:
      - targets: [${metrics_targets}]
YAML
prometheus_args=(--config.file="${STATE_DIR}/prometheus.yml" --storage.tsdb.path="${STATE_DIR}/prometheus"
    --storage.tsdb.retention.time=2d --web.listen-address="127.0.0.1:${PROMETHEUS_PORT}" --log.level=warn)
if pid="$(running_pid prometheus prometheus)" &&
    cmp -s "${STATE_DIR}/prometheus.yml.new" "${STATE_DIR}/prometheus.yml" &&
    [[ "$(cat "${STATE_DIR}/prometheus.args" 2>/dev/null)" == "${prometheus_args[*]}" ]]; then
    step "Prometheus already runs with this configuration (pid ${pid}); reusing it"
    rm -f "${STATE_DIR}/prometheus.yml.new"
else
    stop_process prometheus prometheus
    require_free_port "${PROMETHEUS_PORT}" CTRL_PROMETHEUS_PORT
    mv "${STATE_DIR}/prometheus.yml.new" "${STATE_DIR}/prometheus.yml"
    echo "${prometheus_args[*]}" >"${STATE_DIR}/prometheus.args"
    step "starting Prometheus on ${PROMETHEUS_URL} (log ${STATE_DIR}/prometheus.log)"
    nohup prometheus "${prometheus_args[@]}" >"${STATE_DIR}/prometheus.log" 2>&1 </dev/null &
    echo $! >"${STATE_DIR}/prometheus.pid"
fi

# --- waiting until there is something to show ---------------------------------------------------

operator_ready() {
    running_pid ctrl-operator ctrl-operator >/dev/null ||
        { tail -n 30 "${STATE_DIR}/ctrl-operator.log" >&2; die "ctrl-operator exited (log above, ${STATE_DIR}/ctrl-operator.log)"; }
    curl -sf --max-time 5 "http://127.0.0.1:${PROBE_PORT}/readyz" >/dev/null || return 1
    # --shards: every replica, ready once the ring has settled (each owns its share).
    local i
    for ((i = 1; i < shards; i++)); do
        running_pid "ctrl-operator-${i}" ctrl-operator >/dev/null ||
            { tail -n 30 "${STATE_DIR}/ctrl-operator-${i}.log" >&2; die "ctrl-operator-${i} exited (log above)"; }
        curl -sf --max-time 5 "http://127.0.0.1:$((PROBE_PORT + i))/readyz" >/dev/null || return 1
    done
}
step "waiting for ctrl-operator to be ready (/readyz)$( ((shards == 0)) || echo ", and its ${shards} replicas")"
if ! wait_for "${WAIT_SECONDS}" operator_ready; then
    curl -s --max-time 5 "http://127.0.0.1:${PROBE_PORT}/readyz?verbose" >&2 || true
    tail -n 30 "${STATE_DIR}/ctrl-operator.log" >&2
    die "ctrl-operator is not ready after ${WAIT_SECONDS} s (readyz and log above)"
fi

# A policy the validating webhook refuses (no selector, a group id that is not one), tried with a
# server dry run: the refusal, or what the API server said instead.
INVALID_POLICY="apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata: {name: run-local-webhook-check, namespace: ${NAMESPACE}}
spec:
  securityGroups: {groupIds: [sg-123]}"
webhook_answer() { kc apply --dry-run=server -f - <<<"${INVALID_POLICY}" 2>&1 || true; }
# Only the validating webhook says this (the CRD's schema cannot): before the API server trusts the
# operator's CA it answers "failed calling webhook ... x509" instead.
webhook_refuses() { webhook_answer | grep -q '"sg-123" is not a security group id'; }
if ${webhooks}; then
    # ready: the webhook server serves with a certificate. The configurations call it by URL.
    step "applying the webhook configurations, calling https://127.0.0.1:${WEBHOOK_PORT} (ctrl-operator injects its CA bundle)"
    kc kustomize "${ROOT}/manifests/webhook" | kc create --dry-run=client -o json -f - |
        python3 "${ROOT}/hack/internal/webhook_urls.py" "https://127.0.0.1:${WEBHOOK_PORT}" | kc apply -f - >&2
    step "waiting until the API server calls the webhooks (a server dry run of an invalid policy is refused)"
    if ! wait_for 60 webhook_refuses; then
        webhook_answer >&2
        tail -n 30 "${STATE_DIR}/ctrl-operator.log" >&2
        die "the API server does not call ctrl-operator's webhooks after 60 s (its answer and the log above)"
    fi
fi

# Every policy's status has caught up with its spec.
policies_observed() {
    local pending
    pending="$(kc get securitygrouppolicies -A -o \
        'jsonpath={range .items[*]}{.metadata.generation}/{.status.observedGeneration}{"\n"}{end}' |
        awk -F/ '$1 != $2' | wc -l)"
    ((pending == 0))
}
# Whether the served SecurityGroupPolicy has a status subresource (AWS's CRD has none: the operator
# then reports through Events and metrics).
status_subresource_served() {
    kc get --raw /apis/vpcresources.k8s.aws/v1beta1 | grep -q '"securitygrouppolicies/status"'
}
if status_subresource_served; then
    step "waiting for the operator to report every SecurityGroupPolicy's status"
    wait_for 60 policies_observed || warn "some SecurityGroupPolicies have no up-to-date status after 60 s"
else
    step "SecurityGroupPolicy has no status subresource here: the operator reports through Events (PolicyValid, PolicyInvalid) and sgp_policy_valid"
    sleep 5
fi
settled_at="$(date +%s)"

# Prints Prometheus' answer to the PromQL QUERY, one "metric{labels} value" line per series.
promql() {
    curl -sf --max-time 10 --get --data-urlencode "query=$1" "${PROMETHEUS_URL}/api/v1/query" |
        python3 "${ROOT}/hack/internal/promql_lines.py"
}
# Every operator process (one, or --shards N) scraped successfully since then.
scraped_since_settled() {
    local scraped
    scraped="$(promql "count(timestamp(up{job=\"ctrl-operator\"} == 1) > ${settled_at})" 2>/dev/null | awk '{print $NF}')"
    [[ "${scraped:-0}" == "$((shards > 0 ? shards : 1))" ]]
}
step "waiting for Prometheus to scrape the operator over HTTPS"
if ! wait_for 60 scraped_since_settled; then
    promql 'up' >&2 || true
    tail -n 10 "${STATE_DIR}/prometheus.log" >&2 || true
    die "Prometheus has not scraped ctrl-operator within 60 s (${PROMETHEUS_URL}/targets says why)"
fi

# --- what a user wants to see -------------------------------------------------------------------

echo
echo "Pods and their security groups (annotation ${ANNOTATION}, written by ctrl-operator):"
kc get pods -A -o "custom-columns=NAMESPACE:.metadata.namespace,NAME:.metadata.name,SERVICE-ACCOUNT:.spec.serviceAccountName,LABELS:.metadata.labels,SECURITY-GROUPS:.metadata.annotations.${ANNOTATION//./\\.}"
echo
echo "SecurityGroupPolicies and their status:"
kc get securitygrouppolicies -A -o 'custom-columns=NAMESPACE:.metadata.namespace,NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,REASON:.status.conditions[?(@.type=="Ready")].reason,MATCHED-PODS:.status.matchedPods,MESSAGE:.status.conditions[?(@.type=="Ready")].message'
echo
if ${webhooks}; then
    echo "Admission webhooks: a server dry run of a policy without a selector and with group id sg-123 is refused:"
    webhook_answer | sed 's/^/  /'
else
    echo "Admission webhooks: off in this run (the cluster's API server cannot call this machine's loopback)."
fi
echo
echo "Metrics, read back from Prometheus (${PROMETHEUS_URL}):"
for query in \
    'up{job="ctrl-operator"}' \
    'sgp_kind_served' \
    'sgp_pods' \
    'sgp_invalid_policies' \
    'sgp_policy_valid' \
    'sgp_security_group_changes_total' \
    'podlister_pods' \
    'sum by (__name__, controller, result) (controller_runtime_reconcile_total{result=~"success|error"})' \
    'leader_election_master_status' \
    'ctrl_shard_owned_buckets' \
    'ctrl_shard_ring_members'; do
    if ! lines="$(promql "${query}")"; then
        warn "Prometheus did not answer ${query}"
    elif [[ -z "${lines}" ]]; then
        echo "  ${query}: no series (yet)"
    else
        echo "  ${lines//$'\n'/$'\n'  }"
    fi
done

operator_pid="$(running_pid ctrl-operator ctrl-operator)"
image_note=""
${image} && image_note="
                   in container ${CONTAINER} of image ${IMAGE} (podman, hack/internal/podman.sh)"
prometheus_pid="$(running_pid prometheus prometheus)"
cat <<MSG

Running (state, logs and pid files in ${STATE_DIR}):
    ctrl-operator  pid ${operator_pid}, as ServiceAccount ${NAMESPACE}/ctrl-operator; log ctrl-operator.log${image_note}
                   https://127.0.0.1:${METRICS_PORT}/metrics (token), http://127.0.0.1:${PROBE_PORT}/readyz?verbose
MSG
for ((i = 1; i < shards; i++)); do
    cat <<MSG
    ctrl-operator-${i} pid $(running_pid "ctrl-operator-${i}" ctrl-operator || echo "(exited)"), ring sgp-pods; log ctrl-operator-${i}.log
                   https://127.0.0.1:$((METRICS_PORT + i))/metrics, http://127.0.0.1:$((PROBE_PORT + i))/readyz?verbose
MSG
done
if ${webhooks}; then
    cat <<MSG
                   webhooks https://127.0.0.1:${WEBHOOK_PORT} (certificates in Secret ${NAMESPACE}/${WEBHOOK_SECRET})
MSG
fi
cat <<MSG
    Prometheus     pid ${prometheus_pid}, ${PROMETHEUS_URL} (try ${PROMETHEUS_URL}/targets)
MSG
if ${local_cluster}; then
    echo "    control plane  hack/control-plane.sh status"
fi
cat <<MSG
Try:
    export KUBECONFIG=${kubeconfig}
    kubectl get securitygrouppolicies -A
MSG
if ${samples}; then
    cat <<'MSG'
    kubectl label pod -n sgp-demo web-backend tier=edge --overwrite   # it gets web-frontend's groups
    kubectl get pod -n sgp-demo web-backend -o jsonpath='{.metadata.annotations}'
MSG
fi
if ${webhooks} && ${samples}; then
    cat <<'MSG'
    kubectl patch sgp -n sgp-demo web-frontend --type=merge -p '{"spec":{"securityGroups":{"groupIds":["sg-1"]}}}'   # refused
MSG
fi
cat <<MSG
    ${PODLISTER}     # the one-shot pod lister
Stop everything with:
    hack/run-local.sh --down
The tokens last 24 h; a re-run renews them (and restarts the operator).
MSG
