#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/informer.hpp"
#include "ctrl/discovery/rest_mapper.hpp"

namespace ctrl::cache {

// One kind's informers in a Cache (one per cached namespace), made together. A retired entry
// (Cache::Retire) is kept, so a pointer to an Entry stays valid while the Cache lives.
struct Cache::Entry {
    discovery::RESTMapping mapping{};
    std::vector<std::string> namespaces{};  // parallel to informers; "" = every namespace
    std::vector<std::shared_ptr<Informer>> informers{};
};

// The Cache as an informer's end sees it: null once the Cache is destroyed.
struct Cache::Owner {
    explicit Owner(Cache* owner) : cache(owner) {}

    // Cache::Retire, while the Cache lives.
    void Retire(const EntryKey& key, const Informer* informer, const Status& why) {
        std::lock_guard lock(mu);
        if (cache != nullptr)
            (void)cache->Retire(key, informer, why);
    }

    std::mutex mu;
    Cache* cache;
};

}  // namespace ctrl::cache
