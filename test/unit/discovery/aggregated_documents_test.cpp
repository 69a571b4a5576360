// Aggregated discovery (apidiscovery.k8s.io v2 / v2beta1 APIGroupDiscoveryList), from hand-written
// documents of the real shapes: groups and versions in the server's order, freshness, resources,
// subresources, and the malformed cases.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "ctrl/discovery/internal/discovery_documents.hpp"
#include "test/unit/discovery/discovery_test_util.hpp"

namespace ctrl::discovery::test {
namespace {

using internal::ParseRootDocument;
using internal::RootDocument;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kAggregatedV2[] = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

RootDocument MustParseApis(std::string_view body) {
    StatusOr<RootDocument> parsed = ParseRootDocument(body, kAggregatedV2, /*core=*/false, "GET /apis");
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus();
    return parsed.Ok() ? std::move(parsed).Value() : RootDocument{};
}

const GroupVersionResources* FindVersion(const RootDocument& doc, const GroupVersion& gv) {
    for (const GroupVersionResources& version : doc.versions) {
        if (version.group_version == gv)
            return &version;
    }
    return nullptr;
}

TEST(AggregatedDocumentsTest, GroupsAndVersionsInTheServersOrder) {
    RootDocument doc = MustParseApis(ReadTestdata("apis_aggregated.json"));
    EXPECT_TRUE(doc.aggregated);
    ASSERT_EQ(doc.groups.size(), 5u);
    EXPECT_EQ(doc.groups[0], (APIGroup{"apps", {"v1"}}));
    EXPECT_EQ(doc.groups[1], (APIGroup{"autoscaling", {"v2", "v1"}}));
    EXPECT_EQ(doc.groups[2], (APIGroup{"vpcresources.k8s.aws", {"v1beta1", "v1alpha1"}}));
    EXPECT_EQ(doc.groups[3], (APIGroup{"metrics.k8s.io", {"v1beta1"}}));
    EXPECT_EQ(doc.groups[4], (APIGroup{"widgets.example.com", {"v1"}}));
    EXPECT_EQ(doc.groups[2].PreferredVersion(), "v1beta1");

    std::vector<GroupVersion> versions;
    for (const GroupVersionResources& version : doc.versions)
        versions.push_back(version.group_version);
    EXPECT_THAT(
        versions,
        ElementsAre(GroupVersion{"apps", "v1"}, GroupVersion{"autoscaling", "v2"}, GroupVersion{"autoscaling", "v1"},
                    GroupVersion{"vpcresources.k8s.aws", "v1beta1"}, GroupVersion{"vpcresources.k8s.aws", "v1alpha1"},
                    GroupVersion{"metrics.k8s.io", "v1beta1"}, GroupVersion{"widgets.example.com", "v1"}));
}

TEST(AggregatedDocumentsTest, Freshness) {
    RootDocument doc = MustParseApis(ReadTestdata("apis_aggregated.json"));
    ASSERT_NE(FindVersion(doc, {"apps", "v1"}), nullptr);
    EXPECT_EQ(FindVersion(doc, {"apps", "v1"})->freshness, Freshness::kCurrent);
    // Absent is Current.
    ASSERT_NE(FindVersion(doc, {"vpcresources.k8s.aws", "v1alpha1"}), nullptr);
    EXPECT_EQ(FindVersion(doc, {"vpcresources.k8s.aws", "v1alpha1"})->freshness, Freshness::kCurrent);
    // An aggregated API server that could not be reached: no resources, not to be trusted.
    const GroupVersionResources* metrics = FindVersion(doc, {"metrics.k8s.io", "v1beta1"});
    ASSERT_NE(metrics, nullptr);
    EXPECT_EQ(metrics->freshness, Freshness::kStale);
    EXPECT_TRUE(metrics->resources.empty());
}

TEST(AggregatedDocumentsTest, ResourcesAndSubresources) {
    RootDocument doc = MustParseApis(ReadTestdata("apis_aggregated.json"));
    const GroupVersionResources* apps = FindVersion(doc, {"apps", "v1"});
    ASSERT_NE(apps, nullptr);
    EXPECT_THAT(ResourceNames(*apps),
                ElementsAre("deployments", "deployments/scale", "deployments/status", "replicasets"));
    EXPECT_EQ(apps->resources[0],
              (APIResource{.name = "deployments",
                           .singular_name = "deployment",
                           .namespaced = true,
                           .kind = "Deployment",
                           .group = "",
                           .version = "",
                           .verbs = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
                           .short_names = {"deploy"},
                           .categories = {"all"}}));
    // A subresource: the parent's scope, its own kind, group version and verbs, no names of its own.
    EXPECT_EQ(apps->resources[1], (APIResource{.name = "deployments/scale",
                                               .singular_name = "",
                                               .namespaced = true,
                                               .kind = "Scale",
                                               .group = "autoscaling",
                                               .version = "v1",
                                               .verbs = {"get", "patch", "update"},
                                               .short_names = {},
                                               .categories = {}}));
    EXPECT_EQ(apps->resources[2], (APIResource{.name = "deployments/status",
                                               .singular_name = "",
                                               .namespaced = true,
                                               .kind = "Deployment",
                                               .group = "",
                                               .version = "",
                                               .verbs = {"get", "patch", "update"},
                                               .short_names = {},
                                               .categories = {}}));
}

TEST(AggregatedDocumentsTest, TwoVersionsOfOneGroupHoldDifferentKinds) {
    RootDocument doc = MustParseApis(ReadTestdata("apis_aggregated.json"));
    const GroupVersionResources* v1beta1 = FindVersion(doc, {"vpcresources.k8s.aws", "v1beta1"});
    const GroupVersionResources* v1alpha1 = FindVersion(doc, {"vpcresources.k8s.aws", "v1alpha1"});
    ASSERT_NE(v1beta1, nullptr);
    ASSERT_NE(v1alpha1, nullptr);
    ASSERT_EQ(v1beta1->resources.size(), 1u);
    ASSERT_EQ(v1alpha1->resources.size(), 1u);
    const APIResource& sgp = v1beta1->resources[0];
    EXPECT_EQ(sgp.name, "securitygrouppolicies");
    EXPECT_EQ(sgp.kind, "SecurityGroupPolicy");
    EXPECT_TRUE(sgp.namespaced);
    EXPECT_THAT(sgp.short_names, ElementsAre("sgp"));
    // responseKind names the group version itself: not repeated.
    EXPECT_EQ(sgp.group, "");
    EXPECT_EQ(sgp.version, "");
    const APIResource& cni = v1alpha1->resources[0];
    EXPECT_EQ(cni.kind, "CNINode");
    EXPECT_FALSE(cni.namespaced);
    EXPECT_EQ(cni.singular_name, "cninode");
    EXPECT_THAT(cni.short_names, ElementsAre("cnd"));
}

TEST(AggregatedDocumentsTest, ResourceWithSubresourcesOnly) {
    // An aggregated API server may report subresources of a resource it serves no kind for; a
    // subresource without a responseKind maps to no kind.
    RootDocument doc = MustParseApis(ReadTestdata("apis_aggregated.json"));
    const GroupVersionResources* widgets = FindVersion(doc, {"widgets.example.com", "v1"});
    ASSERT_NE(widgets, nullptr);
    ASSERT_THAT(ResourceNames(*widgets), ElementsAre("gadgets/status"));
    EXPECT_EQ(widgets->resources[0], (APIResource{.name = "gadgets/status",
                                                  .singular_name = "",
                                                  .namespaced = true,
                                                  .kind = "Gadget",
                                                  .group = "",
                                                  .version = "",
                                                  .verbs = {"get", "patch"},
                                                  .short_names = {},
                                                  .categories = {}}));
}

TEST(AggregatedDocumentsTest, CoreGroupFromApi) {
    StatusOr<RootDocument> parsed =
        ParseRootDocument(ReadTestdata("api_aggregated.json"), kAggregatedV2, /*core=*/true, "GET /api");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_TRUE(parsed->aggregated);
    ASSERT_EQ(parsed->groups.size(), 1u);
    EXPECT_EQ(parsed->groups[0], (APIGroup{"", {"v1"}}));
    ASSERT_EQ(parsed->versions.size(), 1u);
    const GroupVersionResources& v1 = parsed->versions[0];
    EXPECT_EQ(v1.group_version, (GroupVersion{"", "v1"}));
    EXPECT_EQ(v1.freshness, Freshness::kCurrent);
    EXPECT_THAT(ResourceNames(v1),
                ElementsAre("namespaces", "namespaces/finalize", "namespaces/status", "pods", "pods/eviction",
                            "pods/log", "pods/status", "serviceaccounts", "serviceaccounts/token"));
    const APIResource* pods = FindResource(v1, "pods");
    ASSERT_NE(pods, nullptr);
    EXPECT_EQ(*pods, ServedPods());
    EXPECT_FALSE(FindResource(v1, "namespaces")->namespaced);
    EXPECT_FALSE(FindResource(v1, "namespaces/status")->namespaced);
    const APIResource* eviction = FindResource(v1, "pods/eviction");
    EXPECT_EQ(eviction->group, "policy");
    EXPECT_EQ(eviction->version, "v1");
    EXPECT_EQ(eviction->kind, "Eviction");
    EXPECT_EQ(FindResource(v1, "serviceaccounts/token")->group, "authentication.k8s.io");
}

TEST(AggregatedDocumentsTest, MatchesTheLegacyFormOfTheSameResources) {
    StatusOr<RootDocument> aggregated =
        ParseRootDocument(ReadTestdata("api_aggregated.json"), kAggregatedV2, /*core=*/true, "GET /api");
    StatusOr<GroupVersionResources> legacy =
        internal::ParseGroupVersionDocument(ReadTestdata("core_v1_resource_list.json"), {"", "v1"}, "GET /api/v1");
    ASSERT_TRUE(aggregated.Ok()) << aggregated.GetStatus();
    ASSERT_TRUE(legacy.Ok()) << legacy.GetStatus();
    for (const APIResource& resource : aggregated->versions[0].resources) {
        const APIResource* same = FindResource(*legacy, resource.name);
        ASSERT_NE(same, nullptr) << resource.name;
        EXPECT_EQ(resource, *same) << resource.name;
    }
}

TEST(AggregatedDocumentsTest, EmptyAndNullLists) {
    EXPECT_TRUE(MustParseApis(R"({"kind":"APIGroupDiscoveryList","items":[]})").groups.empty());
    EXPECT_TRUE(MustParseApis(R"({"kind":"APIGroupDiscoveryList","items":null})").groups.empty());
    RootDocument doc =
        MustParseApis(R"({"items":[{"metadata":{"name":"x.io"},"versions":[{"version":"v1","resources":null}]}]})");
    ASSERT_EQ(doc.versions.size(), 1u);
    EXPECT_TRUE(doc.versions[0].resources.empty());
}

TEST(AggregatedDocumentsTest, UnknownFreshnessIsNotTrusted) {
    RootDocument doc = MustParseApis(
        R"({"items":[{"metadata":{"name":"x.io"},"versions":[{"version":"v1","freshness":"Unknown"}]}]})");
    ASSERT_EQ(doc.versions.size(), 1u);
    EXPECT_EQ(doc.versions[0].freshness, Freshness::kStale);
}

// One aggregated resource with the given JSON members, wrapped in a /apis document.
std::string WithResource(const std::string& members) {
    return R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"apps"},"versions":[{"version":"v1",)"
           R"("resources":[)" +
           members + "]}]}]}";
}

TEST(AggregatedDocumentsTest, MalformedDocumentsAreBadRequestNamingTheField) {
    const std::string deployment = R"({"resource":"deployments","scope":"Namespaced",)"
                                   R"("responseKind":{"group":"","version":"","kind":"Deployment"})";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"items":[)", "invalid JSON at byte offset"},
        {R"({"kind":"APIGroupDiscoveryList"})", "items: required field is missing"},
        {R"({"items":{}})", "items: is an object, not an array"},
        {R"({"items":[7]})", "items[0]: is an integer, not an object"},
        {R"({"items":[{"metadata":{"name":"apps"},"versions":{}}]})",
         "items[0](\"apps\").versions: is an object, not an array"},
        {R"({"items":[{"metadata":{"name":"apps"},"versions":[{"resources":[]}]}]})",
         "items[0](\"apps\").versions[0].version: required field is missing"},
        {R"({"items":[{"metadata":{"name":"apps"},"versions":[{"version":"v1","freshness":false}]}]})",
         "items[0](\"apps\").versions[0](\"v1\").freshness: is a boolean, not a string"},
        {WithResource(R"({"scope":"Namespaced"})"),
         "items[0](\"apps\").versions[0](\"v1\").resources[0].resource: required field is missing"},
        {WithResource(R"({"resource":"deployments","responseKind":{"kind":"Deployment"}})"),
         "resources[0](\"deployments\").scope: required field is missing"},
        {WithResource(R"({"resource":"deployments","scope":"Global","responseKind":{"kind":"Deployment"}})"),
         "resources[0](\"deployments\").scope: \"Global\" is neither Namespaced nor Cluster"},
        {WithResource(R"({"resource":"deployments","scope":"Namespaced"})"),
         "resources[0](\"deployments\").responseKind.kind: required field is missing"},
        {WithResource(R"({"resource":"deployments","scope":"Namespaced","responseKind":{"group":"apps"}})"),
         "resources[0](\"deployments\").responseKind.kind: required field is missing"},
        {WithResource(R"({"resource":"deployments","scope":"Namespaced","responseKind":"Deployment"})"),
         "resources[0](\"deployments\").responseKind: is a string, not an object"},
        {WithResource(R"({"resource":"deployments","scope":"Namespaced","responseKind":{"kind":7}})"),
         "resources[0](\"deployments\").responseKind.kind: is an integer, not a string"},
        {WithResource(R"({"resource":"deployments/x","scope":"Namespaced","responseKind":{"kind":"D"}})"),
         "resources[0](\"deployments/x\").resource: \"deployments/x\" contains '/'"},
        {WithResource(deployment + R"(,"verbs":"get"})"),
         "resources[0](\"deployments\").verbs: is a string, not an array"},
        {WithResource(deployment + R"(,"shortNames":[null]})"),
         "resources[0](\"deployments\").shortNames[0]: is null, not a string"},
        {WithResource(deployment + R"(,"subresources":[{"verbs":["get"]}]})"),
         "resources[0](\"deployments\").subresources[0].subresource: required field is missing"},
        {WithResource(deployment + R"(,"subresources":[{"subresource":"scale","responseKind":[]}]})"),
         "resources[0](\"deployments\").subresources[0](\"scale\").responseKind: is an array, not an object"},
        {WithResource(deployment + R"(,"subresources":[{"subresource":"status","verbs":"get"}]})"),
         "subresources[0](\"status\").verbs: is a string, not an array"},
        {R"({"kind":"APIGroupList","groups":[]})", "kind: is \"APIGroupList\", expected \"APIGroupDiscoveryList\""},
    };
    for (const auto& [body, message] : cases) {
        StatusOr<RootDocument> parsed = ParseRootDocument(body, kAggregatedV2, /*core=*/false, "GET /apis");
        ASSERT_FALSE(parsed.Ok()) << body;
        EXPECT_TRUE(IsBadRequest(parsed.GetStatus())) << parsed.GetStatus();
        EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr("malformed discovery document (GET /apis)")) << body;
        EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr(message)) << body;
    }
}

TEST(AggregatedDocumentsTest, DamagedDocumentsNeverCrash) {
    // Every truncation is invalid JSON; byte flips give any mix of wrong types. Each answer must be a
    // parsed document or BadRequest.
    for (const char* name : {"apis_aggregated.json", "api_aggregated.json", "apis_group_list.json"}) {
        const std::string body = ReadTestdata(name);
        const bool core = std::string_view(name).starts_with("api_");
        const bool aggregated = std::string_view(name).find("aggregated") != std::string_view::npos;
        for (std::size_t size = 0; size < body.size(); size += 7) {
            StatusOr<RootDocument> parsed = ParseRootDocument(body.substr(0, size), std::nullopt, core, "GET");
            EXPECT_TRUE(IsBadRequest(parsed.GetStatus())) << name << " cut at " << size;
        }
        std::mt19937 random(42);
        for (int round = 0; round < 2000; ++round) {
            std::string damaged = body;
            for (int flips = 0; flips < 3; ++flips)
                damaged[random() % damaged.size()] = "{}[]\",:0an\"tf"[random() % 14];
            StatusOr<RootDocument> parsed =
                ParseRootDocument(damaged, aggregated ? kAggregatedV2 : "application/json", core, "GET");
            EXPECT_TRUE(parsed.Ok() || IsBadRequest(parsed.GetStatus())) << parsed.GetStatus();
        }
    }
}

TEST(AggregatedDocumentsTest, GroupsMustBeServedAtTheirRoot) {
    StatusOr<RootDocument> named_at_api = ParseRootDocument(
        R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"apps"},"versions":[]}]})", kAggregatedV2,
        /*core=*/true, "GET /api");
    ASSERT_FALSE(named_at_api.Ok());
    EXPECT_TRUE(IsBadRequest(named_at_api.GetStatus()));
    EXPECT_THAT(named_at_api.GetStatus().Message(), HasSubstr("items[0](\"apps\").metadata.name"));

    StatusOr<RootDocument> unnamed_at_apis =
        ParseRootDocument(R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{},"versions":[]}]})", kAggregatedV2,
                          /*core=*/false, "GET /apis");
    ASSERT_FALSE(unnamed_at_apis.Ok());
    EXPECT_THAT(unnamed_at_apis.GetStatus().Message(), HasSubstr("items[0].metadata.name: required field is missing"));
}

}  // namespace
}  // namespace ctrl::discovery::test
