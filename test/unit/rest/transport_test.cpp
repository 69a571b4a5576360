#include "ctrl/rest/transport.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/rest/config.hpp"
#include "ctrl/rest/rest_client.hpp"

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

// Config::wrap_transport: the transport NewTransport makes goes through it; a wrapper that returns
// nothing is a clear error.
TEST(NewTransportTest, WrapTransportWrapsTheTransportAndRefusesNull) {
    boost::asio::io_context io;
    Config config;
    config.host = "https://127.0.0.1:6443";
    Transport* wrapped = nullptr;
    config.wrap_transport = [&](std::unique_ptr<Transport> inner) {
        wrapped = inner.get();
        return inner;
    };
    StatusOr<std::unique_ptr<Transport>> made = NewTransport(config, io.get_executor());
    ASSERT_TRUE(made.Ok()) << made.GetStatus();
    EXPECT_EQ(made->get(), wrapped);

    config.wrap_transport = [](std::unique_ptr<Transport>) { return std::unique_ptr<Transport>(); };
    StatusOr<std::unique_ptr<Transport>> refused = NewTransport(config, io.get_executor());
    ASSERT_FALSE(refused.Ok());
    EXPECT_TRUE(IsBadRequest(refused.GetStatus()));
    EXPECT_NE(refused.GetStatus().Message().find("wrap_transport"), std::string::npos);
}

}  // namespace
}  // namespace ctrl::rest
