// The Boost.Beast transport on its own, against the real control plane: TLS with the admin's
// client certificate, keep-alive reuse counted through a TCP proxy, a round-trip rate, a watch
// read as its bytes arrive, TLS verification failures and their messages, insecure_skip_verify,
// and a cancelled Context ending a pending watch read. The shared conformance suite
// (conformance_test.cpp) covers it through RestClient as well.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/beast_transport.hpp"
#include "test/integration/rest/rest_test_util.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/pki.hpp"

namespace ctrl::rest {
namespace {

namespace net = boost::asio;
using net::ip::tcp;
using ::testing::HasSubstr;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

using test::ReadFile;

HttpRequest Get(std::string target) {
    HttpRequest request;
    request.target = std::move(target);
    request.SetHeader("Accept", "application/json");
    return request;
}

using ctrl::testing::Within;

// Forwards TCP connections from a loopback port to the apiserver and counts them: how the test
// sees connection reuse from outside the transport. TLS passes through untouched.
class CountingProxy final {
  public:
    explicit CountingProxy(int target_port) : target_port_(target_port), acceptor_(io_) {
        const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
        acceptor_.open(endpoint.protocol());
        acceptor_.bind(endpoint);
        acceptor_.listen();
        net::co_spawn(io_, Accept(), net::detached);
        thread_ = std::thread([this] { io_.run(); });
    }
    ~CountingProxy() {
        io_.stop();
        thread_.join();
    }
    std::string Url() const { return "https://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()); }
    int Connections() const { return connections_; }

  private:
    Task<void> Accept() {
        for (;;) {
            boost::system::error_code ec;
            tcp::socket client = co_await acceptor_.async_accept(net::redirect_error(net::use_awaitable, ec));
            if (ec)
                co_return;
            ++connections_;
            auto upstream = std::make_shared<tcp::socket>(io_);
            upstream->connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), target_port_), ec);
            if (ec)
                continue;
            auto downstream = std::make_shared<tcp::socket>(std::move(client));
            net::co_spawn(io_, Pipe(downstream, upstream), net::detached);
            net::co_spawn(io_, Pipe(upstream, downstream), net::detached);
        }
    }
    static Task<void> Pipe(std::shared_ptr<tcp::socket> from, std::shared_ptr<tcp::socket> to) {
        char buffer[16384];
        for (;;) {
            boost::system::error_code ec;
            const std::size_t n =
                co_await from->async_read_some(net::buffer(buffer), net::redirect_error(net::use_awaitable, ec));
            if (ec)
                break;
            co_await net::async_write(*to, net::buffer(buffer, n), net::redirect_error(net::use_awaitable, ec));
            if (ec)
                break;
        }
        boost::system::error_code ignored;
        to->shutdown(tcp::socket::shutdown_send, ignored);
    }

    int target_port_;
    net::io_context io_;
    tcp::acceptor acceptor_;
    std::atomic<int> connections_ = 0;
    std::thread thread_;
};

int ApiserverPort() {
    const std::string& host = testing::SharedControlPlane().Host();
    return std::stoi(host.substr(host.rfind(':') + 1));
}

class BeastTransportIntegrationTest : public ::testing::Test {
  protected:
    std::unique_ptr<Transport> New(TransportOptions options) {
        auto transport = NewBeastTransport(io_.get_executor(), std::move(options));
        EXPECT_TRUE(transport.Ok()) << transport.GetStatus();
        return transport.Ok() ? std::move(transport).Value() : nullptr;
    }
    template <typename T>
    T Run(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    StatusOr<HttpResponse> Send(Transport& transport, HttpRequest request) {
        return Send(Within(20s), transport, std::move(request));
    }
    StatusOr<HttpResponse> Send(Context ctx, Transport& transport, HttpRequest request) {
        return Run(transport.Send(std::move(ctx), std::move(request)));
    }
    // Reads from the stream until `needle` has arrived; the bytes read so far otherwise.
    std::string ReadUntil(BodyStream& stream, std::string_view needle, std::chrono::milliseconds timeout = 20s) {
        std::string body;
        char buffer[8192];
        const Context ctx = Within(timeout);
        while (body.find(needle) == std::string::npos) {
            StatusOr<std::size_t> n = Run(stream.ReadSome(ctx, buffer, sizeof buffer));
            EXPECT_TRUE(n.Ok()) << n.GetStatus();
            if (!n.Ok() || *n == 0)
                break;
            body.append(buffer, *n);
        }
        return body;
    }

    net::io_context io_;
};

TEST_F(BeastTransportIntegrationTest, GetsVersionAndAuthenticatesWithTheClientCertificate) {
    auto transport = New(test::AdminTransportOptions());
    ASSERT_NE(transport, nullptr);
    StatusOr<HttpResponse> version = Send(*transport, Get("/version"));
    ASSERT_TRUE(version.Ok()) << version.GetStatus();
    EXPECT_EQ(version->status, 200);
    EXPECT_THAT(version->body, HasSubstr("\"gitVersion\": \"" + testing::SharedControlPlane().Version() + "\""));

    StatusOr<HttpResponse> ns = Send(*transport, Get("/api/v1/namespaces/default"));
    ASSERT_TRUE(ns.Ok()) << ns.GetStatus();
    EXPECT_EQ(ns->status, 200) << ns->body;

    TransportOptions anonymous = test::AdminTransportOptions();
    anonymous.tls.client_cert_pem.clear();
    anonymous.tls.client_key_pem.clear();
    auto without = New(anonymous);
    StatusOr<HttpResponse> denied = Send(*without, Get("/api/v1/namespaces/default"));
    ASSERT_TRUE(denied.Ok()) << denied.GetStatus();
    EXPECT_TRUE(denied->status == 401 || denied->status == 403) << denied->status;
}

TEST_F(BeastTransportIntegrationTest, ReusesItsConnection) {
    CountingProxy proxy(ApiserverPort());
    TransportOptions options = test::AdminTransportOptions();
    options.server = proxy.Url();
    auto transport = New(options);
    for (int i = 0; i < 50; ++i) {
        StatusOr<HttpResponse> response = Send(*transport, Get(i % 2 ? "/version" : "/api/v1/namespaces/default"));
        ASSERT_TRUE(response.Ok()) << response.GetStatus();
        ASSERT_EQ(response->status, 200);
    }
    EXPECT_EQ(proxy.Connections(), 1);
}

TEST_F(BeastTransportIntegrationTest, RoundTripsPerSecond) {
    auto transport = New(test::AdminTransportOptions());
    ASSERT_TRUE(Send(*transport, Get("/version")).Ok());  // connected
    constexpr int kSequential = 2000;
    auto start = Clock::now();
    for (int i = 0; i < kSequential; ++i)
        ASSERT_TRUE(Send(*transport, Get("/version")).Ok());
    const double sequential = kSequential / std::chrono::duration<double>(Clock::now() - start).count();

    // 16 callers at once on a 2-thread executor.
    net::thread_pool pool(2);
    auto shared = NewBeastTransport(pool.get_executor(), test::AdminTransportOptions());
    ASSERT_TRUE(shared.Ok()) << shared.GetStatus();
    constexpr int kCallers = 16;
    constexpr int kEach = 250;
    auto caller = [&]() -> Task<int> {
        int ok = 0;
        for (int i = 0; i < kEach; ++i)
            ok += (co_await (*shared)->Send(Context::Background(), Get("/version"))).Ok() ? 1 : 0;
        co_return ok;
    };
    start = Clock::now();
    std::vector<std::future<int>> done;
    for (int i = 0; i < kCallers; ++i)
        done.push_back(net::co_spawn(pool, caller(), net::use_future));
    int ok = 0;
    for (auto& f : done)
        ok += f.get();
    const double concurrent = kCallers * kEach / std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_EQ(ok, kCallers * kEach);
    shared->reset();
    pool.join();
    std::cout << "beast GET /version over TLS: " << static_cast<int>(sequential) << " round trips/s sequential, "
              << static_cast<int>(concurrent) << "/s with " << kCallers << " callers on 2 threads" << std::endl;
    ::testing::Test::RecordProperty("sequential_rps", std::to_string(static_cast<int>(sequential)));
    ::testing::Test::RecordProperty("concurrent_rps", std::to_string(static_cast<int>(concurrent)));
}

TEST_F(BeastTransportIntegrationTest, WatchBytesArriveAsTheServerSendsThem) {
    auto transport = New(test::AdminTransportOptions());
    StatusOr<std::unique_ptr<BodyStream>> opened =
        Run(transport->Open(Within(20s), Get("/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true"
                                             "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan")));
    ASSERT_TRUE(opened.Ok()) << opened.GetStatus();
    BodyStream& stream = **opened;
    ASSERT_EQ(stream.StatusCode(), 200);
    // The initial events end with a bookmark carrying this annotation.
    std::string initial = ReadUntil(stream, "k8s.io/initial-events-end");
    EXPECT_THAT(initial, HasSubstr("\"type\":\"BOOKMARK\""));

    const std::string name = "beast-watch-" + std::to_string(Clock::now().time_since_epoch().count() % 1000000);
    HttpRequest create = Get("/api/v1/namespaces/default/configmaps");
    create.method = "POST";
    create.SetHeader("Content-Type", "application/json");
    create.body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"("},"data":{"k":"v"}})";
    StatusOr<HttpResponse> created = Send(*transport, create);
    ASSERT_TRUE(created.Ok()) << created.GetStatus();
    ASSERT_EQ(created->status, 201) << created->body;

    std::string added = ReadUntil(stream, "\"name\":\"" + name + "\"");
    EXPECT_THAT(added, HasSubstr("\"type\":\"ADDED\""));
    stream.Close();

    HttpRequest remove = Get("/api/v1/namespaces/default/configmaps/" + name);
    remove.method = "DELETE";
    StatusOr<HttpResponse> deleted = Send(*transport, remove);
    ASSERT_TRUE(deleted.Ok()) << deleted.GetStatus();
    EXPECT_EQ(deleted->status, 200) << deleted->body;
}

// The watch of an empty namespace sends nothing: should the cancel not reach the read, the idle
// timeout (the test's wait) ends it with Timeout.
TEST_F(BeastTransportIntegrationTest, CancellingTheContextEndsAPendingWatchRead) {
    TransportOptions options = test::AdminTransportOptions();
    options.idle_timeout = ctrl::testing::kTestWait;
    auto transport = New(options);
    StatusOr<std::unique_ptr<BodyStream>> opened =
        Run(transport->Open(Within(20s), Get("/api/v1/namespaces/beast-empty/configmaps?watch=1")));
    ASSERT_TRUE(opened.Ok()) << opened.GetStatus();
    auto ctx = Context::WithCancel(Context::Background());
    const auto start = Clock::now();  // before the canceller starts: took >= 300 ms however slow
    std::thread canceller([ctx] {
        std::this_thread::sleep_for(300ms);
        ctx.Cancel();
    });
    char buffer[1024];
    StatusOr<std::size_t> n = Run((*opened)->ReadSome(ctx, buffer, sizeof buffer));
    const auto took = Clock::now() - start;
    canceller.join();
    EXPECT_TRUE(IsCancelled(n.GetStatus())) << n.GetStatus();
    EXPECT_GE(took, 250ms);
}

TEST_F(BeastTransportIntegrationTest, AWrongCaIsAClearTlsError) {
    const std::string dir = testing::SharedControlPlane().WorkDir() + "/beast-other-ca";
    std::filesystem::create_directories(dir);
    StatusOr<testing::Pki> other = testing::Pki::Create(dir);
    ASSERT_TRUE(other.Ok()) << other.GetStatus();
    TransportOptions options = test::AdminTransportOptions();
    options.tls.ca_pem = ReadFile(other->CaCert());
    auto transport = New(options);
    StatusOr<HttpResponse> response = Send(*transport, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(),
                HasSubstr("TLS handshake with " + options.server + " failed: certificate verify failed ("));
    std::cout << "wrong CA: " << response.GetStatus().Message() << std::endl;
}

TEST_F(BeastTransportIntegrationTest, TheServerNameIsVerified) {
    TransportOptions options = test::AdminTransportOptions();
    options.tls.server_name = "localhost";  // in the serving certificate
    auto transport = New(options);
    ASSERT_TRUE(Send(*transport, Get("/version")).Ok());

    options.tls.server_name = "kubernetes.default.svc";  // not in it
    auto wrong = New(options);
    StatusOr<HttpResponse> response = Send(*wrong, Get("/version"));
    EXPECT_TRUE(IsUnavailable(response.GetStatus())) << response.GetStatus();
    EXPECT_THAT(response.GetStatus().Message(), HasSubstr("hostname mismatch"));
}

TEST_F(BeastTransportIntegrationTest, InsecureSkipVerifyTrustsAnyServer) {
    TransportOptions options = test::AdminTransportOptions();
    options.tls.ca_pem.clear();
    options.tls.insecure_skip_verify = true;
    auto transport = New(options);
    StatusOr<HttpResponse> response = Send(*transport, Get("/version"));
    ASSERT_TRUE(response.Ok()) << response.GetStatus();
    EXPECT_EQ(response->status, 200);
}

}  // namespace
}  // namespace ctrl::rest
