// Parsing of the Beast transport's server URL (no sockets).

#include "ctrl/rest/internal/beast_server_url.hpp"

#include <gtest/gtest.h>

namespace ctrl::rest::internal {
namespace {

TEST(ServerUrlTest, ParsesHostPortAndDefaults) {
    auto url = ParseServerUrl("https://127.0.0.1:6443");
    ASSERT_TRUE(url.Ok()) << url.GetStatus();
    EXPECT_TRUE(url->tls);
    EXPECT_EQ(url->host, "127.0.0.1");
    EXPECT_EQ(url->port, "6443");
    EXPECT_TRUE(url->host_is_ip);
    EXPECT_EQ(url->base_path, "");
    EXPECT_EQ(url->HostHeader(), "127.0.0.1:6443");

    auto plain = ParseServerUrl("HTTP://LocalHost/");
    ASSERT_TRUE(plain.Ok()) << plain.GetStatus();
    EXPECT_FALSE(plain->tls);
    EXPECT_EQ(plain->host, "localhost");
    EXPECT_EQ(plain->port, "80");
    EXPECT_FALSE(plain->host_is_ip);
    EXPECT_EQ(plain->HostHeader(), "localhost");
    EXPECT_EQ(plain->text, "HTTP://LocalHost");
}

TEST(ServerUrlTest, ParsesIpv6LiteralsAndPathPrefixes) {
    auto url = ParseServerUrl("https://[::1]:6443/k8s/clusters/c-1/");
    ASSERT_TRUE(url.Ok()) << url.GetStatus();
    EXPECT_EQ(url->host, "::1");
    EXPECT_TRUE(url->host_is_ip);
    EXPECT_EQ(url->HostHeader(), "[::1]:6443");
    EXPECT_EQ(url->base_path, "/k8s/clusters/c-1");
    EXPECT_EQ(url->text, "https://[::1]:6443/k8s/clusters/c-1");

    auto default_port = ParseServerUrl("https://[fd00::10]");
    ASSERT_TRUE(default_port.Ok());
    EXPECT_EQ(default_port->port, "443");
    EXPECT_EQ(default_port->HostHeader(), "[fd00::10]");
}

TEST(ServerUrlTest, RejectsMalformedUrls) {
    for (const char* bad :
         {"127.0.0.1:6443", "ftp://host", "https://", "https://:443", "https://host:0", "https://host:99999",
          "https://host:x", "https://user@host", "https://[::1", "https://host?x=1"}) {
        auto url = ParseServerUrl(bad);
        EXPECT_TRUE(IsBadRequest(url.GetStatus())) << bad;
    }
}

}  // namespace
}  // namespace ctrl::rest::internal
