#!/usr/bin/env bash
# e2e, issue 15 acceptance 7 and 5: the README's main command, hack/run-local.sh, run twice in a
# row from a state this test owns (its own control plane directory, state directory and ports; the
# build under test via CTRL_BUILD_DIR, not rebuilt: CTRL_SKIP_BUILD=1), the second reusing what the
# first made; after each, the API server calls the operator's admission webhooks (issue 32: an
# invalid policy is refused with the validator's message, a valid one admitted) while the invalid
# sample policy, created before they served, has its False status; once more with --image (the
# operator image as a container: the same output); once more with --kubeconfig, which serves no
# webhooks and leaves no configuration calling loopback; then Prometheus' view of the operator: the
# target is up, scraped over HTTPS with a token, and every PromQL expression of
# manifests/grafana/*.json returns data. Before all that, the errors for a missing kubeconfig and an unreachable server. Everything
# it started is stopped at the end (hack/run-local.sh --down), pass or fail.
#
#   CTRL_BUILD_DIR=build test/e2e/run_local_test.sh     (ctest -L e2e sets it)
#   CTRL_KEEP_E2E_DIR=1   keep the work directory (logs, Prometheus data) afterwards
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export CTRL_BUILD_DIR="${CTRL_BUILD_DIR:-${ROOT}/build}"
WORK="$(mktemp -d /tmp/ctrl-e2e-run-local-XXXXXX)"
export CTRL_STATE_DIR="${WORK}/state" CTRL_CONTROL_PLANE_DIR="${WORK}/control-plane" CTRL_SKIP_BUILD=1
unset KUBECONFIG
read -r CTRL_METRICS_PORT CTRL_PROBE_PORT CTRL_PROMETHEUS_PORT CTRL_WEBHOOK_PORT < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(4)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in sockets])')
export CTRL_METRICS_PORT CTRL_PROBE_PORT CTRL_PROMETHEUS_PORT CTRL_WEBHOOK_PORT
PROMETHEUS="http://127.0.0.1:${CTRL_PROMETHEUS_PORT}"
RUN_LOCAL="${ROOT}/hack/run-local.sh"
START=${SECONDS}
failures=0

log() { echo "run_local_test [$((SECONDS - START))s]: $*" >&2; }
# A failure prints as gtest's do ("file:line: Failure"), which hack/test.sh repeats at the end.
fail() {
    local depth=1
    [[ "${FUNCNAME[1]:-}" == expect ]] && depth=2
    printf '%s:%s: Failure\nFAIL: %s\n' "${BASH_SOURCE[0]}" "${BASH_LINENO[depth - 1]}" "$*" >&2
    failures=$((failures + 1))
}
pass() { echo "ok: $*" >&2; }
# expect DESCRIPTION COMMAND...: runs the check, counts a failure.
expect() {
    local what="$1"
    shift
    if "$@"; then pass "${what}"; else fail "${what}"; fi
}
# Runs CONDITION every second until it succeeds or SECONDS pass.
eventually() {
    local seconds="$1"
    shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep 1
    done
}

# Pids of this test's processes whose command line matches PATTERN (the work dir is in each).
our_pids() { pgrep -f -- "$1" || true; }
count_of() { our_pids "$1" | grep -c . || true; }
OPERATOR_PATTERN="ctrl-operator --kubeconfig ${CTRL_STATE_DIR}/"
PROMETHEUS_PATTERN="prometheus --config.file=${CTRL_STATE_DIR}/"
CONTROL_PLANE_PATTERN="ctrl-control-plane up --dir ${CTRL_CONTROL_PLANE_DIR}"

cleanup() {
    local rc=$?
    log "stopping everything (hack/run-local.sh --down)"
    "${RUN_LOCAL}" --down >"${WORK}/down.out" 2>&1 || { cat "${WORK}/down.out" >&2; rc=1; }
    local left
    left="$(pgrep -f -- "${WORK}" || true)"
    if [[ -n "${left}" ]]; then
        echo "FAIL: processes left behind after --down:" >&2
        ps -o pid,args -p "${left//$'\n'/,}" >&2 || true
        for pid in ${left}; do kill -KILL "${pid}" 2>/dev/null || true; done
        rc=1
    fi
    if ((rc != 0)); then
        for file in "${CTRL_STATE_DIR}/ctrl-operator.log" "${CTRL_STATE_DIR}/prometheus.log"; do
            [[ -f "${file}" ]] && { echo "--- last lines of ${file}" >&2; tail -n 40 "${file}" >&2; }
        done
    fi
    if [[ "${CTRL_KEEP_E2E_DIR:-}" == 1 ]]; then
        echo "kept ${WORK}" >&2
    else
        rm -rf "${WORK}"
    fi
    log "done: $([[ ${rc} == 0 ]] && echo PASS || echo FAIL)"
    exit "${rc}"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# run_demo N [ARGS]: hack/run-local.sh ARGS, output in $WORK/runN.out (stdout) and runN.err (stderr).
run_demo() {
    local n="$1" began=${SECONDS}
    shift
    log "run ${n}: hack/run-local.sh $*"
    if ! "${RUN_LOCAL}" "$@" >"${WORK}/run${n}.out" 2>"${WORK}/run${n}.err"; then
        cat "${WORK}/run${n}.err" "${WORK}/run${n}.out" >&2
        echo "FAIL: run ${n} of hack/run-local.sh failed" >&2
        exit 1
    fi
    log "run ${n} took $((SECONDS - began)) s"
}

kc() { kubectl --kubeconfig "${CTRL_CONTROL_PLANE_DIR}/kubeconfig" "$@"; }

# dry_run_policy GROUP_ID SELECTOR: what a server dry run of a policy in sgp-demo with that group id
# and spec fields (e.g. "podSelector: {matchLabels: {app: x}}") answers, stderr included.
dry_run_policy() {
    kc apply --dry-run=server -f - 2>&1 <<YAML || true
apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata: {name: run-local-test-policy, namespace: sgp-demo}
spec:
  ${2}
  securityGroups: {groupIds: [${1}]}
YAML
}
# The API server calls the operator's webhooks (configured by URL on 127.0.0.1): an invalid policy is
# refused with the validator's message naming the field, a valid one admitted, nothing stored.
check_webhooks() {
    local n="$1" answer
    answer="$(dry_run_policy sg-12345678 'podSelector: {matchExpressions: [{key: app, operator: Like, values: [x]}]}')"
    # The CRD's schema does not check operators: only the validating webhook refuses this.
    expect "run ${n}: a bad matchExpression operator is refused by the webhook naming the field" \
        grep -q 'spec.podSelector.*"Like" is not a valid label selector operator' <<<"${answer}" ||
        echo "  answer: ${answer}" >&2
    answer="$(dry_run_policy sg-0123456789abcdef0 'podSelector: {matchLabels: {app: x}}')"
    expect "run ${n}: a valid policy is admitted" grep -q 'created (server dry run)' <<<"${answer}" ||
        echo "  answer: ${answer}" >&2
    expect "run ${n}: the dry runs stored nothing" \
        test "$(kc get securitygrouppolicy -n sgp-demo run-local-test-policy --ignore-not-found -o name)" == ""
    expect "run ${n}: the webhook configurations call https://127.0.0.1:${CTRL_WEBHOOK_PORT}" \
        grep -q "^https://127.0.0.1:${CTRL_WEBHOOK_PORT}/validate-" <<<"$(kc get validatingwebhookconfiguration ctrl-operator-sgp-rules -o 'jsonpath={.webhooks[0].clientConfig.url}')"
    expect "run ${n}: the operator injected its CA into the mutating configuration" \
        test -n "$(kc get mutatingwebhookconfiguration ctrl-operator-sgp-defaults -o 'jsonpath={.webhooks[0].clientConfig.caBundle}')"
}

# What every run must print: pods with their groups, policies with their status, metric lines.
check_output() {
    local n="$1" out="${WORK}/run$1.out"
    sed "s/^/  run ${n} | /" "${out}" >&2
    expect "run ${n}: prints the pods' security groups" grep -q '^NAMESPACE .*SECURITY-GROUPS' "${out}"
    # Each pod's printed groups are the annotation the operator wrote on it.
    local namespace name groups printed mismatches=0 with_groups=0 pods=0
    while read -r namespace name groups; do
        pods=$((pods + 1))
        [[ "${groups}" == "<none>" ]] || with_groups=$((with_groups + 1))
        printed="$(awk -v ns="${namespace}" -v n="${name}" '$1 == ns && $2 == n { print $NF }' "${out}")"
        [[ "${printed}" == "${groups}" ]] || { mismatches=$((mismatches + 1)); echo "  ${namespace}/${name}: printed '${printed}', annotation '${groups}'" >&2; }
    done < <(kc get pods -A -o 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name,G:.metadata.annotations.ctrl\.example\.com/security-groups' --no-headers)
    expect "run ${n}: ${pods} pods printed with their annotation" test "${mismatches}" -eq 0 -a "${pods}" -gt 0
    expect "run ${n}: some pods have security groups (${with_groups})" test "${with_groups}" -gt 0
    expect "run ${n}: some pods have none" test "${with_groups}" -lt "${pods}"
    expect "run ${n}: a valid policy is Ready True Valid" grep -Eq '^\S+\s+\S+\s+True\s+Valid\s+[0-9]+' "${out}"
    expect "run ${n}: an invalid policy is Ready False with its reason" \
        grep -Eq '^\S+\s+\S+\s+False\s+(NoSelector|NoGroupIds|InvalidSelector|InvalidGroupIds)\s' "${out}"
    expect "run ${n}: the invalid sample, created before the webhooks served, is reported False NoSelector" \
        grep -Eq '^sgp-demo\s+no-selector\s+False\s+NoSelector\s' "${out}"
    expect "run ${n}: prints the validating webhook's refusal" grep -q '"sg-123" is not a security group id' "${out}"
    check_webhooks "${n}"
    expect "run ${n}: every policy printed has a status" \
        test "$(kc get securitygrouppolicies -A --no-headers | wc -l)" -eq "$(grep -Ec '\s(True|False)\s+(Valid|NoSelector|NoGroupIds|InvalidSelector|InvalidGroupIds)\s' "${out}")"
    expect "run ${n}: metric up 1" grep -q '^  up 1$' "${out}"
    expect "run ${n}: metric sgp_kind_served 1" grep -q '^  sgp_kind_served 1$' "${out}"
    expect "run ${n}: metric sgp_pods" grep -q '^  sgp_pods{has_security_groups="true",namespace=' "${out}"
    expect "run ${n}: metric sgp_invalid_policies" grep -Eq '^  sgp_invalid_policies\{namespace="[^"]+"\} [1-9]' "${out}"
    expect "run ${n}: metric controller_runtime_reconcile_total for sgp-pods" \
        grep -Eq '^  controller_runtime_reconcile_total\{controller="sgp-pods",result="success"\} [1-9]' "${out}"
    expect "run ${n}: metric leader_election_master_status 1" \
        grep -q '^  leader_election_master_status{name="ctrl-operator.ctrl.example.com"} 1$' "${out}"
    expect "run ${n}: mentions podlister and --down" grep -q 'podlister' "${out}"
}

log "work dir ${WORK}; ports metrics ${CTRL_METRICS_PORT}, probes ${CTRL_PROBE_PORT}, Prometheus ${CTRL_PROMETHEUS_PORT}"

# --- clear errors before anything runs ------------------------------------------------------------
out="$("${RUN_LOCAL}" --kubeconfig "${WORK}/missing" 2>&1)" && fail "a missing kubeconfig was accepted"
expect "a missing kubeconfig is named" grep -q "kubeconfig '${WORK}/missing' is not readable" <<<"${out}"
printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:%s"}\nusers:\n- name: u\n  user: {token: x}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n' \
    "${CTRL_METRICS_PORT}" >"${WORK}/unreachable.kubeconfig"
out="$("${RUN_LOCAL}" --kubeconfig "${WORK}/unreachable.kubeconfig" 2>&1)" && fail "an unreachable server was accepted"
expect "an unreachable server is named" grep -q "cannot reach the API server https://127.0.0.1:${CTRL_METRICS_PORT}" <<<"${out}"

# --- acceptance 7: twice in a row ---------------------------------------------------------------
run_demo 1
check_output 1
control_plane_pid="$(cat "${CTRL_CONTROL_PLANE_DIR}/ctrl-control-plane.pid")"
operator_pid="$(cat "${CTRL_STATE_DIR}/ctrl-operator.pid")"
prometheus_pid="$(cat "${CTRL_STATE_DIR}/prometheus.pid")"

run_demo 2
check_output 2
expect "run 2 reused the control plane (pid ${control_plane_pid})" \
    test "$(cat "${CTRL_CONTROL_PLANE_DIR}/ctrl-control-plane.pid")" == "${control_plane_pid}"
expect "run 2 said so" grep -q 'already running' "${WORK}/run2.err"
expect "run 2 reused Prometheus (pid ${prometheus_pid})" test "$(cat "${CTRL_STATE_DIR}/prometheus.pid")" == "${prometheus_pid}"
expect "run 2 restarted the operator" test "$(cat "${CTRL_STATE_DIR}/ctrl-operator.pid")" != "${operator_pid}"
expect "the first operator is gone" test ! -e "/proc/${operator_pid}"
expect "run 2 created nothing but the webhook configurations (kubectl apply: unchanged)" \
    test "$(grep ' created$' "${WORK}/run2.err" | grep -vc 'webhookconfiguration.admissionregistration.k8s.io/ctrl-operator-sgp-' || true)" -eq 0
expect "run 2 took the webhook configurations away while it restarted the operator" \
    test "$(grep -Ec 'webhookconfiguration.admissionregistration.k8s.io "ctrl-operator-sgp-(rules|defaults)" deleted$' "${WORK}/run2.err" || true)" -eq 2
expect "run 2 applied them again once the operator served" \
    test "$(grep -Ec 'webhookconfiguration.admissionregistration.k8s.io/ctrl-operator-sgp-(rules|defaults) created$' "${WORK}/run2.err" || true)" -eq 2
expect "run 2 applied objects as unchanged" grep -q 'namespace/ctrl-system unchanged' "${WORK}/run2.err"
expect "one operator runs" test "$(count_of "${OPERATOR_PATTERN}")" -eq 1
expect "one Prometheus runs" test "$(count_of "${PROMETHEUS_PATTERN}")" -eq 1
expect "one control plane runs" test "$(count_of "${CONTROL_PLANE_PATTERN}")" -eq 1
expect "one kube-apiserver runs" test "$(count_of "kube-apiserver .*${CTRL_CONTROL_PLANE_DIR}")" -eq 1

# Issue 35, acceptance 3: --image runs the operator image (operator_image_build made it) as a
# container, and the demo shows the same: every check above, and the same pods and policies.
run_demo image --image
check_output image
tables() { sed -n '/^Pods and their security groups/,/^Metrics, read back/p' "$1"; }
expect "with --image, the same pods and policies as run 2" diff <(tables "${WORK}/run2.out") <(tables "${WORK}/runimage.out")
CONTAINER="ctrl-run-local-$(printf '%s' "${CTRL_STATE_DIR}" | md5sum | cut -c1-8)"
expect "with --image, the operator runs in container ${CONTAINER}" grep -q "in container ${CONTAINER} of image" "${WORK}/runimage.out"
expect "with --image, no operator process runs" test "$(count_of "${OPERATOR_PATTERN}")" -eq 0
container_running() { test -n "$("${ROOT}/hack/internal/podman.sh" ps --quiet --filter "name=^${CONTAINER}\$")"; }
container_gone() { ! container_running; }
expect "with --image, its container runs" container_running

# --kubeconfig: the same cluster as a user's; nothing but the manifests without the Deployment
# is applied, no samples; the operator is restarted against it, Prometheus reused.
log "run 3: hack/run-local.sh --kubeconfig (the control plane's admin kubeconfig)"
operator_pid="$(cat "${CTRL_STATE_DIR}/ctrl-operator.pid")"
"${RUN_LOCAL}" --kubeconfig "${CTRL_CONTROL_PLANE_DIR}/kubeconfig" >"${WORK}/run3.out" 2>"${WORK}/run3.err" ||
    { cat "${WORK}/run3.err" >&2; fail "run 3 (--kubeconfig) failed"; }
expect "run 3 applied no Deployment" test "$(grep -c '^deployment' "${WORK}/run3.err" || true)" -eq 0
expect "run 3 applied no samples" test "$(grep -c 'sgp-demo' "${WORK}/run3.err" || true)" -eq 0
expect "run 3 printed the policies' status" grep -q '^sgp-demo .*True .*Valid' "${WORK}/run3.out"
expect "run 3 restarted the operator" test "$(cat "${CTRL_STATE_DIR}/ctrl-operator.pid")" != "${operator_pid}"
expect "run 3 says its webhooks are off" grep -q '^Admission webhooks: off' "${WORK}/run3.out"
expect "run 3 left no webhook configuration calling loopback" \
    test "$(kc get validatingwebhookconfigurations,mutatingwebhookconfigurations -o 'jsonpath={..clientConfig.url}')" == ""
expect "run 3's operator serves no webhooks" \
    test "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:${CTRL_WEBHOOK_PORT}/" || true)" == 000
expect "run 3 reused Prometheus" test "$(cat "${CTRL_STATE_DIR}/prometheus.pid")" == "${prometheus_pid}"
expect "one operator runs after run 3" test "$(count_of "${OPERATOR_PATTERN}")" -eq 1
expect "run 3 stopped the operator's container" container_gone

# What the final message suggests: a pod relabelled gets the groups of the policy it now matches
# (and the restarted operator counts a change, which the dashboards show).
web_frontend_groups="$(kc get sgp -n sgp-demo web-frontend -o 'jsonpath={.spec.securityGroups.groupIds}' |
    python3 -c 'import json, sys; print(",".join(json.load(sys.stdin)))')"
kc label pod -n sgp-demo web-backend tier=edge --overwrite >&2
web_backend_has_groups() {
    [[ "$(kc get pod -n sgp-demo web-backend -o 'jsonpath={.metadata.annotations.ctrl\.example\.com/security-groups}')" == "${web_frontend_groups}" ]]
}
expect "web-backend relabelled tier=edge gets ${web_frontend_groups}" eventually 30 web_backend_has_groups

# --- acceptance 5: Prometheus scrapes over HTTPS with a token; the dashboards' queries ----------
token="$(cat "${CTRL_STATE_DIR}/prometheus.token")"
metrics_url="https://127.0.0.1:${CTRL_METRICS_PORT}/metrics"
expect "/metrics refuses a request without a token" \
    grep -Eq '^(401|403)$' <<<"$(curl -sk -o /dev/null -w '%{http_code}' "${metrics_url}")"
expect "/metrics answers the scraper's token" \
    grep -q '^sgp_kind_served 1' <<<"$(curl -sfk -H "Authorization: Bearer ${token}" "${metrics_url}")"
expect "/metrics is not served over plain HTTP" \
    test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${CTRL_METRICS_PORT}/metrics" || true)" != 200
target_up() {
    curl -sf "${PROMETHEUS}/api/v1/targets?state=active" | python3 -c '
import json, sys
targets = json.load(sys.stdin)["data"]["activeTargets"]
ours = [t for t in targets if t["labels"]["job"] == "ctrl-operator"]
sys.exit(0 if len(ours) == 1 and ours[0]["health"] == "up" and ours[0]["scrapeUrl"].startswith("https://") else 1)'
}
expect "Prometheus' target ctrl-operator is up, scraped over https" eventually 30 target_up

shopt -s nullglob
dashboards=("${ROOT}"/manifests/grafana/*.json)
if ((${#dashboards[@]} == 0)); then
    fail "no dashboards in manifests/grafana/"
fi
# Every expression, its variables replaced by concrete values (a namespace the operator reports,
# the controller names, 1m for intervals): one per line, with its dashboard and panel.
python3 - "${PROMETHEUS}" "${dashboards[@]}" >"${WORK}/expressions.tsv" <<'PY'
import json, re, sys, urllib.parse, urllib.request
prometheus, files = sys.argv[1], sys.argv[2:]
def label_values(metric, label):
    url = f"{prometheus}/api/v1/label/{label}/values?" + urllib.parse.urlencode({"match[]": metric})
    return json.load(urllib.request.urlopen(url))["data"]
def panels(items):
    for panel in items:
        yield panel
        yield from panels(panel.get("panels", []))
for path in files:
    dashboard = json.load(open(path))
    values = {"__rate_interval": "1m", "__interval": "1m", "__range": "5m", "interval": "1m"}
    for var in dashboard.get("templating", {}).get("list", []):
        query = var.get("query", "")
        query = query.get("query", "") if isinstance(query, dict) else query
        found = re.match(r"\s*label_values\(\s*(.*?)\s*,\s*(\w+)\s*\)\s*$", query or "")
        if var.get("type") == "interval" or var["name"] in values:
            values.setdefault(var["name"], "1m")
        elif found:
            metric, label = found.groups()
            got = label_values(metric or "up", label) if metric else label_values("up", label)
            values[var["name"]] = got[0] if got else ".*"
        elif var.get("type") == "datasource":
            values[var["name"]] = "prometheus"
        else:
            values[var["name"]] = (var.get("current") or {}).get("value") or ".*"
    def substitute(expr):
        expr = re.sub(r"\$\{(\w+)(:\w+)?\}", lambda m: str(values.get(m.group(1), m.group(0))), expr)
        expr = re.sub(r"\[\[(\w+)\]\]", lambda m: str(values.get(m.group(1), m.group(0))), expr)
        return re.sub(r"\$(\w+)", lambda m: str(values.get(m.group(1), m.group(0))), expr)
    for panel in panels(dashboard.get("panels", [])):
        for target in panel.get("targets", []):
            if target.get("expr"):
                expr = " ".join(substitute(target["expr"]).split())
                print(f"{path.split('/')[-1]}\t{panel.get('title', '?')}\t{expr}")
PY
expect "the dashboards hold PromQL expressions ($(wc -l <"${WORK}/expressions.tsv"))" test -s "${WORK}/expressions.tsv"
# query_has_data EXPR: Prometheus answers EXPR with at least one series (or a scalar).
query_has_data() {
    curl -sf --get --data-urlencode "query=$1" "${PROMETHEUS}/api/v1/query" | python3 -c '
import json, sys
data = json.load(sys.stdin)["data"]
sys.exit(0 if data["resultType"] == "scalar" or data["result"] else 1)'
}
while IFS=$'\t' read -r file title expr; do
    [[ "${expr}" != *'$'* ]] || { fail "${file} '${title}': a variable left unreplaced: ${expr}"; continue; }
    expect "${file} '${title}': ${expr}" eventually 60 query_has_data "${expr}"
done <"${WORK}/expressions.tsv"

log "$((failures)) failed checks"
((failures == 0))
