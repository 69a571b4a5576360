#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::testing {

// A transport that forwards to a real one and counts the requests that pass (and keeps their
// paths): how tests prove that something happens without a request ("before any request",
// "reads from the cache"), costs exactly N, or went through this one transport. Thread-safe.
// observe, when given, sees each request first, on the sender's thread (it must not block).
class CountingTransport final : public rest::Transport {
  public:
    explicit CountingTransport(std::unique_ptr<rest::Transport> inner,
                               std::function<void(const rest::HttpRequest&)> observe = {})
        : inner_(std::move(inner)), observe_(std::move(observe)) {}

    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, rest::HttpRequest request) override {
        Record(request);
        co_return co_await inner_->Send(std::move(ctx), std::move(request));
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context ctx, rest::HttpRequest request) override {
        Record(request);
        co_return co_await inner_->Open(std::move(ctx), std::move(request));
    }
    // Requests sent or opened so far.
    int Count() const { return count_.load(); }
    // The path and query of every request so far, in order.
    std::vector<std::string> Paths() const {
        std::lock_guard lock(mu_);
        return paths_;
    }

  private:
    std::unique_ptr<rest::Transport> inner_;
    const std::function<void(const rest::HttpRequest&)> observe_;
    void Record(const rest::HttpRequest& request) {
        if (observe_)
            observe_(request);
        std::lock_guard lock(mu_);
        paths_.push_back(request.target);
        ++count_;
    }

    std::atomic<int> count_{0};
    mutable std::mutex mu_;
    std::vector<std::string> paths_;
};

}  // namespace ctrl::testing
