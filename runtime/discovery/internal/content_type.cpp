#include "ctrl/discovery/internal/content_type.hpp"

#include <cctype>
#include <cstddef>

namespace ctrl::discovery::internal {
namespace {

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

std::string_view Unquote(std::string_view value) {
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
        return value.substr(1, value.size() - 2);
    return value;
}

}  // namespace

bool IsAggregatedDiscoveryContentType(std::string_view content_type) {
    std::size_t end = content_type.find(';');
    if (!EqualsIgnoreCase(Trim(content_type.substr(0, end)), "application/json"))
        return false;
    bool group = false;
    bool list = false;
    while (end != std::string_view::npos) {
        content_type.remove_prefix(end + 1);
        end = content_type.find(';');
        const std::string_view parameter = content_type.substr(0, end);
        const std::size_t equals = parameter.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string_view name = Trim(parameter.substr(0, equals));
        const std::string_view value = Unquote(Trim(parameter.substr(equals + 1)));
        if (EqualsIgnoreCase(name, "g"))
            group = value == "apidiscovery.k8s.io";
        else if (EqualsIgnoreCase(name, "as"))
            list = value == "APIGroupDiscoveryList";
    }
    return group && list;
}

}  // namespace ctrl::discovery::internal
