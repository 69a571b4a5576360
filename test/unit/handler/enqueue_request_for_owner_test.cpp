// EnqueueRequestForOwner: owners of the owner kind (group and kind, any version), the controller
// owner alone when asked, namespaced or not as the RESTMapper says.

#include "ctrl/handler/enqueue_request_for_owner.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/static_rest_mapper.hpp"
#include "ctrl/scheme/scheme.hpp"
#include "ctrl/scheme/typed_object.hpp"
#include "test/unit/handler/recording_queue.hpp"

namespace ctrl::handler {
namespace {

using controller::testing::RecordingQueue;
using reconcile::Request;

// example.com/v1 Widget, a namespaced custom kind; Cluster, a cluster-scoped one.
class Widget final : public scheme::TypedObjectBase<Widget> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"example.com", "v1", "Widget"};
    static constexpr std::string_view kListKind = "WidgetList";
    using TypedObjectBase::TypedObjectBase;
};

const GroupVersionKind kReplicaSet("apps", "v1", "ReplicaSet");
const GroupVersionKind kCluster("example.com", "v1", "Cluster");

OwnerReference Ref(std::string api_version, std::string kind, std::string name, std::optional<bool> controller = {}) {
    OwnerReference ref;
    ref.api_version = std::move(api_version);
    ref.kind = std::move(kind);
    ref.name = std::move(name);
    ref.uid = "uid-" + ref.name;
    ref.controller = controller;
    return ref;
}

std::shared_ptr<const Object> Owned(std::string_view namespace_name, std::string_view name,
                                    const std::vector<OwnerReference>& refs) {
    Object object;
    object.SetApiVersion("v1");
    object.SetKind("Pod");
    object.SetNamespace(namespace_name);
    object.SetName(name);
    object.SetOwnerReferences(refs);
    return std::make_shared<const Object>(std::move(object));
}

class EnqueueRequestForOwnerTest : public ::testing::Test {
  protected:
    EnqueueRequestForOwnerTest() {
        mapper_.Add(kReplicaSet, "replicasets", discovery::Scope::kNamespace);
        mapper_.Add(kCluster, "clusters", discovery::Scope::kRoot);
        mapper_.Add(scheme::GroupVersionKindOf<Widget>(), "widgets", discovery::Scope::kNamespace);
    }

    Status Prepare(EventHandler& handler) { return RunSync(io_, handler.Prepare(Context::Background())); }

    boost::asio::io_context io_;
    scheme::Scheme scheme_;
    discovery::StaticRESTMapper mapper_;
    RecordingQueue queue_;
    const Context ctx_ = Context::Background();
};

TEST_F(EnqueueRequestForOwnerTest, EnqueuesEveryOwnerOfTheKindInTheObjectsNamespace) {
    const auto handler = EnqueueRequestForOwner(scheme_, mapper_, kReplicaSet);
    ASSERT_TRUE(Prepare(*handler).Ok());
    const auto pod =
        Owned("ns1", "web-1",
              {Ref("apps/v1", "ReplicaSet", "web", true), Ref("apps/v1beta2", "ReplicaSet", "web-old"),
               Ref("extensions/v1beta1", "ReplicaSet", "other-group"), Ref("apps/v1", "Deployment", "other-kind"),
               Ref("v1", "ReplicaSet", "core-group"), Ref("a/b/c", "ReplicaSet", "unparsable")});
    handler->Create(ctx_, event::CreateEvent(pod), queue_);
    // Version ignored; group and kind compared; a malformed apiVersion skipped; the pod's namespace.
    EXPECT_EQ(queue_.Added(), (std::vector<Request>{Request("ns1", "web"), Request("ns1", "web-old")}));
}

TEST_F(EnqueueRequestForOwnerTest, EveryEventTypeAndBothSidesOfAnUpdate) {
    const auto handler = EnqueueRequestForOwner(scheme_, mapper_, kReplicaSet);
    ASSERT_TRUE(Prepare(*handler).Ok());
    const auto before = Owned("ns1", "p", {Ref("apps/v1", "ReplicaSet", "a"), Ref("apps/v1", "ReplicaSet", "b")});
    const auto after = Owned("ns1", "p", {Ref("apps/v1", "ReplicaSet", "b"), Ref("apps/v1", "ReplicaSet", "c")});
    handler->Update(ctx_, event::UpdateEvent(before, after), queue_);
    EXPECT_EQ(queue_.Added(), (std::vector<Request>{Request("ns1", "a"), Request("ns1", "b"), Request("ns1", "c")}));

    RecordingQueue others;
    handler->Delete(ctx_, event::DeleteEvent(before), others);
    handler->Generic(ctx_, event::GenericEvent(after), others);
    handler->Create(ctx_, event::CreateEvent(), others);
    EXPECT_EQ(others.Added(), (std::vector<Request>{Request("ns1", "a"), Request("ns1", "b"), Request("ns1", "b"),
                                                    Request("ns1", "c")}));
}

TEST_F(EnqueueRequestForOwnerTest, OnlyControllerOwnerTakesTheControllerReferenceAlone) {
    const auto handler = EnqueueRequestForOwner(scheme_, mapper_, kReplicaSet, true);
    ASSERT_TRUE(Prepare(*handler).Ok());
    handler->Create(ctx_,
                    event::CreateEvent(Owned(
                        "ns1", "p",
                        {Ref("apps/v1", "ReplicaSet", "owner"), Ref("apps/v1", "ReplicaSet", "not-controller", false),
                         Ref("apps/v1", "ReplicaSet", "controller", true)})),
                    queue_);
    // A controller of another kind hides the non-controller owners of the right kind.
    handler->Create(
        ctx_,
        event::CreateEvent(Owned(
            "ns1", "q", {Ref("apps/v1", "ReplicaSet", "owner"), Ref("apps/v1", "Deployment", "controller", true)})),
        queue_);
    EXPECT_EQ(queue_.Added(), (std::vector<Request>{Request("ns1", "controller")}));
}

TEST_F(EnqueueRequestForOwnerTest, AClusterScopedOwnerGetsNoNamespace) {
    const auto handler = EnqueueRequestForOwner(scheme_, mapper_, kCluster);
    ASSERT_TRUE(Prepare(*handler).Ok());
    handler->Create(ctx_, event::CreateEvent(Owned("ns1", "p", {Ref("example.com/v1", "Cluster", "prod")})), queue_);
    EXPECT_EQ(queue_.Added(), (std::vector<Request>{Request("", "prod")}));
}

TEST_F(EnqueueRequestForOwnerTest, AnUnknownOwnerKindFailsPrepareNamingIt) {
    const auto handler = EnqueueRequestForOwner(scheme_, mapper_, GroupVersionKind("example.com", "v1", "Gadget"));
    const Status status = Prepare(*handler);
    ASSERT_FALSE(status.Ok());
    EXPECT_TRUE(IsNoMatch(status)) << status;
    EXPECT_NE(status.Message().find("example.com/v1, Kind=Gadget"), std::string::npos) << status;
    // Unprepared and unknown to the mapper: events are dropped, never guessed.
    handler->Create(ctx_, event::CreateEvent(Owned("ns1", "p", {Ref("example.com/v1", "Gadget", "g")})), queue_);
    EXPECT_TRUE(queue_.Added().empty());
}

TEST_F(EnqueueRequestForOwnerTest, WithoutPrepareTheMappersCachedMappingGivesTheScope) {
    const auto handler = EnqueueRequestForOwner(scheme_, mapper_, kCluster);
    handler->Create(ctx_, event::CreateEvent(Owned("ns1", "p", {Ref("example.com/v1", "Cluster", "prod")})), queue_);
    EXPECT_EQ(queue_.Added(), (std::vector<Request>{Request("", "prod")}));
}

TEST_F(EnqueueRequestForOwnerTest, TheTypedFormTakesTheKindFromTheScheme) {
    ASSERT_TRUE(scheme_.AddKnownType<Widget>().Ok());
    const auto handler = EnqueueRequestForOwner<Widget>(scheme_, mapper_, true);
    ASSERT_TRUE(Prepare(*handler).Ok());
    handler->Create(ctx_, event::CreateEvent(Owned("ns1", "p", {Ref("example.com/v1", "Widget", "w", true)})), queue_);
    EXPECT_EQ(queue_.Added(), (std::vector<Request>{Request("ns1", "w")}));
}

TEST_F(EnqueueRequestForOwnerTest, TheTypedFormOfAnUnregisteredKindFailsPrepare) {
    const auto handler = EnqueueRequestForOwner<Widget>(scheme_, mapper_);
    const Status status = Prepare(*handler);
    EXPECT_TRUE(scheme::IsNotRegistered(status)) << status;
}

}  // namespace
}  // namespace ctrl::handler
