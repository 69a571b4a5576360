// controllerutil against the real control plane (issue 13, acceptance 6): CreateOrUpdate and
// CreateOrPatch return created, then unchanged without a write (requests counted at the
// transport; none at all through the cached client), then updated; CreateOrPatch's status cases on
// a CRD and a pod; owner references and finalizers as the API server stores them. No garbage
// collector runs here (no controller-manager), so what the references make it do is not tested.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/controllerutil/create_or.hpp"
#include "ctrl/controllerutil/finalizer.hpp"
#include "ctrl/controllerutil/owner.hpp"
#include "test/support/client_conformance.hpp"
#include "test/support/counted_rest_client.hpp"
#include "test/support/counting_transport.hpp"
#include "test/support/eventually.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::controllerutil {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::kTestWait;
using ctrl::testing::TestContext;

// "cu-<test name>-<n>", lower case, at most 63 characters.
std::string NamespaceForTest() {
    static std::atomic<int> counter{0};
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "cu-" + std::string(info->name()).substr(0, 40) + "-" + std::to_string(++counter);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '-'; });
    return name;
}

// A Cluster on the shared control plane whose one transport counts requests, its loop on a
// thread of its own, and a namespace per test.
class ControllerUtilTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const rest::Config config = ctrl::testing::SharedAdminConfig();
        cluster::Options options;
        StatusOr<ctrl::testing::CountedCluster> counted =
            ctrl::testing::NewCountedCluster(config, loop_.Executor(), registry_, std::move(options));
        ASSERT_TRUE(counted.Ok()) << counted.GetStatus();
        transport_ = counted->transport;
        cluster_ = std::move(counted->cluster);

        ns_.SetName(NamespaceForTest());
        const Status created = Run(Direct().Create(TestContext(), ns_));
        ASSERT_TRUE(created.Ok()) << created;
    }

    void TearDown() override {
        if (cluster_ != nullptr && !ns_.Uid().empty()) {
            // No namespace controller runs here: the namespace stays Terminating, which is harmless.
            (void)Run(Direct().Delete(TestContext(), ns_));
        }
        stop_.Cancel();
        cluster_.reset();
        loop_.Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    // Every call goes to the API server.
    client::Client& Direct() { return cluster_->GetAPIReader(); }
    std::string Ns() const { return std::string(ns_.Name()); }

    template <client::ClientObject T>
    StatusOr<OperationResult> CreateOrUpdateOn(client::Client& client, T& object, MutateFunction mutate) {
        return Run(CreateOrUpdate(TestContext(), client, object, std::move(mutate)));
    }
    template <client::ClientObject T>
    StatusOr<OperationResult> CreateOrPatchOn(client::Client& client, T& object, MutateFunction mutate) {
        return Run(CreateOrPatch(TestContext(), client, object, std::move(mutate)));
    }

    // The requests since the last call (all of them the first time).
    std::vector<std::string> NewRequests() {
        std::vector<std::string> paths = transport_->Paths();
        std::vector<std::string> fresh(paths.begin() + static_cast<std::ptrdiff_t>(seen_), paths.end());
        seen_ = paths.size();
        return fresh;
    }

    // Reads name in the test's namespace through the direct client.
    template <client::ClientObject T>
    T Read(const std::string& name, const GroupVersionKind* gvk = nullptr) {
        T read;
        if (gvk != nullptr)
            read.SetGroupVersionKind(*gvk);
        const ObjectKey key(Ns(), name);
        const Status status = Run(Direct().Get(TestContext(), key, read));
        EXPECT_TRUE(status.Ok()) << status;
        return read;
    }

    // Creates the Widget CRD (status subresource) and waits until widgets are served.
    void InstallWidgets() {
        StatusOr<Object> crd = Object::Parse(ctrl::testing::WidgetCrdJson());
        ASSERT_TRUE(crd.Ok());
        const Status created = Run(Direct().Create(TestContext(), *crd));
        ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
        const auto served = [&] {
            ObjectList widgets;
            widgets.SetItemGroupVersionKind(ctrl::testing::WidgetKind());
            return Run(Direct().List(TestContext(), widgets, client::InNamespace(Ns()))).Ok();
        };
        ASSERT_TRUE(Eventually(served, kTestWait, 100ms)) << "widgets are not served after the CRD was created";
    }

    std::string ObjectPath(std::string_view resource, std::string_view name) const {
        return "/api/v1/namespaces/" + std::string(ns_.Name()) + "/" + std::string(resource) + "/" + std::string(name);
    }

    metrics::Registry registry_;
    ctrl::testing::IoLoop loop_;
    ctrl::testing::CountingTransport* transport_ = nullptr;
    std::size_t seen_ = 0;
    std::unique_ptr<cluster::Cluster> cluster_;
    Context stop_ = Context::WithCancel(Context::Background());
    api::Namespace ns_;
};

TEST_F(ControllerUtilTest, CreateOrUpdateCreatesThenSendsOnlyTheReadThenUpdates) {
    std::string color = "blue";
    api::ConfigMap cm;
    cm.SetNamespace(Ns());
    cm.SetName("settings");
    const auto mutate = [&] {
        cm.SetDataValue("color", color);
        return OkStatus();
    };

    StatusOr<OperationResult> result = CreateOrUpdateOn(Direct(), cm, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);
    EXPECT_EQ(Read<api::ConfigMap>("settings").DataValue("color"), "blue");
    NewRequests();

    result = CreateOrUpdateOn(Direct(), cm, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    EXPECT_THAT(NewRequests(), ::testing::ElementsAre(ObjectPath("configmaps", "settings")))
        << "the read, and no write";
    const std::string unchanged_version(cm.ResourceVersion());

    color = "green";
    result = CreateOrUpdateOn(Direct(), cm, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdated);
    EXPECT_EQ(NewRequests().size(), 2u) << "the read and the update";
    EXPECT_NE(cm.ResourceVersion(), unchanged_version) << "object holds the server's answer";
    EXPECT_EQ(Read<api::ConfigMap>("settings").DataValue("color"), "green");
}

TEST_F(ControllerUtilTest, ThroughTheCachedClientNothingChangedSendsNoRequestAtAll) {
    api::ConfigMap cm;
    cm.SetNamespace(Ns());
    cm.SetName("cached");
    const auto mutate = [&] {
        cm.SetDataValue("color", "blue");
        return OkStatus();
    };
    StatusOr<OperationResult> result = CreateOrUpdateOn(Direct(), cm, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    ASSERT_EQ(*result, OperationResult::kCreated);

    cluster_->Start(stop_);
    client::Client& cached = cluster_->GetClient();
    const ObjectKey key(Ns(), "cached");
    ASSERT_TRUE(Eventually([&] {
        api::ConfigMap read;
        return Run(cached.Get(TestContext(), key, read)).Ok() && read.DataValue("color") == "blue";
    })) << "the cache never saw the config map";
    NewRequests();

    api::ConfigMap again;
    again.SetNamespace(Ns());
    again.SetName("cached");
    result = CreateOrUpdateOn(cached, again, [&] {
        again.SetDataValue("color", "blue");
        return OkStatus();
    });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    result = CreateOrPatchOn(cached, again, [&] {
        again.SetDataValue("color", "blue");
        return OkStatus();
    });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    EXPECT_THAT(NewRequests(), ::testing::IsEmpty()) << "read from the cache, nothing to write";
}

TEST_F(ControllerUtilTest, CreateOrPatchWritesTheObjectAndItsStatusSubresourceOnlyWhenEachChanged) {
    InstallWidgets();
    const GroupVersionKind kind = ctrl::testing::WidgetKind();
    Object widget;
    widget.SetGroupVersionKind(kind);
    widget.SetNamespace(Ns());
    widget.SetName("w");
    std::string color = "blue";
    std::string phase;
    const auto mutate = [&] {
        CTRL_RETURN_IF_ERROR(widget.SetNestedString({"spec", "color"}, color));
        if (phase.empty())
            return OkStatus();
        return widget.SetNestedString({"status", "phase"}, phase);
    };

    StatusOr<OperationResult> result = CreateOrPatchOn(Direct(), widget, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);
    NewRequests();

    result = CreateOrPatchOn(Direct(), widget, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    const std::string widget_path = "/apis/test.ctrl.dev/v1/namespaces/" + Ns() + "/widgets/w";
    EXPECT_THAT(NewRequests(), ::testing::ElementsAre(widget_path)) << "the read, and no write";

    color = "red";
    result = CreateOrPatchOn(Direct(), widget, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdated);
    EXPECT_THAT(NewRequests(), ::testing::ElementsAre(widget_path, widget_path));

    phase = "Ready";
    result = CreateOrPatchOn(Direct(), widget, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdatedStatusOnly);
    EXPECT_THAT(NewRequests(), ::testing::ElementsAre(widget_path, widget_path + "/status"));

    color = "green";
    phase = "Degraded";
    result = CreateOrPatchOn(Direct(), widget, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdatedStatus);
    EXPECT_THAT(NewRequests(), ::testing::ElementsAre(widget_path, widget_path, widget_path + "/status"));
    const Object stored = Read<Object>("w", &kind);
    EXPECT_EQ(stored.NestedString({"spec", "color"}).ValueOr(""), "green");
    EXPECT_EQ(stored.NestedString({"status", "phase"}).ValueOr(""), "Degraded");
    EXPECT_EQ(widget.ResourceVersion(), stored.ResourceVersion()) << "object holds the last answer";
    NewRequests();

    result = CreateOrPatchOn(Direct(), widget, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    EXPECT_THAT(NewRequests(), ::testing::ElementsAre(widget_path));
}

TEST_F(ControllerUtilTest, CreateOrPatchPatchesAPodsStatusSubresource) {
    StatusOr<api::Pod> parsed = api::Pod::Parse(R"({"spec": {"containers": [{"name": "app", "image": "busybox"}]}})");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    api::Pod pod = std::move(parsed).Value();
    pod.SetNamespace(Ns());
    pod.SetName("web-0");
    std::string message;
    const auto mutate = [&] {
        pod.SetLabel("app", "web");
        if (message.empty())
            return OkStatus();
        return pod.SetNestedString({"status", "message"}, message);
    };
    StatusOr<OperationResult> result = CreateOrPatchOn(Direct(), pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);

    message = "waiting for a node";
    result = CreateOrPatchOn(Direct(), pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdatedStatusOnly);
    EXPECT_EQ(Read<api::Pod>("web-0").NestedString({"status", "message"}).ValueOr(""), "waiting for a node");

    result = CreateOrPatchOn(Direct(), pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
}

TEST_F(ControllerUtilTest, ControllerReferencesAreStoredAndAnotherControllerIsRefused) {
    api::ConfigMap owner;
    owner.SetNamespace(Ns());
    owner.SetName("owner");
    ASSERT_TRUE(Run(Direct().Create(TestContext(), owner)).Ok());
    const scheme::Scheme& scheme = cluster_->GetScheme();

    api::ConfigMap owned;
    owned.SetNamespace(Ns());
    owned.SetName("owned");
    StatusOr<OperationResult> result =
        CreateOrUpdateOn(Direct(), owned, [&] { return SetControllerReference(owner, owned, scheme); });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);

    OwnerReference expected;
    expected.api_version = "v1";
    expected.kind = "ConfigMap";
    expected.name = "owner";
    expected.uid = std::string(owner.Uid());
    expected.controller = true;
    expected.block_owner_deletion = true;
    const api::ConfigMap stored = Read<api::ConfigMap>("owned");
    EXPECT_EQ(stored.OwnerReferences(), std::vector<OwnerReference>{expected});
    EXPECT_TRUE(HasControllerReference(stored));

    // The same controller again: unchanged, nothing written.
    result = CreateOrUpdateOn(Direct(), owned, [&] { return SetControllerReference(owner, owned, scheme); });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);

    // Another controller is refused before anything is written.
    api::ConfigMap usurper;
    usurper.SetNamespace(Ns());
    usurper.SetName("usurper");
    ASSERT_TRUE(Run(Direct().Create(TestContext(), usurper)).Ok());
    result = CreateOrUpdateOn(Direct(), owned, [&] { return SetControllerReference(usurper, owned, scheme); });
    EXPECT_TRUE(IsAlreadyOwned(result.GetStatus())) << result.GetStatus();
    EXPECT_EQ(result.GetStatus().Message(),
              "Object " + Ns() + "/owned is already owned by another ConfigMap controller owner");
    EXPECT_EQ(Read<api::ConfigMap>("owned").OwnerReferences(), std::vector<OwnerReference>{expected});

    // A plain owner reference beside it, then removing the controller's.
    result = CreateOrPatchOn(Direct(), owned, [&] { return SetOwnerReference(usurper, owned, scheme); });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdated);
    EXPECT_EQ(Read<api::ConfigMap>("owned").OwnerReferences().size(), 2u);
    result = CreateOrPatchOn(Direct(), owned, [&] { return RemoveControllerReference(owner, owned, scheme); });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    const api::ConfigMap after = Read<api::ConfigMap>("owned");
    EXPECT_FALSE(HasControllerReference(after));
    ASSERT_EQ(after.OwnerReferences().size(), 1u);
    EXPECT_EQ(after.OwnerReferences()[0].name, "usurper");
}

TEST_F(ControllerUtilTest, AClusterScopedOwnerControlsANamespacedObject) {
    const scheme::Scheme& scheme = cluster_->GetScheme();
    api::ConfigMap owned;
    owned.SetNamespace(Ns());
    owned.SetName("in-namespace");
    StatusOr<OperationResult> result =
        CreateOrUpdateOn(Direct(), owned, [&] { return SetControllerReference(ns_, owned, scheme); });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);
    const std::optional<OwnerReference> controller = GetControllerOf(Read<api::ConfigMap>("in-namespace"));
    ASSERT_TRUE(controller.has_value());
    EXPECT_EQ(controller->api_version, "v1");
    EXPECT_EQ(controller->kind, "Namespace");
    EXPECT_EQ(controller->name, Ns());
    EXPECT_EQ(controller->uid, ns_.Uid());

    // The other way round is refused without a request.
    api::Namespace other;
    other.SetName(Ns() + "-other");
    NewRequests();
    EXPECT_TRUE(IsBadRequest(SetOwnerReference(owned, other, scheme)));
    EXPECT_TRUE(NewRequests().empty());
}

TEST_F(ControllerUtilTest, AFinalizerHoldsADeletedObjectUntilItIsRemoved) {
    api::ConfigMap cm;
    cm.SetNamespace(Ns());
    cm.SetName("guarded");
    StatusOr<OperationResult> result = CreateOrPatchOn(Direct(), cm, [&] {
        AddFinalizer(cm, "ctrl.dev/cleanup");
        return OkStatus();
    });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);
    ASSERT_TRUE(Run(Direct().Delete(TestContext(), cm)).Ok());
    const api::ConfigMap deleting = Read<api::ConfigMap>("guarded");
    EXPECT_TRUE(deleting.DeletionTimestamp().has_value());
    EXPECT_TRUE(ContainsFinalizer(deleting, "ctrl.dev/cleanup"));

    result = CreateOrPatchOn(Direct(), cm, [&] {
        RemoveFinalizer(cm, "ctrl.dev/cleanup");
        return OkStatus();
    });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdated);
    api::ConfigMap gone;
    const ObjectKey key(Ns(), "guarded");
    EXPECT_TRUE(IsNotFound(Run(Direct().Get(TestContext(), key, gone)))) << "the last finalizer let it go";
}

}  // namespace
}  // namespace ctrl::controllerutil
