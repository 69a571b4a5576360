// The Manager in-process against the real control plane (issue 14, acceptance 6 and the start
// order): DisableFor kinds are read from the server, others from the cache; GetAPIReader always
// reads the server; controllers added before Start run and report readiness.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ctime>
#include <future>
#include <regex>
#include <thread>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/secret.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/manager/manager.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/kubectl.hpp"

namespace ctrl::manager {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

// rest_client_requests_total{code="200",method="GET"} of the registry.
double SuccessfulGets(const metrics::Registry& registry) {
    const std::string text = registry.SerializeText();
    const std::regex line(R"re(rest_client_requests_total\{code="200",host="[^"]*",method="GET"\} ([0-9.e+]+))re");
    std::smatch match;
    return std::regex_search(text, match, line) ? std::stod(match[1]) : 0;
}

class ManagerTest : public ::testing::Test {
  protected:
    void StartManager(Options options) {
        options.registry = &registry_;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        StatusOr<std::unique_ptr<Manager>> made = New(ctrl::testing::SharedAdminConfig(), std::move(options));
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr_ = std::move(made).Value();
    }
    void Run() {
        done_ = std::async(std::launch::async, [this] { return mgr_->Start(stop_); });
    }
    void TearDown() override {
        stop_.Cancel();
        if (done_.valid()) {
            ASSERT_EQ(done_.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
            EXPECT_TRUE(done_.get().Ok());
        }
    }
    template <typename T>
    T On(Task<T> task) {
        return RunOn(mgr_->GetExecutor(), std::move(task));
    }
    void MakeObjects(const std::string& ns) {
        api::Namespace n;
        n.SetName(ns);
        const Status made = On(mgr_->GetAPIReader().Create(TestContext(), n));
        ASSERT_TRUE(made.Ok() || IsAlreadyExists(made)) << made;
        api::ConfigMap cm;
        cm.SetNamespace(ns);
        cm.SetName("cached");
        ASSERT_TRUE(On(mgr_->GetAPIReader().Create(TestContext(), cm)).Ok());
        api::Secret secret;
        secret.SetNamespace(ns);
        secret.SetName("uncached");
        ASSERT_TRUE(On(mgr_->GetAPIReader().Create(TestContext(), secret)).Ok());
    }

    metrics::Registry registry_;
    std::unique_ptr<Manager> mgr_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::future<Status> done_;
};

TEST_F(ManagerTest, DisableForKindsAreReadFromTheServerAndOthersFromTheCache) {
    Options options;
    options.client.cache.disable_for.push_back(GroupVersionKind("", "v1", "Secret"));
    StartManager(std::move(options));
    Run();
    const std::string ns = "mgr-disable-for";
    MakeObjects(ns);
    // Warm up: the first cached read makes the ConfigMap informer and waits for its sync.
    api::ConfigMap cm;
    ASSERT_TRUE(On(mgr_->GetClient().Get(TestContext(), ObjectKey(ns, "cached"), cm)).Ok());
    api::Secret secret;
    ASSERT_TRUE(On(mgr_->GetClient().Get(TestContext(), ObjectKey(ns, "uncached"), secret)).Ok());

    const double before_cached = SuccessfulGets(registry_);
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(On(mgr_->GetClient().Get(TestContext(), ObjectKey(ns, "cached"), cm)).Ok());
    EXPECT_EQ(SuccessfulGets(registry_) - before_cached, 0) << "ConfigMaps come from the cache";

    const double before_uncached = SuccessfulGets(registry_);
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(On(mgr_->GetClient().Get(TestContext(), ObjectKey(ns, "uncached"), secret)).Ok());
    EXPECT_EQ(SuccessfulGets(registry_) - before_uncached, 10) << "a DisableFor kind is read from the server";

    const double before_reader = SuccessfulGets(registry_);
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(On(mgr_->GetAPIReader().Get(TestContext(), ObjectKey(ns, "cached"), cm)).Ok());
    EXPECT_EQ(SuccessfulGets(registry_) - before_reader, 10) << "GetAPIReader always reads the server";
}

TEST_F(ManagerTest, ControllersRunAndTheirReadinessIsAReadyzCheck) {
    StartManager(Options{});
    std::atomic<int> reconciles{0};
    ASSERT_TRUE(
        builder::ControllerFor<api::ConfigMap>(*mgr_)
            .Named("mgr-test")
            .Complete(reconcile::AsReconciler([&](Context, reconcile::Request) -> Task<StatusOr<reconcile::Result>> {
                ++reconciles;
                co_return reconcile::Result{};
            }))
            .Ok());
    const std::map<std::string, Status> before = mgr_->ReadyzChecks();
    ASSERT_EQ(before.count("controller-mgr-test"), 1u);
    EXPECT_FALSE(before.at("controller-mgr-test").Ok()) << "not ready before it started";
    Run();
    EXPECT_TRUE(Eventually([&] { return mgr_->Elected().HasBeenNotified(); })) << "no leader election: elected at once";
    EXPECT_TRUE(Eventually([&] { return mgr_->ReadyzChecks().at("controller-mgr-test").Ok(); }));
    MakeObjects("mgr-controllers");
    EXPECT_TRUE(Eventually([&] { return reconciles.load() >= 1; }));
}

// A standby replica (another holds the Lease) is ready once its caches synced: its controllers wait
// for the Lease, they are not failing, and a Deployment's rollout must not wait on them.
TEST_F(ManagerTest, AStandbyReplicaPassesItsControllerReadinessChecks) {
    // Another replica holds the Lease for an hour (written with kubectl: the manager's own client
    // runs only once it started, and then it could take the Lease first).
    const std::string lease_name = "held-elsewhere";
    char renewed[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(renewed, sizeof renewed, "%Y-%m-%dT%H:%M:%S.000000Z", std::gmtime(&now));
    const std::string lease_yaml = "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: " + lease_name +
                                   "\n  namespace: default\nspec:\n  holderIdentity: the-other-replica\n"
                                   "  leaseDurationSeconds: 3600\n  acquireTime: \"" +
                                   renewed + "\"\n  renewTime: \"" + renewed + "\"\n";
    StatusOr<ctrl::testing::CommandResult> applied = ctrl::testing::Kubectl(
        ctrl::testing::SharedControlPlane().KubeconfigPath(), {"apply", "-f", "-"}, 60s, lease_yaml);
    ASSERT_TRUE(applied.Ok() && applied->exit_code == 0) << applied.GetStatus();
    Options options;
    options.leader_election.enabled = true;
    options.leader_election.id = lease_name;
    options.leader_election.namespace_name = "default";
    StartManager(options);
    std::atomic<int> reconciles{0};
    ASSERT_TRUE(
        builder::ControllerFor<api::ConfigMap>(*mgr_)
            .Named("standby-test")
            .Complete(reconcile::AsReconciler([&](Context, reconcile::Request) -> Task<StatusOr<reconcile::Result>> {
                ++reconciles;
                co_return reconcile::Result{};
            }))
            .Ok());
    Run();
    EXPECT_TRUE(Eventually([&] {
        for (const auto& [name, status] : mgr_->ReadyzChecks()) {
            if (!status.Ok())
                return false;
        }
        return true;
    })) << "every readiness check passes on the standby";
    EXPECT_FALSE(mgr_->IsLeader());
    EXPECT_TRUE(mgr_->LeaderElectionEnabled());
    EXPECT_TRUE(mgr_->IsStandby());
    EXPECT_EQ(reconciles.load(), 0) << "the standby's controller does not run";
}

// controller-runtime's mgr.GetFieldIndexer().IndexField before Start: reads with MatchingFields
// find objects through the index, from the client and from the synchronous cache views.
TEST_F(ManagerTest, AFieldIndexAddedBeforeStartAnswersMatchingFields) {
    StartManager(Options{});
    const std::string field = "data.color";
    ASSERT_TRUE(mgr_->IndexField<api::ConfigMap>(field,
                                                 [](const Object& object) {
                                                     const std::optional<std::string_view> color =
                                                         api::ConfigMapView(object).DataValue("color");
                                                     return color ? std::vector<std::string>{std::string(*color)}
                                                                  : std::vector<std::string>{};
                                                 })
                    .Ok());
    EXPECT_TRUE(IsAlreadyExists(mgr_->IndexField<api::ConfigMap>(field, [](const Object&) {
        return std::vector<std::string>{};
    }))) << "an index name is taken once";
    Run();
    const std::string ns = "mgr-index-field";
    MakeObjects(ns);
    for (const char* name : {"blue-1", "blue-2", "red-1"}) {
        api::ConfigMap cm;
        cm.SetNamespace(ns);
        cm.SetName(name);
        cm.SetDataValue("color", std::string(name).substr(0, std::string(name).find('-')));
        ASSERT_TRUE(On(mgr_->GetAPIReader().Create(TestContext(), cm)).Ok());
    }
    std::vector<std::string> blue;
    EXPECT_TRUE(Eventually([&] {
        api::ConfigMapList list;
        const Status listed = On(mgr_->GetClient().List(TestContext(), list, client::InNamespace(ns),
                                                        client::MatchingFields(field, "blue")));
        blue.clear();
        for (const Object& item : list.Items())
            blue.emplace_back(item.Name());
        return listed.Ok() && blue.size() == 2;
    })) << ::testing::PrintToString(blue);
    EXPECT_THAT(blue, ::testing::UnorderedElementsAre("blue-1", "blue-2"));
    // red-1 was created last: seeing both blues does not mean the cache has it yet.
    StatusOr<std::vector<std::shared_ptr<const Object>>> red = UnavailableError("not read yet");
    EXPECT_TRUE(Eventually([&] {
        red = mgr_->GetCache().ListSharedNow<api::ConfigMap>(client::InNamespace(ns),
                                                             client::MatchingFields(field, "red"));
        return red.Ok() && red->size() == 1;
    }));
    ASSERT_TRUE(red.Ok()) << red.GetStatus();
    ASSERT_EQ(red->size(), 1u);
    EXPECT_EQ((*red)[0]->Name(), "red-1");
    const Status late =
        mgr_->IndexField<api::ConfigMap>("data.size", [](const Object&) { return std::vector<std::string>{}; });
    EXPECT_TRUE(IsBadRequest(late)) << late;
    EXPECT_THAT(late.Message(), ::testing::HasSubstr("after the manager started"));
}

TEST_F(ManagerTest, BadOptionsNameTheOption) {
    Options options;
    options.leader_election.enabled = true;
    StatusOr<std::unique_ptr<Manager>> made = New(ctrl::testing::SharedAdminConfig(), options);
    ASSERT_FALSE(made.Ok());
    EXPECT_THAT(made.GetStatus().Message(), ::testing::HasSubstr("--leader-election-id"));
    options.leader_election.id = "x";
    made = New(ctrl::testing::SharedAdminConfig(), options);
    ASSERT_FALSE(made.Ok());
    EXPECT_THAT(made.GetStatus().Message(), ::testing::HasSubstr("--leader-election-namespace"));
    Options zero_threads;
    zero_threads.threads = 0;
    EXPECT_TRUE(IsBadRequest(New(ctrl::testing::SharedAdminConfig(), zero_threads).GetStatus()));
}

}  // namespace
}  // namespace ctrl::manager
