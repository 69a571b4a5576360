// What only the fake client does, or does beyond the conformance table: its builder (initial
// objects, CRDs, kinds, indexes), concurrent writers, apply and subresources it does not implement.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/builtins.hpp"
#include "ctrl/api/config_map.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/client/retry.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/static_rest_mapper.hpp"
#include "ctrl/fake/client_builder.hpp"
#include "ctrl/scheme/scheme.hpp"
#include "test/support/client_conformance.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::fake {
namespace {

using ctrl::testing::TestContext;

api::ConfigMap NewConfigMap(const std::string& ns, const std::string& name) {
    api::ConfigMap cm;
    cm.SetNamespace(ns);
    cm.SetName(name);
    return cm;
}

std::unique_ptr<FakeClient> Build(ClientBuilder& builder) {
    StatusOr<std::unique_ptr<FakeClient>> client = builder.Build();
    EXPECT_TRUE(client.Ok()) << client.GetStatus();
    return client.Ok() ? std::move(client).Value() : nullptr;
}

std::unique_ptr<FakeClient> Build(ClientBuilder&& builder) {
    return Build(builder);
}

TEST(FakeClientTest, StartsWithTheBuildersObjectsAsGiven) {
    api::ConfigMap seeded = NewConfigMap("ns", "seeded");
    seeded.SetResourceVersion("999");
    seeded.SetDataValue("k", "v");
    api::Pod pod;
    pod.SetNamespace("ns");
    pod.SetName("web");
    StatusOr<Object> crd = Object::Parse(ctrl::testing::WidgetCrdJson());
    ASSERT_TRUE(crd.Ok());
    Object widget;
    widget.SetGroupVersionKind(ctrl::testing::WidgetKind());
    widget.SetNamespace("ns");
    widget.SetName("w");
    std::unique_ptr<FakeClient> client =
        Build(NewClientBuilder().WithCustomResourceDefinition(*crd).WithObjects(seeded, pod, widget));
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;

    api::ConfigMap read;
    const ObjectKey key{"ns", "seeded"};
    ASSERT_TRUE(RunSync(io, client->Get(TestContext(), key, read)).Ok());
    EXPECT_EQ(read.ResourceVersion(), "999");
    EXPECT_EQ(read.DataValue("k"), "v");
    EXPECT_FALSE(read.Uid().empty());
    api::Pod read_pod;
    const ObjectKey pod_key{"ns", "web"};
    ASSERT_TRUE(RunSync(io, client->Get(TestContext(), pod_key, read_pod)).Ok());
    EXPECT_FALSE(read_pod.ResourceVersion().empty());
    Object read_widget;
    read_widget.SetGroupVersionKind(ctrl::testing::WidgetKind());
    const ObjectKey widget_key{"ns", "w"};
    ASSERT_TRUE(RunSync(io, client->Get(TestContext(), widget_key, read_widget)).Ok());
    EXPECT_EQ(read_widget.Generation(), 1);

    api::ConfigMap created = NewConfigMap("ns", "later");
    ASSERT_TRUE(RunSync(io, client->Create(TestContext(), created)).Ok());
    EXPECT_GT(std::stoull(std::string(created.ResourceVersion())), 999u) << "one counter, above every given version";
}

TEST(FakeClientTest, BuildRefusesUnknownKindsAndDuplicates) {
    Object unknown;
    unknown.SetApiVersion("nope.example.com/v1");
    unknown.SetKind("Widget");
    unknown.SetNamespace("ns");
    unknown.SetName("w");
    StatusOr<std::unique_ptr<FakeClient>> no_match = NewClientBuilder().WithObjects(unknown).Build();
    EXPECT_TRUE(IsNoMatch(no_match.GetStatus())) << no_match.GetStatus();

    api::ConfigMap a = NewConfigMap("ns", "same");
    api::ConfigMap b = NewConfigMap("ns", "same");
    EXPECT_TRUE(IsAlreadyExists(NewClientBuilder().WithObjects(a, b).Build().GetStatus()));

    Object not_a_crd;
    EXPECT_TRUE(IsBadRequest(NewClientBuilder().WithCustomResourceDefinition(not_a_crd).Build().GetStatus()));

    auto mapper = std::make_shared<discovery::StaticRESTMapper>();
    const GroupKind kind{"example.com", "Thing"};
    EXPECT_TRUE(IsBadRequest(NewClientBuilder().WithRESTMapper(mapper).WithClusterScoped(kind).Build().GetStatus()));
}

TEST(FakeClientTest, KindsAndScopesCanBeAdded) {
    const GroupVersionKind thing{"example.com", "v1", "Thing"};
    const GroupVersionKind gadget{"example.com", "v1", "Gadget"};
    std::unique_ptr<FakeClient> client = Build(NewClientBuilder()
                                                   .WithKind(thing, "things", discovery::Scope::kNamespace)
                                                   .WithKind(gadget, "gadgets", discovery::Scope::kNamespace)
                                                   .WithClusterScoped(gadget.ToGroupKind()));
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    Object o;
    o.SetGroupVersionKind(gadget);
    o.SetNamespace("ignored");
    o.SetName("g");
    ASSERT_TRUE(RunSync(io, client->Create(TestContext(), o)).Ok());
    EXPECT_EQ(o.Namespace(), "") << "a cluster-scoped object has no namespace";
    Object t;
    t.SetGroupVersionKind(thing);
    t.SetName("t");
    EXPECT_TRUE(IsInvalid(RunSync(io, client->Create(TestContext(), t)))) << "namespaced: needs a namespace";
    Object missing;
    missing.SetGroupVersionKind(thing);
    const ObjectKey key{"ns", "absent"};
    const Status not_found = RunSync(io, client->Get(TestContext(), key, missing));
    EXPECT_EQ(not_found.Message(), "things.example.com \"absent\" not found");
}

TEST(FakeClientTest, IndexedFieldsCanBeSelected) {
    api::Pod on_a;
    on_a.SetNamespace("ns");
    on_a.SetName("on-a");
    on_a.SetNodeName("node-a");
    api::Pod on_b;
    on_b.SetNamespace("ns");
    on_b.SetName("on-b");
    on_b.SetNodeName("node-b");
    const GroupKind pod{"", "Pod"};
    std::unique_ptr<FakeClient> client =
        Build(NewClientBuilder().WithObjects(on_a, on_b).WithIndex(pod, "spec.nodeName", [](const Object& o) {
            return std::vector<std::string>{o.NestedString({"spec", "nodeName"}).ValueOr("")};
        }));
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    client::ListOptions on_node_b;
    on_node_b.field_selector = FieldSelector::FromSet({{"spec.nodeName", "node-b"}});
    api::PodList pods;
    ASSERT_TRUE(RunSync(io, client->List(TestContext(), pods, on_node_b)).Ok());
    ASSERT_EQ(pods.Items().size(), 1u);
    EXPECT_EQ(pods.Items()[0].Name(), "on-b");
    StatusOr<FieldSelector> not_b = FieldSelector::Parse("spec.nodeName!=node-b");
    ASSERT_TRUE(not_b.Ok());
    client::ListOptions elsewhere;
    elsewhere.field_selector = *not_b;
    ASSERT_TRUE(RunSync(io, client->List(TestContext(), pods, elsewhere)).Ok());
    ASSERT_EQ(pods.Items().size(), 1u);
    EXPECT_EQ(pods.Items()[0].Name(), "on-a");
    client::ListOptions unindexed;
    unindexed.field_selector = FieldSelector::FromSet({{"status.phase", "Running"}});
    EXPECT_TRUE(IsBadRequest(RunSync(io, client->List(TestContext(), pods, unindexed))));
}

TEST(FakeClientTest, ConcurrentWritersLoseNoUpdate) {
    std::unique_ptr<FakeClient> client = Build(NewClientBuilder());
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    api::ConfigMap counter = NewConfigMap("ns", "counter");
    counter.SetDataValue("n", "0");
    ASSERT_TRUE(RunSync(io, client->Create(TestContext(), counter)).Ok());

    constexpr int kThreads = 8;
    constexpr int kIncrements = 50;
    std::atomic<int> conflicts = 0;
    std::vector<std::thread> threads;
    client::Backoff patient = client::kDefaultRetry;
    patient.steps = 1000;
    patient.duration = std::chrono::milliseconds(0);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            boost::asio::io_context own;
            for (int i = 0; i < kIncrements; ++i) {
                const Status done =
                    RunSync(own, client::RetryOnConflict(TestContext(), patient, [&]() -> Task<Status> {
                                const Context ctx = TestContext();
                                const ObjectKey key{"ns", "counter"};
                                api::ConfigMap cm;
                                CTRL_CO_RETURN_IF_ERROR(co_await client->Get(ctx, key, cm));
                                cm.SetDataValue(
                                    "n", std::to_string(std::stoi(std::string(cm.DataValue("n").value_or("0"))) + 1));
                                const Status updated = co_await client->Update(ctx, cm);
                                if (IsConflict(updated))
                                    ++conflicts;
                                co_return updated;
                            }));
                EXPECT_TRUE(done.Ok()) << done;
            }
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    api::ConfigMap final_state;
    const ObjectKey key{"ns", "counter"};
    ASSERT_TRUE(RunSync(io, client->Get(TestContext(), key, final_state)).Ok());
    EXPECT_EQ(final_state.DataValue("n"), std::to_string(kThreads * kIncrements));
    RecordProperty("conflicts", conflicts.load());
}

// Records how long 2,000 creates, gets, updates and one list take (no bound is asserted).
TEST(FakeClientTest, RecordsTheCostOfCalls) {
    std::unique_ptr<FakeClient> client = Build(NewClientBuilder());
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    constexpr int kObjects = 2000;
    using Clock = std::chrono::steady_clock;
    const auto micros_per_call = [](Clock::duration d, int calls) {
        return std::chrono::duration<double, std::micro>(d).count() / calls;
    };
    Clock::time_point start = Clock::now();
    for (int i = 0; i < kObjects; ++i) {
        api::ConfigMap cm = NewConfigMap("ns", "cm-" + std::to_string(i));
        cm.SetDataValue("k", "v");
        ASSERT_TRUE(RunSync(io, client->Create(TestContext(), cm)).Ok());
    }
    const double create = micros_per_call(Clock::now() - start, kObjects);
    start = Clock::now();
    api::ConfigMap read;
    for (int i = 0; i < kObjects; ++i) {
        const ObjectKey key{"ns", "cm-" + std::to_string(i)};
        ASSERT_TRUE(RunSync(io, client->Get(TestContext(), key, read)).Ok());
    }
    const double get = micros_per_call(Clock::now() - start, kObjects);
    start = Clock::now();
    for (int i = 0; i < kObjects; ++i) {
        const ObjectKey key{"ns", "cm-" + std::to_string(i)};
        ASSERT_TRUE(RunSync(io, client->Get(TestContext(), key, read)).Ok());
        read.SetDataValue("k", "w");
        ASSERT_TRUE(RunSync(io, client->Update(TestContext(), read)).Ok());
    }
    const double get_update = micros_per_call(Clock::now() - start, kObjects);
    start = Clock::now();
    api::ConfigMapList list;
    ASSERT_TRUE(RunSync(io, client->List(TestContext(), list)).Ok());
    EXPECT_EQ(list.Items().size(), static_cast<std::size_t>(kObjects));
    const double list_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::printf("fake client: create %.1f us, get %.1f us, get+update %.1f us, list of %d %.1f ms\n", create, get,
                get_update, kObjects, list_ms);
    RecordProperty("create_us", std::to_string(create));
    RecordProperty("get_us", std::to_string(get));
    RecordProperty("get_update_us", std::to_string(get_update));
    RecordProperty("list_ms", std::to_string(list_ms));
}

TEST(FakeClientTest, ApplyAndUnknownSubresourcesSayTheyAreNotImplemented) {
    std::unique_ptr<FakeClient> client = Build(NewClientBuilder());
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    api::ConfigMap cm = NewConfigMap("ns", "applied");
    client::PatchOptions owner;
    owner.field_owner = "me";
    const Status apply = RunSync(io, client->Patch(TestContext(), cm, client::Apply(), owner));
    EXPECT_TRUE(IsBadRequest(apply)) << apply;
    EXPECT_THAT(apply.Message(), ::testing::HasSubstr("server-side apply"));
    EXPECT_TRUE(IsInvalid(RunSync(io, client->Patch(TestContext(), cm, client::Apply())))) << "no field manager";

    api::Pod pod;
    pod.SetNamespace("ns");
    pod.SetName("evictee");
    ASSERT_TRUE(RunSync(io, client->Create(TestContext(), pod)).Ok());
    Object scale;
    EXPECT_TRUE(IsBadRequest(RunSync(io, client->SubResource("scale").Get(TestContext(), pod, scale))));
    Object eviction;
    ASSERT_TRUE(RunSync(io, client->SubResource("eviction").Create(TestContext(), pod, eviction)).Ok());
    const ObjectKey key{"ns", "evictee"};
    EXPECT_TRUE(IsNotFound(RunSync(io, client->Get(TestContext(), key, pod))));
}

TEST(FakeClientTest, InterceptorsSeeEveryCallAndCanFailIt) {
    std::mutex mutex;
    std::vector<std::string> calls;
    int conflicts_left = 1;
    std::unique_ptr<FakeClient> client = Build(NewClientBuilder().WithInterceptor([&](const Call& call) {
        std::lock_guard lock(mutex);
        calls.push_back(std::string(call.verb) + " " + call.gvk.kind + " " + call.key.String() +
                        (call.sub_resource.empty() ? "" : " /" + std::string(call.sub_resource)));
        if (call.verb == "update" && conflicts_left > 0) {
            --conflicts_left;
            return ConflictError("injected");
        }
        return OkStatus();
    }));
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    api::ConfigMap cm = NewConfigMap("ns", "cm");
    ASSERT_TRUE(RunSync(io, client->Create(TestContext(), cm)).Ok());
    int attempts = 0;
    const Status updated =
        RunSync(io, client::RetryOnConflict(TestContext(), client::kDefaultRetry, [&]() -> Task<Status> {
                    ++attempts;
                    const Context ctx = TestContext();
                    const ObjectKey key{"ns", "cm"};
                    api::ConfigMap read;
                    CTRL_CO_RETURN_IF_ERROR(co_await client->Get(ctx, key, read));
                    read.SetDataValue("k", "v");
                    co_return co_await client->Update(ctx, read);
                }));
    ASSERT_TRUE(updated.Ok()) << updated;
    EXPECT_EQ(attempts, 2);
    api::Pod pod;
    pod.SetNamespace("ns");
    pod.SetName("p");
    ASSERT_TRUE(RunSync(io, client->Create(TestContext(), pod)).Ok());
    ASSERT_TRUE(RunSync(io, client->Status().Update(TestContext(), pod)).Ok());
    client::ListOptions in_ns;
    in_ns.namespace_name = "ns";
    api::ConfigMapList list;
    ASSERT_TRUE(RunSync(io, client->List(TestContext(), list, in_ns)).Ok());
    EXPECT_THAT(calls, ::testing::ElementsAre("create ConfigMap ns/cm", "get ConfigMap ns/cm", "update ConfigMap ns/cm",
                                              "get ConfigMap ns/cm", "update ConfigMap ns/cm", "create Pod ns/p",
                                              "update Pod ns/p /status", "list ConfigMap ns/"));
}

TEST(FakeClientTest, APodInItsGracePeriodStaysThroughUpdates) {
    api::Pod pod;
    pod.SetNamespace("ns");
    pod.SetName("bound");
    pod.SetNodeName("node-1");
    api::Pod terminating_seed = pod.DeepCopy();
    terminating_seed.SetName("seeded");
    ASSERT_TRUE(terminating_seed.SetNestedString({"metadata", "deletionTimestamp"}, "2026-01-01T00:00:00Z").Ok());
    EXPECT_TRUE(IsBadRequest(NewClientBuilder().WithObjects(terminating_seed).Build().GetStatus()))
        << "deleting with nothing to wait for is no state to start from";

    std::unique_ptr<FakeClient> client = Build(NewClientBuilder().WithObjects(pod));
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    ASSERT_TRUE(RunSync(io, client->Delete(TestContext(), pod)).Ok());
    const ObjectKey key{"ns", "bound"};
    api::Pod read;
    ASSERT_TRUE(RunSync(io, client->Get(TestContext(), key, read)).Ok());
    EXPECT_EQ(read.NestedInt({"metadata", "deletionGracePeriodSeconds"}).ValueOr(-1), 30) << "the default grace";
    ASSERT_TRUE(read.SetNestedString({"status", "phase"}, "Succeeded").Ok());
    ASSERT_TRUE(RunSync(io, client->Status().Update(TestContext(), read)).Ok());
    ASSERT_TRUE(RunSync(io, client->Get(TestContext(), key, read)).Ok()) << "still there until its kubelet deletes it";
    EXPECT_EQ(read.NestedString({"status", "phase"}).ValueOr(""), "Succeeded");
}

TEST(FakeClientTest, TypedKindsMustBeInTheScheme) {
    auto bare = std::make_shared<scheme::Scheme>();
    std::unique_ptr<FakeClient> client = Build(NewClientBuilder().WithScheme(bare));
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    api::ConfigMap cm;
    const ObjectKey key{"ns", "x"};
    EXPECT_TRUE(scheme::IsNotRegistered(RunSync(io, client->Get(TestContext(), key, cm))));
}

TEST(FakeClientTest, ACancelledContextIsCancelled) {
    std::unique_ptr<FakeClient> client = Build(NewClientBuilder());
    ASSERT_NE(client, nullptr);
    boost::asio::io_context io;
    const Context cancelled = Context::WithCancel(Context::Background());
    cancelled.Cancel();
    api::ConfigMap cm;
    const ObjectKey key{"ns", "x"};
    EXPECT_TRUE(IsCancelled(RunSync(io, client->Get(cancelled, key, cm))));
}

}  // namespace
}  // namespace ctrl::fake
