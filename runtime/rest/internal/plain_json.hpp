#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::rest::internal {

// managedFields' FieldsV1 ({"f:metadata":{"f:labels":{".":{},"f:app":{}}},"k:{\"port\":80}":{}})
// built into a document in one pass, with no parser's index between, for the shape the API server
// writes. Anything else goes to a full JSON parser.

// Whether `json` has that shape: objects and strings only, no whitespace, strings of printable
// ASCII whose only escapes are \" \\ and \/, nested at most 64 deep.
bool IsPlainJson(std::string_view json);
// The string at json[at] (a quote), unescaped: a view of json, or of scratch when it had escapes;
// moves at past it. Trusted: IsPlainJson accepted the text.
std::string_view ReadPlainString(std::string_view json, std::size_t& at, std::string& scratch);

// Feeds `json`, which IsPlainJson accepts, to a RapidJSON-style SAX handler (a document, or what
// builds another form) as one value: the calls a JSON parser makes (strings unescaped and copied,
// members in order). `scratch` holds unescaped strings in passing. False when the handler refuses a
// value.
template <typename Handler>
bool EmitPlainJson(std::string_view json, std::size_t& at, Handler& handler, std::string& scratch) {
    if (json[at] == '"') {
        const std::string_view text = ReadPlainString(json, at, scratch);
        return handler.String(text.data(), static_cast<rapidjson::SizeType>(text.size()), true);
    }
    ++at;  // '{'
    handler.StartObject();
    rapidjson::SizeType members = 0;
    while (json[at] != '}') {
        const std::string_view name = ReadPlainString(json, at, scratch);
        handler.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()), true);
        ++at;  // ':'
        if (!EmitPlainJson(json, at, handler, scratch))
            return false;
        ++members;
        if (json[at] == ',')
            ++at;
    }
    ++at;  // '}'
    return handler.EndObject(members);
}

template <typename Handler>
bool EmitPlainJson(std::string_view json, Handler& handler, std::string& scratch) {
    std::size_t at = 0;
    return EmitPlainJson(json, at, handler, scratch);
}

}  // namespace ctrl::rest::internal
