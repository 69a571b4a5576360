#include "ctrl/core/labels.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <utility>

namespace ctrl {
namespace {

bool IsAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]: the name part of a key, and a non-empty value.
bool IsQualifiedNamePart(std::string_view s) {
    if (s.empty() || !IsAlphanumeric(s.front()) || !IsAlphanumeric(s.back()))
        return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return IsAlphanumeric(c) || c == '-' || c == '_' || c == '.'; });
}

// One DNS label of a subdomain: [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool IsDnsLabelPart(std::string_view s) {
    auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back()))
        return false;
    return std::all_of(s.begin(), s.end(), [&](char c) { return lower_alnum(c) || c == '-'; });
}

// RFC 1123 subdomain without the length rule: DNS labels separated by single dots.
bool IsDnsSubdomain(std::string_view s) {
    while (true) {
        size_t dot = s.find('.');
        if (!IsDnsLabelPart(s.substr(0, dot)))
            return false;
        if (dot == std::string_view::npos)
            return true;
        s.remove_prefix(dot + 1);
    }
}

Status KeyError(std::string_view key, std::string_view rule) {
    return BadRequestError("invalid label key \"" + std::string(key) + "\": " + std::string(rule));
}

// Go's strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, in range.
std::optional<int64_t> ParseInt64(std::string_view s) {
    std::string_view digits = s;
    if (!digits.empty() && digits.front() == '+')
        digits.remove_prefix(1);
    if (digits.empty() || (digits.size() < s.size() && digits.front() == '-'))
        return std::nullopt;
    int64_t value = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    return value;
}

std::string RequirementContext(std::string_view key) {
    return "requirement on label \"" + std::string(key) + "\"";
}

}  // namespace

Status ValidateLabelKey(std::string_view key) {
    std::string_view name = key;
    size_t slash = key.find('/');
    if (slash != std::string_view::npos) {
        if (key.find('/', slash + 1) != std::string_view::npos) {
            return KeyError(key,
                            "a key is a name, optionally preceded by a DNS subdomain prefix and one '/' (e.g. "
                            "\"example.com/my-name\")");
        }
        std::string_view prefix = key.substr(0, slash);
        name = key.substr(slash + 1);
        if (prefix.empty())
            return KeyError(key, "prefix part before '/' must not be empty");
        if (prefix.size() > kMaxLabelPrefixLength) {
            return KeyError(
                key, "prefix part must be no more than 253 characters (it has " + std::to_string(prefix.size()) + ")");
        }
        if (!IsDnsSubdomain(prefix)) {
            return KeyError(key,
                            "prefix part must be a lowercase DNS subdomain: '.'-separated parts of [a-z0-9-], each "
                            "starting and ending with [a-z0-9] (e.g. \"example.com\")");
        }
    }
    if (name.empty())
        return KeyError(key, "name part must not be empty");
    if (name.size() > kMaxLabelNameLength) {
        return KeyError(key,
                        "name part must be no more than 63 characters (it has " + std::to_string(name.size()) + ")");
    }
    if (!IsQualifiedNamePart(name)) {
        return KeyError(key,
                        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                        "with an alphanumeric character (e.g. \"MyName\", \"my.name\", \"123-abc\")");
    }
    return OkStatus();
}

Status ValidateLabelValue(std::string_view value) {
    std::string prefix = "invalid label value \"" + std::string(value) + "\": ";
    if (value.size() > kMaxLabelNameLength) {
        return BadRequestError(prefix + "must be no more than 63 characters (it has " + std::to_string(value.size()) +
                               ")");
    }
    if (!value.empty() && !IsQualifiedNamePart(value)) {
        return BadRequestError(prefix +
                               "must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start "
                               "and end with an alphanumeric character (e.g. \"MyValue\", \"my_value\", \"12345\")");
    }
    return OkStatus();
}

Status ValidateLabels(const Labels& labels) {
    for (const auto& [key, value] : labels) {
        CTRL_RETURN_IF_ERROR(ValidateLabelKey(key));
        CTRL_RETURN_IF_ERROR(ValidateLabelValue(value).Annotate("label \"" + key + "\""));
    }
    return OkStatus();
}

std::string FormatLabels(const Labels& labels) {
    std::string out;
    for (const auto& [key, value] : labels) {
        if (!out.empty())
            out += ',';
        out += key;
        out += '=';
        out += value;
    }
    return out;
}

std::string_view LabelOperatorName(LabelOperator op) {
    switch (op) {
        case LabelOperator::kEquals:
            return "=";
        case LabelOperator::kNotEquals:
            return "!=";
        case LabelOperator::kIn:
            return "in";
        case LabelOperator::kNotIn:
            return "notin";
        case LabelOperator::kExists:
            return "exists";
        case LabelOperator::kDoesNotExist:
            return "!";
        case LabelOperator::kGreaterThan:
            return ">";
        case LabelOperator::kLessThan:
            return "<";
    }
    return "?";
}

LabelRequirement::LabelRequirement(std::string key, LabelOperator op, std::vector<std::string> values)
    : key_(std::move(key)), op_(op), values_(std::move(values)) {
    std::sort(values_.begin(), values_.end());
    values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
}

StatusOr<LabelRequirement> LabelRequirement::Create(std::string key, LabelOperator op,
                                                    std::vector<std::string> values) {
    CTRL_RETURN_IF_ERROR(ValidateLabelKey(key));
    auto count_error = [&](std::string_view rule) {
        return BadRequestError(RequirementContext(key) + ": operator \"" + std::string(LabelOperatorName(op)) + "\" " +
                               std::string(rule) + " (got " + std::to_string(values.size()) + ")");
    };
    switch (op) {
        case LabelOperator::kIn:
        case LabelOperator::kNotIn:
            if (values.empty())
                return count_error("needs at least one value");
            break;
        case LabelOperator::kExists:
        case LabelOperator::kDoesNotExist:
            if (!values.empty())
                return count_error("takes no values");
            break;
        case LabelOperator::kEquals:
        case LabelOperator::kNotEquals:
            if (values.size() != 1)
                return count_error("needs exactly one value");
            break;
        case LabelOperator::kGreaterThan:
        case LabelOperator::kLessThan:
            if (values.size() != 1)
                return count_error("needs exactly one value");
            if (!ParseInt64(values.front())) {
                return BadRequestError(RequirementContext(key) + ": the value \"" + values.front() +
                                       "\" of operator \"" + std::string(LabelOperatorName(op)) +
                                       "\" must be an integer");
            }
            break;
    }
    for (const std::string& value : values) {
        CTRL_RETURN_IF_ERROR(ValidateLabelValue(value).Annotate(RequirementContext(key)));
    }
    return LabelRequirement(std::move(key), op, std::move(values));
}

bool LabelRequirement::Matches(const Labels& labels) const {
    auto it = labels.find(key_);
    bool present = it != labels.end();
    auto has_value = [&] { return std::binary_search(values_.begin(), values_.end(), it->second); };
    switch (op_) {
        case LabelOperator::kEquals:
        case LabelOperator::kIn:
            return present && has_value();
        case LabelOperator::kNotEquals:
        case LabelOperator::kNotIn:
            return !present || !has_value();
        case LabelOperator::kExists:
            return present;
        case LabelOperator::kDoesNotExist:
            return !present;
        case LabelOperator::kGreaterThan:
        case LabelOperator::kLessThan: {
            if (!present || values_.size() != 1)
                return false;
            std::optional<int64_t> actual = ParseInt64(it->second);
            std::optional<int64_t> bound = ParseInt64(values_.front());
            if (!actual || !bound)
                return false;
            return op_ == LabelOperator::kGreaterThan ? *actual > *bound : *actual < *bound;
        }
    }
    return false;
}

std::string LabelRequirement::String() const {
    std::string single = values_.empty() ? std::string() : values_.front();
    switch (op_) {
        case LabelOperator::kExists:
            return key_;
        case LabelOperator::kDoesNotExist:
            return "!" + key_;
        case LabelOperator::kEquals:
            return key_ + "=" + single;
        case LabelOperator::kNotEquals:
            return key_ + "!=" + single;
        case LabelOperator::kGreaterThan:
            return key_ + ">" + single;
        case LabelOperator::kLessThan:
            return key_ + "<" + single;
        case LabelOperator::kIn:
        case LabelOperator::kNotIn:
            break;
    }
    std::string out = key_ + (op_ == LabelOperator::kIn ? " in (" : " notin (");
    for (size_t i = 0; i < values_.size(); ++i) {
        if (i > 0)
            out += ',';
        out += values_[i];
    }
    out += ')';
    return out;
}

}  // namespace ctrl
