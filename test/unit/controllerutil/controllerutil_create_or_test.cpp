// CreateOrUpdate and CreateOrPatch on the fake client: what each returns, which calls it makes
// (recorded by an interceptor: none but the read when nothing changed), and what ends up stored.
#include "ctrl/controllerutil/create_or.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/fake/client_builder.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::controllerutil {
namespace {

using ctrl::testing::TestContext;
using ::testing::ElementsAre;

api::ConfigMap NewConfigMap(std::string_view name) {
    api::ConfigMap cm;
    cm.SetNamespace("ns");
    cm.SetName(name);
    return cm;
}

api::Pod NewPod(std::string_view name) {
    api::Pod pod;
    pod.SetNamespace("ns");
    pod.SetName(name);
    return pod;
}

// A fake client whose calls are recorded as "verb" or "verb/subresource".
class CreateOrTest : public ::testing::Test {
  protected:
    template <client::ClientObject... T>
    void Build(const T&... objects) {
        StatusOr<std::unique_ptr<fake::FakeClient>> client =
            fake::NewClientBuilder()
                .WithObjects(objects...)
                .WithInterceptor([this](const fake::Call& call) {
                    std::lock_guard lock(mu_);
                    calls_.push_back(std::string(call.verb) +
                                     (call.sub_resource.empty() ? "" : "/" + std::string(call.sub_resource)));
                    return injected_.count(std::string(call.verb)) ? injected_.at(std::string(call.verb)) : OkStatus();
                })
                .Build();
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();
    }

    // The calls made since the last TakeCalls.
    std::vector<std::string> TakeCalls() {
        std::lock_guard lock(mu_);
        return std::exchange(calls_, {});
    }

    template <client::ClientObject T>
    StatusOr<OperationResult> CreateOrUpdateSync(T& object, MutateFunction mutate) {
        return RunSync(io_, CreateOrUpdate(TestContext(), *client_, object, std::move(mutate)));
    }
    template <client::ClientObject T>
    StatusOr<OperationResult> CreateOrPatchSync(T& object, MutateFunction mutate) {
        return RunSync(io_, CreateOrPatch(TestContext(), *client_, object, std::move(mutate)));
    }
    template <client::ClientObject T>
    T Read(std::string_view name) {
        T read;
        const ObjectKey key("ns", std::string(name));
        const Status status = RunSync(io_, client_->Get(TestContext(), key, read));
        EXPECT_TRUE(status.Ok()) << status;
        return read;
    }

    boost::asio::io_context io_;
    std::unique_ptr<fake::FakeClient> client_;
    std::map<std::string, Status> injected_;
    std::mutex mu_;
    std::vector<std::string> calls_;
};

TEST(OperationResultTest, ReadsAsControllerRuntimesStrings) {
    EXPECT_EQ(ToString(OperationResult::kNone), "unchanged");
    EXPECT_EQ(ToString(OperationResult::kCreated), "created");
    EXPECT_EQ(ToString(OperationResult::kUpdated), "updated");
    EXPECT_EQ(ToString(OperationResult::kUpdatedStatus), "updatedStatus");
    EXPECT_EQ(ToString(OperationResult::kUpdatedStatusOnly), "updatedStatusOnly");
}

TEST_F(CreateOrTest, CreateOrUpdateCreatesThenLeavesAloneThenUpdates) {
    Build();
    std::string color = "blue";
    api::ConfigMap cm = NewConfigMap("settings");
    auto mutate = [&] {
        cm.SetDataValue("color", color);
        return OkStatus();
    };

    StatusOr<OperationResult> result = CreateOrUpdateSync(cm, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "create"));
    EXPECT_FALSE(cm.ResourceVersion().empty()) << "object holds the server's answer";

    api::ConfigMap again = NewConfigMap("settings");
    result = CreateOrUpdateSync(again, [&] {
        again.SetDataValue("color", color);
        return OkStatus();
    });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    EXPECT_THAT(TakeCalls(), ElementsAre("get")) << "nothing changed: nothing written";

    color = "green";
    result = CreateOrUpdateSync(cm, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdated);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "update"));
    EXPECT_EQ(Read<api::ConfigMap>("settings").DataValue("color"), "green");
}

TEST_F(CreateOrTest, CreateOrUpdateTakesUnstructuredObjectsAndNoMutateFunction) {
    api::ConfigMap seeded = NewConfigMap("settings");
    seeded.SetDataValue("color", "blue");
    Build(seeded);
    Object cm;
    cm.SetGroupVersionKind(GroupVersionKind("", "v1", "ConfigMap"));
    cm.SetNamespace("ns");
    cm.SetName("settings");
    StatusOr<OperationResult> result = CreateOrUpdateSync(cm, nullptr);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    EXPECT_EQ(cm.NestedString({"data", "color"}).ValueOr(""), "blue") << "object holds what was read";
    EXPECT_THAT(TakeCalls(), ElementsAre("get"));
}

TEST_F(CreateOrTest, CreateOrPatchTakesMetadataOnlyObjects) {
    api::ConfigMap seeded = NewConfigMap("settings");
    seeded.SetDataValue("color", "blue");
    Build(seeded);
    client::PartialObjectMetadata meta(GroupVersionKind("", "v1", "ConfigMap"));
    meta.SetNamespace("ns");
    meta.SetName("settings");
    StatusOr<OperationResult> result = CreateOrPatchSync(meta, [&] {
        meta.SetLabel("team", "web");
        return OkStatus();
    });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdated);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "patch"));
    EXPECT_FALSE(meta.HasNestedField({"data"})) << "read and patched as metadata only";
    const api::ConfigMap stored = Read<api::ConfigMap>("settings");
    EXPECT_EQ(stored.Label("team"), "web");
    EXPECT_EQ(stored.DataValue("color"), "blue");
}

TEST_F(CreateOrTest, MutateErrorsAndKeyChangesStopBeforeAnyWrite) {
    Build(NewConfigMap("settings"));
    api::ConfigMap cm = NewConfigMap("settings");
    StatusOr<OperationResult> result = CreateOrUpdateSync(cm, [] { return InvalidError("no color"); });
    EXPECT_TRUE(IsInvalid(result.GetStatus())) << result.GetStatus();
    result = CreateOrPatchSync(cm, [&] {
        cm.SetName("renamed");
        return OkStatus();
    });
    EXPECT_TRUE(IsBadRequest(result.GetStatus())) << result.GetStatus();
    EXPECT_THAT(result.GetStatus().Message(), ::testing::HasSubstr("from ns/settings to ns/renamed"));

    api::ConfigMap missing = NewConfigMap("missing");
    result = CreateOrUpdateSync(missing, [&] {
        missing.SetNamespace("elsewhere");
        return OkStatus();
    });
    EXPECT_TRUE(IsBadRequest(result.GetStatus())) << result.GetStatus();
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "get", "get"));
}

TEST_F(CreateOrTest, ReadAndWriteErrorsAreReturned) {
    Build(NewConfigMap("settings"));
    injected_["get"] = ForbiddenError("no reading");
    bool mutated = false;
    api::ConfigMap cm = NewConfigMap("settings");
    StatusOr<OperationResult> result = CreateOrUpdateSync(cm, [&] {
        mutated = true;
        return OkStatus();
    });
    EXPECT_TRUE(IsForbidden(result.GetStatus())) << result.GetStatus();
    EXPECT_FALSE(mutated);

    injected_.clear();
    injected_["update"] = ConflictError("stale");
    result = CreateOrUpdateSync(cm, [&] {
        cm.SetDataValue("k", "v");
        return OkStatus();
    });
    EXPECT_TRUE(IsConflict(result.GetStatus())) << result.GetStatus();

    injected_["create"] = ForbiddenError("no creating");
    api::ConfigMap fresh = NewConfigMap("fresh");
    result = CreateOrPatchSync(fresh, nullptr);
    EXPECT_TRUE(IsForbidden(result.GetStatus())) << result.GetStatus();
}

TEST_F(CreateOrTest, CreateOrPatchPatchesTheObjectAndItsStatusOnlyWhenEachChanged) {
    Build();
    api::Pod pod = NewPod("web-0");
    std::string tier = "frontend";
    std::string message = "";
    auto mutate = [&] {
        pod.SetLabel("tier", tier);
        if (message.empty())
            return OkStatus();
        return pod.SetNestedString({"status", "message"}, message);
    };

    StatusOr<OperationResult> result = CreateOrPatchSync(pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kCreated);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "create"));

    result = CreateOrPatchSync(pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kNone);
    EXPECT_THAT(TakeCalls(), ElementsAre("get"));

    tier = "backend";
    result = CreateOrPatchSync(pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdated);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "patch"));

    message = "warming up";
    result = CreateOrPatchSync(pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdatedStatusOnly);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "patch/status"));
    EXPECT_EQ(Read<api::Pod>("web-0").NestedString({"status", "message"}).ValueOr(""), "warming up");
    TakeCalls();

    tier = "cache";
    message = "ready";
    result = CreateOrPatchSync(pod, mutate);
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdatedStatus);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "patch", "patch/status"));
    const api::Pod stored = Read<api::Pod>("web-0");
    EXPECT_EQ(stored.Label("tier"), "cache");
    EXPECT_EQ(stored.NestedString({"status", "message"}).ValueOr(""), "ready");
    EXPECT_EQ(pod.NestedString({"status", "message"}).ValueOr(""), "ready") << "object holds the last answer";
    EXPECT_EQ(pod.ResourceVersion(), stored.ResourceVersion());
}

TEST_F(CreateOrTest, CreateOrPatchRemovesAStatusTheMutateFunctionRemoved) {
    api::Pod seeded = NewPod("web-0");
    ASSERT_TRUE(seeded.SetNestedString({"status", "message"}, "old").Ok());
    Build(seeded);
    api::Pod pod = NewPod("web-0");
    StatusOr<OperationResult> result = CreateOrPatchSync(pod, [&] {
        pod.SetLabel("tier", "frontend");
        pod.RemoveNestedField({"status", "message"});
        return OkStatus();
    });
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    EXPECT_EQ(*result, OperationResult::kUpdatedStatus);
    EXPECT_THAT(TakeCalls(), ElementsAre("get", "patch", "patch/status"));
    const api::Pod stored = Read<api::Pod>("web-0");
    EXPECT_EQ(stored.Label("tier"), "frontend");
    EXPECT_FALSE(stored.HasNestedField({"status", "message"}));
}

}  // namespace
}  // namespace ctrl::controllerutil
