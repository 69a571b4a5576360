// CEL's duration(): Go's time.ParseDuration grammar ("1h30m", "-1.5s", "300ms", "0"), and the form
// string(duration) prints.
#include <cctype>
#include <cstdint>
#include <limits>

#include "ctrl/cel/internal/value.hpp"

namespace ctrl::cel::internal {

namespace {

// Nanoseconds per unit, or 0 for an unknown unit.
int64_t UnitNanos(std::string_view unit) {
    if (unit == "ns")
        return 1;
    if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
        return 1000;
    if (unit == "ms")
        return 1000 * 1000;
    if (unit == "s")
        return 1000 * 1000 * 1000;
    if (unit == "m")
        return int64_t{60} * 1000 * 1000 * 1000;
    if (unit == "h")
        return int64_t{3600} * 1000 * 1000 * 1000;
    return 0;
}

// One "<number><unit>" term at text[pos...]: adds its nanoseconds to total; false when malformed.
bool ParseTerm(std::string_view text, std::size_t& pos, long double& total) {
    const std::size_t start = pos;
    long double number = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
        number = number * 10 + (text[pos++] - '0');
    bool digits = pos > start;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        long double scale = 0.1L;
        for (; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos, scale /= 10) {
            number += (text[pos] - '0') * scale;
            digits = true;
        }
    }
    if (!digits)
        return false;
    const std::size_t unit_start = pos;
    while (pos < text.size() && !std::isdigit(static_cast<unsigned char>(text[pos])) && text[pos] != '.')
        ++pos;
    const int64_t unit = UnitNanos(text.substr(unit_start, pos - unit_start));
    if (unit == 0)
        return false;
    total += number * static_cast<long double>(unit);
    return true;
}

}  // namespace

std::optional<Duration> ParseDuration(std::string_view text) {
    bool negative = false;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text == "0")
        return Duration{0};
    if (text.empty())
        return std::nullopt;
    long double total = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        if (!ParseTerm(text, pos, total))
            return std::nullopt;
    }
    if (total > static_cast<long double>(std::numeric_limits<int64_t>::max()))
        return std::nullopt;
    const auto nanos = static_cast<int64_t>(total);
    return Duration{negative ? -nanos : nanos};
}

std::string FormatDuration(Duration duration) {
    const bool negative = duration.nanos < 0;
    const uint64_t nanos = negative ? 0 - static_cast<uint64_t>(duration.nanos) : static_cast<uint64_t>(duration.nanos);
    std::string text = (negative ? "-" : "") + std::to_string(nanos / 1000000000);
    if (const uint64_t fraction = nanos % 1000000000; fraction != 0) {
        std::string digits = std::to_string(fraction);
        digits.insert(0, 9 - digits.size(), '0');
        while (digits.back() == '0')
            digits.pop_back();
        text += "." + digits;
    }
    return text + "s";
}

}  // namespace ctrl::cel::internal
