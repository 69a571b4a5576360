#pragma once

#include <string>

namespace ctrl::internal {

// This machine's hostname (gethostname); "" when it cannot be read.
std::string Hostname();

}  // namespace ctrl::internal
