#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl {

// Standard base64 with padding (RFC 4648 section 4): how JSON carries bytes, such as a Secret's
// data or a ConfigMap's binaryData.
std::string Base64Encode(std::string_view bytes);
// The inverse; '\r' and '\n' are skipped (as Go's decoder does). BadRequest naming the offset for
// a character outside the alphabet, a missing or misplaced '=', or a truncated group.
StatusOr<std::string> Base64Decode(std::string_view text);

}  // namespace ctrl
