// Each way of authenticating, proven against the real API server (issue 3, acceptance 2):
// client certificate (the admin, in every other test), static bearer token, a token file that
// changes between requests, and an exec plugin whose credential is cached until it expires and
// re-run after a 401.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test/integration/rest/rest_test_util.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::rest::test {
namespace {

constexpr char kAlice[] = "token-alice";
constexpr char kBob[] = "token-bob";

std::string Token(const char* user) {
    StatusOr<std::string> token = ctrl::testing::SharedControlPlane().Token(user);
    EXPECT_TRUE(token.Ok()) << token.GetStatus();
    return token.ValueOr("");
}

// The config of a user who proves who they are with something other than the admin cert.
Config AnonymousBase(TransportKind kind) {
    Config config = AdminConfig(kind);
    config.tls.client_cert_pem.clear();
    config.tls.client_key_pem.clear();
    return config;
}

// Who the server says the client is (SelfSubjectReview).
StatusOr<std::string> WhoAmI(ClientFixture& client) {
    CTRL_ASSIGN_OR_RETURN(Object review,
                          client.SendForObject(RequestBuilder("POST")
                                                   .AbsPath("/apis/authentication.k8s.io/v1/selfsubjectreviews")
                                                   .Body(R"({"apiVersion":"authentication.k8s.io/v1",)"
                                                         R"("kind":"SelfSubjectReview"})")));
    return review.NestedString({"status", "userInfo", "username"});
}

std::string WorkFile(const std::string& name) {
    return ctrl::testing::SharedControlPlane().WorkDir() + "/" + UniqueName(name);
}

void WriteFile(const std::string& path, const std::string& content) {
    std::ofstream(path, std::ios::trunc) << content;
}

int ReadCount(const std::string& path) {
    std::ifstream in(path);
    int n = 0;
    in >> n;
    return n;
}

class AuthTest : public ::testing::TestWithParam<TransportKind> {};

TEST_P(AuthTest, ClientCertificate) {
    ClientFixture admin(AdminConfig(GetParam()));
    StatusOr<std::string> user = WhoAmI(admin);
    ASSERT_TRUE(user.Ok()) << user.GetStatus();
    EXPECT_EQ(*user, "admin");
}

TEST_P(AuthTest, StaticBearerToken) {
    Config config = AnonymousBase(GetParam());
    config.bearer_token = Token(kAlice);
    ClientFixture alice(config);
    StatusOr<std::string> user = WhoAmI(alice);
    ASSERT_TRUE(user.Ok()) << user.GetStatus();
    EXPECT_EQ(*user, kAlice);
}

TEST_P(AuthTest, TokenFileIsReadAgainWhenItChanges) {
    const std::string file = WorkFile("token");
    WriteFile(file, Token(kAlice) + "\n");
    Config config = AnonymousBase(GetParam());
    config.bearer_token_file = file;
    ClientFixture client(config);
    StatusOr<std::string> first = WhoAmI(client);
    ASSERT_TRUE(first.Ok()) << first.GetStatus();
    EXPECT_EQ(*first, kAlice);

    WriteFile(file, Token(kBob) + "\n");
    StatusOr<std::string> second = WhoAmI(client);
    ASSERT_TRUE(second.Ok()) << second.GetStatus();
    EXPECT_EQ(*second, kBob);
}

ExecConfig Plugin(const std::string& count_file, const std::string& first, const std::string& later,
                  int expiry_seconds) {
    ExecConfig exec;
    exec.api_version = "client.authentication.k8s.io/v1";
    exec.command = ::ctrl::testing::RepoPath("test/integration/rest/testdata") + "/exec-plugin.sh";
    exec.env = {{"COUNT_FILE", count_file},
                {"FIRST_TOKEN", first},
                {"LATER_TOKEN", later},
                {"EXPIRY_SECONDS", std::to_string(expiry_seconds)}};
    exec.interactive_mode = "Never";
    return exec;
}

TEST_P(AuthTest, ExecPluginCredentialIsCachedUntilItExpires) {
    const std::string count = WorkFile("exec-count");
    Config config = AnonymousBase(GetParam());
    config.exec = Plugin(count, Token(kAlice), Token(kAlice), 3600);
    ClientFixture client(config);
    for (int i = 0; i < 3; ++i) {
        StatusOr<std::string> user = WhoAmI(client);
        ASSERT_TRUE(user.Ok()) << user.GetStatus();
        EXPECT_EQ(*user, kAlice);
    }
    EXPECT_EQ(ReadCount(count), 1) << "three requests, one run of the plugin";

    const std::string expired_count = WorkFile("exec-count");
    config.exec = Plugin(expired_count, Token(kAlice), Token(kBob), -60);
    ClientFixture expired(config);
    ASSERT_TRUE(WhoAmI(expired).Ok());
    StatusOr<std::string> user = WhoAmI(expired);
    ASSERT_TRUE(user.Ok()) << user.GetStatus();
    EXPECT_EQ(*user, kBob) << "an expired credential is fetched again";
    EXPECT_EQ(ReadCount(expired_count), 2);
}

TEST_P(AuthTest, ExecPluginRunsAgainAfterA401) {
    const std::string count = WorkFile("exec-count");
    Config config = AnonymousBase(GetParam());
    config.exec = Plugin(count, "revoked-token", Token(kBob), 3600);
    ClientFixture client(config);
    StatusOr<std::string> user = WhoAmI(client);
    ASSERT_TRUE(user.Ok()) << user.GetStatus();
    EXPECT_EQ(*user, kBob);
    EXPECT_EQ(ReadCount(count), 2) << "the 401 for the first credential made the plugin run again";
}

INSTANTIATE_TEST_SUITE_P(Transports, AuthTest, ::testing::Values(TransportKind::kBeast, TransportKind::kCppRest),
                         TransportName);

}  // namespace
}  // namespace ctrl::rest::test
