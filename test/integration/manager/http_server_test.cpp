// The manager's HTTP server against the real control plane (issue 14, acceptance 2 and 3):
// secure metrics authenticate ServiceAccount tokens with a TokenReview and authorise them with a
// SubjectAccessReview (401 / 403 / 200), and a real Prometheus scrapes /metrics over HTTP and,
// with a bearer token, over HTTPS; promtool finds nothing to complain about in a scrape.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <random>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/client/client.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/metrics/process_metrics.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/server/access_reviewer.hpp"
#include "ctrl/server/auth_filter.hpp"
#include "ctrl/server/health_checks.hpp"
#include "ctrl/server/http_server.hpp"
#include "ctrl/server/metrics_handler.hpp"
#include "test/support/command.hpp"
#include "test/support/eventually.hpp"
#include "test/support/free_port.hpp"
#include "test/support/io_loop.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/process.hpp"
#include "test/support/prometheus_server.hpp"

namespace ctrl::server {
namespace {

using ctrl::testing::Command;
using ctrl::testing::CommandResult;
using ctrl::testing::Curl;
using ctrl::testing::CurlResult;
using ctrl::testing::Occurrences;
using ctrl::testing::RunCommand;
using ::testing::HasSubstr;

Context Within(std::chrono::milliseconds timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

std::string RandomSuffix() {
    std::random_device device;
    return std::to_string(device() % 1000000);
}

class HttpServerIntegrationTest : public ::testing::Test {
  protected:
    void SetUp() override {
        StatusOr<std::unique_ptr<client::Client>> made =
            client::New(ctrl::testing::SharedAdminConfig(), loop_.Executor());
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        client_ = std::move(*made);
        ns_ = "metrics-auth-" + RandomSuffix();
        ASSERT_TRUE(CreateJson(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + ns_ + R"("}})").Ok());

        registry_
            .AddCounter("controller_runtime_reconcile_total", "Total number of reconciliations per controller",
                        {"controller", "result"})
            .WithLabelValues({"podlister", "success"})
            .Inc(5);
        metrics::RegisterProcessMetrics(registry_);
    }

    void TearDown() override {
        for (auto& [ctx, done] : running_) {
            ctx.Cancel();
            EXPECT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready);
        }
        running_.clear();
        servers_.clear();
        client_.reset();
        loop_.Stop();
    }

    Status CreateJson(const std::string& json) {
        StatusOr<Object> object = Object::Parse(json);
        if (!object.Ok())
            return object.GetStatus();
        return loop_.Run(client_->Create(Within(std::chrono::seconds(30)), *object));
    }

    // A ServiceAccount of the test namespace and a token for it (the serviceaccounts/token subresource).
    std::string ServiceAccountToken(const std::string& name) {
        StatusOr<Object> sa = Object::Parse(R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":")" +
                                            name + R"(","namespace":")" + ns_ + R"("}})");
        EXPECT_TRUE(sa.Ok());
        Status created = loop_.Run(client_->Create(Within(std::chrono::seconds(30)), *sa));
        EXPECT_TRUE(created.Ok()) << created;
        StatusOr<Object> request = Object::Parse(
            R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":3600}})");
        EXPECT_TRUE(request.Ok());
        Status issued =
            loop_.Run(client_->SubResource("token").Create(Within(std::chrono::seconds(30)), *sa, *request));
        EXPECT_TRUE(issued.Ok()) << issued;
        return request->NestedString({"status", "token"}).ValueOr("");
    }

    // A ClusterRole granting get on the non-resource URL /metrics, bound to a ServiceAccount.
    void GrantMetricsReader(const std::string& service_account) {
        const std::string role = "metrics-reader-" + ns_;
        ASSERT_TRUE(CreateJson(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",)"
                               R"("metadata":{"name":")" +
                               role + R"("},"rules":[{"nonResourceURLs":["/metrics"],"verbs":["get"]}]})")
                        .Ok());
        ASSERT_TRUE(CreateJson(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",)"
                               R"("metadata":{"name":")" +
                               role +
                               R"("},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",)"
                               R"("name":")" +
                               role + R"("},"subjects":[{"kind":"ServiceAccount","name":")" + service_account +
                               R"(","namespace":")" + ns_ + R"("}]})")
                        .Ok());
    }

    // Starts a server on an ephemeral loopback port serving /metrics (behind the auth filter
    // when secure) and /healthz; returns it.
    HttpServer& StartServer(bool secure) {
        HttpServerOptions options;
        options.bind_address = "127.0.0.1:0";
        options.name = secure ? "secure-metrics" : "metrics";
        options.serve_tls = secure;
        StatusOr<std::unique_ptr<HttpServer>> made = HttpServer::New(loop_.Executor(), options);
        EXPECT_TRUE(made.Ok()) << made.GetStatus();
        HttpServer& server = **made;
        HttpHandler metrics = MetricsHandler(registry_);
        if (secure) {
            AuthFilterOptions auth;
            auth.denied_ttl = std::chrono::milliseconds(200);  // RBAC granted during a test shows soon
            metrics = WithAuthenticationAndAuthorization(NewClientAccessReviewer(*client_), metrics, auth);
        }
        server.Handle("/metrics", metrics);
        HealthChecks checks;
        checks.Register(server, "/healthz");
        Context ctx = Context::WithCancel(Context::Background());
        auto done = std::make_shared<std::promise<void>>();
        running_.emplace_back(ctx, done->get_future());
        boost::asio::co_spawn(loop_.Executor(), server.Run(ctx),
                              [done](std::exception_ptr, Status) { done->set_value(); });
        servers_.push_back(std::move(*made));
        return server;
    }

    metrics::Registry registry_;
    ctrl::testing::IoLoop loop_;
    std::unique_ptr<client::Client> client_;
    std::string ns_;
    std::vector<std::unique_ptr<HttpServer>> servers_;
    std::vector<std::pair<Context, std::future<void>>> running_;
};

TEST_F(HttpServerIntegrationTest, SecureMetricsNeedAValidTokenAndTheRight) {
    const std::string nobody = ServiceAccountToken("nobody");
    const std::string scraper = ServiceAccountToken("scraper");
    ASSERT_FALSE(nobody.empty());
    ASSERT_FALSE(scraper.empty());
    HttpServer& server = StartServer(/*secure=*/true);
    const std::string url = server.Url() + "/metrics";
    ASSERT_EQ(url.rfind("https://", 0), 0u);

    EXPECT_EQ(Curl(url).status, 401);
    EXPECT_EQ(Curl(url, "not-a-token").status, 401);
    CurlResult denied = Curl(url, nobody);
    EXPECT_EQ(denied.status, 403);
    EXPECT_THAT(denied.body, HasSubstr("system:serviceaccount:" + ns_ + ":nobody"));
    EXPECT_EQ(Curl(url, scraper).status, 403);  // no RBAC yet

    GrantMetricsReader("scraper");
    CurlResult allowed;
    EXPECT_TRUE(ctrl::testing::Eventually(
        [&] {
            allowed = Curl(url, scraper);
            return allowed.status == 200;
        },
        ctrl::testing::kTestWait, std::chrono::milliseconds(250)))
        << allowed.status << " " << allowed.body;
    EXPECT_THAT(allowed.body,
                HasSubstr("controller_runtime_reconcile_total{controller=\"podlister\",result=\"success\"} 5"));
    // The other account is still refused; health probes need no token.
    EXPECT_EQ(Curl(url, nobody).status, 403);
    EXPECT_EQ(Curl(server.Url() + "/healthz").status, 200);
}

TEST_F(HttpServerIntegrationTest, PrometheusScrapesOverHttpAndHttpsWithAToken) {
    const std::string scraper = ServiceAccountToken("prometheus");
    ASSERT_FALSE(scraper.empty());
    GrantMetricsReader("prometheus");
    HttpServer& plain = StartServer(/*secure=*/false);
    HttpServer& secure = StartServer(/*secure=*/true);
    // The token works before Prometheus starts (RBAC reaches the authorizer's informer first).
    ASSERT_TRUE(ctrl::testing::Eventually([&] { return Curl(secure.Url() + "/metrics", scraper).status == 200; },
                                          ctrl::testing::kTestWait, std::chrono::milliseconds(250)));

    // promtool lints a scrape.
    Command promtool;
    promtool.argv = {"promtool", "check", "metrics"};
    promtool.stdin_data = Curl(plain.Url() + "/metrics").body;
    StatusOr<CommandResult> lint = RunCommand(promtool);
    ASSERT_TRUE(lint.Ok()) << lint.GetStatus();
    EXPECT_EQ(lint->exit_code, 0) << lint->out << lint->err;
    EXPECT_EQ(lint->out + lint->err, "");

    ctrl::testing::PrometheusServer prometheus;
    const std::string configs =
        "  - job_name: plain\n    static_configs:\n      - targets: ['127.0.0.1:" + std::to_string(plain.BoundPort()) +
        "']\n  - job_name: secure\n    scheme: https\n    tls_config:\n      insecure_skip_verify: true\n"
        "    authorization:\n      credentials: '" +
        scraper + "'\n    static_configs:\n      - targets: ['127.0.0.1:" + std::to_string(secure.BoundPort()) + "']\n";
    ASSERT_TRUE(prometheus.Start(configs).Ok());

    std::string targets;
    EXPECT_TRUE(ctrl::testing::Eventually(
        [&] {
            targets = prometheus.Api("/api/v1/targets?state=active");
            return Occurrences(targets, "\"health\":\"up\"") == 2;
        },
        std::chrono::seconds(60), std::chrono::milliseconds(500)))
        << targets << prometheus.Log();

    std::string query;
    EXPECT_TRUE(ctrl::testing::Eventually(
        [&] {
            query = prometheus.Api("/api/v1/query?query=controller_runtime_reconcile_total");
            return Occurrences(query, "\"controller\":\"podlister\"") == 2;
        },
        std::chrono::seconds(60), std::chrono::milliseconds(500)))
        << query << prometheus.Log();
    EXPECT_THAT(query, HasSubstr("\"job\":\"plain\""));
    EXPECT_THAT(query, HasSubstr("\"job\":\"secure\""));
    EXPECT_THAT(query, HasSubstr("\"5\""));
    const std::string process = prometheus.Api("/api/v1/query?query=process_resident_memory_bytes");
    EXPECT_EQ(Occurrences(process, "\"__name__\":\"process_resident_memory_bytes\""), 2) << process;
}

}  // namespace
}  // namespace ctrl::server
