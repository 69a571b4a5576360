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

#include "ctrl/rest/transport.hpp"
#include "test/support/counting_transport.hpp"

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

// A value for rest::Config::wrap_transport: every transport made from the config is a
// CountingTransport with these observers.
inline std::function<std::unique_ptr<rest::Transport>(std::unique_ptr<rest::Transport>)> Observe(
    TransportObservers observers) {
    return [observers = std::move(observers)](std::unique_ptr<rest::Transport> inner) {
        return std::unique_ptr<rest::Transport>(std::make_unique<CountingTransport>(std::move(inner), observers));
    };
}

// A value for rest::Config::wrap_transport that calls on_list(target) for each request
// IsListOrWatchList(resource) holds of, before sending it, on the sender's thread; on_list must
// not block.
inline std::function<std::unique_ptr<rest::Transport>(std::unique_ptr<rest::Transport>)> NoteLists(
    std::string resource, std::function<void(const std::string&)> on_list) {
    TransportObservers observers;
    observers.sent = [resource = std::move(resource), on_list = std::move(on_list)](const rest::HttpRequest& request) {
        if (IsListOrWatchList(request, resource))
            on_list(request.target);
    };
    return Observe(std::move(observers));
}

}  // namespace ctrl::testing
