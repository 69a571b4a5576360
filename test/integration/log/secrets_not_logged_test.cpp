// Issue 11, acceptance 5: at the highest verbosity, the log lines of a run that authenticates every
// way (client certificate, bearer token, token file, exec plugin, basic auth) and writes, reads,
// lists and watches (through the cache) a Secret hold no token, no client key or certificate, no
// password and none of the Secret's values, plain or base64. The run must also have logged the
// kinds of lines it exercises (requests, headers, a discovery round, a cache sync, the exec
// plugin, a re-authentication), so it cannot pass by logging nothing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "ctrl/api/namespace.hpp"
#include "ctrl/api/secret.hpp"
#include "ctrl/cache/cache.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/base64.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/log_capture.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;

constexpr int kHighestVerbosity = 10;

Context Within(std::chrono::milliseconds timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

std::string RandomHex() {
    std::random_device random;
    std::string out;
    for (int i = 0; i < 24; ++i)
        out += "0123456789abcdef"[random() % 16];
    return out;
}

std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream contents;
    contents << in.rdbuf();
    return contents.str();
}

// The longest line of a PEM file: a full line of its base64 body, found nowhere else.
std::string DistinctiveLine(const std::string& pem_path) {
    std::istringstream in(ReadFile(pem_path));
    std::string longest;
    for (std::string line; std::getline(in, line);) {
        if (line.find("-----") == std::string::npos && line.size() > longest.size())
            longest = line;
    }
    return longest;
}

rest::Config AdminConfig() {
    return ctrl::testing::SharedAdminConfig();
}

// The admin config without its client certificate: for users who authenticate otherwise.
rest::Config WithoutCertificate() {
    rest::Config config = AdminConfig();
    config.tls.client_cert_pem.clear();
    config.tls.client_key_pem.clear();
    return config;
}

std::string Token(const char* user) {
    StatusOr<std::string> token = ctrl::testing::SharedControlPlane().Token(user);
    EXPECT_TRUE(token.Ok()) << token.GetStatus();
    return token.ValueOr("");
}

class SecretsNotLoggedTest : public ::testing::Test {
  protected:
    void SetUp() override {}

    void TearDown() override {
        stop_.Cancel();
        for (int i = 0; i < 500 && cache_ && !cache_->Stopped(); ++i)
            std::this_thread::sleep_for(10ms);
        loop_.Stop();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    std::unique_ptr<client::Client> ClientFor(const rest::Config& config) {
        client::Options options;
        options.registry = &registry_;
        StatusOr<std::unique_ptr<client::Client>> made = client::New(config, loop_.Executor(), std::move(options));
        EXPECT_TRUE(made.Ok()) << made.GetStatus();
        return made.Ok() ? std::move(made).Value() : nullptr;
    }

    // Reads the Secret as the user config names; the read must succeed.
    void ReadAs(const rest::Config& config, const std::string& who) {
        std::unique_ptr<client::Client> client = ClientFor(config);
        ASSERT_NE(client, nullptr);
        api::Secret secret;
        const ObjectKey key{ns_, kSecretName};
        Status read = Run(client->Get(Within(30s), key, secret));
        EXPECT_TRUE(read.Ok()) << who << ": " << read;
    }

    // A cache on the admin's certificate, started (see Cache::Start).
    void StartCache() {
        StatusOr<std::unique_ptr<rest::RestClient>> rest =
            rest::RestClient::New(AdminConfig(), loop_.Executor(), registry_);
        ASSERT_TRUE(rest.Ok()) << rest.GetStatus();
        std::shared_ptr<rest::RestClient> shared(std::move(rest).Value());
        auto discovery =
            std::make_shared<discovery::DiscoveryClient>(*shared, discovery::DiscoveryOptions{}, registry_);
        auto mapper =
            std::make_shared<discovery::LazyRESTMapper>(discovery, discovery::LazyRESTMapperOptions{}, registry_);
        cache_ = std::make_unique<cache::Cache>(shared, mapper, loop_.Executor(), cache::CacheOptions{});
        cache_->Start(stop_);
    }

    static constexpr char kSecretName[] = "db-credentials";
    ctrl::testing::IoLoop loop_;
    metrics::Registry registry_;
    std::unique_ptr<cache::Cache> cache_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::string ns_ = "log-" + RandomHex().substr(0, 8);
};

TEST_F(SecretsNotLoggedTest, NoSecretReachesALogLineAtTheHighestVerbosity) {
    const std::string data_value = "data-value-" + RandomHex();
    const std::string string_value = "string-value-" + RandomHex();
    const std::string updated_value = "updated-value-" + RandomHex();
    const std::string basic_password = "basic-password-" + RandomHex();
    const std::string revoked_token = "revoked-token-" + RandomHex();
    const std::string token = Token("log-token-user");
    const std::string exec_token = Token("log-exec-user");
    ctrl::testing::ControlPlane& plane = ctrl::testing::SharedControlPlane();
    const std::string key_line = DistinctiveLine(plane.AdminKeyFile());
    const std::string cert_line = DistinctiveLine(plane.AdminCertFile());
    ASSERT_GE(key_line.size(), 40u);
    ASSERT_GE(cert_line.size(), 40u);

    ctrl::testing::LogCapture capture(kHighestVerbosity);

    // The admin (client certificate) creates, reads and lists the Secret.
    std::unique_ptr<client::Client> admin = ClientFor(AdminConfig());
    ASSERT_NE(admin, nullptr);
    api::Namespace ns;
    ns.SetName(ns_);
    ASSERT_TRUE(Run(admin->Create(Within(30s), ns)).Ok());
    api::Secret secret;
    secret.SetNamespace(ns_);
    secret.SetName(kSecretName);
    secret.SetDataValue("password", data_value);
    secret.SetStringDataValue("apiKey", string_value);
    Status created = Run(admin->Create(Within(30s), secret));
    ASSERT_TRUE(created.Ok()) << created;
    const ObjectKey key{ns_, kSecretName};
    api::Secret read;
    ASSERT_TRUE(Run(admin->Get(Within(30s), key, read)).Ok());
    ASSERT_EQ(read.DataValue("apiKey").ValueOr(""), string_value) << "the server merged stringData into data";
    api::SecretList list;
    client::ListOptions in_namespace;
    in_namespace.namespace_name = ns_;
    ASSERT_TRUE(Run(admin->List(Within(30s), list, in_namespace)).Ok());
    ASSERT_EQ(list.Items().size(), 1u);

    // The cache lists and watches it; an update arrives through the watch.
    StartCache();
    api::Secret cached;
    Status from_cache = Run(cache_->Get(Within(60s), key, cached));
    ASSERT_TRUE(from_cache.Ok()) << from_cache;
    read.SetDataValue("rotated", updated_value);
    Status updated = Run(admin->Update(Within(30s), read));
    ASSERT_TRUE(updated.Ok()) << updated;
    bool seen = false;
    for (int i = 0; i < 300 && !seen; ++i) {
        api::Secret now;
        seen = Run(cache_->Get(Within(30s), key, now)).Ok() && now.DataValue("rotated").ValueOr("") == updated_value;
        if (!seen)
            std::this_thread::sleep_for(100ms);
    }
    ASSERT_TRUE(seen) << "the cache did not see the update within 30 s";
    api::SecretList cached_list;
    ASSERT_TRUE(Run(cache_->List(Within(30s), cached_list, in_namespace)).Ok());

    // Every other way to authenticate reads it too.
    rest::Config bearer = WithoutCertificate();
    bearer.bearer_token = token;
    ReadAs(bearer, "bearer token");

    const std::string token_file = plane.WorkDir() + "/log-token-" + RandomHex().substr(0, 8);
    std::ofstream(token_file) << token << "\n";
    rest::Config from_file = WithoutCertificate();
    from_file.bearer_token_file = token_file;
    ReadAs(from_file, "token file");

    rest::Config exec = WithoutCertificate();
    exec.exec = rest::ExecConfig();
    exec.exec->api_version = "client.authentication.k8s.io/v1";
    exec.exec->command = testing::RepoPath("test/integration/rest/testdata/exec-plugin.sh");
    // The first credential is refused (401), so the plugin runs again and the second is used.
    exec.exec->env = {{"COUNT_FILE", plane.WorkDir() + "/log-exec-count-" + RandomHex().substr(0, 8)},
                      {"FIRST_TOKEN", revoked_token},
                      {"LATER_TOKEN", exec_token},
                      {"EXPIRY_SECONDS", "3600"}};
    exec.exec->interactive_mode = "Never";
    ReadAs(exec, "exec plugin");

    rest::Config basic = WithoutCertificate();
    basic.username = "log-basic-user";
    basic.password = basic_password;
    std::unique_ptr<client::Client> basic_client = ClientFor(basic);
    ASSERT_NE(basic_client, nullptr);
    api::Secret refused;
    // kube-apiserver has no basic auth: it takes the request as anonymous's and refuses it.
    const Status basic_read = Run(basic_client->Get(Within(30s), key, refused));
    EXPECT_TRUE(IsUnauthorized(basic_read) || IsForbidden(basic_read)) << basic_read;

    stop_.Cancel();
    for (int i = 0; i < 500 && !cache_->Stopped(); ++i)
        std::this_thread::sleep_for(10ms);

    const std::vector<std::pair<std::string, std::string>> secrets = {
        {"bearer token", token},
        {"exec plugin token", exec_token},
        {"refused exec plugin token", revoked_token},
        {"basic-auth password", basic_password},
        {"basic-auth header value", Base64Encode("log-basic-user:" + basic_password)},
        {"client key (a line of its PEM)", key_line},
        {"client certificate (a line of its PEM)", cert_line},
        {"Secret data value", data_value},
        {"Secret data value, base64", Base64Encode(data_value)},
        {"Secret stringData value", string_value},
        {"Secret stringData value, base64", Base64Encode(string_value)},
        {"Secret updated value", updated_value},
        {"Secret updated value, base64", Base64Encode(updated_value)},
    };
    const std::vector<std::string> lines = capture.Lines();
    for (const auto& [what, value] : secrets) {
        ASSERT_FALSE(value.empty()) << what;
        for (const std::string& line : lines)
            EXPECT_EQ(line.find(value), std::string::npos) << what << " in the log line: " << line;
    }
    // Issue 17, part 4: nor in a metric (label values included) or the error of the refused request.
    const std::string metrics_text = registry_.SerializeText();
    ASSERT_NE(metrics_text.find("rest_client_requests_total"), std::string::npos);
    for (const auto& [what, value] : secrets) {
        EXPECT_EQ(metrics_text.find(value), std::string::npos) << what << " in the metrics";
        EXPECT_EQ(basic_read.ToString().find(value), std::string::npos) << what << " in: " << basic_read;
    }

    // What must have been logged (each kind seen in the text lines).
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"a request line", "rest] \"request\" verb=\"POST\""},
        {"a watch request line", "watch=true"},
        {"request headers with the credential redacted", "Authorization=\"<redacted>\""},
        {"a discovery round", "discovery] \"discovery round\""},
        {"a cache list", "cache] \"listing\""},
        {"a cache sync", "cache] \"synced\""},
        {"a watch", "\"watch opened\""},
        {"a watch event", "\"event\" resource=\"secrets.v1\""},
        {"the exec plugin running", "\"running the exec credential plugin\""},
        {"a re-authentication after a 401", "\"unauthorized: dropping cached credentials and retrying once\""},
        {"the token file read", "\"read the bearer token file\""},
    };
    for (const auto& [what, needle] : expected)
        EXPECT_FALSE(capture.LinesWith(needle).empty()) << "no " << what << " (a line with " << needle << ")";
    if (std::getenv("CTRL_LOG_TEST_PRINT") != nullptr) {
        for (const std::string& line : lines)
            std::cout << line << "\n";
    }
    std::cout << "checked " << lines.size() / 2 << " log lines for " << secrets.size() << " secret values\n";
}

}  // namespace
}  // namespace ctrl
