#include "ctrl/rest/internal/plain_json.hpp"

namespace ctrl::rest::internal {
namespace {

constexpr int kMaxPlainDepth = 64;

// Past the string that starts at json[at] (a quote); npos when it is not plain.
std::size_t SkipString(std::string_view json, std::size_t at) {
    for (++at; at < json.size(); ++at) {
        const auto c = static_cast<unsigned char>(json[at]);
        if (c == '"')
            return at + 1;
        if (c == '\\') {
            if (at + 1 >= json.size() || (json[at + 1] != '"' && json[at + 1] != '\\' && json[at + 1] != '/'))
                return std::string_view::npos;
            ++at;
        } else if (c < 0x20 || c >= 0x7f) {
            return std::string_view::npos;
        }
    }
    return std::string_view::npos;
}

// Past the plain value at json[at] inside `depth` objects; npos when it is not plain. The shape
// EmitPlainJson reads.
std::size_t SkipValue(std::string_view json, std::size_t at, int depth) {
    if (at >= json.size())
        return std::string_view::npos;
    if (json[at] == '"')
        return SkipString(json, at);
    if (json[at] != '{' || depth == kMaxPlainDepth)
        return std::string_view::npos;
    ++at;
    if (at < json.size() && json[at] == '}')
        return at + 1;
    while (true) {  // a member: its name, a colon, its value, then a comma or the end
        if (at >= json.size() || json[at] != '"')
            return std::string_view::npos;
        at = SkipString(json, at);
        if (at == std::string_view::npos || at >= json.size() || json[at] != ':')
            return std::string_view::npos;
        at = SkipValue(json, at + 1, depth + 1);
        if (at == std::string_view::npos || at >= json.size())
            return std::string_view::npos;
        if (json[at] == '}')
            return at + 1;
        if (json[at] != ',')
            return std::string_view::npos;
        ++at;
    }
}

}  // namespace

bool IsPlainJson(std::string_view json) {
    return SkipValue(json, 0, 0) == json.size();
}

std::string_view ReadPlainString(std::string_view json, std::size_t& at, std::string& scratch) {
    const std::size_t begin = ++at;
    while (json[at] != '"' && json[at] != '\\')
        ++at;
    if (json[at] == '"')
        return json.substr(begin, at++ - begin);
    scratch.assign(json.substr(begin, at - begin));
    while (json[at] != '"') {
        if (json[at] == '\\')
            ++at;  // \" \\ \/ stand for the character after the backslash
        scratch += json[at++];
    }
    ++at;
    return scratch;
}

}  // namespace ctrl::rest::internal
