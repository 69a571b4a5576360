// The lazy RESTMapper against an in-memory discovery server that counts requests: each
// numbered behaviour of docs/restmapper.md, with aggregated discovery served and with it
// refused (the legacy path). The same behaviours are proven against the real API server in
// test/integration/discovery.

#include "ctrl/discovery/lazy_rest_mapper.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <barrier>
#include <functional>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"
#include "test/unit/discovery/fake_discovery_server.hpp"

namespace ctrl::discovery {
namespace {

using ctrl::testing::TestContext;
using ::testing::HasSubstr;
using namespace std::chrono_literals;

const GroupVersion kCoreV1{"", "v1"};
const GroupVersion kAppsV1{"apps", "v1"};
const GroupVersion kSgpV1beta1{"vpcresources.k8s.aws", "v1beta1"};
const GroupVersion kSgpV1alpha1{"vpcresources.k8s.aws", "v1alpha1"};
const GroupKind kPod{"", "Pod"};
const GroupKind kDeployment{"apps", "Deployment"};
const GroupKind kSgp{"vpcresources.k8s.aws", "SecurityGroupPolicy"};
const GroupKind kCniNode{"vpcresources.k8s.aws", "CNINode"};

// How the mapper talks to the fake server.
enum class Mode { kAggregated, kLegacyForced, kLegacyServer };

std::string ModeName(const ::testing::TestParamInfo<Mode>& info) {
    switch (info.param) {
        case Mode::kAggregated:
            return "Aggregated";
        case Mode::kLegacyForced:
            return "LegacyForcedByClient";
        case Mode::kLegacyServer:
            return "LegacyServer";
    }
    return "?";
}

class LazyRESTMapperTest : public ::testing::TestWithParam<Mode> {
  protected:
    LazyRESTMapperTest() {
        server_.AddResource(kCoreV1, "Pod", "pods", true);
        server_.AddResource(kCoreV1, "Namespace", "namespaces", false);
        server_.AddResource(kAppsV1, "Deployment", "deployments", true);
        server_.SetAggregatedSupported(GetParam() != Mode::kLegacyServer);
        rest::Config config;
        config.host = "https://fake.invalid";
        rest_ = std::make_unique<rest::RestClient>(config, server_.MakeTransport(), nullptr, registry_);
        discovery_ = std::make_shared<DiscoveryClient>(
            *rest_, DiscoveryOptions{.aggregated = GetParam() != Mode::kLegacyForced}, registry_);
        mapper_ = std::make_unique<LazyRESTMapper>(discovery_, LazyRESTMapperOptions{}, registry_);
    }

    bool Aggregated() const { return GetParam() == Mode::kAggregated; }
    // Requests the first aggregated round costs: GET /api and GET /apis. Later rounds fetch only
    // the document that lists the group looked up: 1 request.
    static constexpr int kAggregatedRound = 2;
    static constexpr int kAggregatedRetry = 1;

    StatusOr<RESTMapping> Map(const GroupKind& kind, std::vector<std::string> versions = {}) {
        return RunSync(io_, mapper_->RESTMapping(TestContext(), kind, std::move(versions)));
    }

    void AddSgpCrd() { server_.AddResource(kSgpV1beta1, "SecurityGroupPolicy", "securitygrouppolicies", true); }

    // Looks up 16 kinds (kind_of(i), versions) from 16 threads released at once, on a loop of 2
    // threads; returns how many were found.
    int MapConcurrently(const std::function<GroupKind(int)>& kind_of, const std::vector<std::string>& versions) {
        auto guard = boost::asio::make_work_guard(io_);
        std::vector<std::thread> loop;
        for (int i = 0; i < 2; ++i)
            loop.emplace_back([this] { io_.run(); });
        std::barrier start(16);
        std::atomic<int> ok = 0;
        std::vector<std::thread> lookups;
        for (int i = 0; i < 16; ++i) {
            lookups.emplace_back([&, i] {
                start.arrive_and_wait();
                StatusOr<RESTMapping> m =
                    RunOn(io_.get_executor(), mapper_->RESTMapping(TestContext(), kind_of(i), versions));
                if (m.Ok())
                    ++ok;
            });
        }
        for (auto& t : lookups)
            t.join();
        guard.reset();
        for (auto& t : loop)
            t.join();
        return ok;
    }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    test::FakeDiscoveryServer server_;
    std::unique_ptr<rest::RestClient> rest_;
    std::shared_ptr<DiscoveryClient> discovery_;
    std::unique_ptr<LazyRESTMapper> mapper_;
};

// 1. Nothing is requested until the first lookup; known kinds cost nothing later.
TEST_P(LazyRESTMapperTest, NothingIsRequestedUntilTheFirstLookupAndHitsAreFree) {
    EXPECT_EQ(server_.Total(), 0);
    StatusOr<RESTMapping> pod = Map(kPod, {"v1"});
    ASSERT_TRUE(pod.Ok()) << pod.GetStatus();
    EXPECT_EQ(pod->resource, (GroupVersionResource{"", "v1", "pods"}));
    EXPECT_TRUE(pod->Namespaced());
    const int first = server_.Total();
    switch (GetParam()) {
        case Mode::kAggregated:
            EXPECT_EQ(first, kAggregatedRound);
            break;
        case Mode::kLegacyForced:
            EXPECT_EQ(first, 1) << "GET /api/v1 only";
            break;
        case Mode::kLegacyServer:
            EXPECT_EQ(first, 3) << "/api and /apis (answered legacy), then /api/v1";
            break;
    }
    for (int i = 0; i < 100; ++i)
        ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    ASSERT_TRUE(Map(kPod).Ok());
    // A versionless lookup needs the group's version list once; the root round of a legacy server
    // already brought it.
    EXPECT_EQ(server_.Total(), first + (GetParam() == Mode::kLegacyForced ? 1 : 0));
    EXPECT_EQ(server_.Count("/api/v1"), Aggregated() ? 0 : 1);
}

// 2. Aggregated: any number of kinds cost one round. Legacy: one request per group version.
TEST_P(LazyRESTMapperTest, RequestsPerKindsResolved) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    ASSERT_TRUE(Map(kDeployment, {"v1"}).Ok());
    ASSERT_TRUE(Map({"", "Namespace"}, {"v1"}).Ok());
    if (Aggregated()) {
        EXPECT_EQ(server_.Total(), kAggregatedRound);
    } else {
        EXPECT_EQ(server_.Count("/api/v1"), 1);
        EXPECT_EQ(server_.Count("/apis/apps/v1"), 1);
    }
}

// Lookups without a version in N groups share the group list of an earlier round: N requests
// (one per group version) after it, not 2N.
TEST_P(LazyRESTMapperTest, VersionlessLookupsInManyGroupsShareOneGroupList) {
    constexpr int kGroups = 5;
    for (int i = 1; i <= kGroups; ++i)
        server_.AddResource({"g" + std::to_string(i) + ".example.com", "v1"}, "Thing", "things", true);
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    server_.ResetCounts();
    for (int i = 1; i <= kGroups; ++i) {
        StatusOr<RESTMapping> thing = Map({"g" + std::to_string(i) + ".example.com", "Thing"});
        ASSERT_TRUE(thing.Ok()) << thing.GetStatus();
        EXPECT_EQ(thing->resource.version, "v1");
    }
    switch (GetParam()) {
        case Mode::kAggregated:
            EXPECT_EQ(server_.Total(), 0) << "the first round loaded every group";
            break;
        case Mode::kLegacyForced:
            EXPECT_EQ(server_.Total(), 1 + kGroups) << "GET /apis once, then each group's version";
            EXPECT_EQ(server_.Count("/apis"), 1);
            break;
        case Mode::kLegacyServer:
            EXPECT_EQ(server_.Total(), kGroups) << "the first round's /apis listed every group";
            break;
    }
    // A kind no listed version serves makes the list be fetched again (it may name a new version).
    server_.ResetCounts();
    EXPECT_TRUE(IsNoMatch(Map({"g1.example.com", "Other"}).GetStatus()));
    if (!Aggregated()) {
        EXPECT_EQ(server_.Count("/apis"), 1);
        EXPECT_EQ(server_.Count("/apis/g1.example.com/v1"), 1) << "fetched again once, not twice";
    }
}

// 3. A kind that does not exist is NoMatch; discovery failures are Unavailable, never NoMatch.
TEST_P(LazyRESTMapperTest, MissingKindIsNoMatch) {
    StatusOr<RESTMapping> missing = Map(kSgp, {"v1beta1"});
    ASSERT_FALSE(missing.Ok());
    EXPECT_TRUE(IsNoMatch(missing.GetStatus())) << missing.GetStatus();
    EXPECT_EQ(missing.GetStatus().Message(),
              "no matches for kind \"SecurityGroupPolicy\" in version \"vpcresources.k8s.aws/v1beta1\"");
    StatusOr<RESTMapping> versionless = Map(kSgp);
    EXPECT_TRUE(IsNoMatch(versionless.GetStatus())) << versionless.GetStatus();
}

TEST_P(LazyRESTMapperTest, ServerErrorsAreUnavailableNeverNoMatch) {
    AddSgpCrd();
    const std::string path = Aggregated() ? "/apis" : "/apis/vpcresources.k8s.aws/v1beta1";
    server_.FailNext(path, 503);
    StatusOr<RESTMapping> failed = Map(kSgp, {"v1beta1"});
    ASSERT_FALSE(failed.Ok());
    EXPECT_TRUE(IsUnavailable(failed.GetStatus())) << failed.GetStatus();
    EXPECT_FALSE(IsNoMatch(failed.GetStatus()));

    server_.DropNext(path);
    StatusOr<RESTMapping> dropped = Map(kSgp, {"v1beta1"});
    ASSERT_FALSE(dropped.Ok());
    EXPECT_TRUE(IsUnavailable(dropped.GetStatus())) << dropped.GetStatus();

    server_.FailNext(path, 500);
    StatusOr<RESTMapping> internal = Map(kSgp, {"v1beta1"});
    EXPECT_TRUE(IsInternal(internal.GetStatus())) << internal.GetStatus();

    StatusOr<RESTMapping> recovered = Map(kSgp, {"v1beta1"});
    EXPECT_TRUE(recovered.Ok()) << recovered.GetStatus();
}

// 4. A kind that appears after start is found on the first lookup after it appears.
TEST_P(LazyRESTMapperTest, CrdCreatedAfterStartIsFoundOnTheNextLookup) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    EXPECT_TRUE(IsNoMatch(Map(kSgp, {"v1beta1"}).GetStatus()));
    EXPECT_TRUE(IsNoMatch(Map(kSgp).GetStatus()));
    AddSgpCrd();
    StatusOr<RESTMapping> found = Map(kSgp);
    ASSERT_TRUE(found.Ok()) << found.GetStatus();
    EXPECT_EQ(found->resource, (GroupVersionResource{"vpcresources.k8s.aws", "v1beta1", "securitygrouppolicies"}));
    EXPECT_TRUE(found->Namespaced());
}

TEST_P(LazyRESTMapperTest, NewVersionOfACachedGroupIsFoundWithAndWithoutAVersion) {
    AddSgpCrd();
    ASSERT_TRUE(Map(kSgp).Ok());
    server_.AddResource(kSgpV1alpha1, "CNINode", "cninodes", false);
    server_.ResetCounts();
    StatusOr<RESTMapping> versionless = Map(kCniNode);
    ASSERT_TRUE(versionless.Ok()) << versionless.GetStatus();
    EXPECT_EQ(versionless->resource.version, "v1alpha1");
    EXPECT_FALSE(versionless->Namespaced());
    if (Aggregated()) {
        EXPECT_EQ(server_.Total(), kAggregatedRetry);
        EXPECT_EQ(server_.Count("/apis"), 1);
    } else {
        EXPECT_EQ(server_.Total(), 2) << "GET /apis, then GET /apis/vpcresources.k8s.aws/v1alpha1";
    }
    StatusOr<RESTMapping> versioned = Map(kCniNode, {"v1alpha1"});
    EXPECT_TRUE(versioned.Ok()) << versioned.GetStatus();
}

TEST_P(LazyRESTMapperTest, NewKindInACachedGroupVersionIsFound) {
    AddSgpCrd();
    ASSERT_TRUE(Map(kSgp, {"v1beta1"}).Ok());
    server_.AddResource(kSgpV1beta1, "SecurityGroupPolicyReport", "securitygrouppolicyreports", true);
    EXPECT_TRUE(Map({kSgp.group, "SecurityGroupPolicyReport"}, {"v1beta1"}).Ok());
    server_.AddResource(kSgpV1beta1, "Another", "anothers", true);
    EXPECT_TRUE(Map({kSgp.group, "Another"}).Ok());
}

// 5. A version no longer served, or a deleted CRD, is dropped; re-creating it restores it.
TEST_P(LazyRESTMapperTest, RemovedVersionIsDroppedAndRestored) {
    AddSgpCrd();
    server_.AddResource(kSgpV1alpha1, "CNINode", "cninodes", false);
    ASSERT_TRUE(Map(kCniNode, {"v1alpha1"}).Ok());
    ASSERT_TRUE(Map(kSgp, {"v1beta1"}).Ok());

    server_.RemoveVersion(kSgpV1alpha1);
    // The client saw a 404 for a cninodes path and tells the mapper (as runtime/client does).
    mapper_->Invalidate(kSgpV1alpha1);
    StatusOr<RESTMapping> gone = Map(kCniNode, {"v1alpha1"});
    EXPECT_TRUE(IsNoMatch(gone.GetStatus())) << gone.GetStatus();
    EXPECT_TRUE(IsNoMatch(Map(kCniNode).GetStatus()));
    EXPECT_TRUE(Map(kSgp, {"v1beta1"}).Ok()) << "the other version of the group stays";

    server_.AddResource(kSgpV1alpha1, "CNINode", "cninodes", false);
    EXPECT_TRUE(Map(kCniNode).Ok());
}

TEST_P(LazyRESTMapperTest, AnyRoundThatSeesAVersionGoneDropsIt) {
    AddSgpCrd();
    server_.AddResource(kSgpV1alpha1, "CNINode", "cninodes", false);
    ASSERT_TRUE(Map(kCniNode).Ok());
    server_.RemoveVersion(kSgpV1alpha1);
    // A miss in the same group makes a round; it finds v1alpha1 gone and drops it.
    EXPECT_TRUE(IsNoMatch(Map({kSgp.group, "Unknown"}).GetStatus()));
    EXPECT_EQ(mapper_->CachedMapping({kSgp.group, "v1alpha1", "CNINode"}), std::nullopt);
    EXPECT_TRUE(IsNoMatch(Map(kCniNode).GetStatus()));
}

// 6. A lookup without a version returns the server's preferred version.
TEST_P(LazyRESTMapperTest, VersionlessLookupReturnsThePreferredVersion) {
    server_.AddResource(kSgpV1alpha1, "SecurityGroupPolicy", "securitygrouppolicies", true);
    AddSgpCrd();
    server_.SetPreferred(kSgp.group, "v1beta1");
    StatusOr<RESTMapping> preferred = Map(kSgp);
    ASSERT_TRUE(preferred.Ok()) << preferred.GetStatus();
    EXPECT_EQ(preferred->resource.version, "v1beta1");
    StatusOr<std::vector<RESTMapping>> all = RunSync(io_, mapper_->RESTMappings(TestContext(), kSgp, {}));
    ASSERT_TRUE(all.Ok()) << all.GetStatus();
    ASSERT_EQ(all->size(), 2u);
    EXPECT_EQ((*all)[0].resource.version, "v1beta1");
    EXPECT_EQ((*all)[1].resource.version, "v1alpha1");
}

// 7. Concurrent first lookups share one round.
TEST_P(LazyRESTMapperTest, SixteenConcurrentFirstLookupsCostOneRound) {
    AddSgpCrd();
    server_.SetLatency(50ms);
    EXPECT_EQ(MapConcurrently([](int) { return kSgp; }, {"v1beta1"}), 16);
    switch (GetParam()) {
        case Mode::kAggregated:
            EXPECT_EQ(server_.Total(), kAggregatedRound);
            break;
        case Mode::kLegacyForced:
            EXPECT_EQ(server_.Total(), 1);
            break;
        case Mode::kLegacyServer:
            EXPECT_EQ(server_.Total(), 3);
            break;
    }
}

// 8. Misses of a kind that does not exist are bounded.
TEST_P(LazyRESTMapperTest, RepeatedMissesAreRateLimited) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    server_.ResetCounts();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; ++i)
        ASSERT_TRUE(IsNoMatch(Map({"nope.example.com", "Nope"}, {"v1"}).GetStatus()));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int per_round = Aggregated() ? kAggregatedRetry : 1;
    const int bound = (LazyRESTMapperOptions{}.rediscovery_burst + 1 + static_cast<int>(seconds)) * per_round;
    EXPECT_LE(server_.Total(), bound) << "200 misses in " << seconds << " s";
    EXPECT_GE(server_.Total(), per_round) << "a miss after a hit must look once";
}

// 9. Every discovery request and lookup is counted.
TEST_P(LazyRESTMapperTest, RequestsAndLookupsAreCounted) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    ASSERT_TRUE(IsNoMatch(Map(kSgp, {"v1beta1"}).GetStatus()));
    const std::string text = registry_.SerializeText();
    EXPECT_THAT(text, HasSubstr("ctrl_restmapper_lookups_total{result=\"hit\"} 1"));
    EXPECT_THAT(text, HasSubstr("ctrl_restmapper_lookups_total{result=\"miss_resolved\"} 1"));
    EXPECT_THAT(text, HasSubstr("ctrl_restmapper_lookups_total{result=\"no_match\"} 1"));
    if (GetParam() == Mode::kLegacyForced) {
        EXPECT_THAT(text, HasSubstr("ctrl_discovery_requests_total{path_kind=\"group_version\",result=\"success\"} 1"));
        EXPECT_THAT(text,
                    HasSubstr("ctrl_discovery_requests_total{path_kind=\"group_version\",result=\"not_found\"} 1"));
    }
    if (Aggregated()) {
        // The first round (GET /api, GET /apis), then GET /apis for the miss.
        EXPECT_THAT(text, HasSubstr("ctrl_discovery_requests_total{path_kind=\"aggregated\",result=\"success\"} 3"));
    }
}

TEST_P(LazyRESTMapperTest, ResourcesMapToKindsByPluralOrSingular) {
    StatusOr<GroupVersionKind> kind = RunSync(io_, mapper_->KindFor(TestContext(), {"apps", "", "deployments"}));
    ASSERT_TRUE(kind.Ok()) << kind.GetStatus();
    EXPECT_EQ(*kind, (GroupVersionKind{"apps", "v1", "Deployment"}));
    StatusOr<GroupVersionResource> resource = RunSync(io_, mapper_->ResourceFor(TestContext(), {"", "v1", "Pod"}));
    ASSERT_TRUE(resource.Ok()) << resource.GetStatus();
    EXPECT_EQ(*resource, (GroupVersionResource{"", "v1", "pods"}));
    StatusOr<std::string> singular = RunSync(io_, mapper_->ResourceSingularizer(TestContext(), "pods"));
    ASSERT_TRUE(singular.Ok()) << singular.GetStatus();
    EXPECT_EQ(*singular, "pod");
    StatusOr<GroupVersionKind> none = RunSync(io_, mapper_->KindFor(TestContext(), {"apps", "v1", "nopes"}));
    EXPECT_TRUE(IsNoMatch(none.GetStatus()));
}

INSTANTIATE_TEST_SUITE_P(Modes, LazyRESTMapperTest,
                         ::testing::Values(Mode::kAggregated, Mode::kLegacyForced, Mode::kLegacyServer), ModeName);

// With aggregated discovery known to be served, a round fetches only the document of its group.
class LazyRESTMapperAggregatedTest : public LazyRESTMapperTest {};

TEST_P(LazyRESTMapperAggregatedTest, AfterTheFirstRoundAMissFetchesOnlyTheDocumentOfItsGroup) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    EXPECT_EQ(server_.Total(), kAggregatedRound) << "the first round fetches both documents";
    server_.ResetCounts();

    // A CRD kind the server does not serve yet: each retry is one GET /apis.
    EXPECT_TRUE(IsNoMatch(Map(kSgp, {"v1beta1"}).GetStatus()));
    EXPECT_TRUE(IsNoMatch(Map(kSgp).GetStatus()));
    EXPECT_EQ(server_.Count("/apis"), 2);
    EXPECT_EQ(server_.Total(), 2);

    // The CRD appears: the GET /apis round finds it.
    AddSgpCrd();
    StatusOr<RESTMapping> sgp = Map(kSgp, {"v1beta1"});
    ASSERT_TRUE(sgp.Ok()) << sgp.GetStatus();
    EXPECT_EQ(sgp->resource, (GroupVersionResource{"vpcresources.k8s.aws", "v1beta1", "securitygrouppolicies"}));
    EXPECT_EQ(server_.Count("/apis"), 3);
    EXPECT_EQ(server_.Total(), 3);

    // The core group (and the named groups) still resolve from the cache, without a request.
    EXPECT_TRUE(Map(kPod, {"v1"}).Ok());
    EXPECT_TRUE(Map(kPod).Ok());
    EXPECT_TRUE(Map({"", "Namespace"}).Ok());
    EXPECT_TRUE(Map(kDeployment).Ok());
    EXPECT_TRUE(mapper_->CachedMapping({"", "v1", "Pod"}).has_value());
    EXPECT_EQ(server_.Total(), 3);

    // A core miss is one GET /api; the named groups stay.
    EXPECT_TRUE(IsNoMatch(Map({"", "Nope"}, {"v1"}).GetStatus()));
    EXPECT_EQ(server_.Count("/api"), 1);
    EXPECT_EQ(server_.Total(), 4);
    EXPECT_TRUE(Map(kSgp).Ok());
    EXPECT_TRUE(Map(kDeployment, {"v1"}).Ok());
    EXPECT_EQ(server_.Total(), 4);

    // A core kind added later is found by a GET /api round.
    server_.AddResource(kCoreV1, "ConfigMap", "configmaps", true);
    EXPECT_TRUE(Map({"", "ConfigMap"}).Ok());
    EXPECT_EQ(server_.Count("/api"), 2);
    EXPECT_EQ(server_.Count("/apis"), 3);
    EXPECT_EQ(server_.Total(), 5);
}

TEST_P(LazyRESTMapperAggregatedTest, AGroupGoneFromTheNamedDocumentIsDroppedAndTheCoreGroupKept) {
    AddSgpCrd();
    server_.AddResource(kSgpV1alpha1, "CNINode", "cninodes", false);
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    ASSERT_TRUE(Map(kCniNode).Ok());
    server_.RemoveVersion(kSgpV1alpha1);
    server_.ResetCounts();
    EXPECT_TRUE(IsNoMatch(Map({kSgp.group, "Unknown"}).GetStatus()));
    EXPECT_EQ(server_.Total(), 1) << "GET /apis only";
    EXPECT_EQ(mapper_->CachedMapping({kSgp.group, "v1alpha1", "CNINode"}), std::nullopt);
    EXPECT_TRUE(mapper_->CachedMapping({kSgp.group, "v1beta1", "SecurityGroupPolicy"}).has_value());
    EXPECT_TRUE(mapper_->CachedMapping({"", "v1", "Pod"}).has_value());
    EXPECT_TRUE(mapper_->CachedMapping({"apps", "v1", "Deployment"}).has_value());
}

TEST_P(LazyRESTMapperAggregatedTest, AFailedNamedRoundLeavesTheCacheUntouched) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    AddSgpCrd();
    server_.ResetCounts();
    server_.FailNext("/apis", 503);
    StatusOr<RESTMapping> failed = Map(kSgp, {"v1beta1"});
    EXPECT_TRUE(IsUnavailable(failed.GetStatus())) << failed.GetStatus();
    EXPECT_EQ(server_.Total(), 1);
    EXPECT_TRUE(mapper_->CachedMapping({"", "v1", "Pod"}).has_value());
    EXPECT_TRUE(mapper_->CachedMapping({"apps", "v1", "Deployment"}).has_value());
    server_.FailNext("/api", 503);
    EXPECT_TRUE(IsUnavailable(Map({"", "Nope"}, {"v1"}).GetStatus()));
    EXPECT_TRUE(mapper_->CachedMapping({"apps", "v1", "Deployment"}).has_value());
    EXPECT_TRUE(Map(kSgp, {"v1beta1"}).Ok());
}

// A server that stops answering in the aggregated form: the named round falls back to the
// legacy documents, and the core group stays known.
TEST_P(LazyRESTMapperAggregatedTest, ANamedRoundAnsweredLegacyFallsBackToTheLegacyPath) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    AddSgpCrd();
    server_.SetAggregatedSupported(false);
    server_.ResetCounts();
    StatusOr<RESTMapping> sgp = Map(kSgp);
    ASSERT_TRUE(sgp.Ok()) << sgp.GetStatus();
    EXPECT_EQ(server_.Count("/apis"), 1);
    EXPECT_EQ(server_.Count("/apis/vpcresources.k8s.aws/v1beta1"), 1);
    EXPECT_EQ(server_.Total(), 2);
    EXPECT_TRUE(Map(kPod, {"v1"}).Ok());
    EXPECT_EQ(server_.Total(), 2);
}

// Misses of different CRD groups need the same document: concurrent ones share one GET /apis.
TEST_P(LazyRESTMapperAggregatedTest, ConcurrentMissesOfDifferentNamedGroupsShareOneRequest) {
    ASSERT_TRUE(Map(kPod, {"v1"}).Ok());
    AddSgpCrd();
    const GroupVersion widgets{"widgets.example.com", "v1"};
    server_.AddResource(widgets, "Widget", "widgets", true);
    server_.ResetCounts();
    server_.SetLatency(50ms);
    const GroupKind widget{widgets.group, "Widget"};
    EXPECT_EQ(MapConcurrently([&](int i) { return i % 2 == 0 ? kSgp : widget; }, {}), 16);
    EXPECT_EQ(server_.Count("/apis"), 1);
    EXPECT_EQ(server_.Total(), 1);
}

INSTANTIATE_TEST_SUITE_P(Aggregated, LazyRESTMapperAggregatedTest, ::testing::Values(Mode::kAggregated), ModeName);

// A stale version in the aggregated document is not trusted: it is fetched directly.
TEST(LazyRESTMapperStaleTest, StaleAggregatedVersionIsFetchedDirectly) {
    boost::asio::io_context io;
    metrics::Registry registry;
    test::FakeDiscoveryServer server;
    server.AddResource(kSgpV1beta1, "SecurityGroupPolicy", "securitygrouppolicies", true);
    server.MarkStale(kSgpV1beta1, true);
    rest::Config config;
    config.host = "https://fake.invalid";
    rest::RestClient rest(config, server.MakeTransport(), nullptr, registry);
    auto discovery = std::make_shared<DiscoveryClient>(rest, DiscoveryOptions{}, registry);
    LazyRESTMapper mapper(discovery, {}, registry);
    StatusOr<RESTMapping> sgp = RunSync(io, mapper.RESTMapping(TestContext(), kSgp, {}));
    ASSERT_TRUE(sgp.Ok()) << sgp.GetStatus();
    EXPECT_EQ(server.Count("/apis/vpcresources.k8s.aws/v1beta1"), 1);
}

}  // namespace
}  // namespace ctrl::discovery
