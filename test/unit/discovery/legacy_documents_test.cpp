// The legacy discovery documents: APIVersions (/api), APIGroupList (/apis), APIResourceList
// (/api/v1, /apis/<g>/<v>), from hand-written documents of the real shapes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ctrl/discovery/internal/discovery_documents.hpp"
#include "test/unit/discovery/discovery_test_util.hpp"

namespace ctrl::discovery::test {
namespace {

using internal::ParseGroupVersionDocument;
using internal::ParseRootDocument;
using internal::RootDocument;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

StatusOr<GroupVersionResources> ParseCoreV1(std::string_view body) {
    return ParseGroupVersionDocument(body, {"", "v1"}, "GET /api/v1");
}

TEST(LegacyDocumentsTest, CoreV1ResourceList) {
    StatusOr<GroupVersionResources> parsed = ParseCoreV1(ReadTestdata("core_v1_resource_list.json"));
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_EQ(parsed->group_version, (GroupVersion{"", "v1"}));
    EXPECT_EQ(parsed->freshness, Freshness::kCurrent);
    EXPECT_EQ(parsed->resources.size(), 17u);

    const APIResource* pods = FindResource(*parsed, "pods");
    ASSERT_NE(pods, nullptr);
    EXPECT_EQ(*pods, ServedPods());
    EXPECT_FALSE(pods->IsSubresource());

    const APIResource* namespaces = FindResource(*parsed, "namespaces");
    ASSERT_NE(namespaces, nullptr);
    EXPECT_FALSE(namespaces->namespaced);
    EXPECT_EQ(namespaces->kind, "Namespace");
    EXPECT_THAT(namespaces->short_names, ElementsAre("ns"));

    const APIResource* status = FindResource(*parsed, "pods/status");
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(status->IsSubresource());
    EXPECT_TRUE(status->namespaced);
    EXPECT_EQ(status->kind, "Pod");
    EXPECT_EQ(status->singular_name, "");
    EXPECT_THAT(status->verbs, ElementsAre("get", "patch", "update"));

    // A subresource served as a kind of another group keeps that group version.
    const APIResource* eviction = FindResource(*parsed, "pods/eviction");
    ASSERT_NE(eviction, nullptr);
    EXPECT_EQ(eviction->group, "policy");
    EXPECT_EQ(eviction->version, "v1");
    EXPECT_EQ(eviction->kind, "Eviction");
    const APIResource* token = FindResource(*parsed, "serviceaccounts/token");
    ASSERT_NE(token, nullptr);
    EXPECT_EQ(token->group, "authentication.k8s.io");
    EXPECT_EQ(token->kind, "TokenRequest");
    EXPECT_EQ(FindResource(*parsed, "secrets")->group, "");
}

TEST(LegacyDocumentsTest, ResourceListOfANamedGroup) {
    constexpr char kBody[] =
        R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":"vpcresources.k8s.aws/v1beta1",
      "resources":[{"name":"securitygrouppolicies","singularName":"securitygrouppolicy","namespaced":true,
      "kind":"SecurityGroupPolicy","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],
      "shortNames":["sgp"],"storageVersionHash":"x"}]})";
    StatusOr<GroupVersionResources> parsed =
        ParseGroupVersionDocument(kBody, {"vpcresources.k8s.aws", "v1beta1"}, "GET /apis/vpcresources.k8s.aws/v1beta1");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    ASSERT_EQ(parsed->resources.size(), 1u);
    EXPECT_EQ(parsed->resources[0].kind, "SecurityGroupPolicy");
    EXPECT_EQ(parsed->resources[0].singular_name, "securitygrouppolicy");
    EXPECT_TRUE(parsed->resources[0].namespaced);
    EXPECT_THAT(parsed->resources[0].short_names, ElementsAre("sgp"));
    EXPECT_EQ(parsed->resources[0].group, "");  // the same as the list's: not repeated
}

TEST(LegacyDocumentsTest, GroupVersionStatedEqualToTheListIsNotRepeated) {
    constexpr char kBody[] = R"({"groupVersion":"apps/v1","resources":[
      {"name":"deployments","namespaced":true,"kind":"Deployment","group":"apps","version":"v1","verbs":["get"]}]})";
    StatusOr<GroupVersionResources> parsed = ParseGroupVersionDocument(kBody, {"apps", "v1"}, "GET /apis/apps/v1");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_EQ(parsed->resources[0].group, "");
    EXPECT_EQ(parsed->resources[0].version, "");
}

TEST(LegacyDocumentsTest, EmptyResourceList) {
    StatusOr<GroupVersionResources> parsed = ParseGroupVersionDocument(
        R"({"kind":"APIResourceList","groupVersion":"x.io/v1","resources":[]})", {"x.io", "v1"}, "GET /apis/x.io/v1");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_TRUE(parsed->resources.empty());
    parsed = ParseGroupVersionDocument(R"({"groupVersion":"x.io/v1","resources":null})", {"x.io", "v1"}, "GET");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
}

TEST(LegacyDocumentsTest, APIVersionsIsTheCoreGroup) {
    StatusOr<RootDocument> parsed =
        ParseRootDocument(ReadTestdata("api_versions.json"), "application/json", /*core=*/true, "GET /api");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_FALSE(parsed->aggregated);
    ASSERT_EQ(parsed->groups.size(), 1u);
    EXPECT_EQ(parsed->groups[0], (APIGroup{"", {"v1"}}));
    EXPECT_EQ(parsed->groups[0].PreferredVersion(), "v1");
    EXPECT_TRUE(parsed->versions.empty());
}

TEST(LegacyDocumentsTest, APIGroupListPutsThePreferredVersionFirst) {
    StatusOr<RootDocument> parsed =
        ParseRootDocument(ReadTestdata("apis_group_list.json"), "application/json", /*core=*/false, "GET /apis");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_FALSE(parsed->aggregated);
    EXPECT_TRUE(parsed->versions.empty());
    ASSERT_EQ(parsed->groups.size(), 5u);
    EXPECT_EQ(parsed->groups[0], (APIGroup{"apps", {"v1"}}));
    EXPECT_EQ(parsed->groups[1], (APIGroup{"autoscaling", {"v2", "v1"}}));
    EXPECT_EQ(parsed->groups[2], (APIGroup{"apiextensions.k8s.io", {"v1"}}));
    // Listed v1alpha1 first, preferred v1beta1.
    EXPECT_EQ(parsed->groups[3], (APIGroup{"vpcresources.k8s.aws", {"v1beta1", "v1alpha1"}}));
    EXPECT_EQ(parsed->groups[3].PreferredVersion(), "v1beta1");
    EXPECT_EQ(parsed->groups[4], (APIGroup{"metrics.k8s.io", {"v1beta1"}}));
}

TEST(LegacyDocumentsTest, GroupWithoutPreferredVersionKeepsTheServersOrder) {
    StatusOr<RootDocument> parsed = ParseRootDocument(
        R"({"kind":"APIGroupList","groups":[{"name":"x.io","versions":[{"version":"v2"},{"version":"v1"}]}]})",
        std::nullopt, /*core=*/false, "GET /apis");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_EQ(parsed->groups[0], (APIGroup{"x.io", {"v2", "v1"}}));
}

struct MalformedCase {
    const char* name;
    const char* body;
    const char* message;  // a substring of the error
};

class MalformedResourceListTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedResourceListTest, IsBadRequestNamingTheField) {
    StatusOr<GroupVersionResources> parsed = ParseCoreV1(GetParam().body);
    ASSERT_FALSE(parsed.Ok());
    EXPECT_TRUE(IsBadRequest(parsed.GetStatus())) << parsed.GetStatus();
    EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr("malformed discovery document (GET /api/v1)"));
    EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedResourceListTest,
    ::testing::Values(
        MalformedCase{"NotJson", R"({"resources": [)", "invalid JSON at byte offset"},
        MalformedCase{"Truncated", R"({"groupVersion":"v1","resources":[{"name":"pods","kind":"Po)", "invalid JSON"},
        MalformedCase{"NotAnObject", R"(["pods"])", "the document: is an array, not an object"},
        MalformedCase{"AStatusInstead", R"({"kind":"Status","status":"Failure","code":500})",
                      "kind: is \"Status\", expected \"APIResourceList\""},
        MalformedCase{"NoResources", R"({"kind":"APIResourceList","groupVersion":"v1"})",
                      "resources: required field is missing"},
        MalformedCase{"ResourcesNotAnArray", R"({"groupVersion":"v1","resources":{"pods":{}}})",
                      "resources: is an object, not an array"},
        MalformedCase{"ResourceNotAnObject", R"({"groupVersion":"v1","resources":["pods"]})",
                      "resources[0]: is a string, not an object"},
        MalformedCase{"MissingKind", R"({"groupVersion":"v1","resources":[{"name":"pods","namespaced":true}]})",
                      "resources[0](\"pods\").kind: required field is missing"},
        MalformedCase{"EmptyKind", R"({"groupVersion":"v1","resources":[{"name":"pods","kind":""}]})",
                      "resources[0](\"pods\").kind: required field is empty"},
        MalformedCase{"MissingName", R"({"groupVersion":"v1","resources":[{"kind":"Pod"},{"name":"x"}]})",
                      "resources[0].name: required field is missing"},
        MalformedCase{"NamespacedNotABool",
                      R"({"groupVersion":"v1","resources":[{"name":"pods","kind":"Pod","namespaced":"true"}]})",
                      "resources[0](\"pods\").namespaced: is a string, not a boolean"},
        MalformedCase{"VerbNotAString",
                      R"({"groupVersion":"v1","resources":[{"name":"pods","kind":"Pod","verbs":["get",7]}]})",
                      "resources[0](\"pods\").verbs[1]: is an integer, not a string"},
        MalformedCase{"OtherGroupVersion", R"({"groupVersion":"apps/v1","resources":[]})",
                      "groupVersion: is \"apps/v1\", expected \"v1\""}),
    [](const ::testing::TestParamInfo<MalformedCase>& info) { return std::string(info.param.name); });

TEST(LegacyDocumentsTest, MalformedGroupListsAreBadRequest) {
    const std::vector<std::pair<const char*, const char*>> cases = {
        {R"({})", "groups: required field is missing"},
        {R"({"groups":[{"versions":[]}]})", "groups[0].name: required field is missing"},
        {R"({"groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1"}]}]})",
         "groups[0](\"apps\").versions[0].version: required field is missing"},
        {R"({"groups":[{"name":"apps","versions":"v1"}]})", "groups[0](\"apps\").versions: is a string, not an array"},
        {R"({"groups":[{"name":"apps","versions":[],"preferredVersion":{"groupVersion":"apps/v1"}}]})",
         "groups[0](\"apps\").preferredVersion.version: required field is missing"},
        {R"({"kind":"APIVersions","versions":["v1"]})", "kind: is \"APIVersions\", expected \"APIGroupList\""},
    };
    for (const auto& [body, message] : cases) {
        StatusOr<RootDocument> parsed = ParseRootDocument(body, "application/json", /*core=*/false, "GET /apis");
        ASSERT_FALSE(parsed.Ok()) << body;
        EXPECT_TRUE(IsBadRequest(parsed.GetStatus())) << parsed.GetStatus();
        EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr(message)) << body;
    }
}

TEST(LegacyDocumentsTest, MalformedAPIVersionsAreBadRequest) {
    const std::vector<std::pair<const char*, const char*>> cases = {
        {R"({"kind":"APIVersions"})", "versions: required field is missing"},
        {R"({"versions":"v1"})", "versions: is a string, not an array"},
        {R"({"versions":["v1",""]})", "versions[1]: is empty"},
        {R"({"kind":"APIGroupList","groups":[]})", "kind: is \"APIGroupList\", expected \"APIVersions\""},
    };
    for (const auto& [body, message] : cases) {
        StatusOr<RootDocument> parsed = ParseRootDocument(body, "application/json", /*core=*/true, "GET /api");
        ASSERT_FALSE(parsed.Ok()) << body;
        EXPECT_TRUE(IsBadRequest(parsed.GetStatus())) << parsed.GetStatus();
        EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr(message)) << body;
    }
}

}  // namespace
}  // namespace ctrl::discovery::test
