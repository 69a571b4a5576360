#include "runtime/api/cni_node.hpp"

#include "runtime/api/internal/fields.hpp"

namespace ctrl::api {

template <typename Self>
std::vector<CNINodeFeature> CNINodeFields<Self>::Features() const {
    std::vector<CNINodeFeature> out;
    internal::ForEachObject(internal::Find(Obj(), {"spec", "features"}), [&](const internal::JsonValue& entry) {
        out.push_back(CNINodeFeature{internal::StringCopy(internal::Find(&entry, {"name"})),
                                     internal::StringCopy(internal::Find(&entry, {"value"}))});
    });
    return out;
}

template <typename Self>
bool CNINodeFields<Self>::HasFeature(std::string_view name) const {
    for (const CNINodeFeature& feature : Features()) {
        if (feature.name == name)
            return true;
    }
    return false;
}

template <typename Self>
std::map<std::string, std::string> CNINodeFields<Self>::Tags() const {
    return internal::StringMap(internal::Find(Obj(), {"spec", "tags"}));
}

template class CNINodeFields<CNINode>;
template class CNINodeFields<CNINodeView>;

void CNINode::SetFeatures(const std::vector<CNINodeFeature>& features) {
    if (features.empty()) {
        internal::Remove(*this, {"spec", "features"});
        return;
    }
    auto& allocator = internal::Allocator(*this);
    internal::JsonValue array(rapidjson::kArrayType);
    for (const CNINodeFeature& feature : features) {
        internal::JsonValue entry(rapidjson::kObjectType);
        internal::PutString(entry, "name", feature.name, allocator);
        if (!feature.value.empty())
            internal::PutString(entry, "value", feature.value, allocator);
        array.PushBack(entry, allocator);
    }
    internal::SetValue(*this, {"spec", "features"}, std::move(array));
}

}  // namespace ctrl::api
