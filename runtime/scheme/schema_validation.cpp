#include "ctrl/scheme/schema_validation.hpp"

#include "ctrl/cel/internal/regex.hpp"

#include <arpa/inet.h>

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

namespace ctrl::scheme {

namespace {

std::string_view WantedName(SchemaType type) {
    switch (type) {
        case SchemaType::kString:
            return "a string";
        case SchemaType::kInteger:
            return "an integer";
        case SchemaType::kNumber:
            return "a number";
        case SchemaType::kBoolean:
            return "a boolean";
        case SchemaType::kObject:
            return "an object";
        case SchemaType::kArray:
            return "an array";
        case SchemaType::kIntOrString:
            return "an integer or a string";
        case SchemaType::kAny:
            break;
    }
    return "any value";
}

// A float with an integral value in int64's range, as the API server takes it for an integer (2.0).
std::optional<int64_t> IntegralFloat(const FieldRef& ref) {
    const std::optional<double> value = ref.Get<double>();
    if (!value || std::trunc(*value) != *value || std::fabs(*value) >= 9.2e18)
        return std::nullopt;
    return static_cast<int64_t>(*value);
}

// The integer an integer rule reads from ref (a JSON integer, or an integral float), or nullopt.
std::optional<int64_t> IntegerOf(const FieldRef& ref, JsonType actual) {
    return actual == JsonType::kInteger ? ref.Get<int64_t>() : IntegralFloat(ref);
}

bool Matches(SchemaType wanted, JsonType actual, const FieldRef& ref) {
    switch (wanted) {
        case SchemaType::kString:
            return actual == JsonType::kString;
        case SchemaType::kInteger:
            return actual == JsonType::kInteger || (actual == JsonType::kFloat && IntegralFloat(ref));
        case SchemaType::kNumber:
            return actual == JsonType::kInteger || actual == JsonType::kFloat;
        case SchemaType::kBoolean:
            return actual == JsonType::kBool;
        case SchemaType::kObject:
            return actual == JsonType::kObject;
        case SchemaType::kArray:
            return actual == JsonType::kArray;
        case SchemaType::kIntOrString:
            return actual == JsonType::kInteger || actual == JsonType::kString;
        case SchemaType::kAny:
            break;
    }
    return true;
}

// Characters, as the API server counts a string's length: UTF-8 code points.
std::size_t CodePoints(const std::string& s) {
    std::size_t count = 0;
    for (char c : s) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
            ++count;
    }
    return count;
}

std::string Number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

// The compiled pattern (RE2 as std::regex, cel's reading of it), or nullptr when std::regex cannot
// read it: then the pattern checks nothing (ctrl-gen warns about such a pattern and leaves it out).
std::shared_ptr<const std::regex> CompiledPattern(std::string_view pattern) {
    StatusOr<std::shared_ptr<const std::regex>> compiled = cel::internal::CompileRegex(pattern);
    return compiled.Ok() ? std::move(*compiled) : nullptr;
}

// Whether value has the string format ctrl-gen asks for (date-time as RFC 3339, ipv4, ipv6); a
// format it does not name is not checked.
bool HasStringFormat(std::string_view format, const std::string& value) {
    if (format == "date-time") {
        static const std::regex kDateTime(
            R"(^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?)"
            R"(([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?$)");
        return std::regex_match(value, kDateTime);
    }
    if (format == "ipv4" || format == "ipv6") {
        unsigned char address[sizeof(in6_addr)];
        return inet_pton(format == "ipv4" ? AF_INET : AF_INET6, value.c_str(), address) == 1;
    }
    return true;
}

}  // namespace

bool Validation::Check(const FieldRef& ref, const FieldRule& rule) {
    const JsonType actual = ref.Type();
    if (actual == JsonType::kAbsent || actual == JsonType::kNull) {
        if (rule.required && !(actual == JsonType::kNull && rule.nullable))
            Add("FieldValueRequired", ref.PathString(), "Required value");
        return false;
    }
    if (!Matches(rule.type, actual, ref)) {
        blocking_ = true;  // the server's FieldValueTypeInvalid
        Add("FieldValueInvalid", ref.PathString(),
            "is " + std::string(JsonTypeName(actual)) + ", not " + std::string(WantedName(rule.type)));
        return false;
    }
    if (actual == JsonType::kString)
        CheckString(ref, *ref.Get<std::string>(), rule);
    else if (actual == JsonType::kInteger || actual == JsonType::kFloat)
        CheckNumber(ref, rule.type == SchemaType::kInteger ? IntegerOf(ref, actual) : std::nullopt,
                    ref.Get<double>().value_or(0), rule);
    else if (actual == JsonType::kArray) {
        CheckCount(ref, ref.Size(), rule.min_items, rule.max_items, "items");
        if (rule.list_set || !rule.list_map_keys.empty())
            CheckUnique(ref, rule);
    } else if (actual == JsonType::kObject)
        CheckCount(ref, ref.Keys().size(), rule.min_properties, rule.max_properties, "properties");
    if (!rule.cel_rules.empty())
        CheckCelRules(ref, rule);
    return true;
}

void Validation::CheckEnum(const FieldRef& ref, const std::string& value, const std::string& shown,
                           const FieldRule& rule) {
    if (rule.enum_values.empty())
        return;
    bool supported = false;
    std::string values;
    for (std::string_view allowed : rule.enum_values) {
        supported = supported || allowed == value;
        values += (values.empty() ? "\"" : ", \"") + std::string(allowed) + "\"";
    }
    if (!supported)
        Add("FieldValueNotSupported", ref.PathString(),
            "Unsupported value: " + shown + ": supported values: " + values);
}

void Validation::CheckString(const FieldRef& ref, const std::string& value, const FieldRule& rule) {
    CheckEnum(ref, value, "\"" + value + "\"", rule);
    const std::size_t length = CodePoints(value);
    if (rule.min_length && static_cast<int64_t>(length) < *rule.min_length) {
        Add("FieldValueInvalid", ref.PathString(),
            "must be at least " + std::to_string(*rule.min_length) + " characters long");
    }
    if (rule.max_length && static_cast<int64_t>(length) > *rule.max_length) {
        Add("FieldValueTooLong", ref.PathString(),
            "may not be more than " + std::to_string(*rule.max_length) + " characters long");
    }
    if (!rule.format.empty() && !HasStringFormat(rule.format, value)) {
        Add("FieldValueInvalid", ref.PathString(),
            "must be of type " + std::string(rule.format) + ": \"" + value + "\"");
    }
    if (!rule.pattern.empty()) {
        const std::shared_ptr<const std::regex> pattern = CompiledPattern(rule.pattern);
        if (pattern != nullptr && !std::regex_search(value, *pattern)) {
            Add("FieldValueInvalid", ref.PathString(),
                "\"" + value + "\" does not match the pattern \"" + std::string(rule.pattern) + "\"");
        }
    }
}

void Validation::CheckNumber(const FieldRef& ref, std::optional<int64_t> integer, double value, const FieldRule& rule) {
    if (integer) {
        CheckEnum(ref, std::to_string(*integer), std::to_string(*integer), rule);
        if (rule.format == "int32" && (*integer < INT32_MIN || *integer > INT32_MAX))
            Add("FieldValueInvalid", ref.PathString(), "must be of type integer with format int32");
    } else if (rule.type == SchemaType::kNumber && !rule.enum_values.empty()) {
        char text[32];  // the shortest form that reads back to value, as ctrl-gen writes a number enum
        const std::string shortest(text, std::to_chars(text, text + sizeof text, value).ptr);
        CheckEnum(ref, shortest, shortest, rule);
    }
    if (rule.minimum && (rule.exclusive_minimum ? value <= *rule.minimum : value < *rule.minimum)) {
        Add("FieldValueInvalid", ref.PathString(),
            std::string(rule.exclusive_minimum ? "must be greater than " : "must be greater than or equal to ") +
                Number(*rule.minimum));
    }
    if (rule.maximum && (rule.exclusive_maximum ? value >= *rule.maximum : value > *rule.maximum)) {
        Add("FieldValueInvalid", ref.PathString(),
            std::string(rule.exclusive_maximum ? "must be less than " : "must be less than or equal to ") +
                Number(*rule.maximum));
    }
}

void Validation::CheckUnique(const FieldRef& ref, const FieldRule& rule) {
    const auto json = [](const FieldRef& value) {
        const std::optional<Object> object = value.Get<Object>();
        return object ? object->ToJson() : std::string("null");
    };
    std::set<std::string> seen;
    for (std::size_t i = 0; i < ref.Size(); ++i) {
        const FieldRef item = ref.Item(i);
        std::string key;
        if (rule.list_set) {
            key = json(item);
        } else {
            for (std::string_view name : rule.list_map_keys)  // {"name":"GOMAXPROCS"}, as the server shows it
                key += (key.empty() ? "{\"" : ",\"") + std::string(name) + "\":" + json(item.Child(name));
            key += "}";
        }
        if (!seen.insert(key).second)
            Add("FieldValueDuplicate", item.PathString(), "Duplicate value: " + key);
    }
}

void Validation::CheckCount(const FieldRef& ref, std::size_t count, std::optional<int64_t> min,
                            std::optional<int64_t> max, std::string_view noun) {
    if (min && static_cast<int64_t>(count) < *min) {
        Add("FieldValueInvalid", ref.PathString(),
            "must have at least " + std::to_string(*min) + " " + std::string(noun));
    }
    if (max && static_cast<int64_t>(count) > *max) {
        Add("FieldValueTooMany", ref.PathString(),
            "must have at most " + std::to_string(*max) + " " + std::string(noun));
    }
}

void Validation::AddCause(std::vector<StatusCause>& causes, StatusCause cause) {
    for (const StatusCause& existing : causes) {
        if (existing == cause)
            return;  // one problem found twice (by a hand-written rule and the schema) is one cause
    }
    causes.push_back(std::move(cause));
}

void Validation::Add(std::string type, std::string field, std::string message) {
    blocking_ = blocking_ || type == "FieldValueRequired" || type == "FieldValueNotSupported" ||
                type == "FieldValueTooLong" || type == "FieldValueTooMany";
    AddCause(causes_, StatusCause{std::move(type), std::move(message), std::move(field)});
}

std::vector<StatusCause> Validation::Causes() const {
    std::vector<StatusCause> causes = causes_;
    if (!blocking_) {
        for (const StatusCause& cause : cel_causes_)
            AddCause(causes, cause);
    }
    return causes;
}

Status Validation::ToStatus(std::string_view kind, const ObjectKey& key) const {
    std::vector<StatusCause> causes = Causes();
    if (causes.empty())
        return OkStatus();
    std::string message = std::string(kind) + " " + key.String() + " is invalid:";
    for (std::size_t i = 0; i < causes.size(); ++i)
        message += (i == 0 ? " " : "; ") + causes[i].field + ": " + causes[i].message;
    return InvalidError(std::move(message), std::move(causes));
}

}  // namespace ctrl::scheme
