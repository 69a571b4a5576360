#include "ctrl/core/gvk.hpp"

namespace ctrl {

StatusOr<GroupVersion> GroupVersion::Parse(std::string_view api_version) {
    if (api_version.empty())
        return BadRequestError("apiVersion is empty");
    const std::size_t slash = api_version.find('/');
    if (slash == std::string_view::npos)
        return GroupVersion{"", std::string(api_version)};
    const std::string_view group = api_version.substr(0, slash);
    const std::string_view version = api_version.substr(slash + 1);
    if (group.empty() || version.empty() || version.find('/') != std::string_view::npos) {
        return BadRequestError("apiVersion \"" + std::string(api_version) +
                               "\" is not of the form \"version\" or \"group/version\"");
    }
    return GroupVersion{std::string(group), std::string(version)};
}

std::string GroupVersion::String() const {
    return group.empty() ? version : group + "/" + version;
}

std::string GroupKind::String() const {
    return group.empty() ? kind : kind + "." + group;
}

std::string GroupResource::String() const {
    return group.empty() ? resource : resource + "." + group;
}

StatusOr<GroupVersionKind> GroupVersionKind::FromApiVersionKind(std::string_view api_version, std::string_view kind) {
    CTRL_ASSIGN_OR_RETURN(GroupVersion gv, GroupVersion::Parse(api_version));
    if (kind.empty())
        return BadRequestError("kind is empty (apiVersion \"" + std::string(api_version) + "\")");
    return GroupVersionKind{std::move(gv.group), std::move(gv.version), std::string(kind)};
}

std::string GroupVersionKind::String() const {
    return group + "/" + version + ", Kind=" + kind;
}

std::string GroupVersionResource::String() const {
    return group + "/" + version + ", Resource=" + resource;
}

std::string ObjectKey::String() const {
    return namespace_name.empty() ? name : namespace_name + "/" + name;
}

std::ostream& operator<<(std::ostream& os, const GroupVersion& gv) {
    return os << gv.String();
}
std::ostream& operator<<(std::ostream& os, const GroupKind& gk) {
    return os << gk.String();
}
std::ostream& operator<<(std::ostream& os, const GroupResource& gr) {
    return os << gr.String();
}
std::ostream& operator<<(std::ostream& os, const GroupVersionKind& gvk) {
    return os << gvk.String();
}
std::ostream& operator<<(std::ostream& os, const GroupVersionResource& gvr) {
    return os << gvr.String();
}
std::ostream& operator<<(std::ostream& os, const ObjectKey& key) {
    return os << key.String();
}

}  // namespace ctrl
