// The installed test support at work from outside ctrl's tree: a real kube-apiserver + etcd started by
// ctrl::envtest::Environment with this project's CRD, a direct client's Create and Get of a ConfigMap
// and of a custom resource, and a Manager running the Annotator against it.

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <iostream>
#include <memory>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "annotator.hpp"
#include "ctrl/api/config_map.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/environment.hpp"
#include "ctrl/manager/manager.hpp"

namespace {

using namespace std::chrono_literals;

// One control plane for the whole binary, as envtest suites do in their TestMain.
class EnvtestEnvironment final : public ::testing::Environment {
  public:
    void SetUp() override {
        ctrl::envtest::EnvironmentOptions options;
        options.crd_paths = {CONSUMER_CRD_DIR};
        env_ = std::make_unique<ctrl::envtest::Environment>(std::move(options));
        ctrl::StatusOr<ctrl::rest::Config> config = env_->Start();
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
        std::cout << "envtest: kube-apiserver " << env_->GetControlPlane().Version() << " at " << config->host
                  << ", binaries in " << env_->GetControlPlane().BinaryDir() << std::endl;
    }
    void TearDown() override { env_->Stop(); }

    static ctrl::envtest::Environment& Get() { return *env_; }

  private:
    static inline std::unique_ptr<ctrl::envtest::Environment> env_;
};

ctrl::Context Deadline() {
    return ctrl::Context::WithTimeout(ctrl::Context::Background(), 30s);
}

class ConsumerTest : public ::testing::Test {
  protected:
    void SetUp() override {
        auto made = ctrl::client::New(EnvtestEnvironment::Get().Config(), io_.get_executor());
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        client_ = std::move(made).Value();
    }
    template <typename T>
    T Run(ctrl::Task<T> task) {
        return ctrl::RunSync(io_, std::move(task));
    }

    boost::asio::io_context io_;
    std::unique_ptr<ctrl::client::Client> client_;
};

TEST_F(ConsumerTest, InstalledTheProjectsCrd) {
    ASSERT_EQ(EnvtestEnvironment::Get().CRDs().size(), 1u);
    EXPECT_EQ(EnvtestEnvironment::Get().CRDs()[0].Name(), "widgets.consumer.ctrl.io");
    EXPECT_TRUE(EnvtestEnvironment::Get().CRDs()[0].IsEstablished());
}

TEST_F(ConsumerTest, CreatesAndGetsAConfigMap) {
    ctrl::api::ConfigMap created;
    created.SetNamespace("default");
    created.SetName("created-by-consumer");
    created.SetData({{"greeting", "hello"}});
    ctrl::Status status = Run(client_->Create(Deadline(), created));
    ASSERT_TRUE(status.Ok()) << status;
    EXPECT_FALSE(created.Uid().empty());

    ctrl::api::ConfigMap got;
    status = Run(client_->Get(Deadline(), ctrl::ObjectKey("default", "created-by-consumer"), got));
    ASSERT_TRUE(status.Ok()) << status;
    EXPECT_EQ(got.Uid(), created.Uid());
    EXPECT_EQ(got.DataValue("greeting"), "hello");
}

TEST_F(ConsumerTest, CreatesAndGetsACustomResource) {
    auto widget = ctrl::Object::Parse(
        R"({"apiVersion":"consumer.ctrl.io/v1","kind":"Widget","metadata":{"namespace":"default","name":"w"},)"
        R"("spec":{"size":3}})");
    ASSERT_TRUE(widget.Ok()) << widget.GetStatus();
    ctrl::Status status = Run(client_->Create(Deadline(), *widget));
    ASSERT_TRUE(status.Ok()) << status;

    ctrl::Object got;
    got.SetGroupVersionKind(ctrl::GroupVersionKind("consumer.ctrl.io", "v1", "Widget"));
    status = Run(client_->Get(Deadline(), ctrl::ObjectKey("default", "w"), got));
    ASSERT_TRUE(status.Ok()) << status;
    EXPECT_EQ(got.NestedInt({"spec", "size"}).ValueOr(0), 3);
}

TEST_F(ConsumerTest, TheManagerRunsTheReconciler) {
    ctrl::manager::Options options;
    options.metrics.bind_address = "0";
    options.health_probe_bind_address = "0";
    auto mgr = ctrl::manager::New(EnvtestEnvironment::Get().Config(), std::move(options));
    ASSERT_TRUE(mgr.Ok()) << mgr.GetStatus();
    ASSERT_TRUE(consumer::AddAnnotator(**mgr).Ok());
    ctrl::Context stop = ctrl::Context::WithCancel(ctrl::Context::Background());
    auto done = std::async(std::launch::async, [&] { return (*mgr)->Start(stop); });

    ctrl::api::ConfigMap config_map;
    config_map.SetNamespace("default");
    config_map.SetName("to-annotate");
    ctrl::Status status = Run(client_->Create(Deadline(), config_map));
    ASSERT_TRUE(status.Ok()) << status;

    // The reconciler's mark, within a deadline.
    std::string seen;
    for (auto deadline = std::chrono::steady_clock::now() + 60s;
         seen != "true" && std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(100ms)) {
        ctrl::api::ConfigMap got;
        if (Run(client_->Get(Deadline(), ctrl::ObjectKey("default", "to-annotate"), got)).Ok())
            seen = std::string(got.Annotation(consumer::kSeenAnnotation).value_or(""));
    }
    EXPECT_EQ(seen, "true") << "the annotator did not mark the ConfigMap within 60 s";

    stop.Cancel();
    ASSERT_EQ(done.wait_for(60s), std::future_status::ready);
    EXPECT_TRUE(done.get().Ok());
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new EnvtestEnvironment());
    return RUN_ALL_TESTS();
}
