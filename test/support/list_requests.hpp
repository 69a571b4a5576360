#pragma once

// Notes every LIST and watch-list of one resource that a program sends: a rest::Config's
// wrap_transport that calls back for each, so that a process can show when it listed (the failover
// test's testbin, ctrl-vs-probe's failover scenario: a warm standby lists nothing once elected).

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::testing {

// Whether request reads a whole collection of resource ("configmaps"): a GET of a path ending in
// "/<resource>" that is a LIST (no watch=true) or a watch-list (watch=true with
// sendInitialEvents=true). A plain watch, which only resumes from a resourceVersion, is neither.
inline bool IsListOrWatchList(const rest::HttpRequest& request, std::string_view resource) {
    if (request.method != "GET")
        return false;
    const std::string_view target = request.target;
    const size_t question = target.find('?');
    const std::string_view path = target.substr(0, question);
    const std::string suffix = "/" + std::string(resource);
    if (path.size() < suffix.size() || path.substr(path.size() - suffix.size()) != suffix)
        return false;
    const std::string_view query = question == std::string_view::npos ? "" : target.substr(question + 1);
    auto has = [&](std::string_view param) {
        for (size_t at = 0; at <= query.size();) {
            const size_t end = std::min(query.find('&', at), query.size());
            if (query.substr(at, end - at) == param)
                return true;
            at = end + 1;
        }
        return false;
    };
    const bool watch = has("watch=true") || has("watch=1");
    return !watch || has("sendInitialEvents=true");
}

// A transport that calls on_list(target) for every request IsListOrWatchList(resource) holds of,
// then forwards it. on_list runs on the sender's thread and must not block.
class ListNotingTransport final : public rest::Transport {
  public:
    ListNotingTransport(std::unique_ptr<rest::Transport> inner, std::string resource,
                        std::function<void(const std::string&)> on_list)
        : inner_(std::move(inner)), resource_(std::move(resource)), on_list_(std::move(on_list)) {}

    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, rest::HttpRequest request) override {
        Note(request);
        co_return co_await inner_->Send(std::move(ctx), std::move(request));
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context ctx, rest::HttpRequest request) override {
        Note(request);
        co_return co_await inner_->Open(std::move(ctx), std::move(request));
    }

  private:
    void Note(const rest::HttpRequest& request) const {
        if (IsListOrWatchList(request, resource_))
            on_list_(request.target);
    }

    std::unique_ptr<rest::Transport> inner_;
    const std::string resource_;
    const std::function<void(const std::string&)> on_list_;
};

// The value for rest::Config::wrap_transport: every transport made from the config notes resource's
// lists through on_list.
inline std::function<std::unique_ptr<rest::Transport>(std::unique_ptr<rest::Transport>)> NoteLists(
    std::string resource, std::function<void(const std::string&)> on_list) {
    return [resource = std::move(resource), on_list = std::move(on_list)](std::unique_ptr<rest::Transport> inner) {
        return std::unique_ptr<rest::Transport>(
            std::make_unique<ListNotingTransport>(std::move(inner), resource, on_list));
    };
}

}  // namespace ctrl::testing
