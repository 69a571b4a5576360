#include "ctrl/controllerutil/finalizer.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace ctrl::controllerutil {

bool AddFinalizer(Object& object, std::string_view finalizer) {
    return object.AddFinalizer(finalizer);
}

bool RemoveFinalizer(Object& object, std::string_view finalizer) {
    return object.RemoveFinalizer(finalizer);
}

bool ContainsFinalizer(const Object& object, std::string_view finalizer) {
    const std::vector<std::string> finalizers = object.Finalizers();
    return std::find(finalizers.begin(), finalizers.end(), finalizer) != finalizers.end();
}

}  // namespace ctrl::controllerutil
