#pragma once

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::testing {

// A request the test server read.
struct ReceivedRequest {
    std::string method;
    std::string target;
    std::vector<Header> headers;
    std::string body;
    int connection = 0;  // which accepted connection carried it: 1, 2, ...

    std::optional<std::string> FindHeader(std::string_view name) const;
};

// One request on one connection, as a handler sees it: it answers with raw bytes (so it can
// send anything, including broken HTTP), may pause, and may close the connection.
class ServerExchange final {
  public:
    ServerExchange(ReceivedRequest request, std::function<Task<bool>(std::string)> write,
                   boost::asio::any_io_executor executor);

    const ReceivedRequest& Request() const { return request_; }
    // Writes bytes to the client; false when it is gone.
    Task<bool> Write(std::string bytes);
    // A whole response with Content-Length and `headers`.
    Task<bool> Respond(int status, std::string body, std::vector<Header> headers = {});
    // A response header announcing a chunked body; then WriteChunk and EndChunks.
    Task<bool> StartChunked(int status);
    Task<bool> WriteChunk(std::string_view data);
    Task<bool> EndChunks();
    Task<void> Sleep(std::chrono::milliseconds duration);
    // Closes the connection when the handler returns, instead of reading another request.
    void CloseAfter() { close_after_ = true; }
    bool ClosesAfter() const { return close_after_; }

  private:
    ReceivedRequest request_;
    std::function<Task<bool>(std::string)> write_;
    boost::asio::any_io_executor executor_;
    bool close_after_ = false;
};

// Requests for tests. (The transport's aggregates have fields without initializers, which
// -Wmissing-field-initializers flags in designated initializers.)
HttpRequest Get(std::string target, std::chrono::milliseconds timeout = std::chrono::milliseconds(0));
HttpRequest Request(std::string method, std::string target, std::string body = "");

// How a BeastTestServer serves.
struct BeastTestServerOptions {
    std::string cert_file{};  // serve TLS with this certificate and key when set
    std::string key_file{};
    std::string client_ca_file{};  // with TLS: require a client certificate signed by it
    bool accept_only = false;      // accept connections and never read or write: for timeouts
};

// A scripted HTTP/1.1 server on 127.0.0.1 with its own thread, for the Beast transport's tests:
// every request goes to the handler, which answers it; connections are kept alive until the
// handler closes one or the client does. Counts connections and records requests.
class BeastTestServer final {
  public:
    using Handler = std::function<Task<void>(ServerExchange&)>;

    using Options = BeastTestServerOptions;

    explicit BeastTestServer(Handler handler, Options options = {});
    BeastTestServer(const BeastTestServer&) = delete;
    BeastTestServer& operator=(const BeastTestServer&) = delete;
    ~BeastTestServer();

    std::string Url() const;  // http://127.0.0.1:<port> or https://...
    int Connections() const { return connections_; }
    std::vector<ReceivedRequest> Requests() const;
    // Of the last TLS handshake: the SNI the client sent ("" for none) and the client
    // certificate's subject ("" for none).
    std::string LastServerName() const;
    std::string LastClientSubject() const;

  private:
    Task<void> AcceptLoop();
    Task<void> Serve(boost::asio::ip::tcp::socket socket, int id);
    template <typename Stream>
    Task<void> ServeRequests(Stream& stream, int id);

    Handler handler_;
    Options options_;
    boost::asio::io_context io_;
    std::unique_ptr<boost::asio::ssl::context> tls_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::vector<boost::asio::ip::tcp::socket> held_;  // accept_only
    std::atomic<int> connections_ = 0;
    mutable std::mutex mu_;
    std::vector<ReceivedRequest> requests_;
    std::string last_server_name_;
    std::string last_client_subject_;
    std::thread thread_;
};

}  // namespace ctrl::rest::testing
