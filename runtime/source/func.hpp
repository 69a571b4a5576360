#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "ctrl/source/source.hpp"

namespace ctrl::source {

// What a Func source runs when its controller starts it: user code that enqueues Requests by
// hand (now, or later from a Task of its own it spawns) until ctx ends.
using StartFunction = std::function<Task<Status>(Context, RequestQueue&)>;

// A source made of a function (controller-runtime's source.Func): Start runs start once with the
// controller's context and queue and returns what it returns. Nothing is delivered through
// handlers or predicates; the function adds to the queue itself. Synced at once.
class FuncSource final : public Source {
  public:
    explicit FuncSource(StartFunction start) : start_(std::move(start)) {}

    Task<Status> Start(Context ctx, RequestQueue& queue) override;
    // "func source".
    std::string String() const override;

  private:
    const StartFunction start_;
    std::atomic<bool> started_{false};
};

// A source that runs start (controller-runtime's source.Func).
std::shared_ptr<Source> Func(StartFunction start);

}  // namespace ctrl::source
