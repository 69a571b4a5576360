#include "ctrl/rest/transport.hpp"

#include <gtest/gtest.h>

namespace ctrl::rest {
namespace {

TEST(HttpRequestTest, HeadersAreFoundAndReplacedIgnoringCase) {
    HttpRequest request;
    request.SetHeader("Accept", "application/json");
    request.SetHeader("accept", "application/yaml");
    ASSERT_EQ(request.headers.size(), 1u);
    EXPECT_EQ(request.FindHeader("ACCEPT"), "application/yaml");
    EXPECT_FALSE(request.FindHeader("Content-Type").has_value());
}

TEST(HttpResponseTest, FindsTheFirstHeaderWithAName) {
    HttpResponse response{200, {{"Retry-After", "3"}, {"retry-after", "9"}}, ""};
    EXPECT_EQ(response.FindHeader("retry-after"), "3");
}

}  // namespace
}  // namespace ctrl::rest
