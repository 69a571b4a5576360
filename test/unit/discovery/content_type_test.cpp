// Which form a root discovery answer is in: the Content-Type's apidiscovery parameters, else the
// body's kind.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ctrl/discovery/internal/content_type.hpp"
#include "ctrl/discovery/internal/discovery_documents.hpp"
#include "test/unit/discovery/discovery_test_util.hpp"

namespace ctrl::discovery::test {
namespace {

using internal::IsAggregatedDiscoveryContentType;
using internal::ParseRootDocument;
using internal::RootDocument;
using ::testing::HasSubstr;

TEST(ContentTypeTest, AggregatedContentTypes) {
    EXPECT_TRUE(
        IsAggregatedDiscoveryContentType("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"));
    EXPECT_TRUE(
        IsAggregatedDiscoveryContentType("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"));
    EXPECT_TRUE(IsAggregatedDiscoveryContentType(
        "Application/JSON; as=APIGroupDiscoveryList; V=v2; G=\"apidiscovery.k8s.io\"; charset=utf-8"));
    EXPECT_TRUE(IsAggregatedDiscoveryContentType("application/json ;g=apidiscovery.k8s.io ;as=APIGroupDiscoveryList"));
}

TEST(ContentTypeTest, OtherContentTypes) {
    EXPECT_FALSE(IsAggregatedDiscoveryContentType("application/json"));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType("application/json; charset=utf-8"));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType(""));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType("application/json;g=apidiscovery.k8s.io;v=v2"));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType("application/json;as=APIGroupDiscoveryList"));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType("application/json;g=apps;v=v2;as=APIGroupDiscoveryList"));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType("application/json;g=apidiscovery.k8s.io;v=v2;as=Table"));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType(
        "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"));
    EXPECT_FALSE(IsAggregatedDiscoveryContentType("text/html"));
}

TEST(ContentTypeTest, TheContentTypeDecidesTheForm) {
    const std::string aggregated = ReadTestdata("apis_aggregated.json");
    StatusOr<RootDocument> parsed = ParseRootDocument(
        aggregated, "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList", false, "GET /apis");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_TRUE(parsed->aggregated);
    EXPECT_FALSE(parsed->versions.empty());

    parsed = ParseRootDocument(ReadTestdata("apis_group_list.json"), "application/json", false, "GET /apis");
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_FALSE(parsed->aggregated);
    EXPECT_EQ(parsed->groups.size(), 5u);
}

TEST(ContentTypeTest, WithoutParametersTheBodysKindDecides) {
    for (std::optional<std::string_view> content_type :
         {std::optional<std::string_view>("application/json"), std::optional<std::string_view>()}) {
        StatusOr<RootDocument> parsed =
            ParseRootDocument(ReadTestdata("apis_aggregated.json"), content_type, false, "GET /apis");
        ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
        EXPECT_TRUE(parsed->aggregated);
        EXPECT_EQ(parsed->groups.size(), 5u);

        parsed = ParseRootDocument(ReadTestdata("api_aggregated.json"), content_type, true, "GET /api");
        ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
        EXPECT_TRUE(parsed->aggregated);

        parsed = ParseRootDocument(ReadTestdata("api_versions.json"), content_type, true, "GET /api");
        ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
        EXPECT_FALSE(parsed->aggregated);
    }
}

TEST(ContentTypeTest, ContentTypeAndBodyThatDisagreeAreBadRequest) {
    StatusOr<RootDocument> parsed =
        ParseRootDocument(ReadTestdata("apis_group_list.json"),
                          "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", false, "GET /apis");
    ASSERT_FALSE(parsed.Ok());
    EXPECT_TRUE(IsBadRequest(parsed.GetStatus()));
    EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr("expected \"APIGroupDiscoveryList\""));
}

TEST(ContentTypeTest, ANonJsonBodyIsBadRequest) {
    StatusOr<RootDocument> parsed =
        ParseRootDocument("<html><body>502 Bad Gateway</body></html>", "text/html", false, "GET /apis");
    ASSERT_FALSE(parsed.Ok());
    EXPECT_TRUE(IsBadRequest(parsed.GetStatus()));
    EXPECT_THAT(parsed.GetStatus().Message(), HasSubstr("malformed discovery document (GET /apis): invalid JSON"));
}

}  // namespace
}  // namespace ctrl::discovery::test
