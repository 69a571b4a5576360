#include "test/support/realistic_pod.hpp"

#include <string_view>
#include <utility>

namespace ctrl::testing {

namespace {

// A pod as the API server sends it: compact JSON in Go's field order, two containers, managedFields from
// kube-controller-manager and kubelet. Line breaks are only for reading (they are dropped); ${...} is filled
// per event.
constexpr std::string_view kPodTemplate = R"json(
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"${NAME}","generateName":"${RS}-","namespace":"${NS}",
"uid":"${UID}","resourceVersion":"${RV}","creationTimestamp":"2026-03-14T09:26:53Z",
"labels":{"app.kubernetes.io/name":"checkout","app.kubernetes.io/part-of":"shop","pod-template-hash":"${HASH}",
"team":"payments","version":"v1.42.0"},
"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-14T09:26:50Z","prometheus.io/port":"9090",
"prometheus.io/scrape":"true"},
"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"${RS}","uid":"${OWNER}","controller":true,
"blockOwnerDeletion":true}],
"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1",
"time":"2026-03-14T09:26:53Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},
"f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/port":{},"f:prometheus.io/scrape":{}},
"f:generateName":{},"f:labels":{".":{},"f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},
"f:pod-template-hash":{},"f:team":{},"f:version":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"${OWNER}\"}":{}}},
"f:spec":{"f:containers":{"k:{\"name\":\"checkout\"}":{".":{},"f:args":{},"f:env":{".":{},
"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"POD_NAME\"}":{".":{},"f:name":{},
"f:valueFrom":{".":{},"f:fieldRef":{}}},"k:{\"name\":\"POD_NAMESPACE\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},
"f:fieldRef":{}}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},
"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},
"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\"containerPort\":9090,\"protocol\":\"TCP\"}":{".":{},
"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},
"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},
"f:timeoutSeconds":{}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},
"f:cpu":{},"f:memory":{}}},"f:securityContext":{".":{},"f:allowPrivilegeEscalation":{},"f:readOnlyRootFilesystem":{},
"f:runAsNonRoot":{}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},
"k:{\"mountPath\":\"/etc/checkout\"}":{".":{},"f:mountPath":{},"f:name":{},"f:readOnly":{}}}},
"k:{\"name\":\"log-shipper\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{".":{},
"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},
"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},
"f:schedulerName":{},"f:securityContext":{},"f:serviceAccount":{},"f:serviceAccountName":{},
"f:terminationGracePeriodSeconds":{},"f:volumes":{".":{},
"k:{\"name\":\"config\"}":{".":{},"f:configMap":{".":{},"f:defaultMode":{},"f:name":{}},"f:name":{}}}}}},
{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-03-14T09:27:01Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},
"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},
"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},
"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},
"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},
"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"${IP}\"}":{".":{},"f:ip":{}}},
"f:startTime":{}}},"subresource":"status"}]},
"spec":{"volumes":[{"name":"config","configMap":{"name":"checkout-config","defaultMode":420}},
{"name":"kube-api-access-${SUFFIX}","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,
"path":"token"}},{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},
{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],
"defaultMode":420}}],
"containers":[{"name":"checkout","image":"registry.example.com/shop/checkout:1.42.0",
"args":["--port=8080","--metrics-port=9090","--log-format=json"],
"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},
{"name":"metrics","containerPort":9090,"protocol":"TCP"}],
"env":[{"name":"LOG_LEVEL","value":"info"},{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1",
"fieldPath":"metadata.name"}}},{"name":"POD_NAMESPACE","valueFrom":{"fieldRef":{"apiVersion":"v1",
"fieldPath":"metadata.namespace"}}}],
"resources":{"limits":{"cpu":"1","memory":"512Mi"},"requests":{"cpu":"250m","memory":"256Mi"}},
"volumeMounts":[{"name":"config","readOnly":true,"mountPath":"/etc/checkout"},{"name":"kube-api-access-${SUFFIX}",
"readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],
"readinessProbe":{"httpGet":{"path":"/readyz","port":8080,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":5,
"successThreshold":1,"failureThreshold":3},
"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent",
"securityContext":{"runAsNonRoot":true,"readOnlyRootFilesystem":true,"allowPrivilegeEscalation":false}},
{"name":"log-shipper","image":"registry.example.com/infra/log-shipper:3.1.4",
"resources":{"limits":{"memory":"64Mi"},"requests":{"cpu":"10m","memory":"32Mi"}},
"volumeMounts":[{"name":"kube-api-access-${SUFFIX}","readOnly":true,
"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],
"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],
"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
"serviceAccountName":"default","serviceAccount":"default","nodeName":"${NODE}","securityContext":{},
"schedulerName":"default-scheduler",
"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],
"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},
"status":{"phase":"Running","conditions":[{"type":"PodReadyToStartContainers","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:26:55Z"},{"type":"Initialized","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:26:53Z"},{"type":"Ready","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:27:01Z"},{"type":"ContainersReady","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:27:01Z"},{"type":"PodScheduled","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:26:53Z"}],"hostIP":"${HOSTIP}","hostIPs":[{"ip":"${HOSTIP}"}],"podIP":"${IP}",
"podIPs":[{"ip":"${IP}"}],"startTime":"2026-03-14T09:26:53Z",
"containerStatuses":[{"name":"checkout","state":{"running":{"startedAt":"2026-03-14T09:26:55Z"}},"lastState":{},
"ready":true,"restartCount":${RESTARTS},"image":"registry.example.com/shop/checkout:1.42.0",
"imageID":"registry.example.com/shop/checkout@sha256:${DIGEST}","containerID":"containerd://${CID1}",
"started":true},{"name":"log-shipper","state":{"running":{"startedAt":"2026-03-14T09:26:54Z"}},"lastState":{},
"ready":true,"restartCount":0,"image":"registry.example.com/infra/log-shipper:3.1.4",
"imageID":"registry.example.com/infra/log-shipper@sha256:${DIGEST}","containerID":"containerd://${CID2}",
"started":true}],"qosClass":"Burstable"}}
)json";

// splitmix64: deterministic pseudo-random numbers, so every run decodes the same bytes.
uint64_t MixBits(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::string Hex(uint64_t seed, int digits) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < digits; ++i) {
        if (i % 16 == 0)
            seed = MixBits(seed);
        out.push_back(kDigits[(seed >> ((i % 16) * 4)) & 0xf]);
    }
    return out;
}

std::string Uid(uint64_t seed) {
    const std::string h = Hex(seed, 32);
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

std::string Ip(const char* prefix, uint64_t a, uint64_t b) {
    return prefix + std::to_string(a) + "." + std::to_string(b);
}

}  // namespace

std::string RealisticPodJson(uint64_t pod, uint64_t rv, uint64_t restarts) {
    const std::string hash = Hex(pod / 50 + 7, 9);
    const std::string suffix = Hex(pod * 31 + 5, 5);
    const std::pair<std::string_view, std::string> values[] = {
        {"NAME", "checkout-" + hash + "-" + suffix},
        {"RS", "checkout-" + hash},
        {"NS", "shop-" + std::to_string(pod % 20)},
        {"UID", Uid(pod * 2 + 1)},
        {"OWNER", Uid(pod / 50 * 2)},
        {"RV", std::to_string(rv)},
        {"HASH", hash},
        {"SUFFIX", suffix},
        {"IP", Ip("10.244.", pod / 250 % 256, pod % 250 + 2)},
        {"HOSTIP", Ip("10.0.", 0, pod % 40 + 10)},
        {"NODE", "worker-" + std::to_string(pod % 40)},
        {"RESTARTS", std::to_string(restarts)},
        {"DIGEST", Hex(pod / 50 + 99, 64)},
        {"CID1", Hex(pod * 3 + restarts, 64)},
        {"CID2", Hex(pod * 5 + 1, 64)},
    };
    std::string out;
    for (std::size_t i = 0; i < kPodTemplate.size();) {
        if (kPodTemplate[i] == '\n') {
            ++i;
        } else if (kPodTemplate.substr(i, 2) != "${") {
            out.push_back(kPodTemplate[i++]);
        } else {
            const std::size_t end = kPodTemplate.find('}', i);
            const std::string_view key = kPodTemplate.substr(i + 2, end - i - 2);
            for (const auto& [name, value] : values) {
                if (name == key)
                    out += value;
            }
            i = end + 1;
        }
    }
    return out;
}

}  // namespace ctrl::testing
