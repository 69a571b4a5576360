#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::server::internal {

// data compressed in the gzip format (RFC 1952) with zlib's default level. Internal on a zlib error.
StatusOr<std::string> Gzip(std::string_view data);

// Whether an Accept-Encoding header value accepts gzip ("gzip", "gzip;q=0.5", "br, gzip"; not
// "gzip;q=0").
bool AcceptsGzip(std::string_view accept_encoding);

}  // namespace ctrl::server::internal
