#include "ctrl/server/http_exchange.hpp"

#include <cctype>

namespace ctrl::server {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

int HexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Calls fn(raw key, raw value, has_value) for each '&'-separated part of query.
template <typename Fn>
void ForEachQueryPart(std::string_view query, Fn fn) {
    while (!query.empty()) {
        const size_t amp = query.find('&');
        std::string_view part = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (part.empty())
            continue;
        const size_t eq = part.find('=');
        if (eq == std::string_view::npos)
            fn(part, std::string_view(), false);
        else
            fn(part.substr(0, eq), part.substr(eq + 1), true);
    }
}

}  // namespace

std::string PercentDecode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size()) {
            const int hi = HexValue(text[i + 1]), lo = HexValue(text[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out.push_back(static_cast<char>(hi * 16 + lo));
                i += 2;
                continue;
            }
        }
        out.push_back(plus_is_space && c == '+' ? ' ' : c);
    }
    return out;
}

std::optional<std::string_view> ServerRequest::Header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
        if (EqualsIgnoreCase(key, name))
            return std::string_view(value);
    }
    return std::nullopt;
}

bool ServerRequest::HasQuery(std::string_view key) const {
    bool found = false;
    ForEachQueryPart(query, [&](std::string_view k, std::string_view, bool) {
        if (PercentDecode(k, true) == key)
            found = true;
    });
    return found;
}

std::vector<std::string> ServerRequest::QueryValues(std::string_view key) const {
    std::vector<std::string> values;
    ForEachQueryPart(query, [&](std::string_view k, std::string_view v, bool) {
        if (PercentDecode(k, true) == key)
            values.push_back(PercentDecode(v, true));
    });
    return values;
}

ServerResponse TextResponse(int status, std::string body) {
    ServerResponse response;
    response.status = status;
    response.body = std::move(body);
    return response;
}

}  // namespace ctrl::server
