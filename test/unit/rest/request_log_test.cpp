#include "ctrl/rest/internal/request_log.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace ctrl::rest::internal {
namespace {

// Captures the process's log lines at verbosity 7 for one test.
class RequestLogTest : public ::testing::Test {
  protected:
    void SetUp() override {
        log::SetSink(log::NewTextSink(out_));
        log::SetVerbosity(7);
    }
    void TearDown() override {
        log::SetSink(nullptr);
        log::SetVerbosity(0);
    }
    std::ostringstream out_;
};

TEST_F(RequestLogTest, UrlsLoseTheirCredentials) {
    EXPECT_EQ(LoggedUrl("https://h:6443", "/api/v1/pods?limit=500&continue=abc"),
              "https://h:6443/api/v1/pods?limit=500&continue=abc");
    EXPECT_EQ(LoggedUrl("https://alice:pw@h:6443", "/api"), "https://<redacted>@h:6443/api");
    EXPECT_EQ(LoggedUrl("https://h", "/x?access_token=t0k&watch=true&Password=p"),
              "https://h/x?access_token=<redacted>&watch=true&Password=<redacted>");
    EXPECT_EQ(LoggedUrl("https://h", "/x?a@b=1"), "https://h/x?a@b=1") << "an @ past the host is not userinfo";
}

TEST_F(RequestLogTest, CredentialHeadersAreRedacted) {
    EXPECT_TRUE(IsCredentialHeader("Authorization"));
    EXPECT_TRUE(IsCredentialHeader("proxy-authorization"));
    EXPECT_TRUE(IsCredentialHeader("Cookie"));
    EXPECT_TRUE(IsCredentialHeader("X-Auth-Token"));
    EXPECT_FALSE(IsCredentialHeader("Accept"));
    EXPECT_FALSE(IsCredentialHeader("Content-Type"));

    HttpRequest request;
    request.method = "GET";
    request.target = "/api/v1/secrets";
    request.SetHeader("Accept", "application/json");
    request.SetHeader("Authorization", "Bearer very-secret-token");
    LogRequestHeaders(Context::Background(), "https://h", request);
    const std::string line = out_.str();
    EXPECT_EQ(line.find("very-secret-token"), std::string::npos) << line;
    EXPECT_NE(line.find("rest] \"request headers\" verb=\"GET\" url=\"https://h/api/v1/secrets\" "
                        "Accept=\"application/json\" Authorization=\"<redacted>\""),
              std::string::npos)
        << line;
}

TEST_F(RequestLogTest, ResponseLineHasVerbUrlStatusAndLatency) {
    HttpRequest request;
    request.method = "POST";
    request.target = "/api/v1/namespaces/a/secrets";
    LogResponse(Context::Background(), "https://h", request, 201, OkStatus(), std::chrono::milliseconds(12));
    LogResponse(Context::Background(), "https://h", request, 0, UnavailableError("connection refused"),
                std::chrono::milliseconds(3));
    const std::string lines = out_.str();
    EXPECT_NE(lines.find("rest] \"request\" verb=\"POST\" url=\"https://h/api/v1/namespaces/a/secrets\" status=201 "
                         "latency=\"12ms\""),
              std::string::npos)
        << lines;
    EXPECT_NE(lines.find("err=\"Unavailable: connection refused\" latency=\"3ms\""), std::string::npos) << lines;
}

TEST_F(RequestLogTest, NothingBelowTheirLevels) {
    log::SetVerbosity(5);
    HttpRequest request;
    LogRequestHeaders(Context::Background(), "https://h", request);
    LogResponse(Context::Background(), "https://h", request, 200, OkStatus(), std::chrono::milliseconds(1));
    EXPECT_EQ(out_.str(), "");
}

TEST_F(RequestLogTest, LinesCarryTheContextsLogger) {
    const Context ctx =
        log::IntoContext(Context::Background(), log::Logger().WithName("reconciler").WithValues("name", "web-0"));
    HttpRequest request;
    request.target = "/api";
    LogResponse(ctx, "https://h", request, 200, OkStatus(), std::chrono::milliseconds(1));
    EXPECT_NE(out_.str().find("reconciler.rest] \"request\" name=\"web-0\" verb=\"GET\""), std::string::npos)
        << out_.str();
}

}  // namespace
}  // namespace ctrl::rest::internal
