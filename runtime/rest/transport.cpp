#include "ctrl/rest/transport.hpp"

#include <algorithm>
#include <cctype>

namespace ctrl::rest {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace

std::optional<std::string_view> FindHeader(const std::vector<Header>& headers, std::string_view name) {
    for (const Header& header : headers) {
        if (EqualsIgnoreCase(header.name, name))
            return std::string_view(header.value);
    }
    return std::nullopt;
}

std::optional<std::string_view> HttpRequest::FindHeader(std::string_view name) const {
    return rest::FindHeader(headers, name);
}

void HttpRequest::SetHeader(std::string name, std::string value) {
    for (Header& header : headers) {
        if (EqualsIgnoreCase(header.name, name)) {
            header.value = std::move(value);
            return;
        }
    }
    headers.push_back({std::move(name), std::move(value)});
}

std::optional<std::string_view> HttpResponse::FindHeader(std::string_view name) const {
    return rest::FindHeader(headers, name);
}

}  // namespace ctrl::rest
