#pragma once

#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest {

// Picks `count` distinct TCP ports free on 127.0.0.1 by binding port 0 and reading back what the
// kernel chose. The sockets are closed before returning, so another process can take a port
// before the caller binds it: callers that can, retry on "address already in use".
StatusOr<std::vector<int>> FreePorts(int count);

}  // namespace ctrl::envtest
