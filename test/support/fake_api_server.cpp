#include "test/support/fake_api_server.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "test/support/internal/fake_connection.hpp"
#include "test/support/internal/fake_script.hpp"
#include "test/support/pki.hpp"

namespace ctrl::testing {
namespace {

using tcp = boost::asio::ip::tcp;
using SslContext = boost::asio::ssl::context;

Task<void> AcceptLoop(tcp::acceptor acceptor, std::shared_ptr<SslContext> tls,
                      std::shared_ptr<internal::FakeScript> script) {
    while (true) {
        boost::system::error_code ec;
        tcp::socket socket =
            co_await acceptor.async_accept(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
        if (ec == boost::asio::error::operation_aborted)
            co_return;
        if (ec)
            continue;
        boost::asio::co_spawn(acceptor.get_executor(), internal::ServeFakeConnection(std::move(socket), tls, script),
                              boost::asio::detached);
    }
}

StatusOr<std::string> ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return InternalError("fake API server: cannot read " + path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

struct FakeApiServer::Impl {
    std::shared_ptr<internal::FakeScript> script = std::make_shared<internal::FakeScript>();
    std::shared_ptr<SslContext> tls;
    std::unique_ptr<boost::asio::io_context> io;
    std::thread thread;
    std::mutex stop_mu;
    std::string url;
    int port = 0;
    std::string ca_pem;
    std::string ca_file;
    std::string dir;  // TLS material; removed by Stop

    // A throw-away CA and a serving certificate for 127.0.0.1 and localhost.
    Status MakeTls() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ctrl-fake-apiserver-XXXXXX";
        if (!mkdtemp(pattern.data()))
            return InternalError("fake API server: cannot create a directory from " + pattern);
        dir = pattern;
        CTRL_ASSIGN_OR_RETURN(Pki pki, Pki::Create(dir));
        CTRL_ASSIGN_OR_RETURN(KeyPairFiles serving, pki.IssueServing("fake-apiserver", "fake-apiserver"));
        ca_file = pki.CaCert();
        CTRL_ASSIGN_OR_RETURN(ca_pem, ReadFile(ca_file));
        tls = std::make_shared<SslContext>(SslContext::tls_server);
        boost::system::error_code ec;
        tls->use_certificate_chain_file(serving.cert, ec);
        if (!ec)
            tls->use_private_key_file(serving.key, SslContext::pem, ec);
        if (ec)
            return InternalError("fake API server: loading its serving certificate: " + ec.message());
        return OkStatus();
    }

    Status Listen(bool use_tls) {
        io = std::make_unique<boost::asio::io_context>(1);
        tcp::acceptor acceptor(*io);
        const tcp::endpoint endpoint(boost::asio::ip::make_address("127.0.0.1"), 0);
        boost::system::error_code ec;
        acceptor.open(endpoint.protocol(), ec);
        if (!ec)
            acceptor.bind(endpoint, ec);
        if (!ec)
            acceptor.listen(boost::asio::socket_base::max_listen_connections, ec);
        if (ec)
            return UnavailableError("fake API server: cannot listen on 127.0.0.1: " + ec.message());
        port = acceptor.local_endpoint().port();
        url = std::string(use_tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(port);
        boost::asio::co_spawn(*io, AcceptLoop(std::move(acceptor), tls, script), boost::asio::detached);
        thread = std::thread([context = io.get()] { context->run(); });
        return OkStatus();
    }
};

FakeApiServer::FakeApiServer() : impl_(std::make_unique<Impl>()) {}

FakeApiServer::~FakeApiServer() {
    Stop();
}

StatusOr<std::unique_ptr<FakeApiServer>> FakeApiServer::Start() {
    return Start(Options{});
}

StatusOr<std::unique_ptr<FakeApiServer>> FakeApiServer::Start(Options options) {
    std::unique_ptr<FakeApiServer> server(new FakeApiServer());
    if (options.tls)
        CTRL_RETURN_IF_ERROR(server->impl_->MakeTls());
    CTRL_RETURN_IF_ERROR(server->impl_->Listen(options.tls));
    return server;
}

void FakeApiServer::Stop() {
    std::lock_guard lock(impl_->stop_mu);
    if (impl_->io) {
        // run() returns at once; destroying the io_context then destroys every pending coroutine
        // with its socket and timer, on this thread: nothing waits for a client or a delay.
        impl_->io->stop();
        if (impl_->thread.joinable())
            impl_->thread.join();
        impl_->io.reset();
    }
    if (!impl_->dir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(impl_->dir, ec);
        impl_->dir.clear();
    }
}

const std::string& FakeApiServer::Url() const {
    return impl_->url;
}

int FakeApiServer::Port() const {
    return impl_->port;
}

const std::string& FakeApiServer::CaPem() const {
    return impl_->ca_pem;
}

const std::string& FakeApiServer::CaFile() const {
    return impl_->ca_file;
}

void FakeApiServer::Handle(FakeRoute route, std::vector<FakeResponse> responses) {
    impl_->script->Add(std::move(route), std::move(responses));
}

void FakeApiServer::Handle(FakeRoute route, FakeHandler handler) {
    impl_->script->Add(std::move(route), std::move(handler));
}

void FakeApiServer::Reset() {
    impl_->script->Reset();
}

std::vector<FakeRequest> FakeApiServer::Requests() const {
    return impl_->script->Requests();
}

std::size_t FakeApiServer::RequestCount() const {
    return impl_->script->RequestCount();
}

bool FakeApiServer::WaitForRequests(std::size_t count, std::chrono::milliseconds timeout) const {
    return impl_->script->WaitForRequests(count, timeout);
}

int FakeApiServer::ConnectionsAccepted() const {
    return impl_->script->Connections();
}

std::size_t FakeApiServer::BodyBytesSent() const {
    return impl_->script->BodyBytesSent();
}

}  // namespace ctrl::testing
