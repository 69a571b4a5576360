// A forced 410 against the real control plane (issue 6, acceptance 3): this binary's API server keeps
// no watch cache for pods (--watch-cache-sizes=pods#0), so a watch from a resourceVersion that etcd
// has compacted away is answered 410 Expired. The reflector's connections are cut and refused while
// pods change and etcd is compacted; when it gets through again it relists, and the deletes it
// missed are dispatched (final state unknown).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>

#include "ctrl/metrics/registry.hpp"
#include "test/integration/cache/cluster_fixture.hpp"
#include "test/integration/cache/pod_ops.hpp"
#include "test/support/command.hpp"

namespace ctrl::cache::test {
namespace {

using namespace std::chrono_literals;
using ::testing::Contains;

// POSTs body to etcd's JSON gateway; returns the answer.
StatusOr<Object> EtcdCall(const std::string& path, const std::string& body) {
    const std::string url = ctrl::testing::SharedControlPlane().EtcdEndpoint() + path;
    auto result = ctrl::testing::RunCommand({.argv = {"curl", "-sS", "-X", "POST", url, "-d", body}});
    if (!result.Ok())
        return result.GetStatus();
    if (result->exit_code != 0)
        return UnavailableError("curl " + url + ": " + result->err);
    return Object::Parse(result->out);
}

// Compacts etcd up to its current revision: every older resourceVersion is gone.
Status CompactEtcd() {
    CTRL_ASSIGN_OR_RETURN(Object range, EtcdCall("/v3/kv/range", R"({"key":"AA=="})"));
    CTRL_ASSIGN_OR_RETURN(std::string revision, range.NestedString({"header", "revision"}));
    CTRL_ASSIGN_OR_RETURN(Object compacted,
                          EtcdCall("/v3/kv/compaction", R"({"revision":")" + revision + R"(","physical":true})"));
    if (compacted.HasNestedField({"error"}) || compacted.HasNestedField({"code"}))
        return InternalError("etcd compaction: " + compacted.ToJson());
    return OkStatus();
}

// The value of ctrl_informer_relists_total{reason="<reason>"} in the default registry (-1 when absent):
// the reflector of this test is the binary's only one.
double Relists(const std::string& reason) {
    std::istringstream text(metrics::DefaultRegistry().SerializeText());
    for (std::string line; std::getline(text, line);) {
        if (line.starts_with("ctrl_informer_relists_total{") &&
            line.find("reason=\"" + reason + "\"") != std::string::npos)
            return std::stod(line.substr(line.rfind(' ') + 1));
    }
    return -1;
}

class GoneTest : public ClusterTest {};

TEST_F(GoneTest, CompactedResourceVersionRelistsAndDispatchesMissedDeletes) {
    const std::string ns = "cache-gone";
    ASSERT_TRUE(Run(CreateNamespace(*client_, ns, Within(30s))).Ok());
    ASSERT_TRUE(Run(CreatePods(*client_, ns, "p-", 10, 4, Within(60s))).Ok());
    UseProxy();
    StartReflector(ns, {.initial_backoff = 50ms, .max_backoff = 200ms});
    ASSERT_TRUE(Run(reflector_->WaitForSync(Within(60s))).Ok());
    const std::string synced_at = reflector_->LastResourceVersion();

    // Cut the reflector off, change things behind its back, and compact them away.
    proxy_->SetRefusing(true);
    ASSERT_GE(proxy_->CutAll(), 1);
    for (int i = 0; i < 5; ++i)
        ASSERT_TRUE(Run(DeletePod(*client_, ns, PodName("p-", i), Within(30s))).Ok());
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(Run(CreatePod(*client_, ns, PodName("q-", i), i, Within(30s))).Ok());
    ASSERT_TRUE(Run(LabelPod(*client_, ns, PodName("p-", 5), "seen", "late", Within(30s))).Ok());
    Status compacted = CompactEtcd();
    ASSERT_TRUE(compacted.Ok()) << compacted;
    EXPECT_TRUE(Eventually([&] { return reflector_->Stats().failures >= 2; })) << "the reflector did not retry";
    EXPECT_EQ(reflector_->LastResourceVersion(), synced_at);  // it saw nothing meanwhile
    proxy_->SetRefusing(false);

    // Through again: the watch from synced_at is Expired, so it relists.
    ASSERT_TRUE(Eventually([&] { return reflector_->Stats().lists == 2; }, 30s)) << reflector_->LastError();
    EXPECT_EQ(reflector_->Stats().expired, 1);
    // And the metric counts the relist by its reason (what the fault suite reads from /metrics).
    EXPECT_EQ(Relists("initial"), 1);
    EXPECT_EQ(Relists("gone_410"), 1);
    EXPECT_EQ(Relists("error"), 0);
    std::string differences = "not compared";
    ASSERT_TRUE(Eventually(
        [&] {
            auto fresh = Run(ListPods(*client_, ns, Within(30s)));
            differences = fresh.Ok() ? CompareStore(store_, *fresh) : fresh.GetStatus().ToString();
            return differences.empty();
        },
        30s))
        << differences;
    const auto events = recorder_->Events();
    for (int i = 0; i < 5; ++i) {
        const std::string prefix = "delete " + ns + "/" + PodName("p-", i) + " ";
        EXPECT_TRUE(std::any_of(events.begin(), events.end(),
                                [&](const std::string& e) { return e.starts_with(prefix) && e.ends_with(" unknown"); }))
            << "no final-state-unknown delete of " << PodName("p-", i);
    }
    for (int i = 0; i < 3; ++i) {
        const std::string prefix = "add " + ns + "/" + PodName("q-", i) + " ";
        EXPECT_TRUE(std::any_of(events.begin(), events.end(),
                                [&](const std::string& e) { return e.starts_with(prefix) && !e.ends_with("initial"); }))
            << "no add of " << PodName("q-", i);
    }
    EXPECT_EQ(store_.Get(ns, PodName("p-", 5)).Labels()["seen"], "late");
    EXPECT_EQ(store_.Size(), 8u);
}

}  // namespace
}  // namespace ctrl::cache::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::ControlPlane::Options options;
    options.apiserver_flags = {"--watch-cache-sizes=pods#0"};
    ctrl::testing::InstallControlPlaneEnvironment(std::move(options));
    return RUN_ALL_TESTS();
}
