#include "secret_content.hpp"

#include <sstream>

namespace configsecret {

SecretContent ComputeSecretContent(const std::optional<std::vector<std::string>>& keys,
                                   const ctrl::api::ConfigMap& config_map) {
    SecretContent content;
    if (!keys) {
        content.data = config_map.Data();
        return content;
    }
    for (const std::string& key : *keys) {
        const std::optional<std::string_view> value = config_map.DataValue(key);
        if (value)
            content.data.emplace(key, std::string(*value));
        else
            content.missing_keys.push_back(key);
    }
    return content;
}

std::set<std::string> UsedBy(const ctrl::Object& object) {
    std::set<std::string> names;
    const std::optional<std::string_view> value = object.Annotation(kUsedByAnnotation);
    if (!value)
        return names;
    std::istringstream list{std::string(*value)};
    for (std::string name; std::getline(list, name, ',');)
        if (!name.empty())
            names.insert(name);
    return names;
}

bool SetUsedBy(ctrl::Object& object, const std::set<std::string>& names) {
    if (UsedBy(object) == names && (!names.empty() || !object.Annotation(kUsedByAnnotation)))
        return false;
    std::map<std::string, std::string> annotations = object.Annotations();
    if (names.empty()) {
        annotations.erase(std::string(kUsedByAnnotation));
    } else {
        std::string joined;
        for (const std::string& name : names)
            joined += (joined.empty() ? "" : ",") + name;
        annotations[std::string(kUsedByAnnotation)] = joined;
    }
    object.SetAnnotations(annotations);
    return true;
}

}  // namespace configsecret
