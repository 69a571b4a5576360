#pragma once

#include "ctrl/core/context.hpp"

namespace ctrl::manager {

// A Context cancelled by the first SIGTERM or SIGINT (controller-runtime's
// SetupSignalHandler): pass it to Manager::Start for a graceful shutdown. A second signal ends
// the process at once with exit code 1. Call it once, early in main; a second call returns the
// same Context. Signals are caught by an async-signal-safe handler that wakes one watcher thread
// (the only thread this starts).
Context SetupSignalHandler();

}  // namespace ctrl::manager
