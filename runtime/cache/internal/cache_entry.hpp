#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/informer.hpp"
#include "ctrl/discovery/rest_mapper.hpp"

namespace ctrl::cache {

// One kind's informers in a Cache (one per cached namespace), made together and never removed, so
// a pointer to an Entry stays valid while the Cache lives.
struct Cache::Entry {
    discovery::RESTMapping mapping{};
    std::vector<std::string> namespaces{};  // parallel to informers; "" = every namespace
    std::vector<std::shared_ptr<Informer>> informers{};
};

}  // namespace ctrl::cache
