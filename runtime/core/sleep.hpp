#pragma once

#include <chrono>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl {

// Waits on a timer of the current executor until `until`: OK when it passed; the context's
// error (Cancelled, or Timeout when its deadline comes first) otherwise. Never blocks a thread.
Task<Status> SleepUntil(Context ctx, std::chrono::steady_clock::time_point until);
Task<Status> SleepFor(Context ctx, std::chrono::steady_clock::duration duration);

}  // namespace ctrl
