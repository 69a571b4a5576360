#include "ctrl/rest/internal/cpprest_deadline.hpp"

namespace ctrl::rest::internal::cpprest {

Deadline RequestDeadline(const Context& ctx, std::chrono::milliseconds timeout) {
    Deadline deadline;
    if (timeout > std::chrono::milliseconds::zero()) {
        deadline.at = Context::Clock::now() + timeout;
        deadline.what = "request timeout of " + std::to_string(timeout.count()) + " ms";
    }
    if (auto ctx_deadline = ctx.Deadline(); ctx_deadline && (!deadline.at || *ctx_deadline < *deadline.at)) {
        deadline.at = *ctx_deadline;
        deadline.what = "context deadline";
    }
    return deadline;
}

}  // namespace ctrl::rest::internal::cpprest
