#pragma once

#include <atomic>
#include <memory>
#include <utility>

#include "runtime/core/context.hpp"
#include "runtime/core/status_or.hpp"
#include "runtime/core/task.hpp"
#include "runtime/rest/transport.hpp"

namespace ctrl::testing {

// A transport that forwards to a real one and counts the requests that pass: how tests prove that
// something happens without a request ("before any request", "reads from the cache"), or costs
// exactly N. Thread-safe.
class CountingTransport final : public rest::Transport {
  public:
    explicit CountingTransport(std::unique_ptr<rest::Transport> inner) : inner_(std::move(inner)) {}

    Task<StatusOr<rest::HttpResponse>> Send(rest::HttpRequest request, Context ctx) override {
        ++count_;
        co_return co_await inner_->Send(std::move(request), std::move(ctx));
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(rest::HttpRequest request, Context ctx) override {
        ++count_;
        co_return co_await inner_->Open(std::move(request), std::move(ctx));
    }
    // Requests sent or opened so far.
    int Count() const { return count_.load(); }

  private:
    std::unique_ptr<rest::Transport> inner_;
    std::atomic<int> count_{0};
};

}  // namespace ctrl::testing
