#include "ctrl/server/bind_address.hpp"

#include <charconv>

#include <boost/asio/ip/address.hpp>

namespace ctrl::server {
namespace {

Status Bad(std::string_view text, std::string_view why) {
    return BadRequestError("bind address \"" + std::string(text) + "\": " + std::string(why) +
                           " (want \":8080\", \"127.0.0.1:8080\" or \"0\" to disable)");
}

}  // namespace

std::string BindAddress::ToString() const {
    if (disabled)
        return "0";
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

StatusOr<BindAddress> ParseBindAddress(std::string_view text) {
    BindAddress address;
    if (text == "0") {
        address.disabled = true;
        return address;
    }
    if (text.empty())
        return Bad(text, "empty");
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos)
        return Bad(text, "no port");
    std::string_view host = text.substr(0, colon);
    const std::string_view port = text.substr(colon + 1);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535)
        return Bad(text, "bad port");
    address.port = static_cast<uint16_t>(value);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
        boost::system::error_code parse_error;
        const auto ip = boost::asio::ip::make_address_v6(std::string(host), parse_error);
        if (parse_error)
            return Bad(text, "not an IPv6 address");
        address.host = ip.to_string();
        return address;
    }
    if (host.empty()) {
        address.host = "0.0.0.0";
        return address;
    }
    if (host == "localhost") {
        address.host = "127.0.0.1";
        return address;
    }
    boost::system::error_code parse_error;
    const auto ip = boost::asio::ip::make_address_v4(std::string(host), parse_error);
    if (parse_error)
        return Bad(text, "the host is not an IP address or localhost");
    address.host = ip.to_string();
    return address;
}

}  // namespace ctrl::server
