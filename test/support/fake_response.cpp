#include "test/support/fake_response.hpp"

#include <algorithm>
#include <cctype>

namespace ctrl::testing {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::string JsonQuote(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            static const char kHex[] = "0123456789abcdef";
            out += "\\u00";
            out += kHex[(c >> 4) & 0xf];
            out += kHex[c & 0xf];
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string PercentDecode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
                   std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
            out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace

FakeResponse FakeResponse::Body(int status, std::string content_type, std::string body) {
    FakeResponse response;
    response.status = status;
    response.headers.emplace_back("Content-Type", std::move(content_type));
    response.chunks.push_back({.delay = std::chrono::milliseconds(0), .data = std::move(body)});
    return response;
}

FakeResponse FakeResponse::Json(int status, std::string json) {
    return Body(status, "application/json", std::move(json));
}

FakeResponse FakeResponse::Html(int status, std::string html) {
    return Body(status, "text/html; charset=utf-8", std::move(html));
}

FakeResponse FakeResponse::ApiStatus(int code, std::string_view reason, std::string_view message) {
    std::string json = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":)" +
                       JsonQuote(message) + R"(,"reason":)" + JsonQuote(reason) + R"(,"code":)" + std::to_string(code) +
                       "}";
    return Json(code, std::move(json));
}

FakeResponse FakeResponse::TooManyRequests(int retry_after_seconds) {
    return ApiStatus(429, "TooManyRequests",
                     "the server has received too many requests and has asked us to try again later")
        .WithHeader("Retry-After", std::to_string(retry_after_seconds));
}

FakeResponse FakeResponse::Stream(std::vector<FakeChunk> chunks, FakeEnd end, int status) {
    FakeResponse response;
    response.status = status;
    response.headers.emplace_back("Content-Type", "application/json");
    response.chunks = std::move(chunks);
    response.chunked = true;
    response.end = end;
    return response;
}

FakeResponse FakeResponse::Truncated(std::string_view body, std::size_t sent, int status) {
    FakeResponse response = Json(status, "");
    response.content_length = body.size();
    response.chunks.front().data = std::string(body.substr(0, std::min(sent, body.size())));
    response.end = FakeEnd::kDrop;
    return response;
}

FakeResponse FakeResponse::Slow(std::string body, std::chrono::milliseconds interval, int status) {
    FakeResponse response = Json(status, "");
    response.chunks.clear();
    for (char c : body)
        response.chunks.push_back({.delay = interval, .data = std::string(1, c)});
    return response;
}

FakeResponse FakeResponse::Close() {
    FakeResponse response;
    response.close_without_answer = true;
    return response;
}

FakeResponse& FakeResponse::WithHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
}

FakeResponse& FakeResponse::After(std::chrono::milliseconds wait) {
    delay = wait;
    return *this;
}

std::optional<std::string> FakeRequest::Header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
        if (EqualsIgnoreCase(key, name))
            return value;
    }
    return std::nullopt;
}

std::optional<std::string> FakeRequest::QueryParam(std::string_view name) const {
    std::string_view rest = query;
    while (!rest.empty()) {
        const std::size_t amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        const std::size_t eq = pair.find('=');
        if (PercentDecode(pair.substr(0, eq)) == name)
            return eq == std::string_view::npos ? std::string() : PercentDecode(pair.substr(eq + 1));
    }
    return std::nullopt;
}

}  // namespace ctrl::testing
