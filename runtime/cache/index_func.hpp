#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ctrl/core/object.hpp"

namespace ctrl::cache {

// The values under which an object is found in one index of a store (controller-runtime's
// IndexerFunc): for a field index on spec.nodeName, {the node name}; none to leave the object out.
// It runs on every stored version of every object, under the store's write lock: keep it quick and
// do not call back into the store.
using IndexFunc = std::function<std::vector<std::string>(const Object&)>;

}  // namespace ctrl::cache
