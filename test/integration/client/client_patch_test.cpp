// Patch through the direct client against the real API server: merge, JSON and strategic merge
// patches computed from the original, raw patches, optimistic locking, server-side apply with
// field managers, and metadata-only patches (issue 5, acceptance 1 and 3).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/pod.hpp"
#include "test/integration/client/client_fixture.hpp"
#include "test/support/internal/conformance_objects.hpp"

namespace ctrl::client::test {
namespace {

using ctrl::testing::internal::NewPod;

TEST_F(ClientTest, MergeFromPatchesOnlyWhatChanged) {
    CreateConfigMap("merge", {{"keep", "yes"}, {"drop", "yes"}}, {{"a", "1"}, {"b", "2"}});
    api::ConfigMap cm;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "merge"}, cm)).Ok());
    const api::ConfigMap original = cm.DeepCopy();
    cm.SetDataValue("a", "10");
    cm.RemoveDataValue("b");
    std::map<std::string, std::string> labels = cm.Labels();
    labels.erase("drop");
    cm.SetLabels(labels);

    // Someone else changes another key meanwhile: a merge patch keeps it.
    api::ConfigMap other;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "merge"}, other)).Ok());
    other.SetDataValue("c", "3");
    ASSERT_TRUE(Run(client_->Update(Ctx(), other)).Ok());

    ASSERT_TRUE(Run(client_->Patch(Ctx(), cm, MergeFrom(original), FieldOwner("merger"))).Ok());
    EXPECT_EQ(cm.Data(), (std::map<std::string, std::string>{{"a", "10"}, {"c", "3"}}));
    EXPECT_EQ(cm.Labels(), (std::map<std::string, std::string>{{"keep", "yes"}}));

    // With the optimistic lock the same stale patch is a Conflict.
    api::ConfigMap stale = original.DeepCopy();
    stale.SetDataValue("a", "20");
    Status locked = Run(client_->Patch(Ctx(), stale, MergeFrom(original, {.optimistic_lock = true})));
    EXPECT_TRUE(IsConflict(locked)) << locked;
}

TEST_F(ClientTest, JsonPatchAndRawPatchesApply) {
    CreateConfigMap("json", {}, {{"a", "1"}, {"b", "2"}});
    api::ConfigMap cm;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "json"}, cm)).Ok());
    const api::ConfigMap original = cm.DeepCopy();
    cm.SetDataValue("a", "one");
    cm.RemoveDataValue("b");
    cm.SetLabel("patched", "json");
    ASSERT_TRUE(Run(client_->Patch(Ctx(), cm, JsonPatchFrom(original, {.optimistic_lock = true}))).Ok());
    EXPECT_EQ(cm.Data(), (std::map<std::string, std::string>{{"a", "one"}}));
    EXPECT_EQ(cm.Label("patched"), "json");

    Patch raw = RawPatch(PatchType::kJsonPatch, R"([{"op":"add","path":"/data/z","value":"26"}])");
    ASSERT_TRUE(Run(client_->Patch(Ctx(), cm, raw)).Ok());
    EXPECT_EQ(cm.DataValue("z"), "26");
    Patch bad = RawPatch(PatchType::kJsonPatch, R"([{"op":"test","path":"/data/z","value":"no"}])");
    Status failed = Run(client_->Patch(Ctx(), cm, bad));
    EXPECT_FALSE(failed.Ok());
    EXPECT_EQ(cm.DataValue("z"), "26") << "unchanged on failure";
}

TEST_F(ClientTest, StrategicMergePatchMergesContainersByName) {
    api::Pod pod = NewPod(ns_, "smp");
    ASSERT_TRUE(Run(client_->Create(Ctx(), pod)).Ok());
    const api::Pod original = pod.DeepCopy();
    // Change the sidecar's image only; an SMP names the container and sends only that.
    StatusOr<std::vector<Object>> containers = pod.NestedSlice({"spec", "containers"});
    ASSERT_TRUE(containers.Ok());
    ASSERT_TRUE((*containers)[1].SetNestedString({"image"}, "busybox:1.37").Ok());
    std::string json = "[" + (*containers)[0].ToJson() + "," + (*containers)[1].ToJson() + "]";
    StatusOr<Object> array = Object::Parse(json);
    ASSERT_TRUE(array.Ok());
    ASSERT_TRUE(pod.SetNestedField({"spec", "containers"}, *array).Ok());
    pod.SetLabel("smp", "yes");

    Patch smp = StrategicMergeFrom(original);
    StatusOr<std::string> body = smp.Data(pod);
    ASSERT_TRUE(body.Ok()) << body.GetStatus();
    EXPECT_THAT(*body, ::testing::HasSubstr("sidecar"));
    EXPECT_THAT(*body, ::testing::Not(::testing::HasSubstr("\"env\""))) << *body;
    ASSERT_TRUE(Run(client_->Patch(Ctx(), pod, smp)).Ok());
    std::vector<api::Container> after = pod.Containers();
    ASSERT_EQ(after.size(), 2u);
    EXPECT_EQ(after[0].image, "busybox:1.36");
    EXPECT_EQ(after[1].image, "busybox:1.37");
    EXPECT_EQ(pod.Label("smp"), "yes");

    Object widget;
    widget.SetApiVersion("nope.example.com/v1");
    widget.SetKind("Widget");
    EXPECT_TRUE(IsBadRequest(StrategicMergeFrom(widget).Data(widget).GetStatus()));
}

TEST_F(ClientTest, ServerSideApplyIsIdempotentAndNamesConflicts) {
    api::ConfigMap desired;
    desired.SetNamespace(ns_);
    desired.SetName("applied");
    desired.SetDataValue("owned-by", "first");
    ASSERT_TRUE(Run(client_->Patch(Ctx(), desired, Apply(), FieldOwner("first"))).Ok());
    const std::string version = std::string(desired.ResourceVersion());
    ASSERT_FALSE(version.empty());

    api::ConfigMap again;
    again.SetNamespace(ns_);
    again.SetName("applied");
    again.SetDataValue("owned-by", "first");
    ASSERT_TRUE(Run(client_->Patch(Ctx(), again, Apply(), FieldOwner("first"))).Ok());
    EXPECT_EQ(again.ResourceVersion(), version) << "applying the same object twice changes nothing";

    api::ConfigMap rival;
    rival.SetNamespace(ns_);
    rival.SetName("applied");
    rival.SetDataValue("owned-by", "second");
    Status conflict = Run(client_->Patch(Ctx(), rival, Apply(), FieldOwner("second")));
    ASSERT_TRUE(IsConflict(conflict)) << conflict;
    EXPECT_THAT(conflict.Message(), ::testing::HasSubstr("first"));
    EXPECT_EQ(rival.DataValue("owned-by"), "second") << "unchanged on failure";

    ASSERT_TRUE(Run(client_->Patch(Ctx(), rival, Apply(), FieldOwner("second"), ForceOwnership())).Ok());
    EXPECT_EQ(rival.DataValue("owned-by"), "second");
    EXPECT_NE(rival.ResourceVersion(), version);

    const int before = Requests();
    api::ConfigMap anonymous;
    anonymous.SetNamespace(ns_);
    anonymous.SetName("applied");
    EXPECT_TRUE(IsInvalid(Run(client_->Patch(Ctx(), anonymous, Apply()))));
    PatchOptions misplaced_force;
    misplaced_force.force = true;
    EXPECT_TRUE(IsBadRequest(Run(client_->Patch(Ctx(), anonymous, MergeFrom(anonymous), misplaced_force))));
    EXPECT_EQ(Requests(), before);
}

TEST_F(ClientTest, MetadataOnlyObjectsCanBePatchedAndDeleted) {
    CreateConfigMap("meta", {}, {{"payload", "kept"}});
    PartialObjectMetadata meta({"", "v1", "ConfigMap"});
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "meta"}, meta)).Ok());
    const PartialObjectMetadata original = meta.DeepCopy();
    meta.SetLabel("touched", "metadata-only");
    meta.AddFinalizer("ctrl.dev/test");
    ASSERT_TRUE(Run(client_->Patch(Ctx(), meta, MergeFrom(original))).Ok());
    EXPECT_EQ(meta.Kind(), "ConfigMap");
    EXPECT_EQ(meta.Label("touched"), "metadata-only");
    EXPECT_FALSE(meta.HasNestedField({"data"}));

    api::ConfigMap full;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "meta"}, full)).Ok());
    EXPECT_EQ(full.DataValue("payload"), "kept");
    EXPECT_EQ(full.Label("touched"), "metadata-only");

    const PartialObjectMetadata before_removal = meta.DeepCopy();
    meta.RemoveFinalizer("ctrl.dev/test");
    ASSERT_TRUE(Run(client_->Patch(Ctx(), meta, MergeFrom(before_removal))).Ok());
    ASSERT_TRUE(Run(client_->Delete(Ctx(), meta)).Ok());
    EXPECT_TRUE(IsNotFound(Run(client_->Get(Ctx(), {ns_, "meta"}, full))));
}

}  // namespace
}  // namespace ctrl::client::test
