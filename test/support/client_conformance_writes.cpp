// Conformance cases for writes: Create, Update, Delete (preconditions, propagation, finalizers,
// grace periods), DeleteAllOf and dry runs.
#include <gmock/gmock.h>

#include "test/support/client_conformance.hpp"
#include "test/support/internal/conformance_objects.hpp"

namespace ctrl::testing {
namespace {

using client::Client;
using internal::CaseContext;
using internal::Names;
using internal::NewConfigMap;
using internal::NewPod;
using internal::NewWidget;
using internal::VersionNumber;

Task<void> CreateFillsServerFieldsAndRefusesDuplicates(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "created", {}, {{"k", "v"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    EXPECT_FALSE(cm.Uid().empty());
    EXPECT_GT(VersionNumber(cm.ResourceVersion()), 0u) << cm.ResourceVersion();
    EXPECT_TRUE(cm.CreationTimestamp().has_value());
    EXPECT_FALSE(cm.HasNestedField({"metadata", "generation"})) << "a ConfigMap has no generation";
    EXPECT_FALSE(cm.DeletionTimestamp().has_value());

    api::ConfigMap again = NewConfigMap(ns, "created");
    const Status duplicate = co_await client.Create(ctx, again);
    ExpectServerStatus(duplicate, StatusCode::kAlreadyExists, 409, "AlreadyExists",
                       "configmaps \"created\" already exists", "second Create");
    EXPECT_TRUE(again.Uid().empty()) << "unchanged on failure";

    api::ConfigMap generated = NewConfigMap(ns, "");
    generated.SetGenerateName("gen-");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, generated));
    EXPECT_THAT(std::string(generated.Name()), ::testing::StartsWith("gen-"));
    EXPECT_EQ(generated.Name().size(), 9u);

    api::ConfigMap nameless = NewConfigMap(ns, "");
    const Status no_name = co_await client.Create(ctx, nameless);
    ExpectServerStatus(no_name, StatusCode::kInvalid, 422, "Invalid",
                       "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required",
                       "Create without a name");

    api::ConfigMap bad_name = NewConfigMap(ns, "Not_A_Valid_Name");
    const Status invalid = co_await client.Create(ctx, bad_name);
    ExpectServerStatus(invalid, StatusCode::kInvalid, 422, "Invalid",
                       "ConfigMap \"Not_A_Valid_Name\" is invalid: metadata.name: Invalid value: \"Not_A_Valid_Name\": "
                       "a lowercase RFC 1123 subdomain",
                       "Create with an invalid name");
    CONFORMANCE_CO_ASSERT(!invalid.Causes().empty());
    EXPECT_EQ(invalid.Causes()[0].field, "metadata.name");
    EXPECT_EQ(invalid.Causes()[0].type, "FieldValueInvalid");

    api::ConfigMap versioned = NewConfigMap(ns, "versioned");
    versioned.SetResourceVersion("12");
    const Status with_version = co_await client.Create(ctx, versioned);
    ExpectServerStatus(with_version, StatusCode::kInternal, 500, "",
                       "resourceVersion should not be set on objects to be created", "Create with a resourceVersion");

    api::ConfigMap no_namespace = NewConfigMap("", "x");
    EXPECT_TRUE(IsInvalid(co_await client.Create(ctx, no_namespace)));
    const GroupVersionKind config_map{"", "v1", "ConfigMap"};
    client::PartialObjectMetadata metadata(config_map);
    metadata.SetNamespace(ns);
    metadata.SetName("m");
    EXPECT_TRUE(IsBadRequest(co_await client.Create(ctx, metadata)));
}

Task<void> UpdateChecksTheResourceVersion(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap first = NewConfigMap(ns, "shared");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, first));
    api::ConfigMap second = first.DeepCopy();
    const std::string created_version(first.ResourceVersion());

    first.SetDataValue("writer", "first");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, first));
    EXPECT_GT(VersionNumber(first.ResourceVersion()), VersionNumber(created_version));
    second.SetDataValue("writer", "second");
    const Status stale = co_await client.Update(ctx, second);
    ExpectServerStatus(stale, StatusCode::kConflict, 409, "Conflict",
                       "Operation cannot be fulfilled on configmaps \"shared\": the object has been modified; please "
                       "apply your changes to the latest version and try again",
                       "stale Update");
    EXPECT_EQ(second.DataValue("writer"), "second") << "unchanged on failure";

    const std::string version(first.ResourceVersion());
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, first));
    EXPECT_EQ(first.ResourceVersion(), version) << "an update that changes nothing keeps the version";

    api::ConfigMap unconditional = NewConfigMap(ns, "shared", {}, {{"writer", "blind"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, unconditional));
    EXPECT_EQ(unconditional.DataValue("writer"), "blind") << "a built-in kind takes an update without a version";
    EXPECT_EQ(unconditional.Uid(), first.Uid());
    EXPECT_EQ(unconditional.CreationTimestamp(), first.CreationTimestamp());

    api::ConfigMap absent = NewConfigMap(ns, "absent");
    const Status missing = co_await client.Update(ctx, absent);
    ExpectServerStatus(missing, StatusCode::kNotFound, 404, "NotFound", "configmaps \"absent\" not found",
                       "Update of an absent object");
    api::ConfigMap unnamed = NewConfigMap(ns, "");
    EXPECT_TRUE(IsInvalid(co_await client.Update(ctx, unnamed)));

    Object widget = NewWidget(ns, "versioned");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, widget));
    widget.SetResourceVersion("");
    CONFORMANCE_CO_ASSERT(widget.SetNestedString({"spec", "color"}, "red").Ok());
    const Status needs_version = co_await client.Update(ctx, widget);
    ExpectServerStatus(needs_version, StatusCode::kInvalid, 422, "Invalid",
                       "widgets.test.ctrl.dev \"versioned\" is invalid: metadata.resourceVersion: Invalid value: 0: "
                       "must be specified for an update",
                       "Update of a custom resource without a version");
}

Task<void> DeleteHonoursPreconditionsAndPropagation(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "doomed");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    client::DeleteOptions wrong_uid;
    wrong_uid.preconditions.uid = "00000000-0000-0000-0000-000000000000";
    const Status refused = co_await client.Delete(ctx, cm, wrong_uid);
    ExpectServerStatus(refused, StatusCode::kConflict, 409, "Conflict",
                       "Operation cannot be fulfilled on ConfigMap \"doomed\": the UID in the precondition "
                       "(00000000-0000-0000-0000-000000000000) does not match the UID in record (" +
                           std::string(cm.Uid()) + "). The object might have been deleted and then recreated",
                       "Delete with a wrong uid");
    client::DeleteOptions wrong_version;
    wrong_version.preconditions.resource_version = "1";
    const Status stale = co_await client.Delete(ctx, cm, wrong_version);
    ExpectServerStatus(stale, StatusCode::kConflict, 409, "Conflict",
                       "Operation cannot be fulfilled on ConfigMap \"doomed\": the ResourceVersion in the precondition "
                       "(1) does not match the ResourceVersion in record (" +
                           std::string(cm.ResourceVersion()) + "). The object might have been modified",
                       "Delete with a wrong resourceVersion");

    client::DeleteOptions dry;
    dry.dry_run = true;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, cm, dry));
    const ObjectKey doomed{ns, "doomed"};
    api::ConfigMap still;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, doomed, still));

    // No garbage collector runs here, so the policy's finalizer stays.
    client::DeleteOptions orphan;
    orphan.preconditions.uid = std::string(cm.Uid());
    orphan.propagation_policy = client::DeletionPropagation::kOrphan;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, cm, orphan));
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, doomed, still));
    EXPECT_THAT(still.Finalizers(), ::testing::Contains("orphan"));
    EXPECT_TRUE(still.DeletionTimestamp().has_value());

    api::ConfigMap foreground = NewConfigMap(ns, "foreground");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, foreground));
    client::DeleteOptions fg;
    fg.propagation_policy = client::DeletionPropagation::kForeground;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, foreground, fg));
    const ObjectKey lingering_key{ns, "foreground"};
    api::ConfigMap lingering;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, lingering_key, lingering));
    EXPECT_THAT(lingering.Finalizers(), ::testing::Contains("foregroundDeletion"));

    api::ConfigMap gone = NewConfigMap(ns, "never-was");
    const Status absent = co_await client.Delete(ctx, gone);
    ExpectServerStatus(absent, StatusCode::kNotFound, 404, "NotFound", "configmaps \"never-was\" not found",
                       "Delete of an absent object");
}

Task<void> DeleteWaitsForFinalizers(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "finalized");
    cm.AddFinalizer("ctrl.dev/cleanup");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, cm));
    const ObjectKey key{ns, "finalized"};
    api::ConfigMap terminating;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, terminating));
    EXPECT_TRUE(terminating.DeletionTimestamp().has_value());
    EXPECT_GT(VersionNumber(terminating.ResourceVersion()), VersionNumber(cm.ResourceVersion()));
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, terminating));  // deleting again is fine

    terminating.SetDataValue("still", "writable");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, terminating));
    EXPECT_TRUE(terminating.DeletionTimestamp().has_value());
    terminating.RemoveFinalizer("ctrl.dev/cleanup");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, terminating));
    api::ConfigMap after;
    const Status gone = co_await client.Get(ctx, key, after);
    EXPECT_TRUE(IsNotFound(gone)) << "removing the last finalizer deletes: " << gone;

    // The reconciler's way: a merge patch that drops the finalizer.
    api::ConfigMap patched = NewConfigMap(ns, "patched");
    patched.AddFinalizer("ctrl.dev/cleanup");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, patched));
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, patched));
    const ObjectKey patched_key{ns, "patched"};
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, patched_key, patched));
    const api::ConfigMap before = patched.DeepCopy();
    patched.RemoveFinalizer("ctrl.dev/cleanup");
    const client::Patch drop = client::MergeFrom(before);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, patched, drop));
    EXPECT_TRUE(IsNotFound(co_await client.Get(ctx, patched_key, after)));

    // Only a delete sets a deletionTimestamp.
    api::ConfigMap alive = NewConfigMap(ns, "alive");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, alive));
    CONFORMANCE_CO_ASSERT(alive.SetNestedString({"metadata", "deletionTimestamp"}, "2026-01-01T00:00:00Z").Ok());
    const Status immutable = co_await client.Update(ctx, alive);
    ExpectServerStatus(immutable, StatusCode::kInvalid, 422, "Invalid",
                       "ConfigMap \"alive\" is invalid: metadata.deletionTimestamp: Invalid value: "
                       "\"2026-01-01T00:00:00Z\": field is immutable",
                       "Update that sets a deletionTimestamp");
}

Task<void> PodDeletionHonoursTheGracePeriod(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::Pod pod = NewPod(ns, "graceful");
    pod.SetNodeName("node-1");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, pod));
    client::DeleteOptions grace;
    grace.grace_period_seconds = 45;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, pod, grace));
    const ObjectKey key{ns, "graceful"};
    api::Pod terminating;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, terminating));
    EXPECT_EQ(terminating.NestedInt({"metadata", "deletionGracePeriodSeconds"}).ValueOr(-1), 45);
    EXPECT_TRUE(terminating.DeletionTimestamp().has_value());
    client::DeleteOptions now;
    now.grace_period_seconds = 0;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, pod, now));
    EXPECT_TRUE(IsNotFound(co_await client.Get(ctx, key, terminating)));

    api::Pod unbound = NewPod(ns, "unbound");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, unbound));
    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, unbound));
    const ObjectKey unbound_key{ns, "unbound"};
    EXPECT_TRUE(IsNotFound(co_await client.Get(ctx, unbound_key, terminating))) << "no node, no grace";
}

Task<void> DeleteAllOfDeletesTheSelection(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    for (int i = 0; i < 6; ++i) {
        api::ConfigMap cm = NewConfigMap(ns, "item-" + std::to_string(i), {{"batch", i < 4 ? "old" : "new"}});
        CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    }
    api::ConfigMap kind;
    client::DeleteAllOfOptions dry;
    dry.list.namespace_name = ns;
    dry.list.label_selector = client::MatchingLabels("batch", "old").Selector();
    dry.delete_options.dry_run = true;
    CONFORMANCE_CO_ASSERT_OK(co_await client.DeleteAllOf(ctx, kind, dry));
    client::ListOptions in_ns;
    in_ns.namespace_name = ns;
    api::ConfigMapList left;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, left, in_ns));
    EXPECT_EQ(left.Items().size(), 6u) << "dry run";

    client::DeleteAllOfOptions old;
    old.list.namespace_name = ns;
    old.list.label_selector = client::MatchingLabels("batch", "old").Selector();
    CONFORMANCE_CO_ASSERT_OK(co_await client.DeleteAllOf(ctx, kind, old));
    api::ConfigMapList remaining;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, remaining, in_ns));
    EXPECT_EQ(Names(remaining), (std::set<std::string>{"item-4", "item-5"}));

    const Status everywhere = co_await client.DeleteAllOf(ctx, kind);
    EXPECT_TRUE(IsInvalid(everywhere)) << everywhere;
}

Task<void> DryRunWritesPersistNothing(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm = NewConfigMap(ns, "dry");
    client::CreateOptions dry_create;
    dry_create.dry_run = true;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm, dry_create));
    EXPECT_FALSE(cm.Uid().empty()) << "the answer is what would have been created";
    const ObjectKey dry_key{ns, "dry"};
    api::ConfigMap read;
    EXPECT_TRUE(IsNotFound(co_await client.Get(ctx, dry_key, read)));

    api::ConfigMap real = NewConfigMap(ns, "real", {}, {{"v", "1"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, real));
    real.SetDataValue("v", "2");
    client::UpdateOptions dry_update;
    dry_update.dry_run = true;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Update(ctx, real, dry_update));
    EXPECT_EQ(real.DataValue("v"), "2");
    const ObjectKey real_key{ns, "real"};
    api::ConfigMap after;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, real_key, after));
    EXPECT_EQ(after.DataValue("v"), "1");
    EXPECT_NE(after.ResourceVersion(), "");

    client::PatchOptions dry_patch;
    dry_patch.dry_run = true;
    const client::Patch patch = client::RawPatch(client::PatchType::kMergePatch, R"({"data":{"v":"3"}})");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Patch(ctx, after, patch, dry_patch));
    EXPECT_EQ(after.DataValue("v"), "3");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, real_key, after));
    EXPECT_EQ(after.DataValue("v"), "1");
}

}  // namespace

std::vector<ClientConformanceCase> WriteConformanceCases() {
    return {
        {"CreateFillsServerFieldsAndRefusesDuplicates", &CreateFillsServerFieldsAndRefusesDuplicates},
        {"UpdateChecksTheResourceVersion", &UpdateChecksTheResourceVersion},
        {"DeleteHonoursPreconditionsAndPropagation", &DeleteHonoursPreconditionsAndPropagation},
        {"DeleteWaitsForFinalizers", &DeleteWaitsForFinalizers},
        {"PodDeletionHonoursTheGracePeriod", &PodDeletionHonoursTheGracePeriod},
        {"DeleteAllOfDeletesTheSelection", &DeleteAllOfDeletesTheSelection},
        {"DryRunWritesPersistNothing", &DryRunWritesPersistNothing},
    };
}

}  // namespace ctrl::testing
