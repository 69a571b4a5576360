// A reconcile blocked on a server that never answers ends at the controller's reconcile timeout,
// by the reconcile Context's own deadline: the RestClient has no request timeout, the transport's
// idle timeout does not apply to a request, and nothing else arms a timer for it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "ctrl/api/builtins.hpp"
#include "ctrl/api/config_map.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/controller/controller.hpp"
#include "ctrl/fake/builtin_kinds.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/support/eventually.hpp"
#include "test/support/io_loop.hpp"

namespace ctrl::controller {
namespace {

using namespace std::chrono_literals;
using boost::asio::ip::tcp;
using testing::Eventually;
using testing::kTestWait;

// Accepts every connection on 127.0.0.1 and never reads or writes: a request sent to it waits
// forever for its answer.
class SilentServer {
  public:
    explicit SilentServer(boost::asio::any_io_executor executor) : acceptor_(executor, {tcp::v4(), 0}) { Accept(); }

    int Port() const { return acceptor_.local_endpoint().port(); }
    int Accepted() const { return accepted_.load(); }

  private:
    void Accept() {
        acceptor_.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
            if (ec)
                return;
            ++accepted_;
            sockets_.push_back(std::make_unique<tcp::socket>(std::move(socket)));  // held open, silent
            Accept();
        });
    }

    tcp::acceptor acceptor_;
    std::vector<std::unique_ptr<tcp::socket>> sockets_;
    std::atomic<int> accepted_ = 0;
};

// Runs the controller until ctx ends; says when Run returned.
Task<void> RunController(std::shared_ptr<Controller> controller, Context ctx, std::atomic<bool>* returned) {
    (void)co_await controller->Run(ctx);
    *returned = true;
}

struct Outcome {
    std::mutex mu;
    std::optional<Status> get;  // what the reconciler's Get returned
    std::chrono::steady_clock::duration took{};
};

TEST(ReconcileTimeoutTest, AGetToASilentServerEndsAtTheTimeoutByTheContextAlone) {
    constexpr auto kTimeout = 300ms;
    std::optional<SilentServer> server;  // destroyed after the loop has stopped
    testing::IoLoop loop;
    server.emplace(loop.Executor());

    rest::Config config;
    config.host = "http://127.0.0.1:" + std::to_string(server->Port());
    ASSERT_EQ(config.timeout.count(), 0) << "no request timeout: only the Context may end the Get";
    metrics::Registry registry;
    auto rest = rest::RestClient::New(config, loop.Executor(), registry);
    ASSERT_TRUE(rest.Ok()) << rest.GetStatus();
    auto scheme = std::make_shared<scheme::Scheme>();
    ASSERT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
    client::Options client_options;
    client_options.scheme = scheme;
    client_options.mapper = fake::NewRESTMapperForScheme(*scheme);  // no discovery request
    client_options.registry = &registry;
    auto client = client::NewForRestClient(std::shared_ptr<rest::RestClient>(std::move(rest).Value()), client_options);
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    client::Client& reader = **client;

    auto outcome = std::make_shared<Outcome>();
    reconcile::ReconcileFunction reconcile =
        [&reader, outcome](Context ctx, reconcile::Request request) -> Task<StatusOr<reconcile::Result>> {
        const auto start = std::chrono::steady_clock::now();
        api::ConfigMap config_map;
        const ObjectKey key(request.namespace_name, request.name);
        Status got = co_await reader.Get(ctx, key, config_map);
        std::lock_guard lock(outcome->mu);
        outcome->get = got;
        outcome->took = std::chrono::steady_clock::now() - start;
        co_return got;
    };
    Options options;
    options.reconcile_timeout = kTimeout;
    options.registry = &registry;
    options.skip_name_validation = true;
    auto controller = Controller::New("silent", reconcile::AsReconciler(reconcile), loop.Executor(), options);
    ASSERT_TRUE(controller.Ok()) << controller.GetStatus();
    std::shared_ptr<Controller> running = *controller;

    const Context run_ctx = Context::WithCancel(Context::Background());
    std::atomic<bool> returned = false;
    boost::asio::co_spawn(loop.Executor(), RunController(running, run_ctx, &returned), boost::asio::detached);
    running->Queue().Add(reconcile::Request{"default", "never-answered"});

    ASSERT_TRUE(Eventually([&] {
        std::lock_guard lock(outcome->mu);
        return outcome->get.has_value();
    })) << "the reconcile never ended";
    {
        std::lock_guard lock(outcome->mu);
        EXPECT_TRUE(IsTimeout(*outcome->get)) << *outcome->get;
        EXPECT_NE(outcome->get->Message().find("reconcile timed out after"), std::string::npos) << *outcome->get;
        // At the timeout: not before it, and long before the test's own wait (never a tight bound).
        EXPECT_GE(outcome->took, kTimeout);
        EXPECT_LT(outcome->took, kTestWait);
    }
    EXPECT_GE(server->Accepted(), 1) << "the Get never reached the server";
    EXPECT_TRUE(Eventually([&] { return running->Metrics().timeouts.Value() == 1; }))
        << "controller_runtime_reconcile_timeouts_total";

    run_ctx.Cancel();
    EXPECT_TRUE(Eventually([&] { return returned.load(); })) << "Run did not return";
}

}  // namespace
}  // namespace ctrl::controller
