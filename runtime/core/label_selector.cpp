#include "ctrl/core/label_selector.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace ctrl {
namespace {

// The tokens of the string form, as apimachinery's lexer splits it: the symbols = == != ! ( ) , > <
// and identifiers (runs of anything else up to whitespace or a symbol). "in" and "notin" are
// operators only where an operator is expected; anywhere else they are keys or values.
enum class TokenKind {
    kEnd,
    kIdentifier,
    kIn,
    kNotIn,
    kOpenParen,
    kCloseParen,
    kComma,
    kBang,
    kEquals,
    kDoubleEquals,
    kNotEquals,
    kGreater,
    kLess
};

struct Token {
    TokenKind kind = TokenKind::kEnd;
    std::string_view text;
    size_t position = 0;
};

bool IsWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// The one-character symbols and, at the same index, their tokens.
constexpr std::string_view kSymbols = "=!(),><";
constexpr TokenKind kSymbolKinds[] = {TokenKind::kEquals,     TokenKind::kBang,  TokenKind::kOpenParen,
                                      TokenKind::kCloseParen, TokenKind::kComma, TokenKind::kGreater,
                                      TokenKind::kLess};

bool IsSymbol(char c) {
    return kSymbols.find(c) != std::string_view::npos;
}

// Every token of text, ending with one kEnd.
std::vector<Token> Lex(std::string_view text) {
    std::vector<Token> tokens;
    size_t i = 0;
    while (true) {
        while (i < text.size() && IsWhitespace(text[i]))
            ++i;
        if (i == text.size()) {
            tokens.push_back({TokenKind::kEnd, {}, i});
            return tokens;
        }
        size_t start = i;
        TokenKind kind;
        if (IsSymbol(text[i])) {
            kind = kSymbolKinds[kSymbols.find(text[i])];
            bool two_chars = i + 1 < text.size() && text[i + 1] == '=' && (text[i] == '=' || text[i] == '!');
            if (two_chars)
                kind = text[i] == '=' ? TokenKind::kDoubleEquals : TokenKind::kNotEquals;
            i += two_chars ? 2 : 1;
        } else {
            while (i < text.size() && !IsWhitespace(text[i]) && !IsSymbol(text[i]))
                ++i;
            std::string_view word = text.substr(start, i - start);
            kind = word == "in" ? TokenKind::kIn : word == "notin" ? TokenKind::kNotIn : TokenKind::kIdentifier;
        }
        tokens.push_back({kind, text.substr(start, i - start), start});
    }
}

// The tokens that are binary operators, and what each means.
constexpr std::pair<TokenKind, LabelOperator> kBinaryOperators[] = {
    {TokenKind::kIn, LabelOperator::kIn},
    {TokenKind::kNotIn, LabelOperator::kNotIn},
    {TokenKind::kEquals, LabelOperator::kEquals},
    {TokenKind::kDoubleEquals, LabelOperator::kEquals},
    {TokenKind::kNotEquals, LabelOperator::kNotEquals},
    {TokenKind::kGreater, LabelOperator::kGreaterThan},
    {TokenKind::kLess, LabelOperator::kLessThan},
};

bool IsIdentifier(const Token& token) {
    return token.kind == TokenKind::kIdentifier || token.kind == TokenKind::kIn || token.kind == TokenKind::kNotIn;
}

// A recursive-descent parser over the tokens of one selector string. Errors name the input, the
// byte position, the token found and what was expected there.
class Parser {
  public:
    explicit Parser(std::string_view input) : input_(input), tokens_(Lex(input)) {}

    StatusOr<std::vector<LabelRequirement>> Parse() {
        std::vector<LabelRequirement> requirements;
        if (Peek().kind == TokenKind::kEnd)
            return requirements;
        while (true) {
            if (!IsIdentifier(Peek()) && Peek().kind != TokenKind::kBang)
                return Unexpected(Peek(), "'!' or a label key");
            CTRL_ASSIGN_OR_RETURN(LabelRequirement requirement, ParseRequirement());
            requirements.push_back(std::move(requirement));
            const Token& separator = Next();
            if (separator.kind == TokenKind::kEnd)
                return requirements;
            if (separator.kind != TokenKind::kComma)
                return Unexpected(separator, "',' or end of string");
        }
    }

  private:
    const Token& Peek() const { return tokens_[next_]; }
    const Token& Next() {
        const Token& token = tokens_[next_];
        if (token.kind != TokenKind::kEnd)
            ++next_;
        return token;
    }

    Status ErrorAt(size_t position, std::string_view detail) const {
        return BadRequestError("unable to parse label selector \"" + std::string(input_) + "\": at position " +
                               std::to_string(position) + ": " + std::string(detail));
    }
    Status Unexpected(const Token& found, std::string_view expected) const {
        std::string what = found.kind == TokenKind::kEnd ? "end of string" : "'" + std::string(found.text) + "'";
        return ErrorAt(found.position, "found " + what + ", expected " + std::string(expected));
    }

    // [!] KEY [operator values]
    StatusOr<LabelRequirement> ParseRequirement() {
        bool absent = Peek().kind == TokenKind::kBang;
        if (absent)
            Next();
        const Token& key_token = Next();
        if (!IsIdentifier(key_token))
            return Unexpected(key_token, "a label key");
        std::string key(key_token.text);
        if (Status valid = ValidateLabelKey(key); !valid.Ok())
            return ErrorAt(key_token.position, valid.Message());
        TokenKind after = Peek().kind;
        if (absent || after == TokenKind::kEnd || after == TokenKind::kComma) {
            return LabelRequirement::Create(std::move(key),
                                            absent ? LabelOperator::kDoesNotExist : LabelOperator::kExists, {});
        }
        const Token& op_token = Next();
        auto binary = std::find_if(std::begin(kBinaryOperators), std::end(kBinaryOperators),
                                   [&](const auto& entry) { return entry.first == op_token.kind; });
        if (binary == std::end(kBinaryOperators))
            return Unexpected(op_token, "an operator (=, ==, !=, in, notin, >, <)");
        LabelOperator op = binary->second;
        std::vector<std::string> values;
        size_t values_position = Peek().position;
        if (op == LabelOperator::kIn || op == LabelOperator::kNotIn) {
            CTRL_ASSIGN_OR_RETURN(values, ParseValueSet());
        } else {
            CTRL_ASSIGN_OR_RETURN(std::string value, ParseExactValue());
            values.push_back(std::move(value));
        }
        StatusOr<LabelRequirement> requirement = LabelRequirement::Create(std::move(key), op, std::move(values));
        if (!requirement.Ok())
            return ErrorAt(values_position, requirement.GetStatus().Message());
        return requirement;
    }

    // "(" [value] {"," [value]} ")": an omitted value is the empty string, as in apimachinery.
    StatusOr<std::vector<std::string>> ParseValueSet() {
        const Token& open = Next();
        if (open.kind != TokenKind::kOpenParen)
            return Unexpected(open, "'('");
        std::vector<std::string> values;
        bool expect_value = true;
        while (true) {
            const Token& token = Next();
            if (IsIdentifier(token) && expect_value) {
                CTRL_RETURN_IF_ERROR(CheckValue(token));
                values.emplace_back(token.text);
                expect_value = false;
            } else if (token.kind == TokenKind::kComma || token.kind == TokenKind::kCloseParen) {
                if (expect_value)
                    values.emplace_back();
                if (token.kind == TokenKind::kCloseParen)
                    return values;
                expect_value = true;
            } else {
                return Unexpected(token, expect_value ? "a value, ',' or ')'" : "',' or ')'");
            }
        }
    }

    // [value]: an omitted value (at ',' or the end) is the empty string.
    StatusOr<std::string> ParseExactValue() {
        const Token& token = Peek();
        if (token.kind == TokenKind::kEnd || token.kind == TokenKind::kComma)
            return std::string();
        if (!IsIdentifier(token))
            return Unexpected(token, "a value");
        CTRL_RETURN_IF_ERROR(CheckValue(token));
        Next();
        return std::string(token.text);
    }

    Status CheckValue(const Token& token) const {
        Status valid = ValidateLabelValue(token.text);
        return valid.Ok() ? valid : ErrorAt(token.position, valid.Message());
    }

    std::string_view input_;
    std::vector<Token> tokens_;
    size_t next_ = 0;
};

std::string MatchLabelPath(const std::string& key) {
    return "matchLabels[\"" + key + "\"]";
}
std::string ExpressionPath(size_t index) {
    return "matchExpressions[" + std::to_string(index) + "]";
}

Status ValidateSpec(const LabelSelectorSpec& spec) {
    for (const auto& [key, value] : spec.match_labels) {
        CTRL_RETURN_IF_ERROR(ValidateLabelKey(key).Annotate(MatchLabelPath(key)));
        CTRL_RETURN_IF_ERROR(ValidateLabelValue(value).Annotate(MatchLabelPath(key)));
    }
    for (size_t i = 0; i < spec.match_expressions.size(); ++i) {
        const LabelSelectorRequirement& expression = spec.match_expressions[i];
        std::string path = ExpressionPath(i);
        CTRL_RETURN_IF_ERROR(ValidateLabelKey(expression.key).Annotate(path + ".key"));
        std::string op(LabelSelectorOperatorName(expression.op));
        bool set_based = expression.op == LabelSelectorOperator::kIn || expression.op == LabelSelectorOperator::kNotIn;
        if (set_based && expression.values.empty()) {
            return BadRequestError(path + ".values: must be non-empty when operator is " + op);
        }
        if (!set_based && !expression.values.empty()) {
            return BadRequestError(path + ".values: must be empty when operator is " + op);
        }
        for (size_t j = 0; j < expression.values.size(); ++j) {
            CTRL_RETURN_IF_ERROR(
                ValidateLabelValue(expression.values[j]).Annotate(path + ".values[" + std::to_string(j) + "]"));
        }
    }
    return OkStatus();
}

// "<path>: <rule> (<what the Object said>)" for a field of the wrong type.
Status WrongType(const std::string& path, std::string_view rule, const Status& read) {
    return BadRequestError(path + ": " + std::string(rule) + " (" + read.Message() + ")");
}

std::optional<LabelSelectorOperator> ParseSelectorOperator(std::string_view name) {
    for (LabelSelectorOperator op : {LabelSelectorOperator::kIn, LabelSelectorOperator::kNotIn,
                                     LabelSelectorOperator::kExists, LabelSelectorOperator::kDoesNotExist}) {
        if (LabelSelectorOperatorName(op) == name)
            return op;
    }
    return std::nullopt;
}

// One matchExpressions entry; structure only (ValidateSpec checks the content).
StatusOr<LabelSelectorRequirement> DecodeExpression(const Object& item, const std::string& path) {
    if (!item.IsJsonObject())
        return BadRequestError(path + ": must be an object");
    LabelSelectorRequirement expression;
    StatusOr<std::string> key = item.NestedString({"key"});
    if (!key.Ok()) {
        if (IsNotFound(key.GetStatus()))
            return BadRequestError(path + ".key: required");
        return WrongType(path + ".key", "must be a string", key.GetStatus());
    }
    expression.key = std::move(*key);
    StatusOr<std::string> op_name = item.NestedString({"operator"});
    if (!op_name.Ok()) {
        if (IsNotFound(op_name.GetStatus()))
            return BadRequestError(path + ".operator: required");
        return WrongType(path + ".operator", "must be a string", op_name.GetStatus());
    }
    std::optional<LabelSelectorOperator> op = ParseSelectorOperator(*op_name);
    if (!op) {
        return BadRequestError(path + ".operator: \"" + *op_name +
                               "\" is not a valid label selector operator (In, NotIn, Exists, DoesNotExist)");
    }
    expression.op = *op;
    if (item.HasNestedField({"values"})) {
        StatusOr<std::vector<std::string>> values = item.NestedStringSlice({"values"});
        if (!values.Ok()) {
            return WrongType(path + ".values", "must be an array of strings", values.GetStatus());
        }
        expression.values = std::move(*values);
    }
    return expression;
}

}  // namespace

LabelSelector LabelSelector::Nothing() {
    LabelSelector selector;
    selector.nothing_ = true;
    return selector;
}

StatusOr<LabelSelector> LabelSelector::Parse(std::string_view text) {
    CTRL_ASSIGN_OR_RETURN(std::vector<LabelRequirement> requirements, Parser(text).Parse());
    std::sort(requirements.begin(), requirements.end());
    LabelSelector selector;
    selector.requirements_ = std::move(requirements);
    return selector;
}

StatusOr<LabelSelector> LabelSelector::FromSet(const Labels& labels) {
    LabelSelector selector;
    for (const auto& [key, value] : labels) {
        CTRL_ASSIGN_OR_RETURN(LabelRequirement requirement,
                              LabelRequirement::Create(key, LabelOperator::kEquals, {value}));
        selector.requirements_.push_back(std::move(requirement));
    }
    return selector;  // a map iterates in key order: already canonical
}

LabelSelector LabelSelector::FromValidatedSet(const Labels& labels) {
    LabelSelector selector;
    for (const auto& [key, value] : labels) {
        selector.requirements_.push_back(LabelRequirement(key, LabelOperator::kEquals, {value}));
    }
    return selector;
}

LabelSelector& LabelSelector::Add(LabelRequirement requirement) {
    if (nothing_)
        return *this;
    auto at = std::upper_bound(requirements_.begin(), requirements_.end(), requirement);
    requirements_.insert(at, std::move(requirement));
    return *this;
}

bool LabelSelector::Matches(const Labels& labels) const {
    if (nothing_)
        return false;
    return std::all_of(requirements_.begin(), requirements_.end(),
                       [&](const LabelRequirement& requirement) { return requirement.Matches(labels); });
}

std::string LabelSelector::String() const {
    std::string out;
    for (const LabelRequirement& requirement : requirements_) {
        if (!out.empty())
            out += ',';
        out += requirement.String();
    }
    return out;
}

std::optional<std::string> LabelSelector::RequiresExactMatch(std::string_view key) const {
    for (const LabelRequirement& requirement : requirements_) {
        bool exact = requirement.Operator() == LabelOperator::kEquals || requirement.Operator() == LabelOperator::kIn;
        if (requirement.Key() == key && exact && requirement.Values().size() == 1)
            return requirement.Values().front();
    }
    return std::nullopt;
}

std::string_view LabelSelectorOperatorName(LabelSelectorOperator op) {
    switch (op) {
        case LabelSelectorOperator::kIn:
            return "In";
        case LabelSelectorOperator::kNotIn:
            return "NotIn";
        case LabelSelectorOperator::kExists:
            return "Exists";
        case LabelSelectorOperator::kDoesNotExist:
            return "DoesNotExist";
    }
    return "?";
}

StatusOr<LabelSelectorSpec> LabelSelectorSpec::FromObject(const Object& object) {
    if (!object.IsJsonObject())
        return BadRequestError("a label selector must be a JSON object");
    LabelSelectorSpec spec;
    if (object.HasNestedField({"matchLabels"})) {
        StatusOr<std::map<std::string, std::string>> labels = object.NestedStringMap({"matchLabels"});
        if (!labels.Ok()) {
            return WrongType("matchLabels", "must be an object whose values are strings", labels.GetStatus());
        }
        spec.match_labels = std::move(*labels);
    }
    if (object.HasNestedField({"matchExpressions"})) {
        StatusOr<std::vector<Object>> items = object.NestedSlice({"matchExpressions"});
        if (!items.Ok()) {
            return WrongType("matchExpressions", "must be an array", items.GetStatus());
        }
        for (size_t i = 0; i < items->size(); ++i) {
            CTRL_ASSIGN_OR_RETURN(LabelSelectorRequirement expression,
                                  DecodeExpression((*items)[i], ExpressionPath(i)));
            spec.match_expressions.push_back(std::move(expression));
        }
    }
    CTRL_RETURN_IF_ERROR(ValidateSpec(spec));
    return spec;
}

StatusOr<LabelSelector> ToSelector(const LabelSelectorSpec& spec) {
    CTRL_RETURN_IF_ERROR(ValidateSpec(spec));
    LabelSelector selector;
    for (const auto& [key, value] : spec.match_labels) {
        CTRL_ASSIGN_OR_RETURN(LabelRequirement requirement,
                              LabelRequirement::Create(key, LabelOperator::kEquals, {value}));
        selector.Add(std::move(requirement));
    }
    for (const LabelSelectorRequirement& expression : spec.match_expressions) {
        LabelOperator op = LabelOperator::kExists;
        switch (expression.op) {
            case LabelSelectorOperator::kIn:
                op = LabelOperator::kIn;
                break;
            case LabelSelectorOperator::kNotIn:
                op = LabelOperator::kNotIn;
                break;
            case LabelSelectorOperator::kExists:
                op = LabelOperator::kExists;
                break;
            case LabelSelectorOperator::kDoesNotExist:
                op = LabelOperator::kDoesNotExist;
                break;
        }
        CTRL_ASSIGN_OR_RETURN(LabelRequirement requirement,
                              LabelRequirement::Create(expression.key, op, expression.values));
        selector.Add(std::move(requirement));
    }
    return selector;
}

}  // namespace ctrl
