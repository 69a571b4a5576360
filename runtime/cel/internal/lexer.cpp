#include "ctrl/cel/internal/lexer.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

namespace ctrl::cel::internal {

namespace {

Status SyntaxError(std::string what, std::size_t offset) {
    return BadRequestError(what + " at column " + std::to_string(offset + 1));
}

bool IsIdentStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool IsIdentChar(char c) {
    return IsIdentStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

void AppendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

// The escape sequence at text[pos] (just after the backslash): appends its character, advances pos.
Status ReadEscape(std::string_view text, std::size_t& pos, std::string& out) {
    if (pos >= text.size())
        return SyntaxError("unterminated escape sequence", pos);
    const char c = text[pos++];
    static constexpr std::string_view kSimple = "abfnrtv\\'\"`?";
    static constexpr std::string_view kMeaning = "\a\b\f\n\r\t\v\\'\"`?";
    if (const std::size_t simple = kSimple.find(c); simple != std::string_view::npos) {
        out += kMeaning[simple];
        return {};
    }
    int digits = 0;
    int base = 16;
    if (c == 'x' || c == 'X')
        digits = 2;
    else if (c == 'u')
        digits = 4;
    else if (c == 'U')
        digits = 8;
    else if (c >= '0' && c <= '3')
        digits = 2, base = 8, --pos;
    if (digits == 0)
        return SyntaxError(std::string("unknown escape sequence \\") + c, pos - 2);
    if (base == 8)
        ++digits;
    uint32_t code = 0;
    const auto [end, error] = std::from_chars(
        text.data() + pos, text.data() + pos + std::min<std::size_t>(digits, text.size() - pos), code, base);
    if (error != std::errc() || end != text.data() + pos + digits)
        return SyntaxError("malformed escape sequence", pos - 2);
    pos += digits;
    AppendUtf8(out, code);
    return {};
}

// A string literal starting at text[pos] (its quote, after any r prefix).
StatusOr<std::string> ReadString(std::string_view text, std::size_t& pos, bool raw) {
    const std::size_t start = pos;
    const char quote = text[pos];
    const bool triple = text.substr(pos, 3) == std::string(3, quote);
    const std::string_view closing = triple ? text.substr(pos, 3) : text.substr(pos, 1);
    pos += closing.size();
    std::string out;
    while (true) {
        if (pos >= text.size())
            return SyntaxError("unterminated string", start);
        if (text.substr(pos, closing.size()) == closing) {
            pos += closing.size();
            return out;
        }
        const char c = text[pos++];
        if (!triple && (c == '\n' || c == '\r'))
            return SyntaxError("newline in a string", pos - 1);
        if (c == '\\' && !raw) {
            if (Status status = ReadEscape(text, pos, out); !status.Ok())
                return status;
        } else {
            out += c;
        }
    }
}

// A number at text[pos]: int, uint (u suffix) or double.
StatusOr<Value> ReadNumber(std::string_view text, std::size_t& pos) {
    const std::size_t start = pos;
    if (text.substr(pos, 2) == "0x" || text.substr(pos, 2) == "0X") {
        pos += 2;
        while (pos < text.size() && std::isxdigit(static_cast<unsigned char>(text[pos])))
            ++pos;
    } else {
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
            ++pos;
    }
    bool is_double = false;
    const bool hex = text.substr(start, 2) == "0x" || text.substr(start, 2) == "0X";
    if (!hex && pos + 1 < text.size() && text[pos] == '.' && std::isdigit(static_cast<unsigned char>(text[pos + 1]))) {
        is_double = true;
        for (++pos; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]));)
            ++pos;
    }
    if (!hex && pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
        is_double = true;
        ++pos;
        if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
            ++pos;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
            ++pos;
    }
    const std::string digits(text.substr(start + (hex ? 2 : 0), pos - start - (hex ? 2 : 0)));
    if (is_double)
        return Value(std::strtod(digits.c_str(), nullptr));
    const bool is_uint = pos < text.size() && (text[pos] == 'u' || text[pos] == 'U');
    uint64_t number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number, hex ? 16 : 10);
    if (error != std::errc() || end != digits.data() + digits.size())
        return SyntaxError("malformed number", start);
    if (is_uint) {
        ++pos;
        return Value(number);
    }
    // 9223372036854775808 is allowed here for a negated literal; the parser checks the sign.
    if (number > uint64_t{1} << 63)
        return SyntaxError("integer literal out of range", start);
    if (number == uint64_t{1} << 63)
        return Value(number);  // the token says so: see Tokenize
    return Value(static_cast<int64_t>(number));
}

std::string_view Punctuator(std::string_view rest) {
    static constexpr std::string_view kTwo[] = {"<=", ">=", "==", "!=", "&&", "||"};
    for (std::string_view two : kTwo) {
        if (rest.substr(0, 2) == two)
            return two;
    }
    static constexpr std::string_view kOne = "()[]{}.,:?!-+*/%<>";
    if (!rest.empty() && kOne.find(rest.front()) != std::string_view::npos)
        return rest.substr(0, 1);
    return {};
}

}  // namespace

StatusOr<std::vector<Token>> Tokenize(std::string_view text) {
    std::vector<Token> tokens;
    std::size_t pos = 0;
    while (true) {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
            ++pos;
        if (pos >= text.size())
            break;
        Token token;
        token.column = pos + 1;
        const char c = text[pos];
        const bool raw_prefix =
            (c == 'r' || c == 'R') && pos + 1 < text.size() && (text[pos + 1] == '"' || text[pos + 1] == '\'');
        if ((c == 'b' || c == 'B') && pos + 1 < text.size() && (text[pos + 1] == '"' || text[pos + 1] == '\''))
            return SyntaxError("bytes literals are not supported", pos);
        if (c == '"' || c == '\'' || raw_prefix) {
            pos += raw_prefix ? 1 : 0;
            StatusOr<std::string> value = ReadString(text, pos, raw_prefix);
            if (!value.Ok())
                return value.GetStatus();
            token.kind = TokenKind::kLiteral;
            token.literal = Value(std::move(*value));
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && pos + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[pos + 1])))) {
            StatusOr<Value> value = ReadNumber(text, pos);
            if (!value.Ok())
                return value.GetStatus();
            token.kind = TokenKind::kLiteral;
            token.literal = std::move(*value);
            if (token.literal.Is<uint64_t>() && text[pos - 1] != 'u' && text[pos - 1] != 'U')
                token.text = kInt64MinMagnitude;
        } else if (IsIdentStart(c)) {
            const std::size_t start = pos;
            while (pos < text.size() && IsIdentChar(text[pos]))
                ++pos;
            token.text = std::string(text.substr(start, pos - start));
            token.kind = TokenKind::kIdent;
            if (token.text == "true" || token.text == "false") {
                token.kind = TokenKind::kLiteral;
                token.literal = Value(token.text == "true");
            } else if (token.text == "null") {
                token.kind = TokenKind::kLiteral;
                token.literal = Value(Null{});
            }
        } else if (std::string_view punct = Punctuator(text.substr(pos)); !punct.empty()) {
            token.kind = TokenKind::kPunct;
            token.text = std::string(punct);
            pos += punct.size();
        } else {
            return SyntaxError(std::string("unexpected character '") + c + "'", pos);
        }
        tokens.push_back(std::move(token));
    }
    Token end;
    end.column = text.size() + 1;
    tokens.push_back(std::move(end));
    return tokens;
}

}  // namespace ctrl::cel::internal
