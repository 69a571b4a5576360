#include "ctrl/builder/webhook_builder.hpp"

#include <algorithm>
#include <cctype>

namespace ctrl::builder {
namespace {

std::string PathFor(std::string_view prefix, const GroupVersionKind& gvk) {
    std::string group = gvk.group;
    std::replace(group.begin(), group.end(), '.', '-');
    std::string kind = gvk.kind;
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return std::tolower(c); });
    return std::string(prefix) + group + "-" + gvk.version + "-" + kind;
}

}  // namespace

std::string ValidatePath(const GroupVersionKind& gvk) {
    return PathFor("/validate-", gvk);
}

std::string MutatePath(const GroupVersionKind& gvk) {
    return PathFor("/mutate-", gvk);
}

}  // namespace ctrl::builder
