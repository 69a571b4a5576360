#include "ctrl/rest/internal/beast_server_url.hpp"

#include <algorithm>
#include <cctype>

#include <boost/asio/ip/address.hpp>

namespace ctrl::rest::internal {
namespace {

bool IsDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string Lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

}  // namespace

std::string ServerUrl::HostHeader() const {
    std::string out = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    if (port != (tls ? "443" : "80"))
        out += ":" + port;
    return out;
}

StatusOr<ServerUrl> ParseServerUrl(std::string_view server) {
    auto bad = [&](std::string_view why) {
        return BadRequestError("server URL \"" + std::string(server) + "\": " + std::string(why));
    };
    ServerUrl url;
    std::string_view rest = server;
    const std::size_t scheme_end = rest.find("://");
    if (scheme_end == std::string_view::npos)
        return bad("expected https://host[:port] or http://host[:port]");
    const std::string scheme = Lower(rest.substr(0, scheme_end));
    if (scheme == "https") {
        url.tls = true;
    } else if (scheme == "http") {
        url.tls = false;
    } else {
        return bad("unsupported scheme \"" + scheme + "\"");
    }
    rest.remove_prefix(scheme_end + 3);

    const std::size_t path_start = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, path_start);
    std::string_view path = path_start == std::string_view::npos ? std::string_view() : rest.substr(path_start);
    if (authority.find('@') != std::string_view::npos)
        return bad("user information in the URL is not supported");
    if (!path.empty() && path.front() != '/')
        return bad("a query or fragment is not allowed");

    std::string_view port;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            return bad("unterminated IPv6 literal");
        url.host = std::string(authority.substr(1, close - 1));
        std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':')
                return bad("unexpected characters after the IPv6 literal");
            port = after.substr(1);
        }
    } else {
        const std::size_t colon = authority.rfind(':');
        url.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos)
            port = authority.substr(colon + 1);
    }
    if (url.host.empty())
        return bad("no host");
    if (port.empty()) {
        url.port = url.tls ? "443" : "80";
    } else if (!IsDigits(port) || port.size() > 5 || std::stoi(std::string(port)) > 65535 ||
               std::stoi(std::string(port)) == 0) {
        return bad("invalid port \"" + std::string(port) + "\"");
    } else {
        url.port = std::string(port);
    }
    boost::system::error_code ec;
    boost::asio::ip::make_address(url.host, ec);
    url.host_is_ip = !ec;
    if (!url.host_is_ip)
        url.host = Lower(url.host);

    while (!path.empty() && path.back() == '/')
        path.remove_suffix(1);
    url.base_path = std::string(path);

    url.text = std::string(server);
    while (!url.text.empty() && url.text.back() == '/')
        url.text.pop_back();
    return url;
}

}  // namespace ctrl::rest::internal
