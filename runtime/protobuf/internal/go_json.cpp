#include "ctrl/protobuf/internal/go_json.hpp"

#include <array>
#include <charconv>
#include <cstdio>

namespace ctrl::protobuf::internal {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendUnicodeEscape(std::string& out, unsigned code) {
    out += "\\u";
    out += kHex[(code >> 12) & 0xF];
    out += kHex[(code >> 8) & 0xF];
    out += kHex[(code >> 4) & 0xF];
    out += kHex[code & 0xF];
}

// The length of the valid UTF-8 sequence at s[i] (Go's utf8.DecodeRuneInString rules), or 0.
std::size_t Utf8Length(std::string_view s, std::size_t i, unsigned& code) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned c0 = b(0);
    const std::size_t left = s.size() - i;
    const auto cont = [&](std::size_t k) { return k < left && (b(k) & 0xC0) == 0x80; };
    if (c0 >= 0xC2 && c0 <= 0xDF && cont(1)) {
        code = ((c0 & 0x1F) << 6) | (b(1) & 0x3F);
        return 2;
    }
    if (c0 >= 0xE0 && c0 <= 0xEF && cont(1) && cont(2)) {
        code = ((c0 & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
        if (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF)) {
            return 0;
        }
        return 3;
    }
    if (c0 >= 0xF0 && c0 <= 0xF4 && cont(1) && cont(2) && cont(3)) {
        code = ((c0 & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
        if (code < 0x10000 || code > 0x10FFFF) {
            return 0;
        }
        return 4;
    }
    return 0;
}

// The bytes AppendEscaped cannot copy as they are: control characters, '"', '\\', '<', '>', '&'
// and everything from 0x80 (checked as UTF-8).
struct EscapeTable {
    bool special[256] = {};
    constexpr EscapeTable() {
        for (int c = 0; c < 256; ++c) {
            special[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&';
        }
    }
};
constexpr EscapeTable kEscape;

// Appends the characters of a string's contents (no quotes), escaped as encoding/json does.
void AppendEscaped(std::string& out, std::string_view s) {
    std::size_t start = 0;
    std::size_t i = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
    while (true) {
        while (i < s.size() && !kEscape.special[bytes[i]]) {
            ++i;
        }
        if (i >= s.size()) {
            break;
        }
        const unsigned char c = bytes[i];
        if (c < 0x80) {
            out.append(s.data() + start, i - start);
            switch (c) {
                case '"':
                    out += "\\\"";
                    break;
                case '\\':
                    out += "\\\\";
                    break;
                case '\b':
                    out += "\\b";
                    break;
                case '\f':
                    out += "\\f";
                    break;
                case '\n':
                    out += "\\n";
                    break;
                case '\r':
                    out += "\\r";
                    break;
                case '\t':
                    out += "\\t";
                    break;
                default:
                    AppendUnicodeEscape(out, c);
                    break;
            }
            start = ++i;
            continue;
        }
        unsigned code = 0;
        const std::size_t n = Utf8Length(s, i, code);
        if (n == 0) {
            out.append(s.data() + start, i - start);
            out += "\\ufffd";
            start = ++i;
            continue;
        }
        if (code == 0x2028 || code == 0x2029) {
            out.append(s.data() + start, i - start);
            AppendUnicodeEscape(out, code);
            start = i + n;
        }
        i += n;
    }
    out.append(s.data() + start, s.size() - start);
}

void AppendDigits(std::string& out, std::int64_t value, int width) {
    std::array<char, 24> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value);
    const auto len = static_cast<int>(res.ptr - buf.data());
    for (int i = len; i < width; ++i) {
        out += '0';
    }
    out.append(buf.data(), res.ptr);
}

// Civil date of a day count since 1970-01-01 (Howard Hinnant's days_from_civil inverse).
void CivilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) {
        ++y;
    }
}

// Appends the decimal fraction of `value` / 10^digits, trailing zeros (and the point) dropped.
void AppendFraction(std::string& out, std::uint64_t value, int digits) {
    std::array<char, 24> buf{};
    int end = digits;
    for (int i = digits - 1; i >= 0; --i) {
        buf[static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
    while (end > 0 && buf[static_cast<std::size_t>(end - 1)] == '0') {
        --end;
    }
    if (end > 0) {
        out += '.';
        out.append(buf.data(), static_cast<std::size_t>(end));
    }
}

}  // namespace

std::size_t Utf8SequenceLength(std::string_view s, std::size_t i, unsigned& code) {
    return Utf8Length(s, i, code);
}

void AppendGoStringContents(std::string& out, std::string_view s) {
    AppendEscaped(out, s);
}

void AppendGoString(std::string& out, std::string_view s) {
    out += '"';
    AppendEscaped(out, s);
    out += '"';
}

void AppendRfc3339(std::string& out, std::int64_t seconds, std::int64_t nanos, bool micro) {
    // time.Unix normalizes nanos outside [0, 1e9).
    seconds += nanos / 1'000'000'000;
    nanos %= 1'000'000'000;
    if (nanos < 0) {
        nanos += 1'000'000'000;
        --seconds;
    }
    std::int64_t days = seconds / 86400;
    std::int64_t rem = seconds % 86400;
    if (rem < 0) {
        rem += 86400;
        --days;
    }
    std::int64_t year = 0;
    unsigned month = 0;
    unsigned day = 0;
    CivilFromDays(days, year, month, day);
    out += '"';
    if (year < 0) {
        out += '-';
        AppendDigits(out, -year, 4);
    } else {
        AppendDigits(out, year, 4);
    }
    out += '-';
    AppendDigits(out, month, 2);
    out += '-';
    AppendDigits(out, day, 2);
    out += 'T';
    AppendDigits(out, rem / 3600, 2);
    out += ':';
    AppendDigits(out, rem / 60 % 60, 2);
    out += ':';
    AppendDigits(out, rem % 60, 2);
    if (micro) {
        out += '.';
        AppendDigits(out, nanos / 1000, 6);
    }
    out += "Z\"";
}

void AppendGoDuration(std::string& out, std::int64_t nanos) {
    out += '"';
    if (nanos == 0) {
        out += "0s\"";
        return;
    }
    if (nanos < 0) {
        out += '-';
    }
    const std::uint64_t u = nanos < 0 ? 0 - static_cast<std::uint64_t>(nanos) : static_cast<std::uint64_t>(nanos);
    if (u < 1'000'000'000) {
        if (u < 1'000) {
            AppendDigits(out, static_cast<std::int64_t>(u), 0);
            out += "ns";
        } else if (u < 1'000'000) {
            AppendDigits(out, static_cast<std::int64_t>(u / 1'000), 0);
            AppendFraction(out, u % 1'000, 3);
            out += "\xC2\xB5s";
        } else {
            AppendDigits(out, static_cast<std::int64_t>(u / 1'000'000), 0);
            AppendFraction(out, u % 1'000'000, 6);
            out += "ms";
        }
        out += '"';
        return;
    }
    const std::uint64_t whole = u / 1'000'000'000;
    const std::uint64_t hours = whole / 3600;
    const std::uint64_t minutes = whole / 60 % 60;
    if (hours > 0) {
        out += std::to_string(hours);
        out += 'h';
    }
    if (hours > 0 || minutes > 0) {
        out += std::to_string(minutes);
        out += 'm';
    }
    out += std::to_string(whole % 60);
    AppendFraction(out, u % 1'000'000'000, 9);
    out += "s\"";
}

void AppendBase64(std::string& out, std::string_view bytes) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out += '"';
    std::size_t i = 0;
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
    for (; i + 3 <= bytes.size(); i += 3) {
        const unsigned v = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += kAlphabet[v & 63];
    }
    if (const std::size_t left = bytes.size() - i; left > 0) {
        const unsigned v = (at(i) << 16) | (left == 2 ? at(i + 1) << 8 : 0);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += left == 2 ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    out += '"';
}

}  // namespace ctrl::protobuf::internal
