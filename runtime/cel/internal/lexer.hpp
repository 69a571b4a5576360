#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cel/internal/value.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::cel::internal {

// The kinds of CEL's tokens.
enum class TokenKind { kLiteral, kIdent, kPunct, kEnd };

// One token: a literal's value, an identifier's name, or a punctuator's text ("<=", "&&", "(").
struct Token {
    TokenKind kind = TokenKind::kEnd;
    std::string text;
    Value literal;
    std::size_t column = 0;  // 1-based
};

// The text of an int literal token of 9223372036854775808: valid only negated (int64's minimum).
inline constexpr std::string_view kInt64MinMagnitude = "9223372036854775808";

// Splits a CEL expression into tokens, the last one kEnd. Literals: ints (decimal, 0x hex), uints
// (1u), doubles (1.5, 1e3), strings in ' " ''' """ with escapes, raw strings (r"..."), true, false,
// null. BadRequest "<what> at column N" on what is not CEL (bytes literals are not supported).
StatusOr<std::vector<Token>> Tokenize(std::string_view expression);

}  // namespace ctrl::cel::internal
