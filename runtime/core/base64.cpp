#include "ctrl/core/base64.hpp"

#include <array>
#include <cstdint>

namespace ctrl {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Value of each byte in the alphabet; -1 outside it.
constexpr std::array<int8_t, 256> MakeDecodeTable() {
    std::array<int8_t, 256> table{};
    for (auto& entry : table)
        entry = -1;
    for (std::size_t i = 0; i < kAlphabet.size(); ++i)
        table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
    return table;
}
constexpr std::array<int8_t, 256> kDecodeTable = MakeDecodeTable();

Status Malformed(std::size_t offset, std::string_view what) {
    return BadRequestError("illegal base64 data at input byte " + std::to_string(offset) + ": " + std::string(what));
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const uint32_t group = (static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16) |
                               (static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8) |
                               static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 2]));
        out += kAlphabet[(group >> 18) & 63];
        out += kAlphabet[(group >> 12) & 63];
        out += kAlphabet[(group >> 6) & 63];
        out += kAlphabet[group & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        uint32_t group = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (rest == 2)
            group |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += kAlphabet[(group >> 18) & 63];
        out += kAlphabet[(group >> 12) & 63];
        out += rest == 2 ? kAlphabet[(group >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

StatusOr<std::string> Base64Decode(std::string_view text) {
    std::string out;
    out.reserve(text.size() / 4 * 3);
    uint32_t group = 0;
    int count = 0;    // sextets in the current group
    int padding = 0;  // '=' seen
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r' || c == '\n')
            continue;
        if (c == '=') {
            // Padding only in the last two places of a group, after at least two sextets.
            if (count < 2)
                return Malformed(i, "unexpected '='");
            ++padding;
            ++count;
        } else {
            const int8_t value = kDecodeTable[static_cast<unsigned char>(c)];
            if (value < 0)
                return Malformed(i, "not a base64 character");
            if (padding > 0)
                return Malformed(i, "data after '='");
            group = (group << 6) | static_cast<uint32_t>(value);
            ++count;
        }
        if (count == 4) {
            group <<= 6 * padding;
            out += static_cast<char>((group >> 16) & 0xff);
            if (padding < 2)
                out += static_cast<char>((group >> 8) & 0xff);
            if (padding < 1)
                out += static_cast<char>(group & 0xff);
            group = 0;
            count = 0;
            if (padding > 0) {
                // Nothing but line breaks may follow the padded group.
                for (std::size_t j = i + 1; j < text.size(); ++j) {
                    if (text[j] != '\r' && text[j] != '\n')
                        return Malformed(j, "data after '='");
                }
                return out;
            }
        }
    }
    if (count != 0)
        return Malformed(text.size(), "truncated group");
    return out;
}

}  // namespace ctrl
