// Issue 29, acceptance 2, at the source and cache level against the real control plane: deleting
// a watched CRD stops its informer (within 10 s, its store emptied, its objects gauge 0), the
// source says NoMatch and waits for the kind again, the gone path gets at most one request a
// second, and recreating the CRD resumes deliveries without a restart. RemoveInformer stops a
// built-in kind's informer the same way; the source then takes the new informer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/api/pod.hpp"
#include "test/integration/source/source_fixture.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/crd_deletion.hpp"
#include "test/support/crds.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/metrics_text.hpp"
#include "test/support/recording_event_handler.hpp"

namespace ctrl::source {
namespace {

using ctrl::testing::Eventually;
using ctrl::testing::RecordingHandler;
using ctrl::testing::Within;
using ::testing::HasSubstr;

constexpr char kSgpPath[] = "/apis/vpcresources.k8s.aws/v1beta1/securitygrouppolicies";
constexpr char kSgpNamespacedPath[] = "/apis/vpcresources.k8s.aws/v1beta1/namespaces/";

// Requests to the SecurityGroupPolicy resource (any namespace), from index first on.
int GonePathRequests(const std::vector<std::string>& paths, std::size_t first) {
    int count = 0;
    for (std::size_t i = first; i < paths.size(); ++i)
        if (paths[i].rfind(kSgpPath, 0) == 0 || (paths[i].rfind(kSgpNamespacedPath, 0) == 0 &&
                                                 paths[i].find("/securitygrouppolicies") != std::string::npos))
            ++count;
    return count;
}

// ctrl_informer_objects of gvk's informer of every namespace in the default registry (the
// cache's); -1 when absent.
double ObjectsGauge(const std::string& gvk) {
    return ctrl::testing::MetricValue(metrics::DefaultRegistry().SerializeText(), "ctrl_informer_objects",
                                      {{"gvk", gvk}, {"namespace", ""}})
        .value_or(-1);
}

// A SecurityGroupPolicy in namespace default selecting every pod, unstructured (the cluster's
// scheme holds the built-in kinds only).
StatusOr<Object> PolicyObject(const std::string& name, const std::string& group_id) {
    return Object::Parse(R"({"apiVersion":"vpcresources.k8s.aws/v1beta1","kind":"SecurityGroupPolicy",)"
                         R"("metadata":{"namespace":"default","name":")" +
                         name + R"("},"spec":{"podSelector":{},"securityGroups":{"groupIds":[")" + group_id +
                         R"("]}}})");
}

class InformerStopTest : public SourceTest {
  protected:
    // Creates obj through admin until the server accepts it (a new CRD takes a moment to serve).
    void CreateWhenServed(cluster::Cluster& admin, Object& obj) {
        Status made;
        ASSERT_TRUE(Eventually(
            [&] {
                made = Run(admin.GetAPIReader().Create(Within(30s), obj));
                return made.Ok();
            },
            30s, 200ms))
            << "not served 30 s after its CRD was created: " << made;
    }

    // Deletes the CRD and waits until the server says it is gone (test/support/crd_deletion.hpp:
    // waits out the API server's own cleanup of the CRD's objects).
    void DeleteCrd(const Object& crd) {
        const Status deleted = ctrl::testing::DeleteCrdAndWait(ctrl::testing::SharedControlPlane().KubeconfigPath(),
                                                               std::string(crd.Name()));
        ASSERT_TRUE(deleted.Ok()) << deleted;
    }
};

TEST_F(InformerStopTest, ADeletedCrdStopsItsInformerAndTheSourceWaitsForTheKindUntilItIsBack) {
    cluster::Cluster& cluster = *MakeCluster(ctrl::testing::SharedAdminConfig());
    cluster::Cluster& admin = *MakeCluster(ctrl::testing::SharedAdminConfig());
    StatusOr<std::string> crd_json = ctrl::testing::SecurityGroupPolicyCrdJson();
    ASSERT_TRUE(crd_json.Ok()) << crd_json.GetStatus();
    StatusOr<Object> crd = Object::Parse(*crd_json);
    ASSERT_TRUE(crd.Ok());
    StatusOr<Object> crd_again = Object::Parse(*crd_json);  // created after the first is deleted
    ASSERT_TRUE(crd_again.Ok());
    ASSERT_TRUE(Run(admin.GetAPIReader().Create(Within(30s), *crd)).Ok());
    StatusOr<Object> sgp = PolicyObject("before", "sg-1");
    ASSERT_TRUE(sgp.Ok());
    CreateWhenServed(admin, *sgp);

    auto handler = std::make_shared<RecordingHandler>();
    auto source = Track(Kind<vpcresources::SecurityGroupPolicy>(cluster.GetCache(), handler));
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    ASSERT_TRUE(Run(source->WaitForSync(Within(30s))).Ok()) << source->Ready();
    ASSERT_TRUE(Eventually([&] { return Contains(handler->Log(), "create before initial"); }));
    const GroupVersionKind gvk = scheme::GroupVersionKindOf<vpcresources::SecurityGroupPolicy>();
    StatusOr<std::vector<cache::Informer*>> informers = Run(cluster.GetCache().GetInformers(Within(30s), gvk, false));
    ASSERT_TRUE(informers.Ok() && informers->size() == 1) << informers.GetStatus();
    cache::Informer* informer = informers->front();
    EXPECT_EQ(ObjectsGauge(gvk.String()), 1);

    const std::size_t requests_before = counter_->Paths().size();
    const Clock::time_point deleted = Clock::now();
    DeleteCrd(*crd);
    const Clock::time_point gone = Clock::now();
    ASSERT_TRUE(Eventually([&] { return informer->Stopped(); }, 10s, 50ms))
        << "the informer still runs 10 s after its CRD is gone: " << informer->LastError();
    const Clock::duration stopped_after = Clock::now() - gone;
    EXPECT_TRUE(IsNotFound(informer->StopReason())) << informer->StopReason();
    EXPECT_THAT(informer->StopReason().Message(), HasSubstr("securitygrouppolicies"));
    EXPECT_EQ(informer->GetStore().Size(), 0u);
    EXPECT_EQ(ObjectsGauge(gvk.String()), 0);
    ASSERT_TRUE(Eventually([&] { return IsNoMatch(source->Ready()); }, 10s, 50ms)) << source->Ready();
    EXPECT_THAT(source->Ready().Message(), HasSubstr("waiting for kind vpcresources.k8s.aws/v1beta1"));
    const Status waiting = Run(source->WaitForSync(Within(5s)));
    EXPECT_TRUE(IsNoMatch(waiting)) << waiting;
    // The cache says the kind is gone (its mapper asked the server again).
    const auto read = Run(cluster.GetCache().GetInformers(Within(30s), gvk, false));
    EXPECT_TRUE(IsNoMatch(read.GetStatus())) << read.GetStatus();

    // While it is gone: at most one request a second to its path (measured over 10 s more).
    std::this_thread::sleep_for(10s);
    const double window = Seconds(Clock::now() - deleted);
    const int gone_requests = GonePathRequests(counter_->Paths(), requests_before);
    std::printf("informer stopped %.3f s after the CRD was gone; %d requests to the gone path in %.1f s\n",
                Seconds(stopped_after), gone_requests, window);
    EXPECT_LE(gone_requests, static_cast<int>(window));
    EXPECT_TRUE(IsNoMatch(source->Ready())) << source->Ready();

    // The CRD comes back: the same source delivers again, no restart.
    handler->Clear();
    const Clock::time_point recreated = Clock::now();
    ASSERT_TRUE(Run(admin.GetAPIReader().Create(Within(30s), *crd_again)).Ok());
    StatusOr<Object> again = PolicyObject("after", "sg-2");
    ASSERT_TRUE(again.Ok());
    CreateWhenServed(admin, *again);
    ASSERT_TRUE(Eventually(
        [&] { return Contains(handler->Log(), "create after initial") || Contains(handler->Log(), "create after"); },
        30s))
        << ::testing::PrintToString(handler->Log()) << " " << source->Ready();
    std::printf("delivering again %.3f s after the CRD was recreated\n", Seconds(Clock::now() - recreated));
    EXPECT_TRUE(source->Ready().Ok()) << source->Ready();

    const Status removed = Run(admin.GetAPIReader().Delete(Within(30s), *again));
    ASSERT_TRUE(removed.Ok()) << removed;
    DeleteCrd(*crd_again);
}

TEST_F(InformerStopTest, RemoveInformerStopsAndEmptiesItAndTheSourceTakesTheNewOne) {
    cluster::Cluster& cluster = *MakeCluster(ctrl::testing::SharedAdminConfig());
    CreateNamespace(cluster, "informer-stop");
    StatusOr<api::Pod> pod = api::Pod::Parse(
        R"({"metadata":{"namespace":"informer-stop","name":"one"},"spec":{"containers":[{"name":"app","image":"busybox:1.36"}]}})");
    ASSERT_TRUE(pod.Ok()) << pod.GetStatus();
    const Status created = Run(cluster.GetAPIReader().Create(Within(30s), *pod));
    ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;

    auto handler = std::make_shared<RecordingHandler>();
    auto source = Track(Kind<api::Pod>(cluster.GetCache(), handler));
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    ASSERT_TRUE(Run(source->WaitForSync(Within(30s))).Ok()) << source->Ready();
    const GroupVersionKind gvk = scheme::GroupVersionKindOf<api::Pod>();
    StatusOr<std::vector<cache::Informer*>> informers = Run(cluster.GetCache().GetInformers(Within(30s), gvk, false));
    ASSERT_TRUE(informers.Ok()) << informers.GetStatus();
    cache::Informer* removed = informers->front();
    ASSERT_GT(removed->GetStore().Size(), 0u);

    ASSERT_TRUE(cluster.GetCache().RemoveInformer(gvk, false).Ok());
    EXPECT_TRUE(IsNotFound(cluster.GetCache().RemoveInformer(gvk, true)));
    ASSERT_TRUE(Eventually([&] { return removed->Stopped(); }, 10s, 20ms));
    EXPECT_EQ(removed->GetStore().Size(), 0u);
    EXPECT_TRUE(IsCancelled(removed->StopReason())) << removed->StopReason();

    // The source goes back to GetInformers, which makes a new informer; it syncs and delivers
    // its first list again.
    handler->Clear();
    ASSERT_TRUE(Eventually([&] { return Contains(handler->Log(), "create one initial"); }, 30s))
        << ::testing::PrintToString(handler->Log()) << " " << source->Ready();
    ASSERT_TRUE(Eventually([&] { return source->Ready().Ok(); }, 10s)) << source->Ready();
    StatusOr<std::vector<cache::Informer*>> renewed = Run(cluster.GetCache().GetInformers(Within(30s), gvk, false));
    ASSERT_TRUE(renewed.Ok());
    EXPECT_NE(renewed->front(), removed);
    api::Pod read;
    EXPECT_TRUE(Run(cluster.GetClient().Get(Within(30s), ObjectKey("informer-stop", "one"), read)).Ok());
}

}  // namespace
}  // namespace ctrl::source
