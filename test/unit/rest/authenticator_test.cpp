#include "ctrl/rest/authenticator.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"
#include "test/unit/rest/kubeconfig_test_util.hpp"

namespace ctrl::rest {
namespace {

using ctrl::testing::TestContext;
using testing::TempDir;
using testing::TestData;

class AuthenticatorTest : public ::testing::Test {
  protected:
    std::shared_ptr<Authenticator> New(const Config& config) {
        auto authenticator = NewAuthenticator(config);
        EXPECT_TRUE(authenticator.Ok()) << authenticator.GetStatus();
        return authenticator.Ok() ? *authenticator : nullptr;
    }

    // The Authorization header Authorize sets on a fresh request ("" when none), or the error.
    std::string Authorization(Authenticator& authenticator) {
        HttpRequest request;
        Status status = RunSync(io_, authenticator.Authorize(TestContext(), request));
        if (!status.Ok())
            return status.ToString();
        return std::string(request.FindHeader("Authorization").value_or(""));
    }

    boost::asio::io_context io_;
    TempDir dir_;
};

TEST_F(AuthenticatorTest, NoCredentialsSetNoHeader) {
    EXPECT_EQ(Authorization(*New(Config{})), "");
}

TEST_F(AuthenticatorTest, StaticBearerToken) {
    Config config;
    config.bearer_token = "abc.def";
    EXPECT_EQ(Authorization(*New(config)), "Bearer abc.def");
}

TEST_F(AuthenticatorTest, BasicAuth) {
    Config config;
    config.username = "alice";
    config.password = "s3cret";
    EXPECT_EQ(Authorization(*New(config)), "Basic YWxpY2U6czNjcmV0");
}

TEST_F(AuthenticatorTest, KeepsAnAuthorizationTheCallerSet) {
    Config config;
    config.bearer_token = "abc";
    auto authenticator = New(config);
    HttpRequest request;
    request.SetHeader("authorization", "Bearer mine");
    ASSERT_TRUE(RunSync(io_, authenticator->Authorize(TestContext(), request)).Ok());
    EXPECT_EQ(request.FindHeader("Authorization"), "Bearer mine");
    EXPECT_EQ(request.headers.size(), 1u);
}

TEST_F(AuthenticatorTest, TokenFileIsReReadWhenItChanges) {
    Config config;
    config.bearer_token_file = dir_.Write("token", "first\n");
    config.bearer_token = "stale-from-load";
    auto authenticator = New(config);
    EXPECT_EQ(Authorization(*authenticator), "Bearer first");
    dir_.Write("token", "second-token\n");  // another size
    EXPECT_EQ(Authorization(*authenticator), "Bearer second-token");

    // Same size and, as far as stat can tell, the same mtime: not noticed until a 401.
    const auto mtime = std::filesystem::last_write_time(config.bearer_token_file);
    dir_.Write("token", "third--token\n");
    std::filesystem::last_write_time(config.bearer_token_file, mtime);
    EXPECT_EQ(Authorization(*authenticator), "Bearer second-token");
    authenticator->OnUnauthorized();
    EXPECT_EQ(Authorization(*authenticator), "Bearer third--token");

    // A rewrite with a new mtime is noticed at once.
    dir_.Write("token", "fourth-token\n");
    std::filesystem::last_write_time(config.bearer_token_file, mtime + std::chrono::seconds(5));
    EXPECT_EQ(Authorization(*authenticator), "Bearer fourth-token");
}

TEST_F(AuthenticatorTest, TokenFileKeepsTheLastTokenWhileTheFileIsUnreadable) {
    Config config;
    config.bearer_token_file = dir_.Write("token", "kept\n");
    auto authenticator = New(config);
    EXPECT_EQ(Authorization(*authenticator), "Bearer kept");
    std::filesystem::remove(config.bearer_token_file);
    EXPECT_EQ(Authorization(*authenticator), "Bearer kept");
    dir_.Write("token", "  \n");
    EXPECT_EQ(Authorization(*authenticator), "Bearer kept");
}

TEST_F(AuthenticatorTest, TokenFileNeverReadIsUnauthorized) {
    Config config;
    config.bearer_token_file = dir_.Path("missing");
    EXPECT_EQ(Authorization(*New(config)),
              "Unauthorized: bearer token file " + dir_.Path("missing") + ": No such file or directory");
}

TEST_F(AuthenticatorTest, TokenFileWinsOverTokenWhichWinsOverExec) {
    Config config;
    config.bearer_token = "static";
    config.exec = ExecConfig();
    config.exec->api_version = "client.authentication.k8s.io/v1";
    config.exec->command = "/nonexistent";
    EXPECT_EQ(Authorization(*New(config)), "Bearer static");
    config.bearer_token_file = dir_.Write("token", "from-file");
    EXPECT_EQ(Authorization(*New(config)), "Bearer from-file");
}

Config ExecPluginConfig(const std::string& script, std::vector<std::pair<std::string, std::string>> env) {
    Config config;
    config.host = "https://10.0.0.1:6443";
    config.exec = ExecConfig();
    config.exec->api_version = "client.authentication.k8s.io/v1";
    config.exec->command = "/bin/sh";
    config.exec->args = {TestData("exec/" + script)};
    config.exec->env = std::move(env);
    config.exec->interactive_mode = "Never";
    return config;
}

TEST_F(AuthenticatorTest, ExecPluginTokenIsCachedAndRefreshedAfterA401) {
    auto provider = ExecCredentialProvider::New(ExecPluginConfig("token.sh", {{"COUNT_FILE", dir_.Path("count")}}));
    ASSERT_TRUE(provider.Ok()) << provider.GetStatus();
    auto authenticator = NewExecAuthenticator(*provider);
    EXPECT_EQ(Authorization(*authenticator), "Bearer tok-1");
    EXPECT_EQ(Authorization(*authenticator), "Bearer tok-1");
    EXPECT_EQ((*provider)->RunCount(), 1);
    authenticator->OnUnauthorized();
    EXPECT_EQ(Authorization(*authenticator), "Bearer tok-2");
    EXPECT_EQ((*provider)->RunCount(), 2);
}

TEST_F(AuthenticatorTest, ExecPluginFromConfig) {
    EXPECT_EQ(Authorization(*New(ExecPluginConfig("token.sh", {}))), "Bearer tok-1");
}

TEST_F(AuthenticatorTest, ExecPluginReturningOnlyACertificateIsUnauthorized) {
    EXPECT_EQ(Authorization(*New(ExecPluginConfig("output.sh", {{"MODE", "cert-only"}}))),
              "Unauthorized: exec plugin returned a client certificate but no token: certificate-returning plugins "
              "are not supported (the transport's TLS identity is fixed when it is created)");
}

TEST_F(AuthenticatorTest, InvalidExecConfigIsBadRequest) {
    Config config;
    config.exec = ExecConfig();
    config.exec->api_version = "client.authentication.k8s.io/v1";
    auto authenticator = NewAuthenticator(config);
    EXPECT_TRUE(IsBadRequest(authenticator.GetStatus()));
    EXPECT_EQ(authenticator.GetStatus().Message(), "exec plugin: command is not set");
}

}  // namespace
}  // namespace ctrl::rest
