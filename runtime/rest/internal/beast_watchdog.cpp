#include "ctrl/rest/internal/beast_watchdog.hpp"

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
        if (!armed || paused || !fired.Ok())
            return;
        fired = std::move(why);
        abort();
    }

    // Waits until `at` (replacing a pending wait); then fires, or waits again for the rest when
    // the deadline moved later meanwhile.
    static void Arm(const std::shared_ptr<State>& state, Clock::time_point at) {
        state->timer.expires_at(at);
        state->armed_at = at;
        state->timer.async_wait([state, generation = ++state->generation](const boost::system::error_code& ec) {
            if (generation != state->generation)
                return;  // replaced or disarmed
            state->armed_at.reset();
            if (ec || !state->armed || !state->deadline.at)
                return;
            if (Clock::now() < *state->deadline.at)
                Arm(state, *state->deadline.at);
            else
                state->Fire(TimeoutError(state->deadline.what + " exceeded"));
        });
    }

    Strand strand;
    boost::asio::steady_timer timer;
    std::function<void()> abort;
    bool armed = true;
    bool paused = false;
    Status fired;
    Deadline deadline;
    std::optional<Clock::time_point> armed_at;  // when the pending wait ends; none: no wait
    std::uint64_t generation = 0;               // of the pending wait
    std::uint64_t watch_epoch = 0;              // of the Context callback
};

const Deadline& Earliest(const Deadline& a, const Deadline& b) {
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

BeastWatchdog::BeastWatchdog(const Context& ctx, Strand strand, std::function<void()> abort)
    : state_(std::make_shared<State>(strand)), ctx_(ctx) {
    state_->abort = std::move(abort);
    Watch(ctx_);
}

BeastWatchdog::~BeastWatchdog() {
    Disarm();
    ctx_.RemoveCallback(callback_id_);
}

void BeastWatchdog::Watch(const Context& ctx) {
    std::weak_ptr<State> weak = state_;
    const std::uint64_t epoch = ++state_->watch_epoch;
    // Runs on the cancelling thread, or right here when ctx is already cancelled.
    callback_id_ = ctx.OnCancel([weak, epoch](const Status& why) {
        if (auto state = weak.lock()) {
            boost::asio::post(state->strand, [state, epoch, why] {
                if (epoch == state->watch_epoch)
                    state->Fire(why);
            });
        }
    });
}

void BeastWatchdog::ExpireAt(const Deadline& deadline) {
    State& state = *state_;
    state.deadline = deadline;
    if (!deadline.at || !state.armed)
        return;
    if (state.armed_at && *state.armed_at <= *deadline.at)
        return;  // the pending wait ends first and then waits for the rest
    State::Arm(state_, *deadline.at);
}

void BeastWatchdog::Pause() {
    state_->paused = true;
    state_->deadline.at.reset();
}

void BeastWatchdog::Resume(const Context& ctx) {
    ctx_.RemoveCallback(callback_id_);
    ctx_ = ctx;
    Watch(ctx_);
    state_->paused = false;
}

void BeastWatchdog::Disarm() {
    state_->armed = false;
    state_->abort = nullptr;
    ++state_->generation;
    state_->armed_at.reset();
    state_->timer.cancel();
}

const Status& BeastWatchdog::Fired() const {
    return state_->fired;
}

}  // namespace ctrl::rest::internal
