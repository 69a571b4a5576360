#include "ctrl/server/http_exchange.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ctrl::server {
namespace {

using ::testing::ElementsAre;

TEST(ServerRequestTest, QueryFollowsGoUrlValues) {
    ServerRequest request;
    request.query = "verbose&exclude=ping&exclude=cache%2Fsync&x=a+b&&empty=";
    EXPECT_TRUE(request.HasQuery("verbose"));
    EXPECT_TRUE(request.HasQuery("empty"));
    EXPECT_FALSE(request.HasQuery("verb"));
    EXPECT_THAT(request.QueryValues("exclude"), ElementsAre("ping", "cache/sync"));
    EXPECT_THAT(request.QueryValues("x"), ElementsAre("a b"));
    EXPECT_THAT(request.QueryValues("verbose"), ElementsAre(""));
    EXPECT_TRUE(request.QueryValues("missing").empty());
}

TEST(ServerRequestTest, HeadersAreFoundCaseInsensitively) {
    ServerRequest request;
    request.headers = {{"Accept-Encoding", "gzip"}, {"authorization", "Bearer x"}};
    EXPECT_EQ(request.Header("accept-encoding"), "gzip");
    EXPECT_EQ(request.Header("Authorization"), "Bearer x");
    EXPECT_FALSE(request.Header("Host").has_value());
}

TEST(PercentDecodeTest, DecodesEscapesAndKeepsMalformedOnes) {
    EXPECT_EQ(PercentDecode("%2Freadyz%20x", false), "/readyz x");
    EXPECT_EQ(PercentDecode("a+b", false), "a+b");
    EXPECT_EQ(PercentDecode("a+b", true), "a b");
    EXPECT_EQ(PercentDecode("100%", true), "100%");
    EXPECT_EQ(PercentDecode("%zz%4", true), "%zz%4");
}

}  // namespace
}  // namespace ctrl::server
