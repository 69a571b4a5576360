#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/labels.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl {

// A label selector (Go's labels.Selector): the AND of LabelRequirements. Knows how to parse the
// string form used in list options and kubectl -l, match a label set, and print a canonical
// string form (requirements sorted by key, values sorted) that parses back to an equal selector.
// A default-constructed selector is Everything. Cheap to copy; immutable except through Add.
//
// String syntax (whitespace around tokens is ignored; an empty string selects everything):
//   a=b  a==b  a!=b  a in (x,y)  a notin (x,y)  a  !a  a>5  a<5     joined by ','
// Keys and values are validated as Kubernetes validates labels; an empty value is valid
// ("a=", "a in ()"). The words in/notin are keys or values except in operator position.
class LabelSelector {
  public:
    LabelSelector() = default;

    // Matches every label set; Empty() is true.
    static LabelSelector Everything() { return LabelSelector(); }
    // Matches no label set (what metav1.LabelSelectorAsSelector returns for a nil selector).
    // As in Go its String() is "", which would parse back to Everything: a caller that sends a
    // selector to the API server must check IsNothing() first and not ask at all.
    static LabelSelector Nothing();

    // Parses the string form. Malformed input or an invalid key or value is BadRequest naming the
    // position, the token found and what was expected, e.g.
    //   unable to parse label selector "a in x)": at position 5: found 'x', expected '('
    static StatusOr<LabelSelector> Parse(std::string_view text);
    // Matches exactly the given labels (every key present with that value); validates them.
    // An empty set gives Everything.
    static StatusOr<LabelSelector> FromSet(const Labels& labels);
    // The same without validation (controller-runtime's MatchingLabels): the caller guarantees
    // the labels are valid, or the API server will reject the selector.
    static LabelSelector FromValidatedSet(const Labels& labels);

    // Adds one more condition (AND), keeping the canonical order. Nothing stays Nothing.
    LabelSelector& Add(LabelRequirement requirement);

    bool Matches(const Labels& labels) const;
    // True when the selector does not restrict anything (Everything); false for Nothing.
    bool Empty() const { return !nothing_ && requirements_.empty(); }
    bool IsNothing() const { return nothing_; }
    // Canonical string form; "" for Everything (and, as in Go, for Nothing).
    std::string String() const;
    // In canonical order; empty for Everything and Nothing.
    const std::vector<LabelRequirement>& Requirements() const { return requirements_; }
    // The value key must have when the selector can only match one value of it (key=v or
    // key in (v)); for picking an index in a cache. nullopt otherwise.
    std::optional<std::string> RequiresExactMatch(std::string_view key) const;

    bool operator==(const LabelSelector&) const = default;

  private:
    std::vector<LabelRequirement> requirements_;
    bool nothing_ = false;
};

// The operators of a label selector's object form (metav1.LabelSelectorOperator).
enum class LabelSelectorOperator { kIn, kNotIn, kExists, kDoesNotExist };

// "In", "NotIn", "Exists", "DoesNotExist": as the JSON spells them.
std::string_view LabelSelectorOperatorName(LabelSelectorOperator op);

// One entry of matchExpressions (metav1.LabelSelectorRequirement).
struct LabelSelectorRequirement {
    std::string key;
    LabelSelectorOperator op = LabelSelectorOperator::kExists;
    std::vector<std::string> values;

    bool operator==(const LabelSelectorRequirement&) const = default;
};

// The object form of a label selector (metav1.LabelSelector), as found in a Deployment's
// spec.selector or a NetworkPolicy's podSelector: matchLabels and matchExpressions, ANDed. Knows
// how to decode itself from JSON; ToSelector turns it into a LabelSelector. An empty spec ({})
// selects everything. Absence is not a spec: a field that may be unset is a
// std::optional<LabelSelectorSpec>, and what absence means is the caller's business (metav1's
// LabelSelectorAsSelector(nil) is LabelSelector::Nothing()).
struct LabelSelectorSpec {
    std::map<std::string, std::string> match_labels;
    std::vector<LabelSelectorRequirement> match_expressions;

    // Decodes a metav1.LabelSelector JSON object, e.g. the value of obj.NestedMap({"spec",
    // "selector"}). Unknown fields are ignored; a null field is absent. Wrong types, an unknown
    // operator, In/NotIn without values, Exists/DoesNotExist with values, and invalid keys or
    // values are BadRequest naming the field, e.g.
    //   matchExpressions[1].operator: "Foo" is not a valid label selector operator
    static StatusOr<LabelSelectorSpec> FromObject(const Object& object);

    bool operator==(const LabelSelectorSpec&) const = default;
};

// metav1.LabelSelectorAsSelector for a present selector: Everything for an empty spec, otherwise
// one Equals requirement per matchLabels entry ANDed with one per matchExpressions entry. Invalid
// content is BadRequest naming the field (matchLabels["key"], matchExpressions[i].values, ...).
StatusOr<LabelSelector> ToSelector(const LabelSelectorSpec& spec);

}  // namespace ctrl
