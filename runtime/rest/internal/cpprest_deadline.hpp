#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "ctrl/core/context.hpp"

namespace ctrl::rest::internal::cpprest {

// A deadline and what it is, for messages ("request timeout of 5000 ms", "context deadline").
struct Deadline {
    std::optional<Context::Clock::time_point> at;
    std::string what;
};

// The earlier of the request timeout (zero: none) counted from now and the Context's deadline.
Deadline RequestDeadline(const Context& ctx, std::chrono::milliseconds timeout);

}  // namespace ctrl::rest::internal::cpprest
