#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl {

// The fields a field selector is matched against: field path ("metadata.name", "spec.nodeName")
// -> value. An absent field reads as the empty string, as in Go's fields.Set.
using Fields = std::map<std::string, std::string>;

// How a FieldTerm compares a field with its value. "==" in a selector string is a synonym of
// kEquals.
enum class FieldOperator { kEquals, kNotEquals };

// One comparison of a field selector: field=value or field!=value.
struct FieldTerm {
    std::string field;
    FieldOperator op = FieldOperator::kEquals;
    std::string value;

    bool Matches(const Fields& fields) const;
    // "field=value" / "field!=value", the value escaped with EscapeFieldValue.
    std::string String() const;

    bool operator==(const FieldTerm&) const = default;
};

// A field selector (Go's fields.Selector): the AND of FieldTerms. Knows how to parse the string
// form used in list options and kubectl --field-selector, match a set of fields, and print a
// canonical string form (terms sorted as apimachinery sorts them, values escaped) that parses
// back to an equal selector. A default-constructed selector is Everything. Cheap to copy.
//
// String syntax: terms field=value, field==value or field!=value joined by ','. The field is
// everything before the first operator; in a value, ',' '=' and '\' are written '\,' '\=' and
// '\\' (the only escapes apimachinery knows: '!' needs none, and '\!' is an invalid escape, as
// the API server says). Whitespace is part of fields and values, as in Go.
class FieldSelector {
  public:
    FieldSelector() = default;

    // Matches everything; Empty() is true.
    static FieldSelector Everything() { return FieldSelector(); }
    // Parses the string form; "" is Everything. Malformed input is BadRequest naming the input,
    // the term and its position and what is wrong: a term without an operator ("a", "a>b"), an
    // empty field ("=b"), an empty term ("a=b,,"; apimachinery skips those silently), an
    // unescaped '=' in a value, an unknown or dangling escape.
    static StatusOr<FieldSelector> Parse(std::string_view text);
    // field=value (fields.OneTermEqualSelector).
    static FieldSelector OneTermEqual(std::string field, std::string value);
    // Every field equal to its value (fields.SelectorFromSet, controller-runtime MatchingFields).
    static FieldSelector FromSet(const Fields& fields);
    // The AND of selectors, in canonical order.
    static FieldSelector AndSelectors(std::initializer_list<FieldSelector> selectors);
    static FieldSelector AndSelectors(const std::vector<FieldSelector>& selectors);

    bool Matches(const Fields& fields) const;
    bool Empty() const { return terms_.empty(); }
    // Canonical form. It parses back to an equal selector whenever no field contains ',', '=',
    // '!=' or '\' (no Kubernetes field path does; fields are not escaped, as in Go).
    std::string String() const;
    // In canonical order.
    const std::vector<FieldTerm>& Terms() const { return terms_; }
    // The value field must equal when the selector has a term field=value; for picking an index
    // in a cache (controller-runtime's requiresExactMatch). nullopt otherwise.
    std::optional<std::string> RequiresExactMatch(std::string_view field) const;

    bool operator==(const FieldSelector&) const = default;

  private:
    void Normalize();

    std::vector<FieldTerm> terms_;
};

// Escapes a value for the string form: '\' -> '\\', ',' -> '\,', '=' -> '\='.
std::string EscapeFieldValue(std::string_view value);
// The inverse; BadRequest for an unescaped ',' or '=', an unknown escape or a trailing '\'.
StatusOr<std::string> UnescapeFieldValue(std::string_view escaped);

}  // namespace ctrl
