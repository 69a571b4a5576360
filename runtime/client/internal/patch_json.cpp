#include "ctrl/client/internal/patch_json.hpp"

#include <algorithm>
#include <vector>

namespace ctrl::client::internal {

void WriteSortedJson(const JsonValue& value, JsonWriter& writer) {
    if (value.IsObject()) {
        std::vector<const JsonValue::Member*> members;
        members.reserve(value.MemberCount());
        for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it)
            members.push_back(&*it);
        std::stable_sort(members.begin(), members.end(), [](const JsonValue::Member* a, const JsonValue::Member* b) {
            return ctrl::internal::JsonView(a->name) < ctrl::internal::JsonView(b->name);
        });
        writer.StartObject();
        for (const JsonValue::Member* member : members) {
            writer.Key(member->name.GetString(), member->name.GetStringLength());
            WriteSortedJson(member->value, writer);
        }
        writer.EndObject();
    } else if (value.IsArray()) {
        writer.StartArray();
        for (const JsonValue& element : value.GetArray())
            WriteSortedJson(element, writer);
        writer.EndArray();
    } else {
        value.Accept(writer);
    }
}

std::string WriteSortedJson(const JsonValue& value) {
    rapidjson::StringBuffer buffer;
    JsonWriter writer(buffer);
    WriteSortedJson(value, writer);
    return std::string(buffer.GetString(), buffer.GetSize());
}

void AppendPointerToken(std::string& pointer, std::string_view name) {
    pointer.push_back('/');
    for (char c : name) {
        if (c == '~')
            pointer.append("~0");
        else if (c == '/')
            pointer.append("~1");
        else
            pointer.push_back(c);
    }
}

}  // namespace ctrl::client::internal
