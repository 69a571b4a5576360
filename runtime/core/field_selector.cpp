#include "ctrl/core/field_selector.hpp"

#include <algorithm>
#include <utility>

namespace ctrl {
namespace {

// One comma-separated term of the string form and its byte offset in the input.
struct RawTerm {
    std::string_view text;
    size_t position = 0;
};

// Splits at commas that are not escaped with a backslash.
std::vector<RawTerm> SplitTerms(std::string_view text) {
    std::vector<RawTerm> terms;
    size_t start = 0;
    bool escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        if (escaped) {
            escaped = false;
        } else if (text[i] == '\\') {
            escaped = true;
        } else if (text[i] == ',') {
            terms.push_back({text.substr(start, i - start), start});
            start = i + 1;
        }
    }
    terms.push_back({text.substr(start), start});
    return terms;
}

// Where the first operator of a term starts, and which one it is: "!=", "==" or "=", tried in that
// order at each offset, as apimachinery does.
struct OperatorAt {
    size_t offset = 0;
    size_t length = 0;
    FieldOperator op = FieldOperator::kEquals;
};

std::optional<OperatorAt> FindOperator(std::string_view term) {
    for (size_t i = 0; i < term.size(); ++i) {
        std::string_view rest = term.substr(i);
        if (rest.starts_with("!="))
            return OperatorAt{i, 2, FieldOperator::kNotEquals};
        if (rest.starts_with("=="))
            return OperatorAt{i, 2, FieldOperator::kEquals};
        if (rest.starts_with("="))
            return OperatorAt{i, 1, FieldOperator::kEquals};
    }
    return std::nullopt;
}

struct UnescapeError {
    size_t offset = 0;
    std::string detail;
};

// Appends the unescaped value to out, or says what is wrong and where.
std::optional<UnescapeError> Unescape(std::string_view escaped, std::string& out) {
    for (size_t i = 0; i < escaped.size(); ++i) {
        char c = escaped[i];
        if (c == ',' || c == '=') {
            return UnescapeError{i, std::string("unescaped '") + c + "' in a value; write it as '\\" + c + "'"};
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (i + 1 == escaped.size())
            return UnescapeError{i, "dangling '\\' at the end of a value"};
        char next = escaped[i + 1];
        if (next != '\\' && next != ',' && next != '=') {
            size_t end = i + 2;  // the whole UTF-8 character after the backslash
            while (end < escaped.size() && (static_cast<unsigned char>(escaped[end]) & 0xC0) == 0x80)
                ++end;
            return UnescapeError{i, "invalid escape sequence '" + std::string(escaped.substr(i, end - i)) +
                                        "' in a value; the escapes are '\\\\', '\\,' and '\\='"};
        }
        out += next;
        ++i;
    }
    return std::nullopt;
}

}  // namespace

bool FieldTerm::Matches(const Fields& fields) const {
    auto it = fields.find(field);
    std::string_view actual = it == fields.end() ? std::string_view() : std::string_view(it->second);
    return (actual == value) == (op == FieldOperator::kEquals);
}

std::string FieldTerm::String() const {
    return field + (op == FieldOperator::kEquals ? "=" : "!=") + EscapeFieldValue(value);
}

StatusOr<FieldSelector> FieldSelector::Parse(std::string_view text) {
    FieldSelector selector;
    if (text.empty())
        return selector;
    auto error = [&](size_t position, std::string_view detail) {
        return BadRequestError("unable to parse field selector \"" + std::string(text) + "\": at position " +
                               std::to_string(position) + ": " + std::string(detail));
    };
    for (const RawTerm& raw : SplitTerms(text)) {
        std::string quoted = "\"" + std::string(raw.text) + "\"";
        if (raw.text.empty())
            return error(raw.position, "empty term (a ',' at the start, at the end or after a ',')");
        std::optional<OperatorAt> op = FindOperator(raw.text);
        if (!op) {
            return error(raw.position,
                         "term " + quoted + " has no operator; expected field=value, field==value or field!=value");
        }
        if (op->offset == 0)
            return error(raw.position, "term " + quoted + " has an empty field name");
        FieldTerm term{std::string(raw.text.substr(0, op->offset)), op->op, {}};
        size_t value_start = op->offset + op->length;
        if (std::optional<UnescapeError> bad = Unescape(raw.text.substr(value_start), term.value)) {
            return error(raw.position + value_start + bad->offset, "term " + quoted + ": " + bad->detail);
        }
        selector.terms_.push_back(std::move(term));
    }
    selector.Normalize();
    return selector;
}

FieldSelector FieldSelector::OneTermEqual(std::string field, std::string value) {
    FieldSelector selector;
    selector.terms_.push_back({std::move(field), FieldOperator::kEquals, std::move(value)});
    return selector;
}

FieldSelector FieldSelector::FromSet(const Fields& fields) {
    FieldSelector selector;
    for (const auto& [field, value] : fields)
        selector.terms_.push_back({field, FieldOperator::kEquals, value});
    selector.Normalize();
    return selector;
}

FieldSelector FieldSelector::AndSelectors(std::initializer_list<FieldSelector> selectors) {
    return AndSelectors(std::vector<FieldSelector>(selectors));
}

FieldSelector FieldSelector::AndSelectors(const std::vector<FieldSelector>& selectors) {
    FieldSelector combined;
    for (const FieldSelector& selector : selectors) {
        combined.terms_.insert(combined.terms_.end(), selector.terms_.begin(), selector.terms_.end());
    }
    combined.Normalize();
    return combined;
}

bool FieldSelector::Matches(const Fields& fields) const {
    return std::all_of(terms_.begin(), terms_.end(), [&](const FieldTerm& term) { return term.Matches(fields); });
}

std::string FieldSelector::String() const {
    std::string out;
    for (const FieldTerm& term : terms_) {
        if (!out.empty())
            out += ',';
        out += term.String();
    }
    return out;
}

std::optional<std::string> FieldSelector::RequiresExactMatch(std::string_view field) const {
    for (const FieldTerm& term : terms_) {
        if (term.field == field && term.op == FieldOperator::kEquals)
            return term.value;
    }
    return std::nullopt;
}

void FieldSelector::Normalize() {
    // apimachinery sorts the terms' text; sorting by the canonical text gives the same order.
    std::stable_sort(terms_.begin(), terms_.end(),
                     [](const FieldTerm& a, const FieldTerm& b) { return a.String() < b.String(); });
}

std::string EscapeFieldValue(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\' || c == ',' || c == '=')
            out += '\\';
        out += c;
    }
    return out;
}

StatusOr<std::string> UnescapeFieldValue(std::string_view escaped) {
    std::string out;
    if (std::optional<UnescapeError> bad = Unescape(escaped, out)) {
        return BadRequestError("invalid field selector value \"" + std::string(escaped) + "\": at offset " +
                               std::to_string(bad->offset) + ": " + bad->detail);
    }
    return out;
}

}  // namespace ctrl
