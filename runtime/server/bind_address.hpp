#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::server {

// Where a server listens, parsed from controller-runtime's bind address forms:
//   "0"               disabled (the server is not started)
//   ":8080"           every IPv4 interface, port 8080
//   "127.0.0.1:8080"  one address; "localhost:8080" is 127.0.0.1; "[::1]:8080" an IPv6 one
//   ":0"              an ephemeral port the kernel picks (HttpServer::BoundPort says which)
struct BindAddress {
    bool disabled = false;
    std::string host;  // an IP literal, "0.0.0.0" for every interface
    uint16_t port = 0;

    std::string ToString() const;  // "127.0.0.1:8080", "[::1]:8080", "0" when disabled
};

// BadRequest naming the text for an empty address, a missing or bad port, or a host that is not
// an IP literal or "localhost".
StatusOr<BindAddress> ParseBindAddress(std::string_view text);

}  // namespace ctrl::server
