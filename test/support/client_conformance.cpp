#include "test/support/client_conformance.hpp"

#include <gmock/gmock.h>

#include "test/support/internal/conformance_objects.hpp"

namespace ctrl::testing {

std::vector<ClientConformanceCase> ClientConformanceCases() {
    std::vector<ClientConformanceCase> cases = ReadConformanceCases();
    for (auto* more : {&WriteConformanceCases, &PatchConformanceCases, &SubResourceConformanceCases}) {
        std::vector<ClientConformanceCase> next = more();
        cases.insert(cases.end(), next.begin(), next.end());
    }
    return cases;
}

std::string_view WidgetCrdJson() {
    return R"json({
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.test.ctrl.dev"},
  "spec": {
    "group": "test.ctrl.dev", "scope": "Namespaced",
    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
    "versions": [{
      "name": "v1", "served": true, "storage": true,
      "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                              "statusReplicasPath": ".status.replicas"}},
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "properties": {"color": {"type": "string"}, "replicas": {"type": "integer"}}},
        "status": {"type": "object", "properties": {"phase": {"type": "string"}, "replicas": {"type": "integer"}}}
      }}}
    }]
  }
})json";
}

GroupVersionKind WidgetKind() {
    return GroupVersionKind{"test.ctrl.dev", "v1", "Widget"};
}

Task<bool> RunConformanceCase(const ClientConformanceCase& c, client::Client& client, std::string ns) {
    co_await c.run(client, std::move(ns));
    co_return true;
}

void ExpectServerStatus(const Status& status, StatusCode code, int http_code, std::string_view reason,
                        std::string_view message_part, std::string_view where) {
    EXPECT_EQ(status.Code(), code) << where << ": " << status;
    EXPECT_EQ(status.HttpCode(), http_code) << where << ": " << status;
    EXPECT_EQ(status.Reason(), reason) << where << ": " << status;
    EXPECT_THAT(status.Message(), ::testing::HasSubstr(std::string(message_part))) << where;
}

namespace internal {

api::ConfigMap NewConfigMap(const std::string& ns, const std::string& name,
                            const std::map<std::string, std::string>& labels,
                            const std::map<std::string, std::string>& data) {
    api::ConfigMap cm;
    cm.SetNamespace(ns);
    cm.SetName(name);
    if (!labels.empty())
        cm.SetLabels(labels);
    if (!data.empty())
        cm.SetData(data);
    return cm;
}

api::Pod NewPod(const std::string& ns, const std::string& name) {
    StatusOr<api::Pod> pod = api::Pod::Parse(R"({"spec":{"containers":[
        {"name":"app","image":"busybox:1.36","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]},
        {"name":"sidecar","image":"busybox:1.36"}]}})");
    EXPECT_TRUE(pod.Ok());
    pod->SetNamespace(ns);
    pod->SetName(name);
    return std::move(pod).Value();
}

Object NewWidget(const std::string& ns, const std::string& name) {
    Object widget;
    widget.SetGroupVersionKind(WidgetKind());
    widget.SetNamespace(ns);
    widget.SetName(name);
    EXPECT_TRUE(widget.SetNestedString({"spec", "color"}, "blue").Ok());
    EXPECT_TRUE(widget.SetNestedInt({"spec", "replicas"}, 1).Ok());
    return widget;
}

std::set<std::string> Names(const ObjectList& list) {
    std::set<std::string> names;
    for (const Object& item : list.Items())
        names.emplace(item.Name());
    return names;
}

uint64_t VersionNumber(std::string_view resource_version) {
    uint64_t n = 0;
    for (char c : resource_version) {
        if (c < '0' || c > '9')
            return 0;
        n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    return n;
}

}  // namespace internal
}  // namespace ctrl::testing
