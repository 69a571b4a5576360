#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ctrl/core/object.hpp"

namespace ctrl::fake {

// The values of one field of an object, for field selectors on that field (the extractor of
// cache.IndexField): `[](const Object& pod) { return std::vector<std::string>{
// pod.NestedString({"spec", "nodeName"}).ValueOr("")}; }`.
using IndexFunc = std::function<std::vector<std::string>(const Object&)>;

}  // namespace ctrl::fake
