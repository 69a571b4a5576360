#include "test/bench/servicemonitor_workload.hpp"

#include <array>
#include <cstdio>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/api/builtins.hpp"

namespace ctrl::bench {
namespace {

using monitoring::ServiceMonitorSpecEndpointsRef;

// The teams the services belong to (app.kubernetes.io/part-of); each has one serving CA.
constexpr std::array<std::string_view, 4> kTeams = {"storefront", "payments", "search", "identity"};

// One relabeling rule as written in a ServiceMonitor.
struct Rule {
    std::vector<std::string> source_labels;
    std::string target_label;  // "" for none
    std::string regex;
    std::string action;
    std::string replacement;  // "" for none
};

// Relabelings every scraped target gets: where it runs, and its version when its service says.
const std::vector<Rule>& TargetRules() {
    static const std::vector<Rule> rules = {
        {{"__meta_kubernetes_pod_node_name"}, "node", "(.*)", "replace", "$1"},
        {{"__meta_kubernetes_namespace"}, "namespace", "(.*)", "replace", "$1"},
        {{"__meta_kubernetes_pod_name"}, "pod", "(.*)", "replace", "$1"},
        {{"__meta_kubernetes_service_label_app_kubernetes_io_version"}, "version", "(.+)", "replace", "$1"},
    };
    return rules;
}

// Adds rules[0 .. count) as the endpoint's relabelings.
void AddRelabelings(const ServiceMonitorSpecEndpointsRef& endpoint, std::size_t count) {
    for (std::size_t i = 0; i < count && i < TargetRules().size(); ++i) {
        const Rule& rule = TargetRules()[i];
        auto relabeling = endpoint.AddRelabelings();
        relabeling.SetSourceLabels(rule.source_labels);
        relabeling.SetTargetLabel(rule.target_label);
        relabeling.SetRegex(rule.regex);
        relabeling.SetAction(rule.action);
        relabeling.SetReplacement(rule.replacement);
    }
}

// Adds a metric relabeling that drops the series whose source labels match regex.
void AddMetricDrop(const ServiceMonitorSpecEndpointsRef& endpoint, std::vector<std::string> source_labels,
                   const std::string& regex) {
    auto relabeling = endpoint.AddMetricRelabelings();
    relabeling.SetSourceLabels(source_labels);
    relabeling.SetRegex(regex);
    relabeling.SetAction("drop");
}

// What an endpoint differs in.
struct EndpointShape {
    std::string port;
    std::string path;
    std::string interval;
    std::string scrape_timeout;
    std::string server_name;
    std::size_t relabelings = 3;
};

// Adds an https endpoint verified against the team's serving CA (a ConfigMap key).
ServiceMonitorSpecEndpointsRef AddEndpoint(ServiceMonitor& object, const EndpointShape& shape, std::string_view team) {
    ServiceMonitorSpecEndpointsRef endpoint = object.MutableSpec().AddEndpoints();
    endpoint.SetPort(shape.port);
    endpoint.SetPath(shape.path);
    endpoint.SetInterval(shape.interval);
    endpoint.SetScrapeTimeout(shape.scrape_timeout);
    endpoint.SetScheme("https");
    auto tls = endpoint.MutableTlsConfig();
    auto ca = tls.MutableCa().MutableConfigMap();
    ca.SetName(std::string(team) + "-serving-ca");
    ca.SetKey("service-ca.crt");
    tls.SetServerName(shape.server_name);
    AddRelabelings(endpoint, shape.relabelings);
    return endpoint;
}

}  // namespace

std::string ServiceMonitorCrdPath() {
    return CTRL_BENCH_SERVICEMONITOR_CRD;
}

StatusOr<std::shared_ptr<scheme::Scheme>> ServiceMonitorScheme() {
    auto scheme = std::make_shared<scheme::Scheme>();
    CTRL_RETURN_IF_ERROR(api::AddAllBuiltinsToScheme(*scheme));
    CTRL_RETURN_IF_ERROR(monitoring::monitoringv1::AddToScheme(*scheme));
    return scheme;
}

std::string ServiceMonitorName(int index) {
    char name[32];
    std::snprintf(name, sizeof(name), "sm-%04d", index);
    return name;
}

ServiceMonitor WorkloadServiceMonitor(const ctrl::testing::WorkloadOptions& layout, int namespace_index, int index) {
    const std::string ns = ctrl::testing::WorkloadNamespace(layout, namespace_index);
    const std::string_view team = kTeams[static_cast<std::size_t>(index) % kTeams.size()];
    char app[64];
    std::snprintf(app, sizeof(app), "%s-api-%04d", std::string(team).c_str(), index);
    const std::string instance = ns + "-" + app;
    const std::string host = std::string(app) + "." + ns + ".svc";

    ServiceMonitor object;
    object.SetNamespace(ns);
    object.SetName(ServiceMonitorName(index));
    object.SetLabels({{std::string(ctrl::testing::kWorkloadLabel), layout.prefix},
                      {"app.kubernetes.io/name", app},
                      {"app.kubernetes.io/instance", instance},
                      {"app.kubernetes.io/part-of", std::string(team)},
                      {"app.kubernetes.io/component", "metrics"},
                      {"app.kubernetes.io/managed-by", "Helm"},
                      {"release", "kube-prometheus-stack"}});
    auto spec = object.MutableSpec();
    spec.SetJobLabel("app.kubernetes.io/name");
    spec.MutableSelector().SetMatchLabels({{"app.kubernetes.io/name", app}, {"app.kubernetes.io/instance", instance}});
    spec.MutableNamespaceSelector().SetMatchNames({ns});
    spec.SetSampleLimit(50000);
    spec.SetTargetLimit(20);
    spec.SetPodTargetLabels({"app.kubernetes.io/version", "team"});

    auto metrics = AddEndpoint(object, {"https-metrics", "/metrics", "30s", "10s", host, 4}, team);
    AddMetricDrop(metrics, {"__name__"}, "go_(gc|memstats)_.*");
    AddMetricDrop(metrics, {"__name__", "le"}, "http_request_duration_seconds_bucket;(0\\.005|0\\.01|0\\.025)");
    const std::string admin_port = "admin-" + std::to_string(9090 + index % 10);
    auto admin = AddEndpoint(object, {admin_port, "/admin/metrics", "60s", "20s", "admin." + host, 3}, team);
    AddMetricDrop(admin, {"__name__"}, "process_.*");
    if (index % 3 == 0) {  // one service in three also serves gRPC metrics
        auto grpc = AddEndpoint(object, {"grpc-metrics", "/debug/metrics", "2m", "30s", "grpc." + host, 3}, team);
        AddMetricDrop(grpc, {"__name__"}, "grpc_server_handling_seconds_bucket");
    }
    return object;
}

}  // namespace ctrl::bench
