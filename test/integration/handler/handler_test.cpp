// The built-in handlers and predicates against the real control plane (issue 13, acceptance 1 and 4
// at the handler level, without a controller): Kind sources feed a real work queue through
// EnqueueRequestForOwner (whose Prepare asks the server's discovery for the owner kind's scope),
// EnqueueRequestsFromMapFunc reading the cache, and GenerationChanged over a status-only update.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/handler/enqueue_request_for_object.hpp"
#include "ctrl/handler/enqueue_request_for_owner.hpp"
#include "ctrl/handler/enqueue_requests_from_map_func.hpp"
#include "ctrl/predicate/predicates.hpp"
#include "ctrl/source/kind.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/support/eventually.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::handler {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::Within;
using reconcile::Request;

OwnerReference Ref(std::string api_version, std::string kind, std::string name, bool controller) {
    OwnerReference ref;
    ref.api_version = std::move(api_version);
    ref.kind = std::move(kind);
    ref.uid = "uid-" + name;  // the owners need not exist: no garbage collector runs here
    ref.name = std::move(name);
    ref.controller = controller;
    return ref;
}

// The update events a handler saw, as "generation/resourceVersion" of the new object.
class UpdateLog {
  public:
    std::shared_ptr<EventHandler> Handler() {
        auto funcs = std::make_shared<Funcs>();
        funcs->update = [this](const Context&, const event::UpdateEvent& e, RequestQueue&) {
            const std::lock_guard<std::mutex> lock(mu_);
            lines_.push_back(std::to_string(e.object_new->Generation()) + "/" +
                             std::string(e.object_new->ResourceVersion()));
        };
        return funcs;
    }
    std::vector<std::string> Lines() const {
        const std::lock_guard<std::mutex> lock(mu_);
        return lines_;
    }

  private:
    mutable std::mutex mu_;
    std::vector<std::string> lines_;
};

class HandlerTest : public ::testing::Test {
  protected:
    HandlerTest() {
        StatusOr<std::unique_ptr<cluster::Cluster>> made =
            cluster::Cluster::New(ctrl::testing::SharedAdminConfig(), loop_.Executor());
        EXPECT_TRUE(made.Ok()) << made.GetStatus();
        cluster_ = std::move(made).Value();
        cluster_->Start(stop_);
    }
    ~HandlerTest() override {
        stop_.Cancel();
        EXPECT_TRUE(Eventually([&] {
            return std::none_of(sources_.begin(), sources_.end(), [](const auto& s) { return s->Running(); });
        }));
        sources_.clear();
        cluster_.reset();
        loop_.Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    // Starts a Kind source of gvk into queue_ and waits for its sync.
    void Watch(const GroupVersionKind& gvk, std::shared_ptr<EventHandler> handler,
               std::vector<predicate::PredicatePtr> predicates = {}) {
        sources_.push_back(std::static_pointer_cast<source::KindSource>(
            source::Kind(cluster_->GetCache(), gvk, std::move(handler), std::move(predicates))));
        const Status started = Run(sources_.back()->Start(stop_, queue_));
        ASSERT_TRUE(started.Ok()) << started;
        const Status synced = Run(sources_.back()->WaitForSync(Within(30s)));
        ASSERT_TRUE(synced.Ok()) << synced;
    }

    void CreateNamespace(const std::string& name) {
        api::Namespace ns;
        ns.SetName(name);
        const Status created = Run(cluster_->GetAPIReader().Create(Within(30s), ns));
        ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
    }

    void CreateConfigMap(const std::string& namespace_name, const std::string& name,
                         const std::map<std::string, std::string>& labels, const std::vector<OwnerReference>& owners) {
        api::ConfigMap cm;
        cm.SetNamespace(namespace_name);
        cm.SetName(name);
        cm.SetLabels(labels);
        cm.SetOwnerReferences(owners);
        const Status created = Run(cluster_->GetAPIReader().Create(Within(30s), cm));
        ASSERT_TRUE(created.Ok()) << created;
    }

    // Every key queued so far (taken from the queue and remembered).
    std::set<Request> Queued() {
        while (queue_.Len() > 0) {
            const std::optional<Request> request = queue_.Get();
            if (!request)
                break;
            queued_.insert(*request);
            queue_.Done(*request);
        }
        return queued_;
    }

    ctrl::testing::IoLoop loop_;
    std::unique_ptr<cluster::Cluster> cluster_;
    Context stop_ = Context::WithCancel(Context::Background());
    workqueue::Queue<Request> queue_{loop_.Executor()};
    std::vector<std::shared_ptr<source::KindSource>> sources_;
    std::set<Request> queued_;
};

const GroupVersionKind kConfigMap("", "v1", "ConfigMap");

TEST_F(HandlerTest, AnOwnedObjectEnqueuesItsControllerOwnerOrEveryOwnerOfTheKindWithItsScope) {
    CreateNamespace("handlers-owner");
    // Prepare asks the server's discovery: ReplicaSet is namespaced, Namespace cluster-scoped.
    Watch(kConfigMap, EnqueueRequestForOwner(cluster_->GetScheme(), cluster_->GetRESTMapper(),
                                             GroupVersionKind("apps", "v1", "ReplicaSet"), /*only_controller=*/true));
    Watch(kConfigMap, EnqueueRequestForOwner(cluster_->GetScheme(), cluster_->GetRESTMapper(),
                                             GroupVersionKind("", "v1", "Namespace")));
    CreateConfigMap("handlers-owner", "owned", {},
                    {Ref("apps/v1", "ReplicaSet", "controller-rs", true),
                     Ref("apps/v1", "ReplicaSet", "other-rs", false), Ref("v1", "Namespace", "handlers-owner", false)});
    const std::set<Request> expected{Request("handlers-owner", "controller-rs"), Request("", "handlers-owner")};
    EXPECT_TRUE(Eventually([&] { return Queued() == expected; }))
        << ::testing::PrintToString(std::vector<Request>(queued_.begin(), queued_.end()));
    EXPECT_FALSE(queued_.contains(Request("handlers-owner", "other-rs"))) << "not the controller";
}

TEST_F(HandlerTest, AnOwnerKindTheServerDoesNotServeFailsPrepareNamingIt) {
    auto handler = EnqueueRequestForOwner(cluster_->GetScheme(), cluster_->GetRESTMapper(),
                                          GroupVersionKind("example.com", "v1", "Gadget"));
    const Status prepared = Run(handler->Prepare(Within(30s)));
    EXPECT_TRUE(IsNoMatch(prepared)) << prepared;
    EXPECT_NE(prepared.Message().find("example.com/v1, Kind=Gadget"), std::string::npos) << prepared;
}

TEST_F(HandlerTest, AMapFunctionReadingTheCacheFansOneObjectOutToNKeys) {
    CreateNamespace("handlers-map");
    cache::Cache& cache = cluster_->GetCache();
    // A "team" ConfigMap maps to the ConfigMaps labelled with its name.
    auto members_of_team = [&cache](const Context&, const Object& object) {
        std::vector<Request> requests;
        if (object.Label("role") != "team")
            return requests;
        StatusOr<std::vector<std::shared_ptr<const Object>>> members =
            cache.ListSharedNow<api::ConfigMap>(client::InNamespace(std::string(object.Namespace())),
                                                client::MatchingLabels("team", std::string(object.Name())));
        if (!members.Ok())
            return requests;
        for (const std::shared_ptr<const Object>& member : *members)
            requests.emplace_back(member->Key());
        return requests;
    };
    Watch(kConfigMap, EnqueueRequestsFromMapFunc(members_of_team));
    for (int i = 0; i < 4; ++i)
        CreateConfigMap("handlers-map", "member-" + std::to_string(i), {{"team", "blue"}}, {});
    ASSERT_TRUE(Eventually([&] {
        auto listed = cache.ListSharedNow<api::ConfigMap>(client::InNamespace("handlers-map"));
        return listed.Ok() && listed->size() >= 4;
    }));
    EXPECT_TRUE(Queued().empty()) << "members map to nothing";
    CreateConfigMap("handlers-map", "blue", {{"role", "team"}}, {});
    const std::set<Request> expected{Request("handlers-map", "member-0"), Request("handlers-map", "member-1"),
                                     Request("handlers-map", "member-2"), Request("handlers-map", "member-3")};
    EXPECT_TRUE(Eventually([&] { return Queued() == expected; }))
        << ::testing::PrintToString(std::vector<Request>(queued_.begin(), queued_.end()));
}

TEST_F(HandlerTest, AStatusOnlyUpdateDoesNotPassGenerationChanged) {
    CreateNamespace("handlers-generation");
    const GroupVersionKind deployment_kind("apps", "v1", "Deployment");
    UpdateLog any_write;
    UpdateLog spec_changes;
    Watch(deployment_kind, any_write.Handler(), {predicate::ResourceVersionChanged()});
    Watch(deployment_kind, spec_changes.Handler(), {predicate::GenerationChanged()});

    StatusOr<Object> deployment = Object::Parse(R"({"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"namespace":"handlers-generation","name":"web"},
        "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
          "template":{"metadata":{"labels":{"app":"web"}},
                      "spec":{"containers":[{"name":"app","image":"busybox:1.36"}]}}}})");
    ASSERT_TRUE(deployment.Ok()) << deployment.GetStatus();
    ASSERT_TRUE(Run(cluster_->GetAPIReader().Create(Within(30s), *deployment)).Ok());
    ASSERT_EQ(deployment->Generation(), 1);

    // Status only: a new resourceVersion, the same generation.
    ASSERT_TRUE(deployment->SetNestedInt({"status", "observedGeneration"}, 1).Ok());
    ASSERT_TRUE(Run(cluster_->GetAPIReader().Status().Update(Within(30s), *deployment)).Ok());
    const std::string status_write = "1/" + std::string(deployment->ResourceVersion());
    ASSERT_TRUE(Eventually([&] {
        const auto lines = any_write.Lines();
        return std::find(lines.begin(), lines.end(), status_write) != lines.end();
    })) << ::testing::PrintToString(any_write.Lines());

    // A spec change bumps generation.
    ASSERT_TRUE(deployment->SetNestedInt({"spec", "replicas"}, 2).Ok());
    ASSERT_TRUE(Run(cluster_->GetAPIReader().Update(Within(30s), *deployment)).Ok());
    ASSERT_EQ(deployment->Generation(), 2);
    const std::string spec_write = "2/" + std::string(deployment->ResourceVersion());
    ASSERT_TRUE(Eventually([&] { return !spec_changes.Lines().empty(); }));
    // The informer delivers in order: the status write reached the predicate before the spec one.
    EXPECT_EQ(spec_changes.Lines(), std::vector<std::string>{spec_write});
}

}  // namespace
}  // namespace ctrl::handler
