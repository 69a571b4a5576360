// Conformance cases for patches (merge, JSON, strategic merge, metadata-only, optimistic locks)
// and the status subresource.
#include <gmock/gmock.h>

#include "test/support/client_conformance.hpp"
#include "test/support/internal/conformance_objects.hpp"

namespace ctrl::testing {
namespace {

using client::Client;
using internal::CaseContext;
using internal::NewConfigMap;
using internal::NewPod;
using internal::NewWidget;

Task<void> MergePatchKeepsOtherChangesAndLocks(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "merge", {{"keep", "yes"}, {"drop", "yes"}}, {{"a", "1"}, {"b", "2"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    const api::ConfigMap original = cm.DeepCopy();
    cm.SetDataValue("a", "10");
    cm.RemoveDataValue("b");
    std::map<std::string, std::string> labels = cm.Labels();
    labels.erase("drop");
    cm.SetLabels(labels);

    api::ConfigMap other = original.DeepCopy();
    other.SetDataValue("c", "3");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, other));

    const client::Patch merge = client::MergeFrom(original);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, cm, merge));
    EXPECT_EQ(cm.Data(), (std::map<std::string, std::string>{{"a", "10"}, {"c", "3"}}));
    EXPECT_EQ(cm.Labels(), (std::map<std::string, std::string>{{"keep", "yes"}}));
    EXPECT_EQ(cm.ResourceVersion() == other.ResourceVersion(), false);

    api::ConfigMap stale = original.DeepCopy();
    stale.SetDataValue("a", "20");
    client::MergeFromOptions lock;
    lock.optimistic_lock = true;
    const client::Patch locked = client::MergeFrom(original, lock);
    const Status conflict = co_await client.Patch(ctx, stale, locked);
    ExpectServerStatus(conflict, StatusCode::kConflict, 409, "Conflict",
                       "Operation cannot be fulfilled on configmaps \"merge\": the object has been modified",
                       "locked merge patch");

    api::ConfigMap absent = NewConfigMap(ns, "absent");
    const client::Patch raw = client::RawPatch(client::PatchType::kMergePatch, R"({"data":{"x":"1"}})");
    const Status missing = co_await client.Patch(ctx, absent, raw);
    ExpectServerStatus(missing, StatusCode::kNotFound, 404, "NotFound", "configmaps \"absent\" not found",
                       "patch of an absent object");
}

Task<void> JsonPatchAppliesInOrder(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "json", {}, {{"a", "1"}, {"b", "2"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    const api::ConfigMap original = cm.DeepCopy();
    cm.SetDataValue("a", "one");
    cm.RemoveDataValue("b");
    cm.SetLabel("patched", "json");
    client::MergeFromOptions lock;
    lock.optimistic_lock = true;
    const client::Patch from = client::JsonPatchFrom(original, lock);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, cm, from));
    EXPECT_EQ(cm.Data(), (std::map<std::string, std::string>{{"a", "one"}}));
    EXPECT_EQ(cm.Label("patched"), "json");

    const client::Patch raw = client::RawPatch(
        client::PatchType::kJsonPatch,
        R"([{"op":"add","path":"/data/z","value":"26"},{"op":"copy","from":"/data/z","path":"/data/y"},)"
        R"({"op":"move","from":"/data/a","path":"/data/x"},{"op":"test","path":"/data/y","value":"26"}])");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, cm, raw));
    EXPECT_EQ(cm.Data(), (std::map<std::string, std::string>{{"x", "one"}, {"y", "26"}, {"z", "26"}}));

    const client::Patch failing =
        client::RawPatch(client::PatchType::kJsonPatch, R"([{"op":"test","path":"/data/z","value":"no"}])");
    const Status failed = co_await client.Patch(ctx, cm, failing);
    EXPECT_EQ(failed.Code(), StatusCode::kInvalid) << failed;
    EXPECT_EQ(failed.HttpCode(), 422) << failed;
    EXPECT_EQ(cm.DataValue("z"), "26") << "unchanged on failure";

    const client::Patch stale_lock = client::JsonPatchFrom(original, lock);
    api::ConfigMap changed = original.DeepCopy();
    changed.SetDataValue("a", "stale");
    const Status stale = co_await client.Patch(ctx, changed, stale_lock);
    EXPECT_EQ(stale.Code(), StatusCode::kInvalid) << "a failed test of the version is 422, not Conflict: " << stale;
}

Task<void> StrategicMergePatchMergesListsByKey(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::Pod pod = NewPod(ns, "smp");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, pod));
    const api::Pod original = pod.DeepCopy();
    StatusOr<Object> containers = Object::Parse(R"([
        {"name":"app","image":"busybox:1.36","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]},
        {"name":"sidecar","image":"busybox:1.37"}])");
    CONFORMANCE_CO_ASSERT(containers.Ok());
    CONFORMANCE_CO_ASSERT(pod.SetNestedField({"spec", "containers"}, *containers).Ok());
    pod.SetLabel("smp", "yes");
    const client::Patch smp = client::StrategicMergeFrom(original);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, pod, smp));
    std::vector<api::Container> after = pod.Containers();
    CONFORMANCE_CO_ASSERT(after.size() == 2u);
    EXPECT_EQ(after[0].name, "app");
    EXPECT_EQ(after[0].image, "busybox:1.36");
    EXPECT_EQ(after[1].image, "busybox:1.37");
    EXPECT_EQ(pod.Label("smp"), "yes");

    // A pod's spec takes only image changes: the patch names one container and keeps its env.
    const client::Patch raw = client::RawPatch(client::PatchType::kStrategicMergePatch,
                                               R"({"metadata":{"finalizers":["ctrl.dev/a"]},"spec":{"containers":)"
                                               R"([{"name":"app","image":"busybox:1.38"}]}})");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, pod, raw));
    after = pod.Containers();
    CONFORMANCE_CO_ASSERT(after.size() == 2u);
    EXPECT_EQ(after[0].image, "busybox:1.38");
    EXPECT_EQ(after[1].image, "busybox:1.37");
    StatusOr<std::vector<Object>> containers_after = pod.NestedSlice({"spec", "containers"});
    CONFORMANCE_CO_ASSERT(containers_after.Ok());
    StatusOr<std::vector<Object>> app_env = (*containers_after)[0].NestedSlice({"env"});
    EXPECT_EQ(app_env.Ok() ? app_env->size() : 0u, 2u) << pod.ToJson();
    EXPECT_THAT(pod.Finalizers(), ::testing::ElementsAre("ctrl.dev/a"));

    Object widget = NewWidget(ns, "no-smp");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, widget));
    const client::Patch custom =
        client::RawPatch(client::PatchType::kStrategicMergePatch, R"({"spec":{"color":"red"}})");
    const Status refused = co_await client.Patch(ctx, widget, custom);
    EXPECT_EQ(refused.Code(), StatusCode::kBadRequest) << refused;
    EXPECT_EQ(refused.HttpCode(), 415) << refused;
}

Task<void> MetadataOnlyObjectsCanBePatchedAndDeleted(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "meta", {}, {{"payload", "kept"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    const GroupVersionKind config_map{"", "v1", "ConfigMap"};
    const ObjectKey key{ns, "meta"};
    client::PartialObjectMetadata meta(config_map);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, meta));
    const client::PartialObjectMetadata original = meta.DeepCopy();
    meta.SetLabel("touched", "metadata-only");
    meta.AddFinalizer("ctrl.dev/test");
    const client::Patch merge = client::MergeFrom(original);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, meta, merge));
    EXPECT_EQ(meta.Kind(), "ConfigMap");
    EXPECT_EQ(meta.Label("touched"), "metadata-only");
    EXPECT_FALSE(meta.HasNestedField({"data"}));

    api::ConfigMap full;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, full));
    EXPECT_EQ(full.DataValue("payload"), "kept");
    EXPECT_EQ(full.Label("touched"), "metadata-only");

    const client::PartialObjectMetadata before_removal = meta.DeepCopy();
    meta.RemoveFinalizer("ctrl.dev/test");
    const client::Patch removal = client::MergeFrom(before_removal);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, meta, removal));
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, meta));
    EXPECT_TRUE(IsNotFound(co_await client.Get(ctx, key, full)));
}

Task<void> StatusSubresourceSplitsSpecAndStatus(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    Object widget = NewWidget(ns, "w1");
    CONFORMANCE_CO_ASSERT(widget.SetNestedString({"status", "phase"}, "Ignored").Ok());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, widget));
    EXPECT_FALSE(widget.HasNestedField({"status", "phase"})) << "create drops status";
    EXPECT_EQ(widget.Generation(), 1);

    CONFORMANCE_CO_ASSERT(widget.SetNestedString({"status", "phase"}, "Ready").Ok());
    CONFORMANCE_CO_ASSERT(widget.SetNestedString({"spec", "color"}, "red").Ok());
    widget.SetLabel("ignored", "by-status");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Status().Update(ctx, widget));
    EXPECT_EQ(widget.NestedString({"status", "phase"}).ValueOr(""), "Ready");
    EXPECT_EQ(widget.NestedString({"spec", "color"}).ValueOr(""), "blue") << "Status().Update kept spec";
    EXPECT_FALSE(widget.Label("ignored").has_value()) << "and metadata";
    EXPECT_EQ(widget.Generation(), 1) << "a status write is no new generation";

    CONFORMANCE_CO_ASSERT(widget.SetNestedString({"status", "phase"}, "Broken").Ok());
    CONFORMANCE_CO_ASSERT(widget.SetNestedString({"spec", "color"}, "green").Ok());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, widget));
    EXPECT_EQ(widget.NestedString({"spec", "color"}).ValueOr(""), "green");
    EXPECT_EQ(widget.NestedString({"status", "phase"}).ValueOr(""), "Ready") << "Update kept status";
    EXPECT_EQ(widget.Generation(), 2);
    widget.SetLabel("metadata", "only");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, widget));
    EXPECT_EQ(widget.Generation(), 2) << "a metadata change is no new generation";

    const client::Patch status_patch =
        client::RawPatch(client::PatchType::kMergePatch, R"({"status":{"phase":"Patched"},"spec":{"color":"x"}})");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Status().Patch(ctx, widget, status_patch));
    EXPECT_EQ(widget.NestedString({"status", "phase"}).ValueOr(""), "Patched");
    EXPECT_EQ(widget.NestedString({"spec", "color"}).ValueOr(""), "green");

    Object stale = widget.DeepCopy();
    const client::Patch spec_patch = client::RawPatch(client::PatchType::kMergePatch, R"({"spec":{"color":"pink"}})");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, widget, spec_patch));
    EXPECT_EQ(widget.NestedString({"status", "phase"}).ValueOr(""), "Patched") << "a patch keeps status";
    CONFORMANCE_CO_ASSERT(stale.SetNestedString({"status", "phase"}, "Stale").Ok());
    const Status conflict = co_await client.Status().Update(ctx, stale);
    ExpectServerStatus(conflict, StatusCode::kConflict, 409, "Conflict",
                       "Operation cannot be fulfilled on widgets.test.ctrl.dev \"w1\": the object has been modified",
                       "stale status update");

    const ObjectKey key{ns, "w1"};
    Object read;
    read.SetGroupVersionKind(WidgetKind());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, read));
    EXPECT_EQ(read.NestedString({"status", "phase"}).ValueOr(""), "Patched");
    EXPECT_EQ(read.NestedString({"spec", "color"}).ValueOr(""), "pink");
}

Task<void> StatusOfAKindWithoutTheSubresourceIsNotFound(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "no-status");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    const Status update = co_await client.Status().Update(ctx, cm);
    ExpectServerStatus(update, StatusCode::kNotFound, 404, "NotFound",
                       "the server could not find the requested resource", "Status().Update of a ConfigMap");
    const client::Patch patch =
        client::RawPatch(client::PatchType::kMergePatch, R"({"metadata":{"labels":{"a":"b"}}})");
    const Status patched = co_await client.Status().Patch(ctx, cm, patch);
    EXPECT_TRUE(IsNotFound(patched)) << patched;
}

}  // namespace

std::vector<ClientConformanceCase> PatchConformanceCases() {
    return {
        {"MergePatchKeepsOtherChangesAndLocks", &MergePatchKeepsOtherChangesAndLocks},
        {"JsonPatchAppliesInOrder", &JsonPatchAppliesInOrder},
        {"StrategicMergePatchMergesListsByKey", &StrategicMergePatchMergesListsByKey},
        {"MetadataOnlyObjectsCanBePatchedAndDeleted", &MetadataOnlyObjectsCanBePatchedAndDeleted},
        {"StatusSubresourceSplitsSpecAndStatus", &StatusSubresourceSplitsSpecAndStatus},
        {"StatusOfAKindWithoutTheSubresourceIsNotFound", &StatusOfAKindWithoutTheSubresourceIsNotFound},
    };
}

}  // namespace ctrl::testing
