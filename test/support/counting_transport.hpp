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

// What a CountingTransport tells its owner, on the thread of the request (neither may block): each
// request before it is sent, and the status of each answer (0 when none came) with its request's
// method and target.
struct TransportObservers {
    std::function<void(const rest::HttpRequest&)> sent{};
    std::function<void(const std::string& method, const std::string& target, int status)> answered{};
};

// A transport that forwards to a real one and counts the requests that pass (and keeps their
// paths): how tests prove that something happens without a request ("before any request",
// "reads from the cache"), costs exactly N, or went through this one transport. Thread-safe.
class CountingTransport final : public rest::Transport {
  public:
    explicit CountingTransport(std::unique_ptr<rest::Transport> inner, TransportObservers observers = {})
        : inner_(std::move(inner)), observers_(std::move(observers)) {}

    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, rest::HttpRequest request) override {
        Record(request);
        if (!observers_.answered)
            co_return co_await inner_->Send(std::move(ctx), std::move(request));
        std::string method = request.method;
        std::string target = request.target;
        StatusOr<rest::HttpResponse> response = co_await inner_->Send(std::move(ctx), std::move(request));
        observers_.answered(method, target, response.Ok() ? response->status : 0);
        co_return response;
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context ctx, rest::HttpRequest request) override {
        Record(request);
        if (!observers_.answered)
            co_return co_await inner_->Open(std::move(ctx), std::move(request));
        std::string method = request.method;
        std::string target = request.target;
        StatusOr<std::unique_ptr<rest::BodyStream>> stream = co_await inner_->Open(std::move(ctx), std::move(request));
        observers_.answered(method, target, stream.Ok() ? (*stream)->StatusCode() : 0);
        co_return stream;
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
    const TransportObservers observers_;
    void Record(const rest::HttpRequest& request) {
        if (observers_.sent)
            observers_.sent(request);
        std::lock_guard lock(mu_);
        paths_.push_back(request.target);
        ++count_;
    }

    std::atomic<int> count_{0};
    mutable std::mutex mu_;
    std::vector<std::string> paths_;
};

}  // namespace ctrl::testing
