#include "test/support/internal/fake_script.hpp"

#include <utility>

namespace ctrl::testing::internal {
namespace {

bool Matches(const FakeRoute& route, const FakeRequest& request) {
    if (!route.method.empty() && route.method != request.method)
        return false;
    return route.prefix ? request.path.starts_with(route.path) : request.path == route.path;
}

}  // namespace

void FakeScript::Add(FakeRoute route, std::vector<FakeResponse> responses) {
    std::lock_guard lock(mu_);
    routes_.push_back({.route = std::move(route), .responses = std::move(responses), .handler = nullptr});
}

void FakeScript::Add(FakeRoute route, FakeHandler handler) {
    std::lock_guard lock(mu_);
    routes_.push_back({.route = std::move(route), .responses = {}, .handler = std::move(handler)});
}

void FakeScript::Reset() {
    std::lock_guard lock(mu_);
    routes_.clear();
    requests_.clear();
    connections_ = 0;
    body_bytes_ = 0;
}

FakeResponse FakeScript::Answer(const FakeRequest& request) {
    FakeHandler handler;
    {
        std::lock_guard lock(mu_);
        requests_.push_back(request);
        received_.notify_all();
        for (auto it = routes_.rbegin(); it != routes_.rend(); ++it) {
            if (!Matches(it->route, request))
                continue;
            if (it->handler) {
                handler = it->handler;
                break;
            }
            if (it->responses.empty())
                break;
            const std::size_t index = std::min(it->answered, it->responses.size() - 1);
            ++it->answered;
            return it->responses[index];
        }
    }
    if (handler)
        return handler(request);
    return FakeResponse::ApiStatus(404, "NotFound",
                                   "the fake API server has no script for " + request.method + " " + request.path);
}

std::vector<FakeRequest> FakeScript::Requests() const {
    std::lock_guard lock(mu_);
    return requests_;
}

std::size_t FakeScript::RequestCount() const {
    std::lock_guard lock(mu_);
    return requests_.size();
}

bool FakeScript::WaitForRequests(std::size_t count, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mu_);
    return received_.wait_for(lock, timeout, [&] { return requests_.size() >= count; });
}

}  // namespace ctrl::testing::internal
