// The Cache as a client::Reader and the delegating client against the real control plane (issue
// 6, acceptance 4-6): reads of cached kinds make no request after sync, DisableFor kinds and
// unstructured objects go to the server, a field index answers MatchingFields, a cache restricted to
// one namespace works for a user who may only list there, and a kind the user may not list fails
// WaitForCacheSync with a message naming it and Forbidden.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <set>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/cache/cache.hpp"
#include "ctrl/client/delegating_client.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/rest/authenticator.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/counting_transport.hpp"
#include "test/support/eventually.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/workload.hpp"

namespace ctrl::cache::test {
namespace {

using namespace std::chrono_literals;

const GroupVersionKind kPod{"", "v1", "Pod"};
const GroupVersionKind kConfigMap{"", "v1", "ConfigMap"};

using ctrl::testing::CountingTransport;

using ctrl::testing::ConfigFromKubeconfig;

using ctrl::testing::Within;

// A loop thread; an admin direct client whose requests are counted; a cache (its own RestClient)
// and a delegating client over both.
class CacheClientTest : public ::testing::Test {
  protected:
    void SetUp() override {
        const rest::Config admin = ConfigFromKubeconfig(ctrl::testing::SharedControlPlane().KubeconfigPath());
        StatusOr<std::unique_ptr<rest::Transport>> transport = rest::NewTransport(admin, loop_.Executor());
        ASSERT_TRUE(transport.Ok()) << transport.GetStatus();
        auto counting = std::make_unique<CountingTransport>(std::move(transport).Value());
        counter_ = counting.get();
        auto auth = rest::NewAuthenticator(admin);
        ASSERT_TRUE(auth.Ok());
        auto rest = std::make_shared<rest::RestClient>(admin, std::move(counting), std::move(auth).Value(), registry_);
        client::Options options;
        options.registry = &registry_;
        StatusOr<std::unique_ptr<client::Client>> direct = client::NewForRestClient(rest, std::move(options));
        ASSERT_TRUE(direct.Ok()) << direct.GetStatus();
        direct_ = std::move(direct).Value();
        ns_ = "cache-" + std::to_string(++counter);
        api::Namespace ns;
        ns.SetName(ns_);
        ASSERT_TRUE(Run(direct_->Create(Within(30s), ns)).Ok());
    }

    void TearDown() override {
        stop_.Cancel();
        if (cache_) {
            EXPECT_TRUE(ctrl::testing::Eventually([this] { return cache_->Stopped(); })) << "the cache did not stop";
        }
        loop_.Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    // Makes the cache (as user, admin by default) and the delegating client, and starts the cache.
    void MakeCache(CacheOptions options, client::CacheReadOptions read_options,
                   const std::string& kubeconfig = ctrl::testing::SharedControlPlane().KubeconfigPath()) {
        StatusOr<std::unique_ptr<rest::RestClient>> rest =
            rest::RestClient::New(ConfigFromKubeconfig(kubeconfig), loop_.Executor(), registry_);
        ASSERT_TRUE(rest.Ok()) << rest.GetStatus();
        cache_rest_ = std::shared_ptr<rest::RestClient>(std::move(rest).Value());
        auto discovery =
            std::make_shared<discovery::DiscoveryClient>(*cache_rest_, discovery::DiscoveryOptions{}, registry_);
        auto mapper =
            std::make_shared<discovery::LazyRESTMapper>(discovery, discovery::LazyRESTMapperOptions{}, registry_);
        discovery_ = discovery;
        cache_ = std::make_unique<Cache>(cache_rest_, mapper, loop_.Executor(), std::move(options));
        cache_->Start(stop_);
        client_ = std::make_unique<client::DelegatingClient>(*direct_, *cache_, std::move(read_options));
    }

    // Creates count realistic pods in ns_, spread over nodes n-0 and n-1 (one in five unscheduled).
    void CreatePods(int count) {
        ctrl::testing::WorkloadOptions workload;
        workload.prefix = ns_;
        workload.nodes = 2;
        for (int i = 0; i < count; ++i) {
            api::Pod pod = ctrl::testing::WorkloadPod(workload, 0, i);
            pod.SetNamespace(ns_);
            Status created = Run(direct_->Create(Within(30s), pod));
            ASSERT_TRUE(created.Ok()) << created;
        }
    }

    static inline std::atomic<int> counter{0};
    ctrl::testing::IoLoop loop_;
    metrics::Registry registry_;
    CountingTransport* counter_ = nullptr;
    std::unique_ptr<client::Client> direct_;
    std::shared_ptr<rest::RestClient> cache_rest_;
    std::shared_ptr<discovery::DiscoveryClient> discovery_;
    std::unique_ptr<Cache> cache_;
    std::unique_ptr<client::DelegatingClient> client_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::string ns_;
};

TEST_F(CacheClientTest, CachedKindsAreReadWithoutRequestsAndBypassedOnesAlwaysAsk) {
    CreatePods(10);
    api::ConfigMap cm;
    cm.SetNamespace(ns_);
    cm.SetName("settings");
    ASSERT_TRUE(Run(direct_->Create(Within(30s), cm)).Ok());
    client::CacheReadOptions read;
    read.uncached = {kConfigMap};
    MakeCache(CacheOptions{}, read);

    api::PodList pods;
    ASSERT_TRUE(Run(client_->List(Within(30s), pods, client::InNamespace(ns_))).Ok());
    EXPECT_EQ(pods.Items().size(), 10u);
    ASSERT_TRUE(Run(cache_->WaitForCacheSync(Within(30s))).Ok());

    const int before = counter_->Count();
    for (int i = 0; i < 20; ++i) {
        api::Pod pod;
        ASSERT_TRUE(Run(client_->Get(Within(30s), {ns_, ctrl::testing::WorkloadPodName({}, i % 10)}, pod)).Ok());
        EXPECT_EQ(pod.Kind(), "Pod");
        EXPECT_FALSE(pod.HasManagedFields()) << "stripped on ingest";
    }
    ASSERT_TRUE(Run(client_->List(Within(30s), pods, client::InNamespace(ns_))).Ok());
    EXPECT_EQ(counter_->Count(), before) << "reads of a cached kind after sync make no request";

    for (int i = 0; i < 5; ++i) {
        api::ConfigMap read_cm;
        ASSERT_TRUE(Run(client_->Get(Within(30s), {ns_, "settings"}, read_cm)).Ok());
    }
    EXPECT_EQ(counter_->Count(), before + 5) << "a DisableFor kind goes to the server every time";

    Object unstructured;
    unstructured.SetGroupVersionKind(kPod);
    ASSERT_TRUE(Run(client_->Get(Within(30s), {ns_, ctrl::testing::WorkloadPodName({}, 0)}, unstructured)).Ok());
    EXPECT_EQ(counter_->Count(), before + 6) << "unstructured reads go to the server unless cached";
    EXPECT_TRUE(unstructured.HasManagedFields()) << "the server's object, not the cache's";

    client::DelegatingClient caching_unstructured(*direct_, *cache_, {.unstructured = true});
    ASSERT_TRUE(
        Run(caching_unstructured.Get(Within(30s), {ns_, ctrl::testing::WorkloadPodName({}, 0)}, unstructured)).Ok());
    EXPECT_FALSE(unstructured.HasManagedFields());
    EXPECT_EQ(counter_->Count(), before + 6) << "with the flag on, unstructured reads come from the cache";

    // What the cache says of a missing object is what the server says.
    api::Pod missing;
    Status from_cache = Run(client_->Get(Within(30s), {ns_, "nope"}, missing));
    Status from_server = Run(direct_->Get(Within(30s), {ns_, "nope"}, missing));
    EXPECT_TRUE(IsNotFound(from_cache));
    EXPECT_EQ(from_cache.Message(), from_server.Message());
    EXPECT_EQ(from_cache.HttpCode(), 404);
}

TEST_F(CacheClientTest, MetadataOnlyReadsHaveTheirOwnInformerAndSharedViewsAreShared) {
    CreatePods(3);
    MakeCache(CacheOptions{}, client::CacheReadOptions{});
    client::PartialObjectMetadataList metadata(kPod);
    ASSERT_TRUE(Run(client_->List(Within(30s), metadata, client::InNamespace(ns_))).Ok());
    ASSERT_EQ(metadata.Items().size(), 3u);
    EXPECT_EQ(metadata.Items()[0].Kind(), "Pod");
    EXPECT_EQ(metadata.Items()[0].ApiVersion(), "v1");
    EXPECT_FALSE(metadata.Items()[0].HasNestedField({"spec"}));

    const ObjectKey key{ns_, ctrl::testing::WorkloadPodName({}, 1)};
    StatusOr<std::shared_ptr<const Object>> first = Run(cache_->GetShared(Within(30s), kPod, key));
    ASSERT_TRUE(first.Ok()) << first.GetStatus();
    StatusOr<std::shared_ptr<const Object>> second = Run(cache_->GetShared(Within(30s), kPod, key));
    ASSERT_TRUE(second.Ok());
    EXPECT_EQ(first->get(), second->get()) << "one decode, shared while held";
    EXPECT_EQ((*first)->Name(), key.name);
    StatusOr<std::vector<std::shared_ptr<const Object>>> all =
        Run(cache_->ListShared(Within(30s), kPod, client::InNamespace(ns_)));
    ASSERT_TRUE(all.Ok());
    EXPECT_EQ(all->size(), 3u);
}

TEST_F(CacheClientTest, AResyncPeriodRedeliversEveryObjectAsAnUpdate) {
    CreatePods(3);
    CacheOptions options;
    options.reflector.resync_period = 200ms;
    MakeCache(std::move(options), client::CacheReadOptions{});
    StatusOr<std::vector<Informer*>> informers = Run(cache_->GetInformers(Within(30s), kPod, false));
    ASSERT_TRUE(informers.Ok()) << informers.GetStatus();
    ASSERT_EQ(informers->size(), 1u);
    // The handler outlives this body (the informer runs until TearDown): it owns what it touches.
    auto resynced = std::make_shared<std::atomic<int>>(0);
    auto handler = std::make_shared<EventHandlerFuncs>();
    handler->on_update = [resynced, ns = ns_](const std::shared_ptr<const Object>& old_object,
                                              const std::shared_ptr<const Object>& new_object) {
        if (old_object == new_object && new_object->Namespace() == ns)
            ++*resynced;
    };
    informers->front()->AddEventHandler(handler);
    ASSERT_TRUE(Run(cache_->WaitForCacheSync(Within(30s))).Ok());
    EXPECT_TRUE(ctrl::testing::Eventually([&] { return resynced->load() >= 6; }))
        << "two resyncs of the 3 pods: " << resynced->load() << " resynced updates";
}

TEST_F(CacheClientTest, PerKindSelectorsAndReaderFailOnMissingInformer) {
    CreatePods(5);
    api::Pod labelled;
    ASSERT_TRUE(Run(direct_->Get(Within(30s), {ns_, ctrl::testing::WorkloadPodName({}, 3)}, labelled)).Ok());
    labelled.SetLabel("tier", "gold");
    ASSERT_TRUE(Run(direct_->Update(Within(30s), labelled)).Ok());

    CacheOptions options;
    options.by_object[kPod] = ByObject{.label_selector = client::MatchingLabels("tier", "gold").Selector()};
    options.reader_fail_on_missing_informer = true;
    MakeCache(std::move(options), client::CacheReadOptions{});

    api::PodList pods;
    Status missing = Run(client_->List(Within(30s), pods, client::InNamespace(ns_)));
    EXPECT_TRUE(IsNotFound(missing)) << missing;
    EXPECT_THAT(missing.Message(), ::testing::HasSubstr("reader_fail_on_missing_informer"));

    ASSERT_TRUE(Run(cache_->GetInformers(Within(30s), kPod, false)).Ok());
    ASSERT_TRUE(Run(client_->List(Within(30s), pods, client::InNamespace(ns_))).Ok());
    ASSERT_EQ(pods.Items().size(), 1u) << "the informer lists only what its selector selects";
    EXPECT_EQ(pods.Items()[0].Name(), labelled.Name());
}

TEST_F(CacheClientTest, DestroyingARunningCacheStopsItsInformersSafely) {
    CreatePods(2);
    MakeCache(CacheOptions{.reflector = {.resync_period = 50ms}}, client::CacheReadOptions{});
    api::PodList pods;
    ASSERT_TRUE(Run(client_->List(Within(30s), pods, client::InNamespace(ns_))).Ok());
    client_.reset();
    cache_.reset();  // the reflector and the resync loop are mid-run on the loop thread
    std::this_thread::sleep_for(300ms);
    api::Pod pod;
    EXPECT_TRUE(Run(direct_->Get(Within(30s), {ns_, ctrl::testing::WorkloadPodName({}, 0)}, pod)).Ok())
        << "the loop goes on";
}

TEST_F(CacheClientTest, AFieldIndexAnswersMatchingFields) {
    CreatePods(10);
    MakeCache(CacheOptions{}, client::CacheReadOptions{});
    Status indexed = Run(cache_->IndexField(Within(30s), kPod, "spec.nodeName", [](const Object& pod) {
        StatusOr<std::string> node = pod.NestedString({"spec", "nodeName"});
        return node.Ok() ? std::vector<std::string>{*node} : std::vector<std::string>{};
    }));
    ASSERT_TRUE(indexed.Ok()) << indexed;

    const std::string node = ns_ + "-node-1";
    api::PodList on_node;
    ASSERT_TRUE(Run(client_->List(Within(30s), on_node, client::MatchingFields("spec.nodeName", node))).Ok());
    api::PodList from_server;
    ASSERT_TRUE(Run(direct_->List(Within(30s), from_server, client::InNamespace(ns_),
                                  client::MatchingFields("spec.nodeName", node)))
                    .Ok());
    std::set<std::string> cached_names, server_names;
    for (const Object& pod : on_node.Items())
        cached_names.emplace(pod.Name());
    for (const Object& pod : from_server.Items())
        server_names.emplace(pod.Name());
    EXPECT_FALSE(cached_names.empty());
    EXPECT_EQ(cached_names, server_names);

    api::PodList by_name;
    ASSERT_TRUE(Run(client_->List(Within(30s), by_name, client::InNamespace(ns_),
                                  client::MatchingFields("metadata.name", ctrl::testing::WorkloadPodName({}, 2))))
                    .Ok());
    EXPECT_EQ(by_name.Items().size(), 1u);

    api::PodList unindexed;
    Status refused = Run(client_->List(Within(30s), unindexed, client::MatchingFields("spec.schedulerName", "x")));
    EXPECT_TRUE(IsBadRequest(refused)) << refused;
    EXPECT_THAT(refused.Message(), ::testing::HasSubstr("spec.schedulerName"));
}

TEST_F(CacheClientTest, ANamespaceRestrictedCacheWorksForAUserWhoMayOnlyListThere) {
    CreatePods(4);
    const std::string user = "reader-" + ns_;
    StatusOr<std::string> kubeconfig = ctrl::testing::SharedControlPlane().AddUser(user);
    ASSERT_TRUE(kubeconfig.Ok()) << kubeconfig.GetStatus();
    StatusOr<Object> role = Object::Parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role",
        "metadata":{"name":"pod-reader"},
        "rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get","list","watch"]}]})");
    ASSERT_TRUE(role.Ok());
    role->SetNamespace(ns_);
    ASSERT_TRUE(Run(direct_->Create(Within(30s), *role)).Ok());
    StatusOr<Object> binding = Object::Parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding",
        "metadata":{"name":"pod-reader"},
        "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"pod-reader"}})");
    ASSERT_TRUE(binding.Ok());
    binding->SetNamespace(ns_);
    ASSERT_TRUE(
        binding->SetNestedField({"subjects"}, Object::Parse(R"([{"kind":"User","name":")" + user + R"("}])").Value())
            .Ok());
    ASSERT_TRUE(Run(direct_->Create(Within(30s), *binding)).Ok());

    CacheOptions restricted;
    restricted.default_namespaces = {ns_};
    MakeCache(std::move(restricted), client::CacheReadOptions{}, *kubeconfig);
    api::PodList pods;
    Status listed = Run(cache_->List(Within(30s), pods, client::InNamespace(ns_)));
    ASSERT_TRUE(listed.Ok()) << listed;
    EXPECT_EQ(pods.Items().size(), 4u);
    api::PodList elsewhere;
    Status other = Run(cache_->List(Within(30s), elsewhere, client::InNamespace("default")));
    EXPECT_TRUE(IsBadRequest(other)) << other;
    EXPECT_THAT(other.Message(), ::testing::HasSubstr("not cached"));
}

TEST_F(CacheClientTest, WaitForCacheSyncNamesTheKindTheUserMayNotListAndWhy) {
    StatusOr<std::string> kubeconfig = ctrl::testing::SharedControlPlane().AddUser("nobody-" + ns_);
    ASSERT_TRUE(kubeconfig.Ok());
    MakeCache(CacheOptions{}, client::CacheReadOptions{}, *kubeconfig);
    StatusOr<std::vector<Informer*>> informers = Run(cache_->GetInformers(Within(30s), kPod, false));
    ASSERT_TRUE(informers.Ok()) << informers.GetStatus();
    const auto started = std::chrono::steady_clock::now();
    Status synced = Run(cache_->WaitForCacheSync(Within(3s)));
    const auto took = std::chrono::steady_clock::now() - started;
    ASSERT_FALSE(synced.Ok());
    std::printf("WaitForCacheSync said: %s\n", synced.ToString().c_str());
    EXPECT_TRUE(IsTimeout(synced)) << synced;
    EXPECT_THAT(synced.Message(), ::testing::HasSubstr("Kind=Pod"));
    EXPECT_THAT(synced.Message(), ::testing::HasSubstr("Forbidden"));
    EXPECT_LT(took, ctrl::testing::kTestWait) << "ended by its deadline";
}

}  // namespace
}  // namespace ctrl::cache::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::InstallControlPlaneEnvironment();
    return RUN_ALL_TESTS();
}
