#include "ctrl/api/custom_resource_definition.hpp"

#include "ctrl/api/internal/fields.hpp"

namespace ctrl::api {

namespace {

using internal::Find;
using internal::JsonValue;

CustomResourceNames ReadNames(const JsonValue* names) {
    return CustomResourceNames{
        internal::StringCopy(Find(names, {"plural"})),  internal::StringCopy(Find(names, {"singular"})),
        internal::StringCopy(Find(names, {"kind"})),    internal::StringCopy(Find(names, {"listKind"})),
        internal::Strings(Find(names, {"shortNames"})), internal::Strings(Find(names, {"categories"}))};
}

CustomResourceDefinitionVersion ReadVersion(const JsonValue& entry) {
    return CustomResourceDefinitionVersion{
        internal::StringCopy(Find(&entry, {"name"})),        internal::Bool(Find(&entry, {"served"})),
        internal::Bool(Find(&entry, {"storage"})),           internal::Bool(Find(&entry, {"deprecated"})),
        Find(&entry, {"subresources", "status"}) != nullptr, Find(&entry, {"subresources", "scale"}) != nullptr};
}

}  // namespace

template <typename Self>
std::string_view CustomResourceDefinitionFields<Self>::Group() const {
    return internal::String(Find(Obj(), {"spec", "group"}));
}

template <typename Self>
CustomResourceNames CustomResourceDefinitionFields<Self>::Names() const {
    return ReadNames(Find(Obj(), {"spec", "names"}));
}

template <typename Self>
CustomResourceNames CustomResourceDefinitionFields<Self>::AcceptedNames() const {
    return ReadNames(Find(Obj(), {"status", "acceptedNames"}));
}

template <typename Self>
std::string_view CustomResourceDefinitionFields<Self>::Scope() const {
    return internal::String(Find(Obj(), {"spec", "scope"}));
}

template <typename Self>
std::vector<CustomResourceDefinitionVersion> CustomResourceDefinitionFields<Self>::Versions() const {
    std::vector<CustomResourceDefinitionVersion> out;
    internal::ForEachObject(Find(Obj(), {"spec", "versions"}),
                            [&](const JsonValue& entry) { out.push_back(ReadVersion(entry)); });
    return out;
}

template <typename Self>
std::optional<CustomResourceDefinitionVersion> CustomResourceDefinitionFields<Self>::FindVersion(
    std::string_view name) const {
    for (CustomResourceDefinitionVersion& version : Versions()) {
        if (version.name == name)
            return std::move(version);
    }
    return std::nullopt;
}

template <typename Self>
std::vector<GroupVersionKind> CustomResourceDefinitionFields<Self>::ServedKinds() const {
    std::vector<GroupVersionKind> out;
    const std::string group(Group());
    const std::string kind = Names().kind;
    for (const CustomResourceDefinitionVersion& version : Versions()) {
        if (version.served)
            out.push_back(GroupVersionKind{group, version.name, kind});
    }
    return out;
}

template <typename Self>
std::vector<std::string> CustomResourceDefinitionFields<Self>::StoredVersions() const {
    return internal::Strings(Find(Obj(), {"status", "storedVersions"}));
}

template <typename Self>
std::vector<Condition> CustomResourceDefinitionFields<Self>::Conditions() const {
    return ReadConditions(Obj(), {"status", "conditions"});
}

template <typename Self>
bool CustomResourceDefinitionFields<Self>::IsEstablished() const {
    return IsConditionTrue(Conditions(), "Established");
}

template <typename Self>
bool CustomResourceDefinitionFields<Self>::IsNamesAccepted() const {
    return IsConditionTrue(Conditions(), "NamesAccepted");
}

template class CustomResourceDefinitionFields<CustomResourceDefinition>;
template class CustomResourceDefinitionFields<CustomResourceDefinitionView>;

Status CustomResourceDefinition::SetVersionServed(std::string_view name, bool served) {
    JsonValue* versions = internal::MutableArrayAt(*this, {"spec", "versions"});
    if (versions != nullptr) {
        for (JsonValue& entry : versions->GetArray()) {
            if (entry.IsObject() && internal::String(Find(&entry, {"name"})) == name) {
                ctrl::internal::SetJsonMember(entry, "served", JsonValue(served), internal::Allocator(*this));
                return OkStatus();
            }
        }
    }
    return NotFoundError("CustomResourceDefinition " + std::string(Name()) + " has no version \"" + std::string(name) +
                         "\"");
}

}  // namespace ctrl::api
