#include "ctrl/api/timestamp.hpp"

#include <cstdint>
#include <cstdio>

namespace ctrl::api {

namespace {

using std::chrono::days;
using std::chrono::duration_cast;
using std::chrono::floor;
using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;

// Reads exactly count digits at text[pos...]; advances pos.
bool ReadDigits(std::string_view text, std::size_t& pos, std::size_t count, int& out) {
    if (pos + count > text.size())
        return false;
    int value = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const char c = text[pos + i];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    pos += count;
    out = value;
    return true;
}

bool Expect(std::string_view text, std::size_t& pos, char a, char b = '\0') {
    if (pos >= text.size() || (text[pos] != a && (b == '\0' || text[pos] != b)))
        return false;
    ++pos;
    return true;
}

std::string Format(Timestamp time, bool micro) {
    const auto whole = floor<seconds>(time);
    const auto day = floor<days>(whole);
    const std::chrono::year_month_day ymd(day);
    const std::chrono::hh_mm_ss<seconds> hms(whole - day);
    char buffer[48];
    int n = std::snprintf(buffer, sizeof(buffer), "%04d-%02u-%02uT%02d:%02d:%02lld", static_cast<int>(ymd.year()),
                          static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                          static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                          static_cast<long long>(hms.seconds().count()));
    if (micro) {
        const auto fraction = floor<microseconds>(time - whole);
        n += std::snprintf(buffer + n, sizeof(buffer) - static_cast<std::size_t>(n), ".%06lld",
                           static_cast<long long>(fraction.count()));
    }
    return std::string(buffer, static_cast<std::size_t>(n)) + "Z";
}

}  // namespace

std::optional<Timestamp> ParseRfc3339(std::string_view text) {
    std::size_t pos = 0;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!ReadDigits(text, pos, 4, year) || !Expect(text, pos, '-') || !ReadDigits(text, pos, 2, month) ||
        !Expect(text, pos, '-') || !ReadDigits(text, pos, 2, day) || !Expect(text, pos, 'T', 't') ||
        !ReadDigits(text, pos, 2, hour) || !Expect(text, pos, ':') || !ReadDigits(text, pos, 2, minute) ||
        !Expect(text, pos, ':') || !ReadDigits(text, pos, 2, second)) {
        return std::nullopt;
    }
    nanoseconds fraction{0};
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        int64_t nanos = 0;
        int digits = 0;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            if (++digits > 9)
                return std::nullopt;
            nanos = nanos * 10 + (text[pos] - '0');
            ++pos;
        }
        if (digits == 0)
            return std::nullopt;
        for (int i = digits; i < 9; ++i)
            nanos *= 10;
        fraction = nanoseconds(nanos);
    }
    minutes offset{0};
    if (Expect(text, pos, 'Z', 'z')) {
        // UTC
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        const bool negative = text[pos] == '-';
        ++pos;
        int offset_hours = 0, offset_minutes = 0;
        if (!ReadDigits(text, pos, 2, offset_hours) || !Expect(text, pos, ':') ||
            !ReadDigits(text, pos, 2, offset_minutes) || offset_hours > 23 || offset_minutes > 59) {
            return std::nullopt;
        }
        offset = hours(offset_hours) + minutes(offset_minutes);
        if (negative)
            offset = -offset;
    } else {
        return std::nullopt;
    }
    if (pos != text.size())
        return std::nullopt;
    const std::chrono::year_month_day ymd{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                          std::chrono::day(static_cast<unsigned>(day))};
    if (!ymd.ok() || hour > 23 || minute > 59 || second > 59)
        return std::nullopt;
    const auto local = std::chrono::sys_days(ymd) + hours(hour) + minutes(minute) + seconds(second) + fraction;
    return std::chrono::time_point_cast<Timestamp::duration>(local - offset);
}

std::string FormatRfc3339(Timestamp time) {
    return Format(time, /*micro=*/false);
}

std::string FormatRfc3339Micro(Timestamp time) {
    return Format(time, /*micro=*/true);
}

}  // namespace ctrl::api
