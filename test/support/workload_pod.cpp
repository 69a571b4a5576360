#include "test/support/workload.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace ctrl::testing {
namespace {

// A web pod as a Deployment would stamp it out: an app container, a log shipper and a metrics
// exporter, each with env, resources, ports, mounts and probes. With the server's defaults and
// managedFields it reads back at ~8 KB of JSON.
constexpr std::string_view kPodTemplate = R"({
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "labels": {"app.kubernetes.io/name": "web", "app.kubernetes.io/component": "frontend",
               "app.kubernetes.io/part-of": "shop", "app.kubernetes.io/version": "2.14.3",
               "pod-template-hash": "6d4cf56db6"},
    "annotations": {"prometheus.io/scrape": "true", "prometheus.io/port": "9102",
                    "kubectl.kubernetes.io/default-container": "app",
                    "checksum/config": "3f1c2d8e9b7a6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c"}
  },
  "spec": {
    "serviceAccountName": "default",
    "terminationGracePeriodSeconds": 30,
    "securityContext": {"runAsNonRoot": true, "runAsUser": 10001, "fsGroup": 10001,
                        "seccompProfile": {"type": "RuntimeDefault"}},
    "containers": [
      {
        "name": "app",
        "image": "registry.example.com/shop/web:2.14.3",
        "args": ["--listen=:8080", "--config=/etc/web/config.yaml", "--log-format=json"],
        "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"},
                  {"name": "admin", "containerPort": 8081, "protocol": "TCP"}],
        "env": [
          {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
          {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
          {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
          {"name": "GOMAXPROCS", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1"}}},
          {"name": "DATABASE_URL", "value": "postgres://web@db.shop.svc.cluster.local:5432/shop?sslmode=require"},
          {"name": "CACHE_ADDR", "value": "redis.shop.svc.cluster.local:6379"},
          {"name": "FEATURE_FLAGS", "value": "checkout-v2,new-search,recommendations"}
        ],
        "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"cpu": "1", "memory": "512Mi"}},
        "volumeMounts": [{"name": "config", "mountPath": "/etc/web", "readOnly": true},
                         {"name": "tmp", "mountPath": "/tmp"}],
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": "admin"}, "initialDelaySeconds": 10,
                          "periodSeconds": 10, "failureThreshold": 3},
        "readinessProbe": {"httpGet": {"path": "/readyz", "port": "admin"}, "periodSeconds": 5},
        "securityContext": {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
                            "capabilities": {"drop": ["ALL"]}}
      },
      {
        "name": "log-shipper",
        "image": "registry.example.com/infra/fluent-bit:3.1.4",
        "args": ["--config=/fluent-bit/etc/fluent-bit.conf"],
        "env": [{"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
                {"name": "LOG_LEVEL", "value": "info"}],
        "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}, "limits": {"memory": "128Mi"}},
        "volumeMounts": [{"name": "tmp", "mountPath": "/var/log/web", "readOnly": true}],
        "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}
      },
      {
        "name": "metrics",
        "image": "registry.example.com/infra/statsd-exporter:0.27.1",
        "args": ["--web.listen-address=:9102", "--statsd.listen-udp=:9125"],
        "ports": [{"name": "metrics", "containerPort": 9102, "protocol": "TCP"}],
        "resources": {"requests": {"cpu": "20m", "memory": "32Mi"}, "limits": {"memory": "64Mi"}}
      }
    ],
    "volumes": [{"name": "config", "configMap": {"name": "web-config"}},
                {"name": "tmp", "emptyDir": {"sizeLimit": "1Gi"}}]
  }
})";

}  // namespace

api::Pod WorkloadPod(const WorkloadOptions& options, int namespace_index, int pod_index) {
    static const Object kTemplate = [] {
        StatusOr<Object> parsed = Object::Parse(kPodTemplate);
        if (!parsed.Ok()) {
            std::fprintf(stderr, "workload: the pod template does not parse: %s\n",
                         parsed.GetStatus().ToString().c_str());
            std::abort();
        }
        return std::move(parsed).Value();
    }();
    StatusOr<api::Pod> pod = api::Pod::FromObject(kTemplate.DeepCopy());
    if (!pod.Ok()) {
        std::fprintf(stderr, "workload: the pod template is not a Pod: %s\n", pod.GetStatus().ToString().c_str());
        std::abort();
    }
    pod->SetNamespace(WorkloadNamespace(options, namespace_index));
    pod->SetName(WorkloadPodName(options, pod_index));
    pod->SetLabel(std::string(kWorkloadLabel), options.prefix);
    if (options.nodes > 0 && pod_index % 5 != 4)
        pod->SetNodeName(options.prefix + "-node-" + std::to_string(pod_index % options.nodes));
    return std::move(pod).Value();
}

}  // namespace ctrl::testing
