#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctrl::testing {

// An HTTP header as the fake API server sends or received it.
using FakeHeader = std::pair<std::string, std::string>;

// One piece of a scripted body: wait `delay`, then send `data` (one HTTP chunk when the body is
// chunked).
struct FakeChunk {
    std::chrono::milliseconds delay{0};
    std::string data{};
};

// How a scripted response ends.
enum class FakeEnd {
    kComplete,  // the body is complete; the connection stays open for the next request
    kDrop,      // the connection is closed after the last piece: a chunked body gets no final chunk,
                // a Content-Length body is cut short when it announced more than was sent
    kHang,      // nothing more is sent; the connection stays open until the client closes it or
                // the server stops
};

// What the fake API server answers to one request: a status line and headers, then a body sent
// in pieces with delays (Content-Length, or chunked as a watch is), then an ending. Build one with
// a factory and adjust its fields freely. Content-Length or Transfer-Encoding is added by the
// server; Content-Type is among the headers.
struct FakeResponse {
    int status = 200;
    std::vector<FakeHeader> headers{};
    std::vector<FakeChunk> chunks{};
    bool chunked = false;
    // The Content-Length to announce when not chunked; default: what the chunks add up to.
    std::optional<std::size_t> content_length{};
    std::chrono::milliseconds delay{0};  // before the status line
    FakeEnd end = FakeEnd::kComplete;
    bool close_without_answer = false;  // close the connection as soon as the request is read

    // A complete response with a body of `content_type`.
    static FakeResponse Body(int status, std::string content_type, std::string body);
    static FakeResponse Json(int status, std::string json);
    // An HTML page, as a proxy or load balancer in front of an API server sends.
    static FakeResponse Html(int status, std::string html);
    // A metav1.Status failure, as the API server sends: code, reason ("NotFound"), message.
    static FakeResponse ApiStatus(int code, std::string_view reason, std::string_view message);
    // 429 TooManyRequests with "Retry-After: <seconds>" and a Status body.
    static FakeResponse TooManyRequests(int retry_after_seconds);
    // A chunked body (a watch): each chunk after its delay, then `end`.
    static FakeResponse Stream(std::vector<FakeChunk> chunks, FakeEnd end = FakeEnd::kComplete, int status = 200);
    // Announces body.size() bytes with Content-Length, sends the first `sent`, then drops the connection.
    static FakeResponse Truncated(std::string_view body, std::size_t sent, int status = 200);
    // Sends the body (Content-Length) one byte every `interval`: a slow server.
    static FakeResponse Slow(std::string body, std::chrono::milliseconds interval, int status = 200);
    // Closes the connection without answering.
    static FakeResponse Close();

    FakeResponse& WithHeader(std::string name, std::string value);
    // Waits this long before the status line.
    FakeResponse& After(std::chrono::milliseconds wait);
};

// A request the fake API server received.
struct FakeRequest {
    std::string method{};
    std::string target{};  // path and query, as sent
    std::string path{};    // target up to '?'
    std::string query{};   // after '?', as sent
    std::vector<FakeHeader> headers{};
    std::string body{};
    int connection = 0;             // which accepted connection carried it (1 is the first)
    std::string tls_server_name{};  // the SNI the client sent (TLS only; empty when none)

    // The first header with that name (case-insensitive).
    std::optional<std::string> Header(std::string_view name) const;
    // The first query parameter with that name, percent-decoded.
    std::optional<std::string> QueryParam(std::string_view name) const;
};

// Which requests a script answers: one method (empty: any) and a path, exact or a prefix. The
// query is not matched; handlers read it from FakeRequest.
struct FakeRoute {
    std::string method{};
    std::string path{};
    bool prefix = false;
};

// Computes a response from a request. Runs on the fake server's thread; must not block.
using FakeHandler = std::function<FakeResponse(const FakeRequest&)>;

}  // namespace ctrl::testing
