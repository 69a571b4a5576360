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
// derived context's deadline is never later than its parent's. A deadline fires by itself: when it
// passes, the context is cancelled with a Timeout (its OnCancel callbacks run, its children are
// cancelled), whether or not anyone looks. One thread serves every deadline of the process
// (internal/deadline_service.hpp); a context that ends first, or is released, takes its deadline
// back. A call that takes a Context takes it first: Get(ctx, key, obj), SleepFor(ctx, 1s).
// Thread-safe.
class Context {
  public:
    using Clock = std::chrono::steady_clock;
    using CallbackId = uint64_t;

    // A context that is never cancelled and has no deadline (context.Background()).
    static Context Background();
    // A child that is cancelled with its parent or by Cancel().
    static Context WithCancel(const Context& parent);
    // A child that is also cancelled when the deadline passes (or the parent's, if earlier), with
    // `cause` as its reason (context.WithDeadlineCause): a Timeout status, by default
    // "context deadline exceeded". A deadline already past cancels the child at once.
    static Context WithDeadline(const Context& parent, Clock::time_point deadline, Status cause = Status());
    static Context WithTimeout(const Context& parent, Clock::duration timeout, Status cause = Status());
    // A child that carries value under key (context.WithValue): Value(key) on it and on its
    // descendants returns value unless a nearer one shadows it. key is the address of something
    // the caller owns (a static), so keys of different modules never collide.
    static Context WithValue(const Context& parent, const void* key, std::shared_ptr<const void> value);

    // The nearest value stored under key, or null.
    std::shared_ptr<const void> Value(const void* key) const;

    // Cancels this context and its children; the first reason given wins. No-op when done.
    void Cancel(Status reason = CancelledError("context cancelled")) const;

    // Whether Cancel() was called here or on an ancestor, or the deadline fired. The deadline
    // fires on the deadline thread a moment after it passes; Err() already says Timeout then.
    bool Cancelled() const;
    std::optional<Clock::time_point> Deadline() const;
    // Time left until the deadline (zero when past it); nullopt without a deadline.
    std::optional<Clock::duration> Remaining() const;
    // OK while live; the cancel reason, or the deadline's cause (a Timeout) once it has passed.
    Status Err() const;

    // Runs fn once when the context is cancelled or its deadline fires (immediately, on this
    // thread, when it already is). fn runs on the cancelling thread (for a deadline, the deadline
    // thread) and must not block. Returns an id for RemoveCallback.
    CallbackId OnCancel(std::function<void(const Status&)> fn) const;
    void RemoveCallback(CallbackId id) const;

  private:
    struct State;
    explicit Context(std::shared_ptr<State> state) : state_(std::move(state)) {}
    std::shared_ptr<State> state_;
};

}  // namespace ctrl
