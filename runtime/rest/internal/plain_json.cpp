#include "runtime/rest/internal/plain_json.hpp"

namespace ctrl::rest::internal {
namespace {

using Document = ctrl::internal::JsonDocument::Document;

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

// The string at *at (a quote), unescaped (a view of json, or of scratch when it had escapes); moves
// *at past it. Trusted: IsPlainJson accepted the text.
std::string_view ReadString(std::string_view json, std::size_t& at, std::string& scratch) {
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

bool EmitValue(std::string_view json, std::size_t& at, Document& doc, std::string& scratch) {
    if (json[at] == '"') {
        const std::string_view text = ReadString(json, at, scratch);
        return doc.String(text.data(), static_cast<rapidjson::SizeType>(text.size()), true);
    }
    ++at;  // '{'
    doc.StartObject();
    rapidjson::SizeType members = 0;
    while (json[at] != '}') {
        const std::string_view name = ReadString(json, at, scratch);
        doc.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()), true);
        ++at;  // ':'
        if (!EmitValue(json, at, doc, scratch))
            return false;
        ++members;
        if (json[at] == ',')
            ++at;
    }
    ++at;  // '}'
    return doc.EndObject(members);
}

}  // namespace

bool IsPlainJson(std::string_view json) {
    std::size_t at = 0;
    int depth = 0;
    // A value is expected at `at` (after the start, a ':' or an object's '{' + member name).
    while (true) {
        if (at >= json.size())
            return false;
        if (json[at] == '"') {
            at = SkipString(json, at);
            if (at == std::string_view::npos)
                return false;
        } else if (json[at] == '{') {
            if (++depth > kMaxPlainDepth)
                return false;
            ++at;
            if (at < json.size() && json[at] == '}') {
                --depth;
                ++at;
            } else {
                // The first member's name and colon, then its value.
                if (at >= json.size() || json[at] != '"')
                    return false;
                at = SkipString(json, at);
                if (at == std::string_view::npos || at >= json.size() || json[at] != ':')
                    return false;
                ++at;
                continue;
            }
        } else {
            return false;
        }
        // After a value: close objects, or go on to the next member.
        while (true) {
            if (depth == 0)
                return at == json.size();
            if (at >= json.size())
                return false;
            if (json[at] == '}') {
                --depth;
                ++at;
                continue;
            }
            if (json[at] != ',' || at + 1 >= json.size() || json[at + 1] != '"')
                return false;
            at = SkipString(json, at + 1);
            if (at == std::string_view::npos || at >= json.size() || json[at] != ':')
                return false;
            ++at;
            break;
        }
    }
}

bool EmitPlainJson(std::string_view json, Document& doc, std::string& scratch) {
    std::size_t at = 0;
    return EmitValue(json, at, doc, scratch);
}

}  // namespace ctrl::rest::internal
