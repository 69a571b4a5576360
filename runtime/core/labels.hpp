#pragma once

#include <compare>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl {

// An object's labels: key -> value. The same type Object::Labels() returns.
using Labels = std::map<std::string, std::string>;

// The longest name part of a label key, and the longest label value.
inline constexpr size_t kMaxLabelNameLength = 63;
// The longest DNS-subdomain prefix of a label key.
inline constexpr size_t kMaxLabelPrefixLength = 253;

// OK when key is a valid label key (a Kubernetes "qualified name"): an optional prefix that is a
// lowercase DNS subdomain (at most 253 characters) followed by '/', then a name of 1 to 63
// characters from [A-Za-z0-9-_.] starting and ending with [A-Za-z0-9]. BadRequest naming the key
// and the rule it breaks otherwise.
Status ValidateLabelKey(std::string_view key);
// OK when value is a valid label value: empty, or at most 63 characters from [A-Za-z0-9-_.]
// starting and ending with [A-Za-z0-9]. BadRequest naming the value and the rule otherwise.
Status ValidateLabelValue(std::string_view value);
// Every key and value of labels; the first error found.
Status ValidateLabels(const Labels& labels);
// "k1=v1,k2=v2" in key order, as Go's labels.Set prints itself (for logs and messages).
std::string FormatLabels(const Labels& labels);

// How a LabelRequirement relates a label to its values. "==" in a selector string is a synonym of
// kEquals.
enum class LabelOperator {
    kEquals,        // key=value: the label is present with that value
    kNotEquals,     // key!=value: the label is absent or has another value
    kIn,            // key in (v1,v2): the label is present with one of the values
    kNotIn,         // key notin (v1,v2): the label is absent or has none of the values
    kExists,        // key: the label is present
    kDoesNotExist,  // !key: the label is absent
    kGreaterThan,   // key>5: the label is present and its integer value is greater
    kLessThan,      // key<5: the label is present and its integer value is smaller
};

// The operator as a selector string spells it: "=", "!=", "in", "notin", "exists", "!", ">", "<".
std::string_view LabelOperatorName(LabelOperator op);

class LabelSelector;

// One condition on one label (Go's labels.Requirement): a key, an operator and its values. Knows
// how to validate itself, match a label set and print itself in selector syntax. Values are kept
// sorted and without duplicates, so equal conditions compare equal; the ordering (key, operator,
// values) is the canonical order of requirements in a selector.
class LabelRequirement {
  public:
    // Validates as apimachinery's NewRequirement does: the key must be a valid label key; In and
    // NotIn need at least one value; Equals, NotEquals, GreaterThan and LessThan exactly one;
    // Exists and DoesNotExist none; GreaterThan and LessThan an integer; every value must be a
    // valid label value (the empty string is one). BadRequest naming the key and the rule.
    static StatusOr<LabelRequirement> Create(std::string key, LabelOperator op, std::vector<std::string> values);

    const std::string& Key() const { return key_; }
    LabelOperator Operator() const { return op_; }
    // Sorted, without duplicates.
    const std::vector<std::string>& Values() const { return values_; }

    // Whether labels satisfy the condition. NotIn and NotEquals match an absent label;
    // GreaterThan and LessThan never match a label whose value is not an integer.
    bool Matches(const Labels& labels) const;
    // Selector syntax: "a=b", "a!=b", "a in (x,y)", "a notin (x)", "a", "!a", "a>1", "a<1".
    std::string String() const;

    auto operator<=>(const LabelRequirement&) const = default;
    bool operator==(const LabelRequirement&) const = default;

  private:
    friend class LabelSelector;
    // Unvalidated; for LabelSelector::FromValidatedSet.
    LabelRequirement(std::string key, LabelOperator op, std::vector<std::string> values);

    std::string key_;
    LabelOperator op_ = LabelOperator::kExists;
    std::vector<std::string> values_;
};

}  // namespace ctrl
