#pragma once

#include <cstddef>

#include "ctrl/cache/internal/hot_views.hpp"
#include "ctrl/cache/internal/intern_table.hpp"

namespace ctrl::cache::internal {

// What a store's handles need besides their entry: the member names and string values the compact forms refer to
// (the store interns into them while encoding), and the decoded views the store keeps hot. Shared
// by the store and every handle, so a handle outlives its store.
struct StoreContext {
    explicit StoreContext(std::size_t hot_views) : views(hot_views) {}

    InternTable keys;
    HotViews views;
};

}  // namespace ctrl::cache::internal
