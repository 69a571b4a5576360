// The pod reconciler against a fake client: groups written, patched only on change, and — the
// seed's failure — the policy kind not served (NoMatch) means "no policy", while any other failure
// to read the policies is an error that leaves the pod's annotation alone.

#include "controllers/sgp/pod_reconciler.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include <boost/asio/io_context.hpp>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "controllers/sgp/api/vpcresources.hpp"
#include "controllers/sgp/matching.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/fake/builtin_kinds.hpp"
#include "ctrl/fake/client_builder.hpp"
#include "ctrl/record/event_broadcaster.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::sgp {
namespace {

using ctrl::testing::TestContext;

api::Pod WebPod(const std::string& annotation) {
    api::Pod pod;
    pod.SetNamespace("ns");
    pod.SetName("web");
    pod.SetLabels({{"app", "web"}});
    if (!annotation.empty())
        pod.SetAnnotation(kSecurityGroupsAnnotation, annotation);
    return pod;
}

vpcresources::SecurityGroupPolicy WebPolicy() {
    vpcresources::SecurityGroupPolicy policy;
    policy.SetNamespace("ns");
    policy.SetName("web");
    LabelSelectorSpec selector;
    selector.match_labels = {{"app", "web"}};
    policy.SetPodSelector(selector);
    policy.SetGroupIds({"sg-1", "sg-2"});
    return policy;
}

class PodReconcilerTest : public ::testing::Test {
  protected:
    // A fake client whose scheme knows SecurityGroupPolicy; served by the mapper only when
    // sgp_served; list calls of the policies fail with list_error when it is set.
    template <client::ClientObject... T>
    void Build(bool sgp_served, const T&... objects) {
        auto scheme = std::make_shared<scheme::Scheme>();
        ASSERT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
        ASSERT_TRUE(vpcresources::vpcresourcesv1beta1::AddToScheme(*scheme).Ok());
        scheme::Scheme builtins;
        ASSERT_TRUE(api::AddAllBuiltinsToScheme(builtins).Ok());
        fake::ClientBuilder builder = fake::NewClientBuilder();
        builder.WithScheme(scheme)
            .WithRESTMapper(fake::NewRESTMapperForScheme(sgp_served ? *scheme : builtins))
            .WithObjects(objects...)
            .WithInterceptor([this](const fake::Call& call) {
                if (call.verb == "patch") {
                    ++patches_;
                    if (change_before_patch_.exchange(false))
                        ChangePodLabelsBehindTheReconciler();
                    if (delete_before_patch_.exchange(false))
                        DeletePodBehindTheReconciler();
                }
                if (call.verb == "list" && call.gvk.kind == "SecurityGroupPolicy" && !list_error_.Ok())
                    return list_error_;
                return OkStatus();
            });
        StatusOr<std::unique_ptr<fake::FakeClient>> client = builder.Build();
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();
        record::BroadcasterOptions options;
        options.registry = &registry_;
        broadcaster_ = std::make_unique<record::Broadcaster>(*client_, options);
        reconciler_ = std::make_unique<PodReconciler>(*client_, broadcaster_->GetEventRecorderFor("test"), metrics_);
    }

    // Another writer changes the pod between the reconciler's read and its patch, as an earlier
    // reconcile's patch does when the cache has not seen it yet. The fake's calls finish without
    // suspending, so a second io_context runs this one inside the reconciler's patch call.
    void ChangePodLabelsBehindTheReconciler() {
        boost::asio::io_context other;
        api::Pod pod;
        const ObjectKey key("ns", "web");
        ASSERT_TRUE(RunSync(other, client_->Get(TestContext(), key, pod)).Ok());
        pod.SetLabels({{"app", "web"}, {"touched", "yes"}});
        ASSERT_TRUE(RunSync(other, client_->Update(TestContext(), pod)).Ok());
    }

    // The pod is deleted between the reconciler's read and its patch (the fault suite's churn does
    // it: a pod deleted while its reconcile runs on a cached copy).
    void DeletePodBehindTheReconciler() {
        boost::asio::io_context other;
        api::Pod pod = WebPod("");
        ASSERT_TRUE(RunSync(other, client_->Delete(TestContext(), pod)).Ok());
    }

    StatusOr<reconcile::Result> Reconcile() {
        return RunSync(io_, reconciler_->Reconcile(TestContext(), reconcile::Request("ns", "web")));
    }
    std::string Annotation() {
        api::Pod pod;
        const ObjectKey key("ns", "web");
        EXPECT_TRUE(RunSync(io_, client_->Get(TestContext(), key, pod)).Ok());
        return std::string(pod.Annotation(kSecurityGroupsAnnotation).value_or("<none>"));
    }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    SgpMetrics metrics_{registry_};
    std::unique_ptr<fake::FakeClient> client_;
    std::unique_ptr<record::Broadcaster> broadcaster_;
    std::unique_ptr<PodReconciler> reconciler_;
    std::atomic<int> patches_{0};
    Status list_error_;
    std::atomic<bool> change_before_patch_{false};
    std::atomic<bool> delete_before_patch_{false};
};

TEST_F(PodReconcilerTest, WritesTheGroupsOnceAndCountsThePod) {
    Build(true, WebPod(""), WebPolicy());
    ASSERT_TRUE(Reconcile().Ok());
    EXPECT_EQ(Annotation(), "sg-1,sg-2");
    ASSERT_TRUE(Reconcile().Ok());
    EXPECT_EQ(patches_.load(), 1) << "the second reconcile finds nothing to change";
    const std::string text = registry_.SerializeText();
    EXPECT_THAT(text, ::testing::HasSubstr("sgp_pods{has_security_groups=\"true\",namespace=\"ns\"} 1"));
    EXPECT_THAT(text, ::testing::HasSubstr("sgp_security_group_changes_total{namespace=\"ns\"} 1"));
}

TEST_F(PodReconcilerTest, APodChangedSinceItWasReadIsReconciledAgainNotPatchedBlindly) {
    Build(true, WebPod(""), WebPolicy());
    change_before_patch_ = true;
    const StatusOr<reconcile::Result> stale = Reconcile();
    ASSERT_TRUE(stale.Ok()) << stale.GetStatus();
    EXPECT_TRUE(stale.Value().requeue) << "a Conflict is retried, not reported as a failure";
    EXPECT_EQ(Annotation(), "<none>") << "the patch of a stale read must carry its resourceVersion";
    EXPECT_THAT(registry_.SerializeText(), ::testing::Not(::testing::HasSubstr("sgp_security_group_changes_total{")));

    ASSERT_TRUE(Reconcile().Ok());
    EXPECT_EQ(Annotation(), "sg-1,sg-2");
    EXPECT_THAT(registry_.SerializeText(),
                ::testing::HasSubstr("sgp_security_group_changes_total{namespace=\"ns\"} 1"));
}

TEST_F(PodReconcilerTest, AKindThatIsNotServedMeansNoPolicy) {
    Build(false, WebPod("sg-old"));
    const StatusOr<reconcile::Result> result = Reconcile();
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(Annotation(), "<none>") << "no policy can apply: the stale groups go";
}

TEST_F(PodReconcilerTest, AFailureToReadThePoliciesIsAnErrorAndChangesNothing) {
    for (const Status& error : {UnavailableError("discovery failed: connection refused"),
                                InternalError("the server answered 500"), ForbiddenError("no list on policies")}) {
        list_error_ = error;
        Build(true, WebPod("sg-1,sg-2"), WebPolicy());
        const StatusOr<reconcile::Result> result = Reconcile();
        ASSERT_FALSE(result.Ok()) << error << ": taken for something else than a failure";
        EXPECT_EQ(result.GetStatus().Code(), error.Code());
        EXPECT_THAT(result.GetStatus().Message(), ::testing::HasSubstr("SecurityGroupPolicies of namespace ns"));
        EXPECT_EQ(Annotation(), "sg-1,sg-2") << error << ": the pod keeps its groups";
        EXPECT_EQ(patches_.load(), 0);
    }
}

TEST_F(PodReconcilerTest, AGonePodLeavesTheCount) {
    Build(true, WebPod(""), WebPolicy());
    ASSERT_TRUE(Reconcile().Ok());
    api::Pod pod = WebPod("");
    ASSERT_TRUE(RunSync(io_, client_->Delete(TestContext(), pod)).Ok());
    ASSERT_TRUE(Reconcile().Ok());
    EXPECT_THAT(registry_.SerializeText(), ::testing::Not(::testing::HasSubstr("sgp_pods{")));
}

TEST_F(PodReconcilerTest, APodDeletedBeforeItsPatchEndsTheReconcileWithoutAnError) {
    Build(true, WebPod(""), WebPolicy());
    delete_before_patch_ = true;
    const StatusOr<reconcile::Result> result = Reconcile();
    ASSERT_TRUE(result.Ok()) << "a pod that is gone needs no groups; not a failure to retry: " << result.GetStatus();
    EXPECT_FALSE(result.Value().requeue);
    EXPECT_EQ(patches_.load(), 1);
    const std::string text = registry_.SerializeText();
    EXPECT_THAT(text, ::testing::Not(::testing::HasSubstr("sgp_pods{"))) << "a gone pod is not counted";
    EXPECT_THAT(text, ::testing::Not(::testing::HasSubstr("sgp_security_group_changes_total{")));
}

}  // namespace
}  // namespace ctrl::sgp
