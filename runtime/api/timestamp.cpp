#include "ctrl/api/timestamp.hpp"

#include <cstdio>

#include "ctrl/core/rfc3339.hpp"

namespace ctrl::api {

namespace {

using std::chrono::days;
using std::chrono::floor;
using std::chrono::microseconds;
using std::chrono::seconds;

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
    StatusOr<Timestamp> parsed = ctrl::ParseRfc3339(text);
    if (!parsed.Ok())
        return std::nullopt;
    return *parsed;
}

std::string FormatRfc3339(Timestamp time) {
    return Format(time, /*micro=*/false);
}

std::string FormatRfc3339Micro(Timestamp time) {
    return Format(time, /*micro=*/true);
}

}  // namespace ctrl::api
