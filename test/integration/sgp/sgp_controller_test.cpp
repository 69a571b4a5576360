// The SecurityGroupPolicy watcher in a Manager against the real control plane (issue 15, first
// cases): pods get the groups of the policies that match them, as an annotation, and follow a
// ServiceAccount's labels changing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "controllers/sgp/api/vpcresources.hpp"
#include "controllers/sgp/matching.hpp"
#include "controllers/sgp/sgp_controller.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/api/condition.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/api/service_account.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/kubectl.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::sgp {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

constexpr char kNs[] = "sgp-watcher";
constexpr char kStatusNs[] = "sgp-status";

api::Pod MakePod(const std::string& name, const std::string& app, const std::string& account,
                 const std::string& ns = kNs) {
    StatusOr<Object> parsed =
        Object::Parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
                      R"(","labels":{"app":")" + app + R"("}},"spec":{"containers":[{"name":"c","image":"nginx"}]}})");
    api::Pod pod = *api::Pod::FromObject(std::move(parsed).Value());
    if (!account.empty())
        pod.SetServiceAccountName(account);
    return pod;
}

class SgpControllerTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const std::string kubeconfig = ctrl::testing::SharedControlPlane().KubeconfigPath();
        const std::string manifest = testing::RepoPath("manifests/crd/securitygrouppolicies.vpcresources.k8s.aws.yaml");
        StatusOr<ctrl::testing::CommandResult> applied =
            ctrl::testing::Kubectl(kubeconfig, {"apply", "-f", manifest}, 60s);
        ASSERT_TRUE(applied.Ok() && applied->exit_code == 0) << applied.GetStatus();
        (void)ctrl::testing::Kubectl(
            kubeconfig,
            {"wait", "--for=condition=Established", "--timeout=60s", "crd/securitygrouppolicies.vpcresources.k8s.aws"},
            60s);
        auto scheme = std::make_shared<scheme::Scheme>();
        ASSERT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
        ASSERT_TRUE(vpcresources::vpcresourcesv1beta1::AddToScheme(*scheme).Ok());
        manager::Options options;
        options.scheme = scheme;
        options.registry = &registry_;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.cache.default_namespaces = {kNs, kStatusNs};
        StatusOr<std::unique_ptr<manager::Manager>> made = manager::New(ctrl::testing::SharedAdminConfig(), options);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr_ = std::move(made).Value();
        StatusOr<Watcher> added = AddToManager(*mgr_);
        ASSERT_TRUE(added.Ok()) << added.GetStatus();
        watcher_ = *added;
        done_ = std::async(std::launch::async, [this] { return mgr_->Start(stop_); });
    }
    void TearDown() override {
        stop_.Cancel();
        if (done_.valid()) {
            EXPECT_EQ(done_.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
        }
    }
    template <typename T>
    T On(Task<T> task) {
        return RunOn(mgr_->GetExecutor(), std::move(task));
    }
    client::Client& Direct() { return mgr_->GetAPIReader(); }
    std::string AnnotationOf(const std::string& pod_name, const std::string& ns = kNs) {
        api::Pod pod;
        if (!On(Direct().Get(TestContext(), ObjectKey(ns, pod_name), pod)).Ok())
            return "<unreadable>";
        return std::string(pod.Annotation(kSecurityGroupsAnnotation).value_or("<none>"));
    }

    // The Ready condition of policy `name` in kStatusNs, as "<status>/<reason>/<matchedPods>/<observedGeneration
    // == generation>", or what could not be read.
    std::string StatusOf(const std::string& name) {
        vpcresources::SecurityGroupPolicy policy;
        if (!On(Direct().Get(TestContext(), ObjectKey(kStatusNs, name), policy)).Ok())
            return "<unreadable>";
        const std::optional<api::Condition> ready =
            api::FindCondition(api::ReadConditions(policy, {"status", "conditions"}), "Ready");
        if (!ready)
            return "<no Ready condition>";
        return ready->status + "/" + ready->reason + "/" +
               std::to_string(policy.NestedInt({"status", "matchedPods"}).ValueOr(-1)) + "/" +
               (policy.NestedInt({"status", "observedGeneration"}).ValueOr(-1) == policy.Generation() ? "current"
                                                                                                      : "stale");
    }
    void MakeNamespace(const std::string& name) {
        api::Namespace ns;
        ns.SetName(name);
        const Status made = On(Direct().Create(TestContext(), ns));
        ASSERT_TRUE(made.Ok() || IsAlreadyExists(made)) << made;
    }

    metrics::Registry registry_;
    Watcher watcher_;
    std::unique_ptr<manager::Manager> mgr_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::future<Status> done_;
};

TEST_F(SgpControllerTest, PodsGetTheGroupsOfMatchingPoliciesAndFollowTheirServiceAccount) {
    api::Namespace ns;
    ns.SetName(kNs);
    const Status ns_made = On(Direct().Create(TestContext(), ns));
    ASSERT_TRUE(ns_made.Ok() || IsAlreadyExists(ns_made)) << ns_made;
    api::ServiceAccount runner;
    runner.SetNamespace(kNs);
    runner.SetName("runner");
    runner.SetLabels({{"secure", "yes"}});
    ASSERT_TRUE(On(Direct().Create(TestContext(), runner)).Ok());

    vpcresources::SecurityGroupPolicy web;
    web.SetNamespace(kNs);
    web.SetName("a-web");
    LabelSelectorSpec app_web;
    app_web.match_labels = {{"app", "web"}};
    web.SetPodSelector(app_web);
    web.SetGroupIds({"sg-1", "sg-2"});
    ASSERT_TRUE(On(Direct().Create(TestContext(), web)).Ok());
    vpcresources::SecurityGroupPolicy secure;
    secure.SetNamespace(kNs);
    secure.SetName("b-secure");
    LabelSelectorSpec secure_yes;
    secure_yes.match_labels = {{"secure", "yes"}};
    secure.SetServiceAccountSelector(secure_yes);
    secure.SetGroupIds({"sg-2", "sg-3"});
    ASSERT_TRUE(On(Direct().Create(TestContext(), secure)).Ok());

    api::Pod web_pod = MakePod("web-1", "web", "runner");
    ASSERT_TRUE(On(Direct().Create(TestContext(), web_pod)).Ok());
    api::Pod db_pod = MakePod("db-1", "db", "");
    ASSERT_TRUE(On(Direct().Create(TestContext(), db_pod)).Ok());

    EXPECT_TRUE(Eventually([&] { return AnnotationOf("web-1") == "sg-1,sg-2,sg-3"; })) << AnnotationOf("web-1");
    std::this_thread::sleep_for(1s);
    EXPECT_EQ(AnnotationOf("db-1"), "<none>") << "no policy matches db-1 (default ServiceAccount, app=db)";

    // The ServiceAccount loses its label: the pod keeps only the podSelector's groups.
    ASSERT_TRUE(On(Direct().Get(TestContext(), ObjectKey(kNs, "runner"), runner)).Ok());
    runner.SetLabels({});
    ASSERT_TRUE(On(Direct().Update(TestContext(), runner)).Ok());
    EXPECT_TRUE(Eventually([&] { return AnnotationOf("web-1") == "sg-1,sg-2"; })) << AnnotationOf("web-1");

    // The policy that still matches goes: the annotation goes too.
    ASSERT_TRUE(On(Direct().Delete(TestContext(), web)).Ok());
    EXPECT_TRUE(Eventually([&] { return AnnotationOf("web-1") == "<none>"; })) << AnnotationOf("web-1");
}

TEST_F(SgpControllerTest, EachPolicyGetsAStatusAndTheWatcherExportsItsMetrics) {
    MakeNamespace(kStatusNs);
    for (const auto& [name, app] : {std::pair{"web-a", "web"}, std::pair{"web-b", "web"}, std::pair{"db-a", "db"}}) {
        api::Pod pod = MakePod(name, app, "", kStatusNs);
        ASSERT_TRUE(On(Direct().Create(TestContext(), pod)).Ok());
    }
    vpcresources::SecurityGroupPolicy web;
    web.SetNamespace(kStatusNs);
    web.SetName("web");
    LabelSelectorSpec app_web;
    app_web.match_labels = {{"app", "web"}};
    web.SetPodSelector(app_web);
    web.SetGroupIds({"sg-web"});
    ASSERT_TRUE(On(Direct().Create(TestContext(), web)).Ok());
    vpcresources::SecurityGroupPolicy broken;
    broken.SetNamespace(kStatusNs);
    broken.SetName("broken");
    broken.SetGroupIds({"sg-never"});
    ASSERT_TRUE(On(Direct().Create(TestContext(), broken)).Ok());

    EXPECT_TRUE(Eventually([&] { return StatusOf("web") == "True/Valid/2/current"; })) << StatusOf("web");
    EXPECT_TRUE(Eventually([&] { return StatusOf("broken") == "False/NoSelector/0/current"; })) << StatusOf("broken");
    EXPECT_TRUE(Eventually([&] {
        const std::string text = registry_.SerializeText();
        return text.find("sgp_invalid_policies{namespace=\"sgp-status\"} 1") != std::string::npos &&
               text.find("sgp_pods{has_security_groups=\"true\",namespace=\"sgp-status\"} 2") != std::string::npos &&
               text.find("sgp_pods{has_security_groups=\"false\",namespace=\"sgp-status\"} 1") != std::string::npos &&
               text.find("sgp_security_group_changes_total{namespace=\"sgp-status\"} 2") != std::string::npos;
    })) << registry_.SerializeText();
    EXPECT_THAT(registry_.SerializeText(), ::testing::HasSubstr("sgp_kind_served 1"));
    // The project's CRD has a status subresource: discovery says so, and every policy's validity shows.
    EXPECT_THAT(registry_.SerializeText(), ::testing::HasSubstr("sgp_status_subresource 1"));
    EXPECT_EQ(watcher_.status_subresource->Last(), StatusSubresource::kPresent);
    EXPECT_EQ(watcher_.status_subresource->Detail(), "");
    EXPECT_THAT(registry_.SerializeText(),
                ::testing::HasSubstr("sgp_policy_valid{name=\"broken\",namespace=\"sgp-status\"} 0"));
    const std::map<std::string, Status> ready = mgr_->ReadyzChecks();
    ASSERT_TRUE(ready.contains("sgp-kind-served"));
    EXPECT_TRUE(ready.at("sgp-kind-served").Ok()) << ready.at("sgp-kind-served");

    // The invalid policy is mended: it becomes Ready, selects the db pod, and the count drops.
    ASSERT_TRUE(On(Direct().Get(TestContext(), ObjectKey(kStatusNs, "broken"), broken)).Ok());
    LabelSelectorSpec app_db;
    app_db.match_labels = {{"app", "db"}};
    broken.SetPodSelector(app_db);
    ASSERT_TRUE(On(Direct().Update(TestContext(), broken)).Ok());
    EXPECT_TRUE(Eventually([&] { return StatusOf("broken") == "True/Valid/1/current"; })) << StatusOf("broken");
    EXPECT_TRUE(Eventually([&] { return AnnotationOf("db-a", kStatusNs) == "sg-never"; }));
    EXPECT_TRUE(Eventually([&] {
        return registry_.SerializeText().find("sgp_invalid_policies{namespace=\"sgp-status\"} 0") != std::string::npos;
    })) << registry_.SerializeText();

    // A pod going away lowers matchedPods.
    api::Pod gone = MakePod("web-b", "web", "", kStatusNs);
    ASSERT_TRUE(On(Direct().Delete(TestContext(), gone)).Ok());
    EXPECT_TRUE(Eventually([&] { return StatusOf("web") == "True/Valid/1/current"; })) << StatusOf("web");
}

}  // namespace
}  // namespace ctrl::sgp
