// Issue 17, part 5: objects past the size limits, against the real control plane. kube-apiserver
// reads at most 3 MiB of a request body (413 RequestEntityTooLarge), validation caps a ConfigMap's
// data at 1 MiB (422 Invalid), and for kinds without a size rule (a Pod) etcd refuses a request over
// its --max-request-bytes (1.5 MiB by default, kept here: "etcdserver: request is too large") and the
// API server's gRPC client anything over 2 MiB ("trying to send message larger than max"), both as 500.
// Each is a clear error, the process goes on; and the cache lists, watches and serves objects as large
// as the server accepts.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::cluster {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

constexpr size_t kMiB = size_t{1} << 20;

Context Within(std::chrono::milliseconds timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

// `bytes` characters that do not compress into anything shorter in a log (no long runs), seeded.
std::string Filler(size_t bytes, char seed) {
    std::string out(bytes, 'a');
    for (size_t i = 0; i < bytes; ++i)
        out[i] = static_cast<char>('a' + (i * 7 + static_cast<size_t>(seed)) % 26);
    return out;
}

class LargeObjectTest : public ::testing::Test {
  protected:
    void SetUp() override {
        Options options;
        options.registry = &registry_;
        StatusOr<std::unique_ptr<Cluster>> made =
            Cluster::New(ctrl::testing::SharedAdminConfig(), loop_.Executor(), std::move(options));
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        cluster_ = std::move(made).Value();
        api::Namespace ns;
        ns.SetName(ns_);
        const Status created = Run(cluster_->GetAPIReader().Create(Within(30s), ns));
        ASSERT_TRUE(created.Ok()) << created;
    }

    void TearDown() override {
        stop_.Cancel();
        cluster_.reset();
        loop_.Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    api::ConfigMap ConfigMapWith(const std::string& name, size_t bytes, char seed) {
        api::ConfigMap cm;
        cm.SetNamespace(ns_);
        cm.SetName(name);
        cm.SetDataValue("blob", Filler(bytes, seed));
        return cm;
    }

    metrics::Registry registry_;
    ctrl::testing::IoLoop loop_;
    std::unique_ptr<Cluster> cluster_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::string ns_ = "large-" + std::to_string(std::random_device()() % 1'000'000);
};

TEST_F(LargeObjectTest, ObjectsPastTheLimitsAreClearErrors) {
    client::Client& direct = cluster_->GetAPIReader();

    // 3.5 MiB: the API server stops reading the body.
    api::ConfigMap huge = ConfigMapWith("huge", 3 * kMiB + kMiB / 2, 'h');
    const Status too_large = Run(direct.Create(Within(60s), huge));
    std::printf("[ figures ] 3.5 MiB ConfigMap: %s\n", too_large.ToString().substr(0, 300).c_str());
    ASSERT_FALSE(too_large.Ok());
    EXPECT_EQ(too_large.HttpCode(), 413) << too_large;
    EXPECT_TRUE(IsBadRequest(too_large)) << too_large;
    EXPECT_THAT(too_large.Message(), HasSubstr("too large")) << too_large;
    EXPECT_THAT(too_large.Message(), HasSubstr("3145728")) << "the limit is named: " << too_large;
    EXPECT_LT(too_large.Message().size(), 1000u) << "the error does not carry the object";

    // 2 MiB: under the body limit, over a ConfigMap's 1 MiB.
    api::ConfigMap big = ConfigMapWith("big", 2 * kMiB, 'b');
    const Status invalid = Run(direct.Create(Within(60s), big));
    std::printf("[ figures ] 2 MiB ConfigMap: %s\n", invalid.ToString().substr(0, 300).c_str());
    EXPECT_TRUE(IsInvalid(invalid)) << invalid;
    EXPECT_EQ(invalid.HttpCode(), 422) << invalid;
    EXPECT_THAT(invalid.Message(), HasSubstr("1048576")) << invalid;
    EXPECT_LT(invalid.Message().size(), 1000u) << "the error does not carry the object";

    // Pods have no size rule: 1.75 MiB meets etcd's request limit, 2 MiB the API server's gRPC limit.
    for (const size_t bytes : {kMiB + 3 * kMiB / 4, 2 * kMiB}) {
        api::Pod pod;
        pod.SetNamespace(ns_);
        pod.SetName("big-pod");
        StatusOr<Object> containers =
            Object::Parse(R"([{"name":"c","image":"busybox","args":[")" + Filler(bytes, 'p') + R"("]}])");
        ASSERT_TRUE(containers.Ok()) << containers.GetStatus();
        ASSERT_TRUE(pod.AsObject().SetNestedField({"spec", "containers"}, *containers).Ok());
        const Status refused = Run(direct.Create(Within(60s), pod));
        std::printf("[ figures ] %.2f MiB Pod: %s\n", static_cast<double>(bytes) / kMiB,
                    refused.ToString().substr(0, 300).c_str());
        ASSERT_FALSE(refused.Ok());
        EXPECT_EQ(refused.HttpCode(), 500) << refused;
        EXPECT_TRUE(refused.Message().find("request is too large") != std::string::npos ||
                    refused.Message().find("larger than max") != std::string::npos)
            << refused;
        EXPECT_LT(refused.Message().size(), 1000u) << "the error does not carry the object";
    }

    // None of them exists, and the client still works.
    api::ConfigMap read;
    EXPECT_TRUE(IsNotFound(Run(direct.Get(Within(30s), ObjectKey(ns_, "huge"), read))));
    EXPECT_TRUE(IsNotFound(Run(direct.Get(Within(30s), ObjectKey(ns_, "big"), read))));
    api::Pod read_pod;
    EXPECT_TRUE(IsNotFound(Run(direct.Get(Within(30s), ObjectKey(ns_, "big-pod"), read_pod))));
}

TEST_F(LargeObjectTest, TheCacheServesObjectsAsLargeAsTheServerAccepts) {
    client::Client& direct = cluster_->GetAPIReader();
    constexpr int kObjects = 4;
    const size_t size = kMiB - 16 * 1024;  // under a ConfigMap's 1 MiB with its keys
    for (int i = 0; i < kObjects; ++i) {
        api::ConfigMap cm = ConfigMapWith("large-" + std::to_string(i), size, static_cast<char>('0' + i));
        const Status created = Run(direct.Create(Within(60s), cm));
        ASSERT_TRUE(created.Ok()) << created;
    }
    cluster_->Start(stop_);
    // The list (4 MiB, more than a request may carry) syncs the informer; reads come from the cache.
    api::ConfigMapList list;
    const Status listed = Run(cluster_->GetClient().List(Within(60s), list, client::InNamespace(ns_)));
    ASSERT_TRUE(listed.Ok()) << listed;
    ASSERT_EQ(list.Items().size(), static_cast<size_t>(kObjects));
    for (api::ConfigMapView cm : list.Views())
        EXPECT_EQ(cm.DataValue("blob").value_or("").size(), size) << cm.Name();

    // A change of a large object arrives through the watch, whole.
    api::ConfigMap changed;
    ASSERT_TRUE(Run(direct.Get(Within(30s), ObjectKey(ns_, "large-0"), changed)).Ok());
    const std::string value = Filler(size, 'z');
    changed.SetDataValue("blob", value);
    const Status updated = Run(direct.Update(Within(60s), changed));
    ASSERT_TRUE(updated.Ok()) << updated;
    api::ConfigMap cached;
    EXPECT_TRUE(ctrl::testing::Eventually([&] {
        return Run(cluster_->GetClient().Get(Within(30s), ObjectKey(ns_, "large-0"), cached)).Ok() &&
               cached.DataValue("blob").value_or("") == value;
    })) << "the cache did not get the update of a 1 MiB object";
}

}  // namespace
}  // namespace ctrl::cluster
