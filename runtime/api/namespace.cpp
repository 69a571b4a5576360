#include "ctrl/api/namespace.hpp"

#include "ctrl/api/internal/fields.hpp"

namespace ctrl::api {

template <typename Self>
std::string_view NamespaceFields<Self>::Phase() const {
    return internal::String(internal::Find(Obj(), {"status", "phase"}));
}

template <typename Self>
std::vector<Condition> NamespaceFields<Self>::Conditions() const {
    return ReadConditions(Obj(), {"status", "conditions"});
}

template <typename Self>
std::vector<std::string> NamespaceFields<Self>::SpecFinalizers() const {
    return internal::Strings(internal::Find(Obj(), {"spec", "finalizers"}));
}

template class NamespaceFields<Namespace>;
template class NamespaceFields<NamespaceView>;

}  // namespace ctrl::api
