// The Beast transport's TLS against an in-process loopback server with a throw-away PKI: CA
// verification, IP and DNS names, SNI, client certificates, insecure_skip_verify, and bad PEM
// data refused at construction. Needs the openssl command (test/support/pki.hpp).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/beast_transport.hpp"
#include "test/fake/rest/beast_test_server.hpp"
#include "test/support/eventually.hpp"
#include "test/support/pki.hpp"

namespace ctrl::rest {
namespace {

using testing::BeastTestServer;
using testing::Get;
using ::testing::HasSubstr;
using testing::ServerExchange;

std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream out;
    out << in.rdbuf();
    return out.str();
}

// One PKI per test process: a CA with a serving certificate (IP:127.0.0.1, DNS:localhost) and a
// client certificate, and an unrelated CA.
struct TestPki {
    std::string ca_file, serving_cert_file, serving_key_file;
    std::string ca_pem, client_cert_pem, client_key_pem, other_ca_pem, other_key_pem;
};

const TestPki& SharedPki() {
    static const TestPki pki = [] {
        TestPki out;
        std::string root = (std::filesystem::temp_directory_path() / "ctrl-beast-tls-XXXXXX").string();
        if (mkdtemp(root.data()) == nullptr)
            std::abort();
        std::filesystem::create_directories(root + "/a");
        std::filesystem::create_directories(root + "/b");
        auto ca = ctrl::testing::Pki::Create(root + "/a");
        auto other = ctrl::testing::Pki::Create(root + "/b");
        EXPECT_TRUE(ca.Ok()) << ca.GetStatus();
        EXPECT_TRUE(other.Ok()) << other.GetStatus();
        if (!ca.Ok() || !other.Ok())
            return out;
        auto serving = ca->IssueServing("server", "localhost");
        auto client = ca->IssueClient("client", "alice", {"ctrl:testers"});
        auto other_key = other->IssueClient("stranger", "bob", {});
        EXPECT_TRUE(serving.Ok() && client.Ok() && other_key.Ok());
        out.ca_file = ca->CaCert();
        out.serving_cert_file = serving->cert;
        out.serving_key_file = serving->key;
        out.ca_pem = ReadFile(ca->CaCert());
        out.client_cert_pem = ReadFile(client->cert);
        out.client_key_pem = ReadFile(client->key);
        out.other_ca_pem = ReadFile(other->CaCert());
        out.other_key_pem = ReadFile(other_key->key);
        return out;
    }();
    return pki;
}

TlsOptions Trusting(std::string ca_pem, std::string server_name = "") {
    TlsOptions tls;
    tls.ca_pem = std::move(ca_pem);
    tls.server_name = std::move(server_name);
    return tls;
}

TlsOptions Insecure(std::string ca_pem, std::string server_name) {
    TlsOptions tls = Trusting(std::move(ca_pem), std::move(server_name));
    tls.insecure_skip_verify = true;
    return tls;
}

TlsOptions WithClientCert(TlsOptions tls, std::string cert_pem, std::string key_pem) {
    tls.client_cert_pem = std::move(cert_pem);
    tls.client_key_pem = std::move(key_pem);
    return tls;
}

Task<void> RespondOk(ServerExchange& exchange) {
    co_await exchange.Respond(200, "ok");
}

class BeastTlsTest : public ::testing::Test {
  protected:
    void SetUp() override { ASSERT_FALSE(SharedPki().ca_pem.empty()); }

    BeastTestServer::Options ServerOptions(bool require_client_cert = false) {
        return {.cert_file = SharedPki().serving_cert_file,
                .key_file = SharedPki().serving_key_file,
                .client_ca_file = require_client_cert ? SharedPki().ca_file : ""};
    }
    StatusOr<HttpResponse> GetVersion(const std::string& server, TlsOptions tls) {
        TransportOptions options;
        options.server = server;
        options.tls = std::move(tls);
        auto transport = NewBeastTransport(io_.get_executor(), options);
        if (!transport.Ok())
            return transport.GetStatus();
        return RunSync(io_, (*transport)->Send(ctrl::testing::TestContext(), Get("/version")));
    }

    boost::asio::io_context io_;
};

TEST_F(BeastTlsTest, VerifiesAnIpAddressAgainstTheIpSanAndSendsNoSni) {
    BeastTestServer server(RespondOk, ServerOptions());
    auto response = GetVersion(server.Url(), Trusting(SharedPki().ca_pem));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->body, "ok");
    EXPECT_EQ(server.LastServerName(), "");
}

TEST_F(BeastTlsTest, VerifiesAndSendsTheServerNameOverride) {
    BeastTestServer server(RespondOk, ServerOptions());
    auto response = GetVersion(server.Url(), Trusting(SharedPki().ca_pem, "localhost"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(server.LastServerName(), "localhost");
}

TEST_F(BeastTlsTest, ANameTheCertificateDoesNotCarryFails) {
    BeastTestServer server(RespondOk, ServerOptions());
    auto response = GetVersion(server.Url(), Trusting(SharedPki().ca_pem, "api.example.com"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("TLS handshake with " + server.Url() +
                                                          " failed: certificate verify failed (hostname mismatch)"));

    auto by_ip = GetVersion(server.Url(), Trusting(SharedPki().ca_pem, "127.0.0.2"));
    EXPECT_TRUE(IsUnavailable(by_ip.GetStatus())) << by_ip.GetStatus();
    EXPECT_THAT(by_ip.GetStatus().Message(), HasSubstr("(IP address mismatch)"));
}

TEST_F(BeastTlsTest, AWrongCaFailsNamingTheServerAndTheReason) {
    BeastTestServer server(RespondOk, ServerOptions());
    auto response = GetVersion(server.Url(), Trusting(SharedPki().other_ca_pem));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(),
                HasSubstr("TLS handshake with " + server.Url() + " failed: certificate verify failed ("));
    EXPECT_EQ(server.Requests().size(), 0u);
}

TEST_F(BeastTlsTest, TheSystemTrustStoreDoesNotTrustAThrowAwayCa) {
    BeastTestServer server(RespondOk, ServerOptions());
    auto response = GetVersion(server.Url(), {});
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("certificate verify failed"));
}

TEST_F(BeastTlsTest, InsecureSkipVerifyAcceptsAnyCertificate) {
    BeastTestServer server(RespondOk, ServerOptions());
    auto response = GetVersion(server.Url(), Insecure(SharedPki().other_ca_pem, "api.example.com"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(server.LastServerName(), "api.example.com");
}

TEST_F(BeastTlsTest, PresentsTheClientCertificate) {
    BeastTestServer server(RespondOk, ServerOptions(/*require_client_cert=*/true));
    auto response = GetVersion(server.Url(), WithClientCert(Trusting(SharedPki().ca_pem), SharedPki().client_cert_pem,
                                                            SharedPki().client_key_pem));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_THAT(server.LastClientSubject(), HasSubstr("CN=alice"));

    auto without = GetVersion(server.Url(), Trusting(SharedPki().ca_pem));
    EXPECT_TRUE(IsUnavailable(without.GetStatus())) << without.GetStatus();
}

TEST(BeastTlsOptionsTest, BadPemDataIsABadRequestNamingTheField) {
    boost::asio::io_context io;
    auto with = [&](TlsOptions tls) {
        TransportOptions options;
        options.server = "https://127.0.0.1:6443";
        options.tls = std::move(tls);
        return NewBeastTransport(io.get_executor(), options).GetStatus();
    };
    Status ca = with(Trusting("not a certificate"));
    EXPECT_TRUE(IsBadRequest(ca)) << ca;
    EXPECT_THAT(ca.Message(), HasSubstr("ca_pem"));

    Status cert = with(WithClientCert({}, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
                                      SharedPki().client_key_pem));
    EXPECT_TRUE(IsBadRequest(cert)) << cert;
    EXPECT_THAT(cert.Message(), HasSubstr("client_cert_pem"));

    Status key = with(WithClientCert({}, SharedPki().client_cert_pem, "garbage"));
    EXPECT_TRUE(IsBadRequest(key)) << key;
    EXPECT_THAT(key.Message(), HasSubstr("client_key_pem"));

    Status mismatch = with(WithClientCert({}, SharedPki().client_cert_pem, SharedPki().other_key_pem));
    EXPECT_TRUE(IsBadRequest(mismatch)) << mismatch;
    EXPECT_THAT(mismatch.Message(), HasSubstr("does not match"));

    Status half = with(WithClientCert({}, SharedPki().client_cert_pem, ""));
    EXPECT_TRUE(IsBadRequest(half)) << half;
    EXPECT_THAT(half.Message(), HasSubstr("client_key_pem"));

    EXPECT_TRUE(with(Trusting(SharedPki().ca_pem + SharedPki().other_ca_pem)).Ok());
    TransportOptions ftp;
    ftp.server = "ftp://x";
    EXPECT_TRUE(IsBadRequest(NewBeastTransport(io.get_executor(), ftp).GetStatus()));
}

}  // namespace
}  // namespace ctrl::rest
