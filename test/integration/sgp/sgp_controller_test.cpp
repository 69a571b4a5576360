// The SecurityGroupPolicy watcher in a Manager against the real control plane (issue 15, first
// cases): pods get the groups of the policies that match them, as an annotation, and follow a
// ServiceAccount's labels changing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "controllers/sgp/matching.hpp"
#include "controllers/sgp/sgp_controller.hpp"
#include "runtime/api/builtins.hpp"
#include "runtime/api/namespace.hpp"
#include "runtime/api/pod.hpp"
#include "runtime/api/security_group_policy.hpp"
#include "runtime/api/service_account.hpp"
#include "runtime/api/vpcresources.hpp"
#include "runtime/core/run_sync.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/kubectl.hpp"

namespace ctrl::sgp {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

constexpr char kNs[] = "sgp-watcher";

api::Pod MakePod(const std::string& name, const std::string& app, const std::string& account) {
    StatusOr<Object> parsed =
        Object::Parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + kNs +
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
        const std::string manifest =
            std::string(CTRL_REPO_ROOT) + "/manifests/crd/securitygrouppolicies.vpcresources.k8s.aws.yaml";
        StatusOr<ctrl::testing::CommandResult> applied =
            ctrl::testing::Kubectl(kubeconfig, {"apply", "-f", manifest}, 60s);
        ASSERT_TRUE(applied.Ok() && applied->exit_code == 0) << applied.GetStatus();
        (void)ctrl::testing::Kubectl(
            kubeconfig,
            {"wait", "--for=condition=Established", "--timeout=60s", "crd/securitygrouppolicies.vpcresources.k8s.aws"},
            60s);
        auto scheme = std::make_shared<scheme::Scheme>();
        ASSERT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
        ASSERT_TRUE(api::vpcresourcesv1beta1::AddToScheme(*scheme).Ok());
        manager::Options options;
        options.scheme = scheme;
        options.registry = &registry_;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.cache.default_namespaces = {kNs};
        StatusOr<std::unique_ptr<manager::Manager>> made = manager::New(ctrl::testing::SharedAdminConfig(), options);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr_ = std::move(made).Value();
        StatusOr<std::shared_ptr<PodReconciler>> added = AddToManager(*mgr_);
        ASSERT_TRUE(added.Ok()) << added.GetStatus();
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
    std::string AnnotationOf(const std::string& pod_name) {
        api::Pod pod;
        if (!On(Direct().Get(TestContext(), ObjectKey(kNs, pod_name), pod)).Ok())
            return "<unreadable>";
        return std::string(pod.Annotation(kSecurityGroupsAnnotation).value_or("<none>"));
    }

    metrics::Registry registry_;
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

    api::SecurityGroupPolicy web;
    web.SetNamespace(kNs);
    web.SetName("a-web");
    LabelSelectorSpec app_web;
    app_web.match_labels = {{"app", "web"}};
    web.SetPodSelector(app_web);
    web.SetGroupIds({"sg-1", "sg-2"});
    ASSERT_TRUE(On(Direct().Create(TestContext(), web)).Ok());
    api::SecurityGroupPolicy secure;
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

}  // namespace
}  // namespace ctrl::sgp
