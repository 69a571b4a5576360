#include "ctrl/server/metrics_handler.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/server/internal/gzip.hpp"

namespace ctrl::server {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Pair;

std::string Gunzip(const std::string& data) {
    z_stream stream{};
    EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);
    std::string out(1 << 20, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(inflate(&stream, Z_FINISH), Z_STREAM_END);
    out.resize(stream.total_out);
    inflateEnd(&stream);
    return out;
}

ServerResponse Scrape(const metrics::Registry& registry, std::string accept_encoding) {
    boost::asio::io_context io;
    HttpHandler handler = MetricsHandler(registry);
    ServerRequest request;
    request.method = "GET";
    request.path = "/metrics";
    if (!accept_encoding.empty())
        request.headers.emplace_back("Accept-Encoding", accept_encoding);
    return RunSync(io, handler(request));
}

TEST(MetricsHandlerTest, ServesTheTextFormat) {
    metrics::Registry registry;
    registry.AddCounter("controller_runtime_reconcile_total", "Total", {"controller", "result"})
        .WithLabelValues({"pods", "success"})
        .Inc(3);
    ServerResponse response = Scrape(registry, "");
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_THAT(response.body,
                HasSubstr("controller_runtime_reconcile_total{controller=\"pods\",result=\"success\"} 3"));
    for (const auto& [name, value] : response.headers)
        EXPECT_NE(name, "Content-Encoding");
}

TEST(MetricsHandlerTest, GzipsWhenTheScraperAcceptsIt) {
    metrics::Registry registry;
    registry.AddGauge("workqueue_depth", "Depth", {"name"}).WithLabelValues({"q"}).Set(7);
    ServerResponse response = Scrape(registry, "deflate, gzip;q=0.8");
    EXPECT_THAT(response.headers, Contains(Pair("Content-Encoding", "gzip")));
    EXPECT_THAT(Gunzip(response.body), HasSubstr("workqueue_depth{name=\"q\"} 7"));
}

TEST(MetricsHandlerTest, CollectHooksRunPerScrape) {
    metrics::Registry registry;
    int scrapes = 0;
    registry.AddCollectHook([&] { ++scrapes; });
    Scrape(registry, "");
    Scrape(registry, "gzip");
    EXPECT_EQ(scrapes, 2);
}

TEST(AcceptsGzipTest, FollowsTokensAndQualities) {
    EXPECT_TRUE(internal::AcceptsGzip("gzip"));
    EXPECT_TRUE(internal::AcceptsGzip("GZIP"));
    EXPECT_TRUE(internal::AcceptsGzip("br, gzip;q=0.5"));
    EXPECT_TRUE(internal::AcceptsGzip(" identity ,gzip "));
    EXPECT_FALSE(internal::AcceptsGzip(""));
    EXPECT_FALSE(internal::AcceptsGzip("identity"));
    EXPECT_FALSE(internal::AcceptsGzip("gzipx"));
    EXPECT_FALSE(internal::AcceptsGzip("gzip;q=0"));
    EXPECT_FALSE(internal::AcceptsGzip("gzip; q=0.000"));
}

TEST(GzipTest, RoundTripsLargeAndEmptyBodies) {
    std::string big;
    for (int i = 0; i < 20000; ++i)
        big += "series_" + std::to_string(i) + " 1\n";
    StatusOr<std::string> gz = internal::Gzip(big);
    ASSERT_TRUE(gz.Ok());
    EXPECT_LT(gz->size(), big.size() / 3);
    EXPECT_EQ(Gunzip(*gz), big);
    StatusOr<std::string> empty = internal::Gzip("");
    ASSERT_TRUE(empty.Ok());
    EXPECT_EQ(Gunzip(*empty), "");
}

}  // namespace
}  // namespace ctrl::server
