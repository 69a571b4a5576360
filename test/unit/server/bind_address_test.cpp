#include "ctrl/server/bind_address.hpp"

#include <gtest/gtest.h>

namespace ctrl::server {
namespace {

TEST(BindAddressTest, ParsesControllerRuntimeForms) {
    StatusOr<BindAddress> all = ParseBindAddress(":8080");
    ASSERT_TRUE(all.Ok()) << all.GetStatus();
    EXPECT_FALSE(all->disabled);
    EXPECT_EQ(all->host, "0.0.0.0");
    EXPECT_EQ(all->port, 8080);

    StatusOr<BindAddress> loopback = ParseBindAddress("127.0.0.1:9443");
    ASSERT_TRUE(loopback.Ok());
    EXPECT_EQ(loopback->host, "127.0.0.1");
    EXPECT_EQ(loopback->port, 9443);
    EXPECT_EQ(loopback->ToString(), "127.0.0.1:9443");

    StatusOr<BindAddress> disabled = ParseBindAddress("0");
    ASSERT_TRUE(disabled.Ok());
    EXPECT_TRUE(disabled->disabled);
    EXPECT_EQ(disabled->ToString(), "0");

    StatusOr<BindAddress> ephemeral = ParseBindAddress(":0");
    ASSERT_TRUE(ephemeral.Ok());
    EXPECT_FALSE(ephemeral->disabled);
    EXPECT_EQ(ephemeral->port, 0);

    StatusOr<BindAddress> localhost = ParseBindAddress("localhost:8081");
    ASSERT_TRUE(localhost.Ok());
    EXPECT_EQ(localhost->host, "127.0.0.1");

    StatusOr<BindAddress> v6 = ParseBindAddress("[::1]:8080");
    ASSERT_TRUE(v6.Ok());
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->ToString(), "[::1]:8080");
}

TEST(BindAddressTest, RejectsMalformedAddressesNamingThem) {
    for (const char* bad : {"", "8080", ":", ":http", ":65536", "example.com:80", "[::1:80", "1.2.3:80", ":-1"}) {
        StatusOr<BindAddress> parsed = ParseBindAddress(bad);
        EXPECT_FALSE(parsed.Ok()) << bad;
        if (!parsed.Ok()) {
            EXPECT_EQ(parsed.GetStatus().Code(), StatusCode::kBadRequest) << bad;
            EXPECT_NE(parsed.GetStatus().Message().find(std::string("\"") + bad + "\""), std::string::npos)
                << parsed.GetStatus();
        }
    }
}

}  // namespace
}  // namespace ctrl::server
