#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ctrl/cache/internal/backoff.hpp"
#include "ctrl/cache/reflector.hpp"
#include "ctrl/log/log.hpp"

// The reflector's state between Steps, shared by reflector.cpp and reflector_watch_list.cpp.

namespace ctrl::cache {

// Where the state machine is. kListing: gathering pages into `replacement` (none yet: the next page
// is the first; or, with watch-lists on and no fallback pending, the watch-list is opened next).
// kStreaming: a watch-list `stream` open, its initial events gathered into `replacement` until the
// bookmark that ends them. kWatching: `stream` open (or about to be opened from `resource_version`).
struct Reflector::State {
    explicit State(const ReflectorOptions& options) : backoff(options.initial_backoff, options.max_backoff) {}

    Phase phase = Phase::kListing;
    std::optional<StoreReplacement> replacement;
    std::string continue_token;
    std::string resource_version;
    std::unique_ptr<rest::WatchStream> stream;
    std::optional<Context> watch_ctx;  // what the open stream reads with
    std::chrono::steady_clock::time_point watch_started{};
    // watch_overrun after its timeoutSeconds: an event after this ends a watch the server did not end.
    std::chrono::steady_clock::time_point watch_ends{};
    int64_t watch_events = 0;
    int gone_in_a_row = 0;
    internal::Backoff backoff;
    log::Logger log;
    std::chrono::steady_clock::time_point list_started{};
    int64_t list_pages = 0;
    // The next list is made in pages (a watch-list just failed), once.
    bool pages_next = false;
    // The server refused a watch-list's parameters: lists are made in pages from now on.
    bool watch_list_refused = false;
    // Set once a protobuf event could not be read: the target watches use from then on (JSON).
    std::optional<ListWatchTarget> json_target;

    void CloseWatch() {
        if (stream)
            stream->Close();
        stream.reset();
        watch_ctx.reset();
    }
    void Relist() {
        CloseWatch();
        phase = Phase::kListing;
        replacement.reset();
        continue_token.clear();
    }
};

}  // namespace ctrl::cache
