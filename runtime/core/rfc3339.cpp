#include "ctrl/core/rfc3339.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace ctrl {

namespace {

using std::chrono::duration_cast;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;

// The text being parsed and the position reached.
struct Reader {
    std::string_view text;
    std::size_t pos = 0;

    // Reads exactly count digits; advances past them.
    bool Digits(std::size_t count, int& out) {
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
    // Takes a or (when given) b.
    bool Expect(char a, char b = '\0') {
        if (pos >= text.size() || (text[pos] != a && (b == '\0' || text[pos] != b)))
            return false;
        ++pos;
        return true;
    }
    bool Next(char c) const { return pos < text.size() && text[pos] == c; }
};

// "2024-05-01T10:00:00": seconds since the epoch, as if the offset were zero.
std::optional<seconds> ReadDateTime(Reader& in) {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!in.Digits(4, year) || !in.Expect('-') || !in.Digits(2, month) || !in.Expect('-') || !in.Digits(2, day) ||
        !in.Expect('T', 't') || !in.Digits(2, hour) || !in.Expect(':') || !in.Digits(2, minute) || !in.Expect(':') ||
        !in.Digits(2, second)) {
        return std::nullopt;
    }
    const std::chrono::year_month_day ymd{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                          std::chrono::day(static_cast<unsigned>(day))};
    if (!ymd.ok() || hour > 23 || minute > 59 || second > 59)
        return std::nullopt;
    return seconds(std::chrono::sys_days(ymd).time_since_epoch()) + hours(hour) + minutes(minute) + seconds(second);
}

// An optional ".5" to ".123456789"; zero when absent.
std::optional<nanoseconds> ReadFraction(Reader& in) {
    if (!in.Expect('.'))
        return nanoseconds(0);
    int64_t nanos = 0;
    int digits = 0;
    while (in.pos < in.text.size() && in.text[in.pos] >= '0' && in.text[in.pos] <= '9') {
        if (++digits > 9)
            return std::nullopt;
        nanos = nanos * 10 + (in.text[in.pos] - '0');
        ++in.pos;
    }
    if (digits == 0)
        return std::nullopt;
    for (int i = digits; i < 9; ++i)
        nanos *= 10;
    return nanoseconds(nanos);
}

// "Z" or "+hh:mm"/"-hh:mm": how far the local time is ahead of UTC.
std::optional<minutes> ReadOffset(Reader& in) {
    if (in.Expect('Z', 'z'))
        return minutes(0);
    const bool negative = in.Next('-');
    if (!in.Expect('+', '-'))
        return std::nullopt;
    int offset_hours = 0, offset_minutes = 0;
    if (!in.Digits(2, offset_hours) || !in.Expect(':') || !in.Digits(2, offset_minutes) || offset_hours > 23 ||
        offset_minutes > 59) {
        return std::nullopt;
    }
    const minutes offset = hours(offset_hours) + minutes(offset_minutes);
    return negative ? -offset : offset;
}

}  // namespace

StatusOr<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view text) {
    Reader in{text};
    const std::optional<seconds> local = ReadDateTime(in);
    const std::optional<nanoseconds> fraction = local ? ReadFraction(in) : std::nullopt;
    const std::optional<minutes> offset = fraction ? ReadOffset(in) : std::nullopt;
    if (!offset || in.pos != text.size())
        return BadRequestError("invalid RFC 3339 time \"" + std::string(text) + "\"");
    const seconds since_epoch = *local - *offset;
    // The clock counts nanoseconds in 64 bits: years 1678 to 2262. Beyond, the conversion would
    // overflow (found by the kubeconfig fuzz target).
    constexpr seconds kClockRange = duration_cast<seconds>(std::chrono::system_clock::duration::max()) - seconds(1);
    if (since_epoch > kClockRange || since_epoch < -kClockRange)
        return BadRequestError("RFC 3339 time \"" + std::string(text) +
                               "\" is out of the supported range (years 1678-2262)");
    return std::chrono::system_clock::time_point(
        duration_cast<std::chrono::system_clock::duration>(since_epoch + *fraction));
}

}  // namespace ctrl
