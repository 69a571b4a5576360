#include "runtime/rest/internal/cpprest_wait.hpp"

#include <boost/asio/steady_timer.hpp>

namespace ctrl::rest::internal::cpprest {

Task<WaitEnd> WaitUntil(boost::asio::any_io_executor executor, std::function<void(Resume<WaitEnd>)> arm, Context ctx,
                        std::optional<Context::Clock::time_point> deadline) {
    boost::asio::steady_timer timer(executor);
    Context::CallbackId cancel_id = 0;
    // A named lambda: GCC 12 destroys a lambda built inside a co_await expression twice.
    auto start = [&](Resume<WaitEnd> resume) {
        if (deadline) {
            timer.expires_at(*deadline);
            timer.async_wait([resume](const boost::system::error_code& ec) {
                if (!ec)
                    resume(WaitEnd::kDeadline);
            });
        }
        cancel_id = ctx.OnCancel([resume](const Status&) { resume(WaitEnd::kCancelled); });
        arm(resume);
    };
    const WaitEnd end = co_await Suspend<WaitEnd>(std::move(start));
    ctx.RemoveCallback(cancel_id);
    timer.cancel();
    co_return end;
}

Deadline RequestDeadline(std::chrono::milliseconds timeout, const Context& ctx) {
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
