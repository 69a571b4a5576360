#include "runtime/rest/internal/beast_watchdog.hpp"

#include <cstdint>
#include <utility>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace ctrl::rest::internal {

// Shared with the timer's and the Context's callbacks, which may outlive the watchdog. Touched
// only on the strand.
struct BeastWatchdog::State {
    explicit State(Strand s) : strand(s), timer(strand) {}

    void Fire(Status why) {
        if (!armed || !fired.Ok())
            return;
        fired = std::move(why);
        abort();
    }

    Strand strand;
    boost::asio::steady_timer timer;
    std::function<void()> abort;
    bool armed = true;
    Status fired;
    std::uint64_t generation = 0;
};

Deadline Earliest(Deadline a, Deadline b) {
    if (!a.at)
        return b;
    if (!b.at)
        return a;
    return *a.at <= *b.at ? a : b;
}

std::string FormatDuration(std::chrono::milliseconds duration) {
    const auto ms = duration.count();
    if (ms % 1000 == 0)
        return std::to_string(ms / 1000) + "s";
    if (ms > 1000)
        return std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) + "s";
    return std::to_string(ms) + "ms";
}

BeastWatchdog::BeastWatchdog(Strand strand, const Context& ctx, std::function<void()> abort)
    : state_(std::make_shared<State>(strand)), ctx_(ctx) {
    state_->abort = std::move(abort);
    std::weak_ptr<State> weak = state_;
    // Runs on the cancelling thread, or right here when ctx is already cancelled.
    callback_id_ = ctx_.OnCancel([weak](const Status& why) {
        if (auto state = weak.lock())
            boost::asio::post(state->strand, [state, why] { state->Fire(why); });
    });
}

BeastWatchdog::~BeastWatchdog() {
    Disarm();
    ctx_.RemoveCallback(callback_id_);
}

void BeastWatchdog::ExpireAt(const Deadline& deadline) {
    State& state = *state_;
    ++state.generation;
    state.timer.cancel();
    if (!deadline.at || !state.armed)
        return;
    state.timer.expires_at(*deadline.at);
    state.timer.async_wait(
        [state = state_, generation = state.generation, what = deadline.what](const boost::system::error_code& ec) {
            if (!ec && generation == state->generation)
                state->Fire(TimeoutError(what + " exceeded"));
        });
}

void BeastWatchdog::Disarm() {
    state_->armed = false;
    state_->abort = nullptr;
    ++state_->generation;
    state_->timer.cancel();
}

const Status& BeastWatchdog::Fired() const {
    return state_->fired;
}

}  // namespace ctrl::rest::internal
