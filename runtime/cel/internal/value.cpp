#include "ctrl/cel/internal/value.hpp"

#include <cmath>
#include <limits>

namespace ctrl::cel::internal {

namespace {

const JsonValue* JsonOf(const Value& value) {
    return value.Is<JsonRef>() ? value.As<JsonRef>().value : nullptr;
}

const JsonValue* DefaultsOf(const Value& value) {
    return value.Is<JsonRef>() ? value.As<JsonRef>().defaults : nullptr;
}

// The defaults node under defaults named key ("[]", "{}" or a property), or nullptr.
const JsonValue* DefaultsChild(const JsonValue* defaults, std::string_view key) {
    if (defaults == nullptr || !defaults->IsObject())
        return nullptr;
    const JsonValue* child = ctrl::internal::FindJsonMember(*defaults, key);
    return child != nullptr && child->IsObject() ? child : nullptr;
}

// The default of an absent member named key, with the defaults node under it; nullopt when none.
std::optional<Value> DefaultedMember(const JsonValue* defaults, std::string_view key) {
    const JsonValue* node = DefaultsChild(defaults, key);
    const JsonValue* value = node != nullptr ? ctrl::internal::FindJsonMember(*node, "=") : nullptr;
    if (value == nullptr || value->IsNull())
        return std::nullopt;
    return Value::FromJson(*value, node);
}

template <typename T>
int Order(const T& a, const T& b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

std::optional<int> CompareNumbers(const Value& a, const Value& b) {
    if (a.Is<int64_t>() && b.Is<int64_t>())
        return Order(a.As<int64_t>(), b.As<int64_t>());
    if (a.Is<uint64_t>() && b.Is<uint64_t>())
        return Order(a.As<uint64_t>(), b.As<uint64_t>());
    if (a.Is<int64_t>() && b.Is<uint64_t>())
        return a.As<int64_t>() < 0 ? -1 : Order(static_cast<uint64_t>(a.As<int64_t>()), b.As<uint64_t>());
    if (a.Is<uint64_t>() && b.Is<int64_t>())
        return b.As<int64_t>() < 0 ? 1 : Order(a.As<uint64_t>(), static_cast<uint64_t>(b.As<int64_t>()));
    const double x = AsDouble(a);
    const double y = AsDouble(b);
    if (std::isnan(x) || std::isnan(y))
        return std::nullopt;
    return Order(x, y);
}

bool EqualLists(const Value& a, const Value& b) {
    const std::size_t size = ListSize(a);
    if (size != ListSize(b))
        return false;
    for (std::size_t i = 0; i < size; ++i) {
        if (!Equal(ListAt(a, i), ListAt(b, i)))
            return false;
    }
    return true;
}

bool EqualMaps(const Value& a, const Value& b) {
    const std::vector<Value> keys = MapKeys(a);
    if (keys.size() != MapKeys(b).size())
        return false;
    for (const Value& key : keys) {
        const std::optional<Value> left = MapFind(a, key);
        const std::optional<Value> right = MapFind(b, key);
        if (left.has_value() != right.has_value() || (left && !Equal(*left, *right)))
            return false;
    }
    return true;
}

}  // namespace

Value Value::FromJson(const JsonValue& json, const JsonValue* defaults) {
    if (json.IsNull())
        return Value(Null{});
    if (json.IsBool())
        return Value(json.GetBool());
    if (json.IsInt64())
        return Value(json.GetInt64());
    if (json.IsUint64())
        return Value(json.GetUint64());
    if (json.IsNumber())
        return Value(json.GetDouble());
    if (json.IsString())
        return Value(std::string(json.GetString(), json.GetStringLength()));
    return Value(JsonRef{&json, defaults});
}

bool Value::IsList() const {
    const JsonValue* json = JsonOf(*this);
    return Is<List>() || (json != nullptr && json->IsArray());
}

bool Value::IsMap() const {
    const JsonValue* json = JsonOf(*this);
    return Is<Map>() || (json != nullptr && json->IsObject());
}

std::string_view Value::TypeName() const {
    static constexpr std::string_view kNames[] = {"null_type", "bool", "int", "uint", "double", "string",
                                                  "duration",  "list", "map", "",     "error"};
    if (Is<JsonRef>())
        return IsList() ? "list" : "map";
    return kNames[rep_.index()];
}

std::size_t ListSize(const Value& list) {
    if (list.Is<List>())
        return list.As<List>()->size();
    const JsonValue* json = JsonOf(list);
    return json != nullptr && json->IsArray() ? json->Size() : 0;
}

Value ListAt(const Value& list, std::size_t index) {
    if (list.Is<List>())
        return (*list.As<List>())[index];
    return Value::FromJson((*JsonOf(list))[static_cast<rapidjson::SizeType>(index)],
                           DefaultsChild(DefaultsOf(list), "[]"));
}

std::vector<Value> MapKeys(const Value& map) {
    std::vector<Value> keys;
    if (map.Is<Map>()) {
        for (const auto& [key, value] : *map.As<Map>())
            keys.push_back(key);
        return keys;
    }
    const JsonValue* json = JsonOf(map);
    if (json == nullptr || !json->IsObject())
        return keys;
    for (auto member = json->MemberBegin(); member != json->MemberEnd(); ++member) {
        if (!member->value.IsNull())
            keys.emplace_back(std::string(member->name.GetString(), member->name.GetStringLength()));
    }
    const JsonValue* defaults = DefaultsOf(map);
    if (defaults == nullptr || !defaults->IsObject())
        return keys;
    for (auto member = defaults->MemberBegin(); member != defaults->MemberEnd(); ++member) {
        const std::string_view name(member->name.GetString(), member->name.GetStringLength());
        const JsonValue* present = ctrl::internal::FindJsonMember(*json, name);
        if ((present == nullptr || present->IsNull()) && DefaultedMember(defaults, name))
            keys.emplace_back(std::string(name));
    }
    return keys;
}

std::optional<Value> MapFind(const Value& map, const Value& key) {
    if (map.Is<Map>()) {
        for (const auto& [entry_key, value] : *map.As<Map>()) {
            if (Equal(entry_key, key))
                return value;
        }
        return std::nullopt;
    }
    const JsonValue* json = JsonOf(map);
    if (json == nullptr || !json->IsObject() || !key.Is<std::string>())
        return std::nullopt;
    const std::string& name = key.As<std::string>();
    const JsonValue* defaults = DefaultsOf(map);
    const JsonValue* member = ctrl::internal::FindJsonMember(*json, name);
    if (member == nullptr || member->IsNull())
        return DefaultedMember(defaults, name);
    const JsonValue* child = DefaultsChild(defaults, name);
    return Value::FromJson(*member, child != nullptr ? child : DefaultsChild(defaults, "{}"));
}

double AsDouble(const Value& number) {
    if (number.Is<int64_t>())
        return static_cast<double>(number.As<int64_t>());
    if (number.Is<uint64_t>())
        return static_cast<double>(number.As<uint64_t>());
    return number.Is<double>() ? number.As<double>() : std::numeric_limits<double>::quiet_NaN();
}

bool Equal(const Value& a, const Value& b) {
    if (a.IsNumber() && b.IsNumber()) {
        const std::optional<int> order = CompareNumbers(a, b);
        return order && *order == 0;
    }
    if (a.IsList() && b.IsList())
        return EqualLists(a, b);
    if (a.IsMap() && b.IsMap())
        return EqualMaps(a, b);
    if (a.rep().index() != b.rep().index() || a.IsError())
        return false;
    if (a.Is<Null>())
        return true;
    if (a.Is<bool>())
        return a.As<bool>() == b.As<bool>();
    if (a.Is<std::string>())
        return a.As<std::string>() == b.As<std::string>();
    return a.Is<Duration>() && a.As<Duration>() == b.As<Duration>();
}

std::optional<int> Compare(const Value& a, const Value& b) {
    if (a.IsNumber() && b.IsNumber())
        return CompareNumbers(a, b);
    if (a.Is<std::string>() && b.Is<std::string>())
        return Order(a.As<std::string>(), b.As<std::string>());
    if (a.Is<bool>() && b.Is<bool>())
        return Order(a.As<bool>(), b.As<bool>());
    if (a.Is<Duration>() && b.Is<Duration>())
        return Order(a.As<Duration>().nanos, b.As<Duration>().nanos);
    return std::nullopt;
}

}  // namespace ctrl::cel::internal
