// controllerutil's owner references, checked against controller-runtime's semantics: the
// already-owned check, validateOwner's namespace rules, replacing a reference to the same owner,
// the owner's kind from the object or from the scheme, and removal.
#include "ctrl/controllerutil/owner.hpp"

#include <gtest/gtest.h>

#include "ctrl/api/builtins.hpp"
#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"

namespace ctrl::controllerutil {
namespace {

scheme::Scheme BuiltinScheme() {
    scheme::Scheme scheme;
    EXPECT_TRUE(api::AddAllBuiltinsToScheme(scheme).Ok());
    return scheme;
}

// A Deployment (unstructured: not a typed kind here) named name in ns.
Object Deployment(std::string_view ns, std::string_view name, std::string_view uid) {
    Object deployment;
    deployment.SetGroupVersionKind(GroupVersionKind("apps", "v1", "Deployment"));
    deployment.SetNamespace(ns);
    deployment.SetName(name);
    deployment.SetUid(uid);
    return deployment;
}

api::Pod Pod(std::string_view ns, std::string_view name) {
    api::Pod pod;
    pod.SetNamespace(ns);
    pod.SetName(name);
    return pod;
}

OwnerReference Ref(std::string api_version, std::string kind, std::string name, std::string uid,
                   std::optional<bool> controller = std::nullopt, std::optional<bool> block = std::nullopt) {
    OwnerReference ref;
    ref.api_version = std::move(api_version);
    ref.kind = std::move(kind);
    ref.name = std::move(name);
    ref.uid = std::move(uid);
    ref.controller = controller;
    ref.block_owner_deletion = block;
    return ref;
}

class OwnerTest : public ::testing::Test {
  protected:
    scheme::Scheme scheme_ = BuiltinScheme();
};

TEST_F(OwnerTest, SetControllerReferenceWritesAControllerReferenceThatBlocksDeletion) {
    const Object owner = Deployment("ns", "web", "uid-1");
    api::Pod pod = Pod("ns", "web-0");
    ASSERT_TRUE(SetControllerReference(owner, pod, scheme_).Ok());
    const std::vector<OwnerReference> refs = pod.OwnerReferences();
    ASSERT_EQ(refs.size(), 1u);
    EXPECT_EQ(refs[0], Ref("apps/v1", "Deployment", "web", "uid-1", true, true));
    EXPECT_TRUE(HasControllerReference(pod));
    EXPECT_EQ(GetControllerOf(pod), refs[0]);

    // Again with the same owner: nothing changes.
    ASSERT_TRUE(SetControllerReference(owner, pod, scheme_).Ok());
    EXPECT_EQ(pod.OwnerReferences(), refs);
}

TEST_F(OwnerTest, SetControllerReferenceReplacesAReferenceToTheSameOwnerAndKeepsOthers) {
    api::Pod pod = Pod("ns", "web-0");
    const OwnerReference other = Ref("v1", "ConfigMap", "settings", "uid-cm");
    // The same group, kind and name under another version and uid, not a controller: the same owner.
    pod.SetOwnerReferences({Ref("apps/v1beta2", "Deployment", "web", "old-uid"), other});
    ASSERT_TRUE(SetControllerReference(Deployment("ns", "web", "uid-1"), pod, scheme_).Ok());
    EXPECT_EQ(pod.OwnerReferences(),
              (std::vector<OwnerReference>{Ref("apps/v1", "Deployment", "web", "uid-1", true, true), other}));
}

TEST_F(OwnerTest, AnotherControllerIsAlreadyOwnedAndLeavesTheObjectAlone) {
    api::Pod pod = Pod("ns", "web-0");
    pod.SetOwnerReferences({Ref("apps/v1", "ReplicaSet", "web-abc", "uid-rs", true, true)});
    const std::vector<OwnerReference> before = pod.OwnerReferences();

    const Status status = SetControllerReference(Deployment("ns", "web", "uid-1"), pod, scheme_);
    EXPECT_TRUE(IsAlreadyOwned(status)) << status;
    EXPECT_TRUE(IsConflict(status));
    EXPECT_EQ(status.Reason(), kAlreadyOwnedReason);
    EXPECT_EQ(status.Message(), "Object ns/web-0 is already owned by another ReplicaSet controller web-abc");
    EXPECT_EQ(pod.OwnerReferences(), before);
    EXPECT_FALSE(IsAlreadyOwned(ConflictError("stale")));

    // A controller of the same group, kind and name is the same owner, whatever its version.
    pod.SetOwnerReferences({Ref("apps/v1beta1", "Deployment", "web", "uid-1", true, false)});
    EXPECT_TRUE(SetControllerReference(Deployment("ns", "web", "uid-1"), pod, scheme_).Ok());
    // A plain owner reference to someone else does not stand in the way.
    api::Pod shared = Pod("ns", "shared");
    shared.SetOwnerReferences({Ref("apps/v1", "ReplicaSet", "other", "uid-rs")});
    EXPECT_TRUE(SetControllerReference(Deployment("ns", "web", "uid-1"), shared, scheme_).Ok());
    EXPECT_EQ(shared.OwnerReferences().size(), 2u);
}

TEST_F(OwnerTest, NamespacedOwnersMustShareTheObjectsNamespace) {
    api::Pod pod = Pod("other", "web-0");
    Status status = SetControllerReference(Deployment("ns", "web", "uid-1"), pod, scheme_);
    EXPECT_TRUE(IsBadRequest(status)) << status;
    EXPECT_EQ(status.Message(),
              "cross-namespace owner references are disallowed, owner's namespace ns, obj's "
              "namespace other");
    EXPECT_TRUE(pod.OwnerReferences().empty());

    api::Namespace cluster_scoped;
    cluster_scoped.SetName("team");
    status = SetOwnerReference(Deployment("ns", "web", "uid-1"), cluster_scoped, scheme_);
    EXPECT_TRUE(IsBadRequest(status)) << status;
    EXPECT_EQ(status.Message(), "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ns");
    EXPECT_TRUE(cluster_scoped.OwnerReferences().empty());
}

TEST_F(OwnerTest, AClusterScopedOwnerMayOwnANamespacedObject) {
    api::Namespace owner;
    owner.SetName("team");
    owner.SetUid("uid-ns");
    api::Pod pod = Pod("team", "web-0");
    ASSERT_TRUE(SetControllerReference(owner, pod, scheme_).Ok());
    EXPECT_EQ(pod.OwnerReferences(),
              (std::vector<OwnerReference>{Ref("v1", "Namespace", "team", "uid-ns", true, true)}));
}

TEST_F(OwnerTest, TheOwnersKindComesFromTheSchemeWhenTheObjectHasNone) {
    api::ConfigMap owner;
    owner.SetNamespace("ns");
    owner.SetName("settings");
    owner.SetUid("uid-cm");
    owner.SetApiVersion("");
    owner.SetKind("");
    api::Pod pod = Pod("ns", "web-0");
    ASSERT_TRUE(SetOwnerReference(owner, pod, scheme_).Ok());
    EXPECT_EQ(pod.OwnerReferences(), (std::vector<OwnerReference>{Ref("v1", "ConfigMap", "settings", "uid-cm")}));

    // A typed kind the scheme does not know, and an unstructured object, need their own.
    const scheme::Scheme empty;
    api::Pod other = Pod("ns", "web-1");
    Status status = SetOwnerReference(owner, other, empty);
    EXPECT_TRUE(IsBadRequest(status)) << status;
    Object untyped;
    untyped.SetNamespace("ns");
    untyped.SetName("anything");
    status = SetControllerReference(untyped, other, scheme_);
    EXPECT_TRUE(IsBadRequest(status)) << status;
    EXPECT_EQ(status.Message(), "owner ns/anything has no apiVersion and kind");
    EXPECT_TRUE(other.OwnerReferences().empty());
}

TEST_F(OwnerTest, SetOwnerReferenceAddsAPlainReferenceAndReplacesOneToTheSameOwner) {
    api::Pod pod = Pod("ns", "web-0");
    pod.SetOwnerReferences({Ref("apps/v1", "Deployment", "web", "uid-1", true, true)});
    ASSERT_TRUE(SetOwnerReference(Deployment("ns", "web", "uid-1"), pod, scheme_).Ok());
    EXPECT_EQ(pod.OwnerReferences(), (std::vector<OwnerReference>{Ref("apps/v1", "Deployment", "web", "uid-1")}));
    EXPECT_FALSE(HasControllerReference(pod));

    OwnerReferenceOptions block;
    block.block_owner_deletion = true;
    ASSERT_TRUE(SetOwnerReference(Deployment("ns", "api", "uid-2"), pod, scheme_, block).Ok());
    EXPECT_EQ(pod.OwnerReferences()[1], Ref("apps/v1", "Deployment", "api", "uid-2", std::nullopt, true));

    OwnerReferenceOptions no_block;
    no_block.block_owner_deletion = false;
    api::Pod controlled = Pod("ns", "web-1");
    ASSERT_TRUE(SetControllerReference(Deployment("ns", "web", "uid-1"), controlled, scheme_, no_block).Ok());
    EXPECT_EQ(controlled.OwnerReferences()[0], Ref("apps/v1", "Deployment", "web", "uid-1", true, false));
}

TEST_F(OwnerTest, HasOwnerReferenceMatchesGroupKindAndName) {
    const std::vector<OwnerReference> refs{Ref("apps/v1beta1", "Deployment", "web", "other-uid")};
    StatusOr<bool> has = HasOwnerReference(refs, Deployment("ns", "web", "uid-1"), scheme_);
    ASSERT_TRUE(has.Ok()) << has.GetStatus();
    EXPECT_TRUE(*has);
    has = HasOwnerReference(refs, Deployment("ns", "api", "uid-1"), scheme_);
    ASSERT_TRUE(has.Ok());
    EXPECT_FALSE(*has);
    Object replica_set = Deployment("ns", "web", "uid-1");
    replica_set.SetKind("ReplicaSet");
    EXPECT_FALSE(*HasOwnerReference(refs, replica_set, scheme_));
    Object extensions = Deployment("ns", "web", "uid-1");
    extensions.SetApiVersion("extensions/v1beta1");
    EXPECT_FALSE(*HasOwnerReference(refs, extensions, scheme_)) << "another group is another owner";
}

TEST_F(OwnerTest, RemoveOwnerReferenceRemovesOnlyThatOwner) {
    api::Pod pod = Pod("ns", "web-0");
    EXPECT_TRUE(IsNotFound(RemoveOwnerReference(Deployment("ns", "web", "uid-1"), pod, scheme_)));
    const OwnerReference other = Ref("v1", "ConfigMap", "settings", "uid-cm");
    pod.SetOwnerReferences({Ref("apps/v1", "Deployment", "web", "uid-1", true, true), other});
    const Status missing = RemoveOwnerReference(Deployment("ns", "api", "uid-2"), pod, scheme_);
    EXPECT_TRUE(IsNotFound(missing)) << missing;
    EXPECT_EQ(pod.OwnerReferences().size(), 2u);

    ASSERT_TRUE(RemoveOwnerReference(Deployment("ns", "web", "uid-1"), pod, scheme_).Ok());
    EXPECT_EQ(pod.OwnerReferences(), std::vector<OwnerReference>{other});
}

TEST_F(OwnerTest, RemoveControllerReferenceRemovesOnlyTheControllerReferenceToOwner) {
    api::Pod pod = Pod("ns", "web-0");
    const OwnerReference plain = Ref("v1", "ConfigMap", "settings", "uid-cm");
    pod.SetOwnerReferences({plain});
    EXPECT_TRUE(IsNotFound(RemoveControllerReference(Deployment("ns", "web", "uid-1"), pod, scheme_)))
        << "no controller reference at all";

    pod.SetOwnerReferences({plain, Ref("apps/v1", "Deployment", "web", "uid-1", true, true)});
    EXPECT_TRUE(IsNotFound(RemoveControllerReference(Deployment("ns", "api", "uid-2"), pod, scheme_)))
        << "no reference to that owner";
    api::ConfigMap settings;
    settings.SetNamespace("ns");
    settings.SetName("settings");
    EXPECT_TRUE(IsNotFound(RemoveControllerReference(settings, pod, scheme_))) << "a reference, not the controller";
    EXPECT_EQ(pod.OwnerReferences().size(), 2u);

    ASSERT_TRUE(RemoveControllerReference(Deployment("ns", "web", "uid-1"), pod, scheme_).Ok());
    EXPECT_EQ(pod.OwnerReferences(), std::vector<OwnerReference>{plain});
    EXPECT_FALSE(HasControllerReference(pod));
    EXPECT_EQ(GetControllerOf(pod), std::nullopt);
}

}  // namespace
}  // namespace ctrl::controllerutil
