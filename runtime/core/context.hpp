#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "ctrl/core/status.hpp"

namespace ctrl {

// A deadline and a stop signal that travel with a call, as Go's context.Context does. Cheap to
// copy (copies share state). Cancelling a context cancels every context derived from it; a
// derived context's deadline is never later than its parent's. Thread-safe.
class Context {
  public:
    using Clock = std::chrono::steady_clock;
    using CallbackId = uint64_t;

    // A context that is never cancelled and has no deadline (context.Background()).
    static Context Background();
    // A child that is cancelled with its parent or by Cancel().
    static Context WithCancel(const Context& parent);
    // A child that also expires at the deadline (or the parent's, if earlier).
    static Context WithDeadline(const Context& parent, Clock::time_point deadline);
    static Context WithTimeout(const Context& parent, Clock::duration timeout);
    // A child that carries value under key (context.WithValue): Value(key) on it and on its
    // descendants returns value unless a nearer one shadows it. key is the address of something
    // the caller owns (a static), so keys of different modules never collide.
    static Context WithValue(const Context& parent, const void* key, std::shared_ptr<const void> value);

    // The nearest value stored under key, or null.
    std::shared_ptr<const void> Value(const void* key) const;

    // Cancels this context and its children; the first reason given wins. No-op when done.
    void Cancel(Status reason = CancelledError("context cancelled")) const;

    // Whether Cancel() was called here or on an ancestor. An expired deadline is not
    // "cancelled" until someone observes it: use Err(), which checks both.
    bool Cancelled() const;
    std::optional<Clock::time_point> Deadline() const;
    // Time left until the deadline (zero when past it); nullopt without a deadline.
    std::optional<Clock::duration> Remaining() const;
    // OK while live; the cancel reason, or Timeout once the deadline has passed.
    Status Err() const;

    // Runs fn once when the context is cancelled (immediately, on this thread, when it already
    // is). fn runs on the cancelling thread and must not block. Returns an id for RemoveCallback.
    CallbackId OnCancel(std::function<void(const Status&)> fn) const;
    void RemoveCallback(CallbackId id) const;

  private:
    struct State;
    explicit Context(std::shared_ptr<State> state) : state_(std::move(state)) {}
    std::shared_ptr<State> state_;
};

}  // namespace ctrl
