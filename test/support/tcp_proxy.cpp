#include "test/support/tcp_proxy.hpp"

#include <atomic>
#include <future>
#include <list>
#include <mutex>
#include <thread>
#include <utility>

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace ctrl::testing {

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// One proxied connection: the client's socket and the upstream's, relayed both ways until either
// side ends or the proxy cuts it.
struct Session {
    explicit Session(asio::io_context& io) : client(io), upstream(io) {}
    tcp::socket client;
    tcp::socket upstream;

    void Close() {
        boost::system::error_code ignored;
        client.shutdown(tcp::socket::shutdown_both, ignored);
        client.close(ignored);
        upstream.shutdown(tcp::socket::shutdown_both, ignored);
        upstream.close(ignored);
    }
};

asio::awaitable<void> Relay(std::shared_ptr<Session> session, tcp::socket& from, tcp::socket& to) {
    char buffer[16384];
    boost::system::error_code error;
    while (true) {
        const std::size_t n =
            co_await from.async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, error));
        if (error || n == 0)
            break;
        co_await asio::async_write(to, asio::buffer(buffer, n), asio::redirect_error(asio::use_awaitable, error));
        if (error)
            break;
    }
    session->Close();
}

}  // namespace

struct TcpProxy::Impl {
    Impl() : acceptor(io) {}

    asio::io_context io;
    tcp::acceptor acceptor;
    tcp::endpoint upstream;
    std::thread thread;
    std::atomic<bool> refusing{false};
    std::atomic<int> accepted{0};
    std::atomic<bool> stopped{false};
    // Touched on the proxy's thread only.
    std::list<std::weak_ptr<Session>> sessions;

    int OpenOnLoop() {
        int open = 0;
        for (auto it = sessions.begin(); it != sessions.end();) {
            std::shared_ptr<Session> session = it->lock();
            if (session && session->client.is_open()) {
                ++open;
                ++it;
            } else {
                it = sessions.erase(it);
            }
        }
        return open;
    }

    asio::awaitable<void> Serve(std::shared_ptr<Session> session) {
        boost::system::error_code error;
        co_await session->upstream.async_connect(upstream, asio::redirect_error(asio::use_awaitable, error));
        if (error) {
            session->Close();
            co_return;
        }
        asio::co_spawn(io, Relay(session, session->upstream, session->client), asio::detached);
        co_await Relay(session, session->client, session->upstream);
    }

    asio::awaitable<void> Accept() {
        while (true) {
            auto session = std::make_shared<Session>(io);
            boost::system::error_code error;
            co_await acceptor.async_accept(session->client, asio::redirect_error(asio::use_awaitable, error));
            if (error) {
                if (!acceptor.is_open())
                    co_return;
                continue;
            }
            ++accepted;
            if (refusing.load()) {
                session->Close();
                continue;
            }
            sessions.push_back(session);
            asio::co_spawn(io, Serve(session), asio::detached);
        }
    }

    // Runs fn on the proxy's thread and waits for its result.
    template <typename F>
    auto OnLoop(F fn) -> decltype(fn()) {
        std::packaged_task<decltype(fn())()> task(std::move(fn));
        auto result = task.get_future();
        asio::post(io, [&task] { task(); });
        return result.get();
    }
};

TcpProxy::TcpProxy(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StatusOr<std::unique_ptr<TcpProxy>> TcpProxy::Start(std::string upstream_host, int upstream_port) {
    auto impl = std::make_unique<Impl>();
    boost::system::error_code error;
    const asio::ip::address address = asio::ip::make_address(upstream_host, error);
    if (error)
        return BadRequestError("tcp proxy: upstream host " + upstream_host + " is not an IP address");
    impl->upstream = tcp::endpoint(address, static_cast<unsigned short>(upstream_port));
    const tcp::endpoint listen(asio::ip::make_address("127.0.0.1"), 0);
    impl->acceptor.open(listen.protocol(), error);
    if (!error)
        impl->acceptor.set_option(tcp::acceptor::reuse_address(true), error);
    if (!error)
        impl->acceptor.bind(listen, error);
    if (!error)
        impl->acceptor.listen(asio::socket_base::max_listen_connections, error);
    if (error)
        return UnavailableError("tcp proxy: cannot listen on 127.0.0.1: " + error.message());
    Impl* raw = impl.get();
    asio::co_spawn(raw->io, raw->Accept(), asio::detached);
    raw->thread = std::thread([raw] { raw->io.run(); });
    return std::unique_ptr<TcpProxy>(new TcpProxy(std::move(impl)));
}

TcpProxy::~TcpProxy() {
    Stop();
}

void TcpProxy::Stop() {
    if (impl_->stopped.exchange(true))
        return;
    asio::post(impl_->io, [impl = impl_.get()] {
        boost::system::error_code ignored;
        impl->acceptor.close(ignored);
        for (auto& weak : impl->sessions) {
            if (auto session = weak.lock())
                session->Close();
        }
        impl->sessions.clear();
        impl->io.stop();
    });
    impl_->thread.join();
}

int TcpProxy::Port() const {
    return impl_->acceptor.local_endpoint().port();
}

int TcpProxy::CutAll() {
    if (impl_->stopped.load())
        return 0;
    return impl_->OnLoop([impl = impl_.get()] {
        int cut = 0;
        for (auto& weak : impl->sessions) {
            if (auto session = weak.lock(); session && session->client.is_open()) {
                session->Close();
                ++cut;
            }
        }
        impl->sessions.clear();
        return cut;
    });
}

void TcpProxy::SetRefusing(bool refusing) {
    impl_->refusing.store(refusing);
}

int TcpProxy::Accepted() const {
    return impl_->accepted.load();
}

int TcpProxy::Open() const {
    if (impl_->stopped.load())
        return 0;
    return impl_->OnLoop([impl = impl_.get()] { return impl->OpenOnLoop(); });
}

}  // namespace ctrl::testing
