#pragma once

#include <string>
#include <string_view>

#include "runtime/core/status_or.hpp"

namespace ctrl::rest::internal {

// Standard base64 (RFC 4648, with padding), as kubeconfig *-data fields and HTTP basic auth use it.
std::string Base64Encode(std::string_view data);

// Decodes standard padded base64 the way Go's encoding/base64 does for kubeconfig fields: '\r' and
// '\n' are skipped, anything else outside the alphabet is an error. BadRequest names the offending
// input byte: "illegal base64 data at input byte 7".
StatusOr<std::string> Base64Decode(std::string_view text);

}  // namespace ctrl::rest::internal
