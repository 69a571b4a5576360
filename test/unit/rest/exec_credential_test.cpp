#include "ctrl/rest/exec_credential.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/rfc3339.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/internal/exec_json.hpp"
#include "test/support/eventually.hpp"
#include "test/unit/rest/kubeconfig_test_util.hpp"

namespace ctrl::rest {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::kTestWait;
using ctrl::testing::TestContext;
using testing::TempDir;
using testing::TestData;
using Clock = std::chrono::system_clock;

constexpr char kExpiration[] = "2030-01-01T00:00:00Z";

std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream contents;
    contents << in.rdbuf();
    return contents.str();
}

// A Config whose exec plugin is `sh testdata/exec/<script>` with env.
Config PluginConfig(const std::string& script, std::vector<std::pair<std::string, std::string>> env = {},
                    std::string api_version = std::string(kExecApiV1)) {
    Config config;
    config.host = "https://10.0.0.1:6443";
    config.tls.ca_pem = "CA";
    ExecConfig exec;
    exec.api_version = std::move(api_version);
    exec.command = "/bin/sh";
    exec.args = {TestData("exec/" + script)};
    exec.env = std::move(env);
    exec.interactive_mode = "Never";
    exec.install_hint = "install it from https://example.com/plugin";
    config.exec = exec;
    return config;
}

class ExecCredentialTest : public ::testing::Test {
  protected:
    std::shared_ptr<ExecCredentialProvider> Provider(const Config& config, ExecProviderOptions options = {}) {
        if (!options.clock)
            options.clock = [this] { return now_; };
        if (!options.stdin_is_terminal)
            options.stdin_is_terminal = false;
        auto provider = ExecCredentialProvider::New(config, std::move(options));
        EXPECT_TRUE(provider.Ok()) << provider.GetStatus();
        return provider.Ok() ? *provider : nullptr;
    }

    StatusOr<ExecCredential> Get(ExecCredentialProvider& provider, Context ctx = TestContext()) {
        return RunSync(io_, provider.Get(ctx));
    }

    std::vector<std::pair<std::string, std::string>> Counting() { return {{"COUNT_FILE", dir_.Path("count")}}; }

    boost::asio::io_context io_;
    TempDir dir_;
    Clock::time_point now_ = *ParseRfc3339("2029-12-31T23:00:00Z");
};

TEST_F(ExecCredentialTest, CachesTheCredentialUntilShortlyBeforeItExpires) {
    auto env = Counting();
    env.emplace_back("EXPIRATION", kExpiration);
    auto provider = Provider(PluginConfig("token.sh", env));
    auto first = Get(*provider);
    ASSERT_TRUE(first.Ok()) << first.GetStatus();
    EXPECT_EQ(first->token, "tok-1");
    EXPECT_EQ(first->expiration, *ParseRfc3339(kExpiration));
    now_ += 59min;
    EXPECT_EQ(Get(*provider)->token, "tok-1");
    EXPECT_EQ(provider->RunCount(), 1);
    now_ += 55s;  // 5 s before expiry: within the 10 s refresh margin
    EXPECT_EQ(Get(*provider)->token, "tok-2");
    EXPECT_EQ(provider->RunCount(), 2);
    EXPECT_EQ(ReadFile(dir_.Path("count")), "2\n");
}

TEST_F(ExecCredentialTest, RunsAgainAfterInvalidate) {
    auto provider = Provider(PluginConfig("token.sh", Counting()));
    EXPECT_EQ(Get(*provider)->token, "tok-1");
    EXPECT_EQ(Get(*provider)->token, "tok-1");  // no expiration: cached until invalidated
    provider->Invalidate();
    EXPECT_EQ(Get(*provider)->token, "tok-2");
    EXPECT_EQ(provider->RunCount(), 2);
}

TEST_F(ExecCredentialTest, AnExpiredCredentialIsNotReused) {
    auto env = Counting();
    env.emplace_back("EXPIRATION", "2020-01-01T00:00:00Z");
    auto provider = Provider(PluginConfig("token.sh", env));
    EXPECT_EQ(Get(*provider)->token, "tok-1");
    EXPECT_EQ(Get(*provider)->token, "tok-2");
}

TEST_F(ExecCredentialTest, SpeaksV1AndV1Beta1AndSendsExecInfo) {
    for (std::string version : {std::string(kExecApiV1), std::string(kExecApiV1Beta1)}) {
        Config config = PluginConfig("token.sh", {{"API_VERSION", version}, {"INFO_FILE", dir_.Path("info")}}, version);
        auto credential = Get(*Provider(config));
        ASSERT_TRUE(credential.Ok()) << version << ": " << credential.GetStatus();
        EXPECT_EQ(credential->token, "tok-1");
        EXPECT_EQ(ReadFile(dir_.Path("info")),
                  R"({"apiVersion":")" + version + R"(","kind":"ExecCredential","spec":{"interactive":false}})");
    }
}

TEST_F(ExecCredentialTest, ProvidesClusterInfoWhenAsked) {
    Config config = PluginConfig("token.sh", {{"INFO_FILE", dir_.Path("info")}});
    config.tls.server_name = "api.internal";
    config.exec->provide_cluster_info = true;
    config.exec->cluster_config_json = R"({"audience":"sts"})";
    ASSERT_TRUE(Get(*Provider(config)).Ok());
    EXPECT_EQ(ReadFile(dir_.Path("info")),
              R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"cluster":)"
              R"({"server":"https://10.0.0.1:6443","tls-server-name":"api.internal",)"
              R"("certificate-authority-data":"Q0E=","config":{"audience":"sts"}},"interactive":false}})");
}

TEST_F(ExecCredentialTest, RejectsAnotherApiVersion) {
    auto credential = Get(*Provider(PluginConfig("token.sh", {{"API_VERSION", std::string(kExecApiV1Beta1)}})));
    EXPECT_TRUE(IsUnauthorized(credential.GetStatus()));
    EXPECT_EQ(credential.GetStatus().Message(),
              "exec plugin /bin/sh: it is configured to use API version client.authentication.k8s.io/v1, plugin "
              "returned version \"client.authentication.k8s.io/v1beta1\"; install hint: install it from "
              "https://example.com/plugin");
}

TEST_F(ExecCredentialTest, AFailingPluginReportsExitCodeStderrAndInstallHintAndIsNotCached) {
    auto provider = Provider(PluginConfig("fail.sh", Counting()));
    auto credential = Get(*provider);
    EXPECT_TRUE(IsUnauthorized(credential.GetStatus()));
    EXPECT_EQ(credential.GetStatus().Message(),
              "exec plugin /bin/sh: exited with code 3; stderr: \"some progress output\n"
              "error: could not get token: AccessDenied for role ci-admin\"; install hint: install it from "
              "https://example.com/plugin");
    EXPECT_FALSE(Get(*provider).Ok());
    EXPECT_EQ(provider->RunCount(), 2);
}

TEST_F(ExecCredentialTest, CommandNotFoundNamesTheCommandAndInstallHint) {
    Config config = PluginConfig("token.sh");
    config.exec->command = "/nonexistent/ctrl-credential-plugin";
    auto credential = Get(*Provider(config));
    EXPECT_TRUE(IsUnauthorized(credential.GetStatus()));
    EXPECT_EQ(credential.GetStatus().Message(),
              "exec plugin /nonexistent/ctrl-credential-plugin: executable not found; install hint: install it from "
              "https://example.com/plugin");
}

TEST_F(ExecCredentialTest, BadOutputIsUnauthorizedSayingWhy) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"not-json", "its output is not JSON: Invalid value. at offset 1"},
        {"no-status", "it didn't return a status field"},
        {"empty-status", "it didn't return a token or cert/key pair"},
        {"key-only", "it returned only certificate or key, not both"},
        {"bad-time", "status.expirationTimestamp: invalid RFC 3339 time \"tomorrow\""},
        {"wrong-kind", "it returned kind \"Pod\", not ExecCredential"},
    };
    for (const auto& [mode, problem] : cases) {
        auto credential = Get(*Provider(PluginConfig("output.sh", {{"MODE", mode}})));
        EXPECT_TRUE(IsUnauthorized(credential.GetStatus())) << mode;
        EXPECT_EQ(credential.GetStatus().Message(),
                  "exec plugin /bin/sh: " + problem + "; install hint: install it from https://example.com/plugin")
            << mode;
    }
    auto cert = Get(*Provider(PluginConfig("output.sh", {{"MODE", "cert-only"}})));
    ASSERT_TRUE(cert.Ok()) << cert.GetStatus();
    EXPECT_EQ(cert->client_certificate_pem, "CERT");
    EXPECT_EQ(cert->token, "");
}

// The plugin would sleep for an hour; the caller's context ends after the test's wait: the
// Unauthorized below can only come from the kill.
TEST_F(ExecCredentialTest, KillsAPluginThatRunsTooLong) {
    auto provider = Provider(PluginConfig("token.sh", {{"SLEEP", "3600"}}), {.timeout = 300ms});
    auto credential = Get(*provider);
    EXPECT_TRUE(IsUnauthorized(credential.GetStatus())) << credential.GetStatus();
    EXPECT_EQ(credential.GetStatus().Message(),
              "exec plugin /bin/sh: killed after 300 ms without finishing; install hint: install it from "
              "https://example.com/plugin");
}

TEST_F(ExecCredentialTest, InteractiveAlwaysWithoutATerminalIsBadRequest) {
    Config config = PluginConfig("token.sh", Counting());
    config.exec->interactive_mode = "Always";
    auto provider = Provider(config);
    auto credential = Get(*provider);
    EXPECT_TRUE(IsBadRequest(credential.GetStatus()));
    EXPECT_EQ(credential.GetStatus().Message(),
              "exec plugin /bin/sh: interactiveMode is Always but standard input is not a terminal");
    EXPECT_EQ(provider->RunCount(), 0);
}

TEST_F(ExecCredentialTest, IfAvailableWithATerminalRunsInteractively) {
    Config config = PluginConfig("token.sh", {{"INFO_FILE", dir_.Path("info")}});
    config.exec->interactive_mode = "IfAvailable";
    auto credential = Get(*Provider(config, {.stdin_is_terminal = true}));
    ASSERT_TRUE(credential.Ok()) << credential.GetStatus();
    EXPECT_EQ(
        ReadFile(dir_.Path("info")),
        R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":true}})");
}

TEST_F(ExecCredentialTest, ConcurrentCallersShareOneRun) {
    auto env = Counting();
    env.emplace_back("SLEEP", "0.3");
    auto provider = Provider(PluginConfig("token.sh", env));
    std::vector<std::string> tokens;
    for (int i = 0; i < 3; ++i) {
        boost::asio::co_spawn(
            io_, provider->Get(TestContext()), [&tokens](std::exception_ptr, StatusOr<ExecCredential> credential) {
                tokens.push_back(credential.Ok() ? credential->token : credential.GetStatus().ToString());
            });
    }
    io_.run_for(kTestWait);
    EXPECT_EQ(tokens, (std::vector<std::string>{"tok-1", "tok-1", "tok-1"}));
    EXPECT_EQ(provider->RunCount(), 1);
}

TEST_F(ExecCredentialTest, ConcurrentCallersOnSeveralThreadsShareOneRun) {
    auto env = Counting();
    env.emplace_back("SLEEP", "0.3");
    auto provider = Provider(PluginConfig("token.sh", env));
    auto work = boost::asio::make_work_guard(io_);
    std::vector<std::thread> loop;
    for (int i = 0; i < 2; ++i)
        loop.emplace_back([this] { io_.run(); });
    std::vector<std::future<StatusOr<ExecCredential>>> results;
    for (int i = 0; i < 4; ++i)
        results.push_back(
            std::async(std::launch::async, [&] { return RunOn(io_.get_executor(), provider->Get(TestContext())); }));
    for (auto& result : results) {
        ASSERT_EQ(result.wait_for(kTestWait), std::future_status::ready);
        EXPECT_EQ(result.get()->token, "tok-1");
    }
    work.reset();
    io_.stop();
    for (auto& thread : loop)
        thread.join();
    EXPECT_EQ(provider->RunCount(), 1);
}

// The plugin waits for a gate the test opens only after the impatient caller has left.
TEST_F(ExecCredentialTest, ACallerWhoseContextExpiresLeavesTheRunToOthers) {
    auto env = Counting();
    env.emplace_back("GATE_FILE", dir_.Path("gate"));
    auto provider = Provider(PluginConfig("token.sh", env));
    auto impatient = Get(*provider, Context::WithTimeout(Context::Background(), 100ms));
    EXPECT_TRUE(IsTimeout(impatient.GetStatus())) << impatient.GetStatus();
    std::ofstream(dir_.Path("gate")).put('\n');
    auto patient = Get(*provider);
    ASSERT_TRUE(patient.Ok()) << patient.GetStatus();
    EXPECT_EQ(patient->token, "tok-1");
    EXPECT_EQ(provider->RunCount(), 1);
}

TEST(ExecConfigTest, ValidatesBeforeRunning) {
    Config config = PluginConfig("token.sh");
    config.exec->api_version = "client.authentication.k8s.io/v1alpha1";
    auto provider = ExecCredentialProvider::New(config);
    EXPECT_TRUE(IsBadRequest(provider.GetStatus()));
    EXPECT_EQ(provider.GetStatus().Message(),
              "exec plugin /bin/sh: apiVersion \"client.authentication.k8s.io/v1alpha1\" is not supported (use "
              "client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1)");
    EXPECT_TRUE(IsBadRequest(ExecCredentialProvider::New(Config{}).GetStatus()));
}

}  // namespace
}  // namespace ctrl::rest
