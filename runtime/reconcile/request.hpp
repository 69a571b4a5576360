#pragma once

#include <functional>
#include <string>
#include <utility>

#include "ctrl/core/gvk.hpp"

namespace ctrl::reconcile {

// What a reconciler is asked to bring in line: the namespace and name of one object
// (controller-runtime's reconcile.Request). It carries no state of the object: the reconciler
// reads the current state itself. Declares constructors (not an aggregate), so `{ns, name}` is
// safe inside a co_await expression on GCC 12.
struct Request : ObjectKey {
    Request() = default;
    Request(std::string namespace_value, std::string name_value)
        : ObjectKey(std::move(namespace_value), std::move(name_value)) {}
    explicit Request(ObjectKey key) : ObjectKey(std::move(key)) {}

    const ObjectKey& NamespacedName() const { return *this; }
    auto operator<=>(const Request&) const = default;
};

}  // namespace ctrl::reconcile

template <>
struct std::hash<ctrl::reconcile::Request> {
    std::size_t operator()(const ctrl::reconcile::Request& r) const { return std::hash<ctrl::ObjectKey>{}(r); }
};
