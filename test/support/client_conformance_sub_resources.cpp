// Conformance cases for a built-in kind's status subresource (pods), pods' eviction, and what the
// server keeps of metadata on writes (uid, generation).
#include <gmock/gmock.h>

#include "ctrl/api/namespace.hpp"
#include "test/support/client_conformance.hpp"
#include "test/support/internal/conformance_objects.hpp"

namespace ctrl::testing {
namespace {

using client::Client;
using internal::CaseContext;
using internal::NewConfigMap;
using internal::NewPod;

Task<void> PodStatusIsASubresource(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::Pod pod = NewPod(ns, "status");
    CONFORMANCE_CO_ASSERT(pod.SetNestedString({"status", "phase"}, "Running").Ok());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, pod));
    EXPECT_EQ(pod.NestedString({"status", "phase"}).ValueOr(""), "Pending") << "create sets a new pod's status";
    EXPECT_EQ(pod.Generation(), 1);

    StatusOr<Object> condition = Object::Parse(R"([{"type":"ctrl.dev/Checked","status":"True"}])");
    CONFORMANCE_CO_ASSERT(condition.Ok());
    CONFORMANCE_CO_ASSERT(pod.SetNestedField({"status", "conditions"}, *condition).Ok());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Status().Update(ctx, pod));
    StatusOr<std::vector<Object>> conditions = pod.NestedSlice({"status", "conditions"});
    CONFORMANCE_CO_ASSERT(conditions.Ok());
    EXPECT_THAT(pod.ToJson(), ::testing::HasSubstr("ctrl.dev/Checked"));
    EXPECT_EQ(pod.Generation(), 1);

    CONFORMANCE_CO_ASSERT(pod.SetNestedString({"status", "phase"}, "Failed").Ok());
    pod.SetLabel("updated", "yes");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, pod));
    EXPECT_EQ(pod.NestedString({"status", "phase"}).ValueOr(""), "Pending") << "Update keeps status";
    EXPECT_EQ(pod.Label("updated"), "yes");
    EXPECT_EQ(pod.Generation(), 1) << "a label is no new generation";

    Object status;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Status().Get(ctx, pod, status));
    EXPECT_EQ(status.Kind(), "Pod");
    EXPECT_EQ(status.Name(), "status");
}

// An apps/v1 Deployment the scheme does not register, read and written unstructured.
Task<void> DeploymentGenerationCountsSpecChanges(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    StatusOr<Object> parsed = Object::Parse(R"({"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":1,
        "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"app","image":"busybox:1.36"}]}}},"status":{"replicas":5}})");
    CONFORMANCE_CO_ASSERT(parsed.Ok());
    Object deployment = std::move(parsed).Value();
    deployment.SetNamespace(ns);
    deployment.SetName("web");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, deployment));
    EXPECT_EQ(deployment.Generation(), 1);
    EXPECT_FALSE(deployment.HasNestedField({"status", "replicas"})) << "create drops status";

    CONFORMANCE_CO_ASSERT(deployment.SetNestedInt({"spec", "replicas"}, 3).Ok());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, deployment));
    EXPECT_EQ(deployment.Generation(), 2);

    CONFORMANCE_CO_ASSERT(deployment.SetNestedInt({"status", "observedGeneration"}, 2).Ok());
    CONFORMANCE_CO_ASSERT(deployment.SetNestedInt({"status", "replicas"}, 3).Ok());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Status().Update(ctx, deployment));
    EXPECT_EQ(deployment.NestedInt({"status", "replicas"}).ValueOr(-1), 3);
    EXPECT_EQ(deployment.Generation(), 2) << "a status write is no new generation";

    const Object original = deployment.DeepCopy();
    StatusOr<Object> containers = Object::Parse(R"([{"name":"app","image":"busybox:1.37"}])");
    CONFORMANCE_CO_ASSERT(containers.Ok());
    CONFORMANCE_CO_ASSERT(deployment.SetNestedField({"spec", "template", "spec", "containers"}, *containers).Ok());
    const client::Patch smp = client::StrategicMergeFrom(original);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, deployment, smp));
    EXPECT_EQ(deployment.Generation(), 3);
    EXPECT_EQ(deployment.NestedInt({"status", "replicas"}).ValueOr(-1), 3) << "a patch keeps status";

    deployment.SetLabel("team", "a");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, deployment));
    EXPECT_EQ(deployment.Generation(), 3) << "a label is no new generation";
}

Task<void> EvictionDeletesAnUnscheduledPod(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::Pod pod = NewPod(ns, "evictee");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, pod));
    StatusOr<Object> eviction = Object::Parse(R"({"apiVersion":"policy/v1","kind":"Eviction"})");
    CONFORMANCE_CO_ASSERT(eviction.Ok());
    eviction->SetNamespace(ns);
    eviction->SetName("evictee");
    CONFORMANCE_CO_ASSERT_OK(co_await client.SubResource("eviction").Create(ctx, pod, *eviction));
    const ObjectKey key{ns, "evictee"};
    api::Pod gone;
    EXPECT_TRUE(IsNotFound(co_await client.Get(ctx, key, gone)));
}

Task<void> WritesKeepTheServersMetadata(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "meta");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    const std::string uid(cm.Uid());
    const std::optional<std::string> created = cm.CreationTimestamp();

    api::ConfigMap other_uid = cm.DeepCopy();
    other_uid.SetUid("11111111-1111-1111-1111-111111111111");
    const Status uid_changed = co_await client.Update(ctx, other_uid);
    EXPECT_EQ(uid_changed.Code(), StatusCode::kConflict) << uid_changed;
    EXPECT_EQ(uid_changed.HttpCode(), 409) << uid_changed;

    api::ConfigMap moved = cm.DeepCopy();
    CONFORMANCE_CO_ASSERT(moved.SetNestedString({"metadata", "creationTimestamp"}, "2001-01-01T00:00:00Z").Ok());
    moved.SetGeneration(7);
    moved.SetDataValue("k", "v");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, moved));
    EXPECT_EQ(moved.CreationTimestamp(), created) << "creationTimestamp is the server's";
    EXPECT_EQ(moved.Uid(), uid);
    EXPECT_FALSE(moved.HasNestedField({"metadata", "generation"})) << moved.ToJson();

    const ObjectKey ns_key{"", ns};
    api::Namespace read_ns;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, ns_key, read_ns));
    EXPECT_FALSE(read_ns.HasNestedField({"metadata", "generation"})) << read_ns.ToJson();

    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, moved));
    const Status deleted = co_await client.Update(ctx, moved);
    ExpectServerStatus(deleted, StatusCode::kNotFound, 404, "NotFound", "configmaps \"meta\" not found",
                       "Update of a deleted object");
}

}  // namespace

std::vector<ClientConformanceCase> SubResourceConformanceCases() {
    return {
        {"PodStatusIsASubresource", &PodStatusIsASubresource},
        {"DeploymentGenerationCountsSpecChanges", &DeploymentGenerationCountsSpecChanges},
        {"EvictionDeletesAnUnscheduledPod", &EvictionDeletesAnUnscheduledPod},
        {"WritesKeepTheServersMetadata", &WritesKeepTheServersMetadata},
    };
}

}  // namespace ctrl::testing
