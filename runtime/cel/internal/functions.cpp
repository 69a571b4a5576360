// CEL's functions over strings, lists and maps, the conversions, and Kubernetes' string library
// (lowerAscii, split, join, ...). Indices and lengths of strings count code points, as CEL does.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "ctrl/cel/internal/eval.hpp"
#include "ctrl/cel/internal/regex.hpp"

namespace ctrl::cel::internal {

namespace {

using Args = std::vector<Value>;

Value NoOverload(std::string_view name, const Args& args) {
    std::string types;
    for (const Value& arg : args)
        types += (types.empty() ? "" : ", ") + std::string(arg.TypeName());
    return Value::Fail("no such overload: " + std::string(name) + "(" + types + ")");
}

bool AllStrings(const Args& args) {
    return std::all_of(args.begin(), args.end(), [](const Value& v) { return v.Is<std::string>(); });
}

// Byte offsets of each code point of s, and s.size() at the end.
std::vector<std::size_t> CodePointOffsets(const std::string& s) {
    std::vector<std::size_t> offsets;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
            offsets.push_back(i);
    }
    offsets.push_back(s.size());
    return offsets;
}

Value Size(const Value& value) {
    if (value.Is<std::string>())
        return Value(static_cast<int64_t>(CodePointOffsets(value.As<std::string>()).size() - 1));
    if (value.IsList())
        return Value(static_cast<int64_t>(ListSize(value)));
    if (value.IsMap())
        return Value(static_cast<int64_t>(MapKeys(value).size()));
    return NoOverload("size", {value});
}

std::string MapAscii(std::string s, int (*map)(int)) {
    for (char& c : s) {
        if (static_cast<unsigned char>(c) < 0x80)
            c = static_cast<char>(map(static_cast<unsigned char>(c)));
    }
    return s;
}

Value Split(const std::string& s, const std::string& separator, int64_t limit) {
    auto parts = std::make_shared<std::vector<Value>>();
    const auto room = [&] { return limit < 0 || static_cast<int64_t>(parts->size()) < limit - 1; };
    if (limit == 0)
        return Value(List(std::move(parts)));
    std::size_t start = 0;
    if (separator.empty()) {  // into code points
        const std::vector<std::size_t> offsets = CodePointOffsets(s);
        for (std::size_t i = 0; i + 1 < offsets.size() && room(); ++i, start = offsets[i])
            parts->push_back(Value(s.substr(offsets[i], offsets[i + 1] - offsets[i])));
        if (start < s.size())
            parts->push_back(Value(s.substr(start)));
        return Value(List(std::move(parts)));
    }
    for (std::size_t found = 0; room() && (found = s.find(separator, start)) != std::string::npos;
         start = found + separator.size())
        parts->push_back(Value(s.substr(start, found - start)));
    parts->push_back(Value(s.substr(start)));
    return Value(List(std::move(parts)));
}

Value Join(const Value& list, const std::string& separator) {
    std::string out;
    for (std::size_t i = 0; i < ListSize(list); ++i) {
        const Value element = ListAt(list, i);
        if (!element.Is<std::string>())
            return Value::Fail("join() of a list holding a " + std::string(element.TypeName()));
        out += (i > 0 ? separator : "") + element.As<std::string>();
    }
    return Value(out);
}

Value Replace(std::string s, const std::string& from, const std::string& to, int64_t limit) {
    std::size_t pos = 0;
    for (int64_t done = 0; limit < 0 || done < limit; ++done) {
        pos = s.find(from, pos);
        if (pos == std::string::npos)
            break;
        s.replace(pos, from.size(), to);
        pos += to.size() + (from.empty() ? 1 : 0);
        if (pos > s.size())
            break;
    }
    return Value(s);
}

// indexOf / lastIndexOf in code points; -1 when absent.
Value IndexOf(const std::string& s, const std::string& sub, bool last, std::optional<int64_t> from) {
    const std::vector<std::size_t> offsets = CodePointOffsets(s);
    const auto length = static_cast<int64_t>(offsets.size() - 1);
    if (from && (*from < 0 || *from > length))
        return Value::Fail("index out of range: " + std::to_string(*from));
    std::size_t found = std::string::npos;
    if (last)
        found = s.rfind(sub, from ? offsets[static_cast<std::size_t>(*from)] : std::string::npos);
    else
        found = s.find(sub, from ? offsets[static_cast<std::size_t>(*from)] : 0);
    if (found == std::string::npos)
        return Value(int64_t{-1});
    return Value(static_cast<int64_t>(std::lower_bound(offsets.begin(), offsets.end(), found) - offsets.begin()));
}

Value Substring(const std::string& s, int64_t start, std::optional<int64_t> end) {
    const std::vector<std::size_t> offsets = CodePointOffsets(s);
    const auto length = static_cast<int64_t>(offsets.size() - 1);
    const int64_t stop = end.value_or(length);
    if (start < 0 || stop > length || start > stop)
        return Value::Fail("substring(" + std::to_string(start) + ", " + std::to_string(stop) + ") out of range");
    const std::size_t from = offsets[static_cast<std::size_t>(start)];
    return Value(s.substr(from, offsets[static_cast<std::size_t>(stop)] - from));
}

std::string DoubleText(double value) {
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    char buffer[32];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return error == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

Value ToString(const Value& value) {
    if (value.Is<std::string>())
        return value;
    if (value.Is<int64_t>())
        return Value(std::to_string(value.As<int64_t>()));
    if (value.Is<uint64_t>())
        return Value(std::to_string(value.As<uint64_t>()));
    if (value.Is<double>())
        return Value(DoubleText(value.As<double>()));
    if (value.Is<bool>())
        return Value(std::string(value.As<bool>() ? "true" : "false"));
    if (value.Is<Duration>())
        return Value(FormatDuration(value.As<Duration>()));
    return NoOverload("string", {value});
}

template <typename T>
Value ParseInteger(const std::string& text, std::string_view name) {
    T number{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end != text.data() + text.size())
        return Value::Fail(std::string(name) + "(\"" + text + "\"): not a number in range");
    return Value(number);
}

Value ToInt(const Value& value) {
    if (value.Is<int64_t>())
        return value;
    if (value.Is<uint64_t>()) {
        if (value.As<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            return Value::Fail("int() out of range");
        return Value(static_cast<int64_t>(value.As<uint64_t>()));
    }
    if (value.Is<double>()) {
        const double d = value.As<double>();
        if (!(d > -9.223372036854775808e18 && d < 9.223372036854775807e18))
            return Value::Fail("int() out of range");
        return Value(static_cast<int64_t>(d));
    }
    if (value.Is<std::string>())
        return ParseInteger<int64_t>(value.As<std::string>(), "int");
    if (value.Is<Duration>())
        return Value(value.As<Duration>().nanos / 1000000000);  // as CEL's int(duration): seconds
    return NoOverload("int", {value});
}

Value ToUint(const Value& value) {
    if (value.Is<uint64_t>())
        return value;
    if (value.Is<int64_t>()) {
        if (value.As<int64_t>() < 0)
            return Value::Fail("uint() out of range");
        return Value(static_cast<uint64_t>(value.As<int64_t>()));
    }
    if (value.Is<double>()) {
        const double d = value.As<double>();
        if (!(d >= 0 && d < 1.8446744073709552e19))
            return Value::Fail("uint() out of range");
        return Value(static_cast<uint64_t>(d));
    }
    if (value.Is<std::string>())
        return ParseInteger<uint64_t>(value.As<std::string>(), "uint");
    return NoOverload("uint", {value});
}

Value ToDouble(const Value& value) {
    if (value.IsNumber())
        return Value(AsDouble(value));
    if (value.Is<std::string>()) {
        const std::string& text = value.As<std::string>();
        char* end = nullptr;
        const double number = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size())
            return Value::Fail("double(\"" + text + "\"): not a number");
        return Value(number);
    }
    return NoOverload("double", {value});
}

Value ToBool(const Value& value) {
    if (value.Is<bool>())
        return value;
    if (value.Is<std::string>()) {
        static constexpr std::string_view kTrue[] = {"1", "t", "true", "TRUE", "True"};
        static constexpr std::string_view kFalse[] = {"0", "f", "false", "FALSE", "False"};
        const std::string& text = value.As<std::string>();
        if (std::find(std::begin(kTrue), std::end(kTrue), text) != std::end(kTrue))
            return Value(true);
        if (std::find(std::begin(kFalse), std::end(kFalse), text) != std::end(kFalse))
            return Value(false);
        return Value::Fail("bool(\"" + text + "\"): not a bool");
    }
    return NoOverload("bool", {value});
}

Value ToDuration(const Value& value) {
    if (value.Is<Duration>())
        return value;
    if (!value.Is<std::string>())
        return NoOverload("duration", {value});
    const std::optional<Duration> duration = ParseDuration(value.As<std::string>());
    if (!duration)
        return Value::Fail("duration(\"" + value.As<std::string>() + "\"): not a duration");
    return Value(*duration);
}

Value Matches(const std::string& text, const std::string& pattern) {
    StatusOr<bool> matched = RegexSearch(pattern, text);
    if (!matched.Ok())
        return Value::Fail("matches(): pattern " + pattern + ": " + matched.GetStatus().Message());
    return Value(*matched);
}

// Functions of one string target and string arguments.
std::optional<Value> StringFunction(std::string_view name, const Args& a) {
    if (!AllStrings(a))
        return std::nullopt;
    const std::string& s = a[0].As<std::string>();
    if (a.size() == 1) {
        if (name == "lowerAscii")
            return Value(MapAscii(s, [](int c) { return std::tolower(c); }));
        if (name == "upperAscii")
            return Value(MapAscii(s, [](int c) { return std::toupper(c); }));
        if (name == "trim") {
            const std::size_t first = s.find_first_not_of(" \t\n\r\v\f");
            return Value(first == std::string::npos ? std::string()
                                                    : s.substr(first, s.find_last_not_of(" \t\n\r\v\f") - first + 1));
        }
        return std::nullopt;
    }
    const std::string& t = a[1].As<std::string>();
    if (name == "contains")
        return Value(s.find(t) != std::string::npos);
    if (name == "startsWith")
        return Value(s.rfind(t, 0) == 0);
    if (name == "endsWith")
        return Value(s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0);
    if (name == "matches")
        return Matches(s, t);
    if (name == "split" && a.size() == 2)
        return Split(s, t, -1);
    if ((name == "indexOf" || name == "lastIndexOf") && a.size() == 2)
        return IndexOf(s, t, name == "lastIndexOf", std::nullopt);
    if (name == "replace" && a.size() == 3)
        return Replace(s, t, a[2].As<std::string>(), -1);
    return std::nullopt;
}

// Functions of a string target with an int among their arguments.
std::optional<Value> StringIntFunction(std::string_view name, const Args& a) {
    if (a.empty() || !a[0].Is<std::string>())
        return std::nullopt;
    const std::string& s = a[0].As<std::string>();
    const auto is_int = [&](std::size_t i) { return i < a.size() && a[i].Is<int64_t>(); };
    const auto is_str = [&](std::size_t i) { return i < a.size() && a[i].Is<std::string>(); };
    if (name == "substring" && is_int(1) && (a.size() == 2 || (a.size() == 3 && is_int(2))))
        return Substring(s, a[1].As<int64_t>(), a.size() == 3 ? std::optional(a[2].As<int64_t>()) : std::nullopt);
    if (name == "split" && a.size() == 3 && is_str(1) && is_int(2))
        return Split(s, a[1].As<std::string>(), a[2].As<int64_t>());
    if ((name == "indexOf" || name == "lastIndexOf") && a.size() == 3 && is_str(1) && is_int(2))
        return IndexOf(s, a[1].As<std::string>(), name == "lastIndexOf", a[2].As<int64_t>());
    if (name == "replace" && a.size() == 4 && is_str(1) && is_str(2) && is_int(3))
        return Replace(s, a[1].As<std::string>(), a[2].As<std::string>(), a[3].As<int64_t>());
    return std::nullopt;
}

std::optional<Value> Conversion(std::string_view name, const Value& value) {
    if (name == "int")
        return ToInt(value);
    if (name == "uint")
        return ToUint(value);
    if (name == "double")
        return ToDouble(value);
    if (name == "string")
        return ToString(value);
    if (name == "bool")
        return ToBool(value);
    if (name == "duration")
        return ToDuration(value);
    if (name == "dyn")
        return value;
    return std::nullopt;
}

}  // namespace

Value CallFunction(std::string_view name, bool has_target, const std::vector<Value>& args) {
    if (name == "size" && args.size() == 1)
        return Size(args[0]);
    if (!has_target && args.size() == 1) {
        if (std::optional<Value> converted = Conversion(name, args[0]))
            return *converted;
    }
    if (has_target && name == "join" && args[0].IsList() &&
        (args.size() == 1 || (args.size() == 2 && args[1].Is<std::string>())))
        return Join(args[0], args.size() == 2 ? args[1].As<std::string>() : std::string());
    // matches(text, pattern) also exists as a global function.
    if (has_target || name == "matches") {
        if (std::optional<Value> result = StringFunction(name, args))
            return *result;
        if (std::optional<Value> result = StringIntFunction(name, args))
            return *result;
    }
    return NoOverload(name, args);
}

}  // namespace ctrl::cel::internal
