// The cache's lifecycle and its informers' fault isolation against the real control plane (issue
// 11, acceptance 1 and 2): cancelling the context of Cache::Run returns it with every informer
// stopped; a handler that throws on every third event leaves the cache equal to the server, each
// throw logged and counted; handlers call back into the informer and the cache without deadlock,
// and a removed handler hears nothing more.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/cache/cache.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/log/log.hpp"
#include "test/integration/cache/reflector_test_util.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::cache::test {
namespace {

using namespace std::chrono_literals;

const GroupVersionKind kPod{"", "v1", "Pod"};
const GroupVersionKind kConfigMap{"", "v1", "ConfigMap"};
const GroupVersionKind kSecret{"", "v1", "Secret"};
const GroupVersionKind kServiceAccount{"", "v1", "ServiceAccount"};
const GroupVersionKind kService{"", "v1", "Service"};
const GroupVersionKind kNamespace{"", "v1", "Namespace"};

// The longest a step may take before it counts as hung (never an expectation of speed).
constexpr auto kHung = 60s;

Context Within(Context::Clock::duration timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

// Keeps the log lines of the "cache" logger.
class CacheLogSink final : public log::Sink {
  public:
    struct Line {
        std::string message;
        std::string error;
        std::map<std::string, std::string> fields;
    };

    void Write(const log::Record& record) override {
        if (record.logger != "cache")
            return;
        Line line{std::string(record.message), std::string(record.error), {}};
        for (const log::Field& field : record.fields)
            line.fields[field.key] = field.value;
        std::lock_guard lock(mu_);
        lines_.push_back(std::move(line));
    }
    std::vector<Line> Lines() const {
        std::lock_guard lock(mu_);
        return lines_;
    }

  private:
    mutable std::mutex mu_;
    std::vector<Line> lines_;
};

// A loop thread, an admin direct client, a namespace of its own, and a cache made on demand whose
// metrics go to registry_.
class CacheLifecycleTest : public ::testing::Test {
  protected:
    void SetUp() override {
        StatusOr<std::unique_ptr<rest::RestClient>> rest =
            rest::RestClient::New(ctrl::testing::SharedAdminConfig(), loop_.Executor(), registry_);
        ASSERT_TRUE(rest.Ok()) << rest.GetStatus();
        rest_ = std::shared_ptr<rest::RestClient>(std::move(rest).Value());
        client::Options options;
        options.registry = &registry_;
        StatusOr<std::unique_ptr<client::Client>> direct = client::NewForRestClient(rest_, std::move(options));
        ASSERT_TRUE(direct.Ok()) << direct.GetStatus();
        direct_ = std::move(direct).Value();
        ns_ = "lifecycle-" + std::to_string(++counter);
        api::Namespace ns;
        ns.SetName(ns_);
        ASSERT_TRUE(Run(direct_->Create(Within(kHung), ns)).Ok());
    }

    void TearDown() override {
        stop_.Cancel();
        EXPECT_TRUE(Eventually([this] { return !cache_ || cache_->Stopped(); }, kHung));
        log::SetSink(nullptr);
        loop_.Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    void MakeCache(CacheOptions options) {
        auto discovery = std::make_shared<discovery::DiscoveryClient>(*rest_, discovery::DiscoveryOptions{}, registry_);
        auto mapper =
            std::make_shared<discovery::LazyRESTMapper>(discovery, discovery::LazyRESTMapperOptions{}, registry_);
        options.registry = &registry_;
        cache_ = std::make_unique<Cache>(rest_, mapper, loop_.Executor(), std::move(options));
    }

    Informer* InformerOf(const GroupVersionKind& gvk, bool metadata_only = false) {
        StatusOr<std::vector<Informer*>> informers = Run(cache_->GetInformers(Within(kHung), gvk, metadata_only));
        EXPECT_TRUE(informers.Ok()) << informers.GetStatus();
        EXPECT_EQ(informers.Ok() ? informers->size() : 0u, 1u);
        return informers.Ok() && !informers->empty() ? informers->front() : nullptr;
    }

    api::ConfigMap NewConfigMap(const std::string& name) {
        api::ConfigMap cm;
        cm.SetNamespace(ns_);
        cm.SetName(name);
        cm.SetDataValue("round", "0");
        return cm;
    }

    // name -> resourceVersion of the server's ConfigMaps in ns_.
    std::map<std::string, std::string> ServerConfigMaps() {
        api::ConfigMapList list;
        client::ListOptions options;
        options.namespace_name = ns_;
        EXPECT_TRUE(Run(direct_->List(Within(kHung), list, options)).Ok());
        std::map<std::string, std::string> held;
        for (const Object& item : list.Items())
            held[std::string(item.Name())] = std::string(item.ResourceVersion());
        return held;
    }

    static std::map<std::string, std::string> Held(const Store& store, const std::string& namespace_name) {
        std::map<std::string, std::string> held;
        for (const CachedObject& object : store.List(namespace_name))
            held[std::string(object.Name())] = object.ResourceVersion();
        return held;
    }

    double CounterValue(const std::string& name, const GroupVersionKind& gvk) {
        return registry_.AddCounter(name, "", {"gvk"}).WithLabelValues({gvk.String()}).Value();
    }

    static inline std::atomic<int> counter{0};
    ctrl::testing::IoLoop loop_;
    metrics::Registry registry_;
    std::shared_ptr<rest::RestClient> rest_;
    std::unique_ptr<client::Client> direct_;
    std::unique_ptr<Cache> cache_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::string ns_;
};

TEST_F(CacheLifecycleTest, CancellingRunReturnsWithinASecondWithEveryInformerStopped) {
    MakeCache(CacheOptions{});
    std::vector<Informer*> informers;
    for (const GroupVersionKind& gvk : {kPod, kConfigMap, kSecret, kServiceAccount, kNamespace})
        informers.push_back(InformerOf(gvk));
    informers.push_back(InformerOf(kPod, /*metadata_only=*/true));

    const Context run_ctx = Context::WithCancel(Context::Background());
    auto returned = std::make_shared<std::promise<Status>>();
    std::future<Status> run = returned->get_future();
    boost::asio::co_spawn(loop_.Executor(), cache_->Run(run_ctx), [returned](std::exception_ptr error, Status status) {
        returned->set_value(error ? InternalError("Cache::Run threw") : std::move(status));
    });
    informers.push_back(InformerOf(kService));  // made while the cache runs: started at once
    ASSERT_TRUE(Run(cache_->WaitForCacheSync(Within(kHung))).Ok());
    for (Informer* informer : informers) {
        ASSERT_NE(informer, nullptr);
        EXPECT_TRUE(informer->Started()) << informer->Kind();
        EXPECT_TRUE(informer->HasSynced()) << informer->Kind();
        EXPECT_FALSE(informer->Stopped()) << informer->Kind();
    }
    EXPECT_EQ(run.wait_for(0s), std::future_status::timeout) << "Run runs until its context ends";

    const auto cancelled = std::chrono::steady_clock::now();
    run_ctx.Cancel();
    ASSERT_EQ(run.wait_for(1s), std::future_status::ready) << "Run returns within 1 s of the cancel";
    RecordProperty("run_returned_after_cancel_us", std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(
                                                                      std::chrono::steady_clock::now() - cancelled)
                                                                      .count()));
    const Status status = run.get();
    EXPECT_TRUE(status.Ok()) << status;
    for (Informer* informer : informers)
        EXPECT_TRUE(informer->Stopped()) << informer->Kind() << " returned before Run did";
    EXPECT_TRUE(cache_->Stopped());
    EXPECT_TRUE(IsAlreadyExists(Run(cache_->Run(Within(kHung))))) << "a cache runs once";
}

// What a handler saw: name -> resourceVersion as its events say, and how often it was called and threw.
struct Seen {
    std::mutex mu;
    std::map<std::string, std::string> held;
    int calls = 0;
    int throws = 0;

    // Records the event, then throws on every third call.
    void Record(const Object& object, bool deleted) {
        std::lock_guard lock(mu);
        if (deleted)
            held.erase(std::string(object.Name()));
        else
            held[std::string(object.Name())] = std::string(object.ResourceVersion());
        if (++calls % 3 == 0) {
            ++throws;
            throw std::runtime_error("handler failure " + std::to_string(throws));
        }
    }
};

TEST_F(CacheLifecycleTest, AHandlerThatThrowsOnEveryThirdEventLeavesTheCacheEqualToTheServer) {
    auto sink = std::make_shared<CacheLogSink>();
    log::SetSink(sink);
    CacheOptions options;
    options.default_namespaces = {ns_};
    MakeCache(std::move(options));
    Informer* informer = InformerOf(kConfigMap);
    ASSERT_NE(informer, nullptr);
    auto seen = std::make_shared<Seen>();
    auto handler = std::make_shared<EventHandlerFuncs>();
    handler->on_add = [seen](const std::shared_ptr<const Object>& object, bool) { seen->Record(*object, false); };
    handler->on_update = [seen](const std::shared_ptr<const Object>&, const std::shared_ptr<const Object>& object) {
        seen->Record(*object, false);
    };
    handler->on_delete = [seen](const std::shared_ptr<const Object>& object, bool) { seen->Record(*object, true); };
    informer->AddEventHandler(handler);
    cache_->Start(stop_);
    ASSERT_TRUE(Run(cache_->WaitForCacheSync(Within(kHung))).Ok());

    // 1,000 changes: 400 creates, 400 updates, 200 deletes.
    std::vector<api::ConfigMap> made;
    for (int i = 0; i < 400; ++i) {
        made.push_back(NewConfigMap("cm-" + std::to_string(i)));
        ASSERT_TRUE(Run(direct_->Create(Within(kHung), made.back())).Ok()) << i;
    }
    for (int i = 0; i < 400; ++i) {
        made[i].SetDataValue("round", "1");
        ASSERT_TRUE(Run(direct_->Update(Within(kHung), made[i])).Ok()) << i;
    }
    for (int i = 0; i < 200; ++i)
        ASSERT_TRUE(Run(direct_->Delete(Within(kHung), made[i])).Ok()) << i;

    const std::map<std::string, std::string> server = ServerConfigMaps();
    ASSERT_EQ(server.size(), 200u);
    EXPECT_TRUE(Eventually([&] { return Held(informer->GetStore(), ns_) == server; }, kHung))
        << "the cache equals the server object by object";
    EXPECT_TRUE(Eventually(
        [&] {
            std::lock_guard lock(seen->mu);
            return seen->held == server;
        },
        kHung))
        << "the handler got every change, in order, throws or not";

    std::lock_guard lock(seen->mu);
    EXPECT_GE(seen->calls, 1000);
    EXPECT_EQ(seen->throws, seen->calls / 3);
    EXPECT_EQ(CounterValue("ctrl_informer_handler_panics_total", kConfigMap), seen->throws);
    int logged = 0;
    for (const CacheLogSink::Line& line : sink->Lines()) {
        if (line.message.find("event handler threw") == std::string::npos)
            continue;
        ++logged;
        EXPECT_EQ(line.fields.at("gvk"), kConfigMap.String());
        EXPECT_THAT(line.fields.at("event"), ::testing::AnyOf("add", "update", "delete"));
        EXPECT_THAT(line.error, ::testing::HasSubstr("handler failure"));
    }
    EXPECT_EQ(logged, seen->throws);
    EXPECT_TRUE(informer->LastError().Ok()) << informer->LastError();
}

TEST_F(CacheLifecycleTest, AnObjectTheTransformRefusesIsLeftOutLoggedAndCounted) {
    auto sink = std::make_shared<CacheLogSink>();
    log::SetSink(sink);
    CacheOptions options;
    options.default_namespaces = {ns_};
    options.default_transform = [](Object& object) {
        if (object.Labels().count("refuse") > 0)
            return BadRequestError("refused by the test's transform");
        return StripManagedFields(object);
    };
    MakeCache(std::move(options));
    api::ConfigMap good = NewConfigMap("good");
    api::ConfigMap bad = NewConfigMap("bad");
    bad.SetLabel("refuse", "yes");
    ASSERT_TRUE(Run(direct_->Create(Within(kHung), good)).Ok());
    ASSERT_TRUE(Run(direct_->Create(Within(kHung), bad)).Ok());
    Informer* informer = InformerOf(kConfigMap);
    ASSERT_NE(informer, nullptr);
    auto recorder = std::make_shared<Recorder>();
    informer->AddEventHandler(recorder);
    cache_->Start(stop_);
    ASSERT_TRUE(Run(cache_->WaitForCacheSync(Within(kHung))).Ok()) << "a refused object does not fail the list";
    EXPECT_EQ(Held(informer->GetStore(), ns_),
              (std::map<std::string, std::string>{{"good", std::string(good.ResourceVersion())}}));
    EXPECT_EQ(CounterValue("ctrl_informer_transform_errors_total", kConfigMap), 1);

    // A new state the transform refuses: the old one goes, as a delete whose final state is unknown.
    good.SetLabel("refuse", "yes");
    ASSERT_TRUE(Run(direct_->Update(Within(kHung), good)).Ok());
    ASSERT_TRUE(Eventually([&] { return informer->GetStore().Size() == 0; }, kHung));
    EXPECT_TRUE(Eventually([&] { return recorder->Count() == 2; }, kHung));
    EXPECT_THAT(recorder->Events(),
                ::testing::ElementsAre(::testing::StartsWith("add " + ns_ + "/good"), ::testing::EndsWith(" unknown")));
    EXPECT_EQ(CounterValue("ctrl_informer_transform_errors_total", kConfigMap), 2);
    int logged = 0;
    for (const CacheLogSink::Line& line : sink->Lines())
        logged += line.error.find("refused by the test's transform") != std::string::npos ? 1 : 0;
    EXPECT_EQ(logged, 2);
}

// What the callback test's handlers did from inside their calls.
struct Callbacks {
    std::mutex mu;
    std::set<std::string> outer_seen;
    std::set<std::string> late_seen;
    EventHandlerRegistration late;
    std::size_t store_size_seen = 0;
    bool synced_seen = false;
    Status get_informers = InternalError("not done");
    Status cached_get = InternalError("not done");
};

TEST_F(CacheLifecycleTest, HandlersMayCallBackIntoTheInformerAndTheCacheAndARemovedHandlerHearsNothingMore) {
    CacheOptions options;
    options.default_namespaces = {ns_};
    MakeCache(std::move(options));
    Informer* informer = InformerOf(kConfigMap);
    ASSERT_NE(informer, nullptr);
    api::ConfigMap first = NewConfigMap("first");
    ASSERT_TRUE(Run(direct_->Create(Within(kHung), first)).Ok());

    auto callbacks = std::make_shared<Callbacks>();
    auto late = std::make_shared<EventHandlerFuncs>();
    late->on_add = [callbacks](const std::shared_ptr<const Object>& object, bool) {
        std::lock_guard lock(callbacks->mu);
        callbacks->late_seen.insert(std::string(object->Name()));
    };
    auto outer = std::make_shared<EventHandlerFuncs>();
    Cache* cache = cache_.get();
    const std::string ns = ns_;
    auto executor = loop_.Executor();
    outer->on_add = [callbacks, late, informer, cache, ns, executor](const std::shared_ptr<const Object>& object,
                                                                     bool) {
        {
            std::lock_guard lock(callbacks->mu);
            callbacks->outer_seen.insert(std::string(object->Name()));
        }
        if (object->Name() != "trigger")
            return;
        // From inside the call: read the store, add a handler, start reads of the cache.
        const std::size_t size = informer->GetStore().List(ns).size();
        const bool synced = informer->HasSynced();
        EventHandlerRegistration registration = informer->AddEventHandler(late);
        {
            std::lock_guard lock(callbacks->mu);
            callbacks->store_size_seen = size;
            callbacks->synced_seen = synced;
            callbacks->late = registration;
        }
        boost::asio::co_spawn(executor, cache->GetInformers(Within(kHung), kSecret, false),
                              [callbacks](std::exception_ptr, StatusOr<std::vector<Informer*>> got) {
                                  std::lock_guard lock(callbacks->mu);
                                  callbacks->get_informers = got.GetStatus();
                              });
        boost::asio::co_spawn(executor, cache->GetShared(Within(kHung), kConfigMap, ObjectKey{ns, "first"}),
                              [callbacks](std::exception_ptr, StatusOr<std::shared_ptr<const Object>> got) {
                                  std::lock_guard lock(callbacks->mu);
                                  callbacks->cached_get = got.GetStatus();
                              });
    };
    informer->AddEventHandler(outer);
    cache_->Start(stop_);
    ASSERT_TRUE(Run(cache_->WaitForCacheSync(Within(kHung))).Ok());
    api::ConfigMap trigger = NewConfigMap("trigger");
    ASSERT_TRUE(Run(direct_->Create(Within(kHung), trigger)).Ok());

    auto done = [&] {
        std::lock_guard lock(callbacks->mu);
        return callbacks->late && callbacks->late.HasSynced() && callbacks->get_informers.Ok() &&
               callbacks->cached_get.Ok();
    };
    ASSERT_TRUE(Eventually(done, kHung)) << "no deadlock: the calls made from inside the handler completed";
    EventHandlerRegistration registration;
    {
        std::lock_guard lock(callbacks->mu);
        EXPECT_EQ(callbacks->store_size_seen, 2u);
        EXPECT_TRUE(callbacks->synced_seen);
        EXPECT_EQ(callbacks->late_seen, (std::set<std::string>{"first", "trigger"})) << "the replay of the store";
        registration = callbacks->late;
    }

    ASSERT_TRUE(informer->RemoveEventHandler(registration).Ok());
    EXPECT_TRUE(IsNotFound(informer->RemoveEventHandler(registration)));
    api::ConfigMap after = NewConfigMap("after");
    ASSERT_TRUE(Run(direct_->Create(Within(kHung), after)).Ok());
    ASSERT_TRUE(Eventually(
        [&] {
            std::lock_guard lock(callbacks->mu);
            return callbacks->outer_seen.count("after") == 1;
        },
        kHung));
    std::lock_guard lock(callbacks->mu);
    EXPECT_EQ(callbacks->late_seen.count("after"), 0u) << "a removed handler hears nothing more";
}

}  // namespace
}  // namespace ctrl::cache::test
