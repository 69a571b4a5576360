#pragma once

#include <string>

#include "ctrl/core/status_or.hpp"

namespace ctrl::internal {

// The whole content of a file (bytes as they are); NotFound "cannot read <path>" when it cannot be
// opened.
StatusOr<std::string> ReadFile(const std::string& path);

}  // namespace ctrl::internal
