#include "runtime/rest/internal/kubeconfig_base64.hpp"

#include <array>
#include <cstdint>

namespace ctrl::rest::internal {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr int kInvalid = -1;
constexpr int kPadding = -2;

constexpr std::array<int, 256> MakeDecodeTable() {
    std::array<int, 256> table{};
    for (int& entry : table)
        entry = kInvalid;
    for (std::size_t i = 0; i < kAlphabet.size(); ++i)
        table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int>(i);
    table['='] = kPadding;
    return table;
}

constexpr std::array<int, 256> kDecodeTable = MakeDecodeTable();

Status IllegalByte(std::size_t offset) {
    return BadRequestError("illegal base64 data at input byte " + std::to_string(offset));
}

}  // namespace

std::string Base64Encode(std::string_view data) {
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= data.size(); i += 3) {
        const uint32_t group = (static_cast<unsigned char>(data[i]) << 16) |
                               (static_cast<unsigned char>(data[i + 1]) << 8) | static_cast<unsigned char>(data[i + 2]);
        out += kAlphabet[(group >> 18) & 0x3f];
        out += kAlphabet[(group >> 12) & 0x3f];
        out += kAlphabet[(group >> 6) & 0x3f];
        out += kAlphabet[group & 0x3f];
    }
    const std::size_t rest = data.size() - i;
    if (rest > 0) {
        uint32_t group = static_cast<uint32_t>(static_cast<unsigned char>(data[i])) << 16;
        if (rest == 2)
            group |= static_cast<uint32_t>(static_cast<unsigned char>(data[i + 1])) << 8;
        out += kAlphabet[(group >> 18) & 0x3f];
        out += kAlphabet[(group >> 12) & 0x3f];
        out += rest == 2 ? kAlphabet[(group >> 6) & 0x3f] : '=';
        out += '=';
    }
    return out;
}

StatusOr<std::string> Base64Decode(std::string_view text) {
    std::string out;
    out.reserve(text.size() / 4 * 3);
    uint32_t group = 0;
    int filled = 0;   // sextets in the current quantum
    int padding = 0;  // '=' seen in the current quantum
    bool ended = false;
    std::size_t quantum_start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r' || c == '\n')
            continue;
        const int value = kDecodeTable[static_cast<unsigned char>(c)];
        if (value == kInvalid || ended)
            return IllegalByte(i);
        if (filled + padding == 0)
            quantum_start = i;
        if (value == kPadding) {
            // Padding only in the last two places of a quantum, after at least two sextets.
            if (filled < 2)
                return IllegalByte(i);
            ++padding;
        } else {
            if (padding > 0)
                return IllegalByte(i);
            group = (group << 6) | static_cast<uint32_t>(value);
            ++filled;
        }
        if (filled + padding == 4) {
            group <<= 6 * padding;
            out += static_cast<char>((group >> 16) & 0xff);
            if (padding < 2)
                out += static_cast<char>((group >> 8) & 0xff);
            if (padding < 1)
                out += static_cast<char>(group & 0xff);
            ended = padding > 0;
            group = 0;
            filled = 0;
            padding = 0;
        }
    }
    if (filled + padding != 0)
        return IllegalByte(quantum_start);
    return out;
}

}  // namespace ctrl::rest::internal
