#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/scheme/field_ref.hpp"

namespace ctrl::scheme {

// The JSON type an OpenAPI schema asks for; kIntOrString is x-kubernetes-int-or-string, kAny a
// schema with no type (x-kubernetes-preserve-unknown-fields alone).
enum class SchemaType { kString, kInteger, kNumber, kBoolean, kObject, kArray, kIntOrString, kAny };

// One x-kubernetes-validations rule of a field's schema: a CEL expression over `self` (the field's
// value) that must be true (ctrl::cel's subset; a transition rule, one that reads oldSelf, is not
// checked: Validate() has no old object). Built as a constant by generated code.
struct CelRule {
    std::string_view rule;
    // What a failure says; empty: "failed rule: <rule>".
    std::string_view message = {};
    // Where a failure points, relative to the field (".spec.port", "[0]"); empty: the field.
    std::string_view field_path = {};
    // The cause type of a failure: FieldValueInvalid (empty), FieldValueForbidden, FieldValueRequired
    // or FieldValueDuplicate.
    std::string_view reason = {};
};

// The cheap constraints of one field's schema, as a generated Validate checks them: presence,
// type, enum, length, bounds, item and property counts, pattern (RE2, read by std::regex with RE2's
// (?i) flags rewritten), format (int32 of an integer; date-time, ipv4, ipv6 of a string), distinct
// items of a set or a list-map, CEL rules. Unset members check nothing. Built as a constant by
// generated code. An integer may be written as an integral float (2.0), as the API server takes it.
struct FieldRule {
    SchemaType type = SchemaType::kAny;
    bool required = false;
    bool nullable = false;
    // Of a string; of an integer, in decimal; of a number, in its shortest form (std::to_chars).
    std::span<const std::string_view> enum_values = {};
    std::optional<int64_t> min_length = std::nullopt;
    std::optional<int64_t> max_length = std::nullopt;
    std::optional<double> minimum = std::nullopt;
    std::optional<double> maximum = std::nullopt;
    bool exclusive_minimum = false;
    bool exclusive_maximum = false;
    std::optional<int64_t> min_items = std::nullopt;
    std::optional<int64_t> max_items = std::nullopt;
    std::optional<int64_t> min_properties = std::nullopt;
    std::optional<int64_t> max_properties = std::nullopt;
    std::string_view pattern = {};
    std::string_view format = {};
    // An array's items are distinct (x-kubernetes-list-type: set), or distinct by these keys (map).
    bool list_set = false;
    std::span<const std::string_view> list_map_keys = {};
    std::span<const CelRule> cel_rules = {};
    // The schema's defaults under the field, for its CEL rules (the API server evaluates them on the
    // defaulted object): JSON, a node per defaulted field, "=" its default, a property name, "[]"
    // (array items) or "{}" (map values) the nodes under it. Empty: nothing is defaulted.
    std::string_view cel_defaults = {};
};

// Collects the problems of one object against its schema, one StatusCause per problem naming the
// field path ("spec.ports[1].port"), with the API server's cause types (FieldValueRequired,
// FieldValueInvalid, FieldValueNotSupported, FieldValueTooLong, FieldValueTooMany).
class Validation {
  public:
    // Checks the value ref names against rule and records what is wrong. Returns whether a value of
    // the rule's type is there, so the caller descends into it.
    bool Check(const FieldRef& ref, const FieldRule& rule);
    // Records a problem found by other means (a hand-written rule beside a generated kind). A cause
    // equal to one already recorded is dropped.
    void Add(std::string type, std::string field, std::string message);

    bool Ok() const { return causes_.empty() && cel_causes_.empty(); }
    // The causes recorded. As the API server does, CEL rules' causes count only when no cause is
    // "blocking" (a wrong type, a missing required field, an unsupported enum value, a string or
    // collection too long): the server does not run CEL rules on such an object.
    std::vector<StatusCause> Causes() const;
    // OK when nothing was recorded; else Invalid, with the causes and the message
    // "<kind> <namespace/name> is invalid: <field>: <message>; <field>: <message>".
    Status ToStatus(std::string_view kind, const ObjectKey& key) const;

  private:
    void CheckString(const FieldRef& ref, const std::string& value, const FieldRule& rule);
    // integer: the value when the rule asks for an integer (its enum is checked then).
    void CheckNumber(const FieldRef& ref, std::optional<int64_t> integer, double value, const FieldRule& rule);
    // value among rule's enum values (an integer's in decimal); shown is how a message quotes it.
    void CheckEnum(const FieldRef& ref, const std::string& value, const std::string& shown, const FieldRule& rule);
    // Duplicates in a set or a list-map, as the API server reports them (FieldValueDuplicate).
    void CheckUnique(const FieldRef& ref, const FieldRule& rule);
    // The rule's CEL rules against the value ref names (cel_validation.cpp).
    void CheckCelRules(const FieldRef& ref, const FieldRule& rule);
    void CheckCount(const FieldRef& ref, std::size_t count, std::optional<int64_t> min, std::optional<int64_t> max,
                    std::string_view noun);

    // Adds cause to causes unless an equal one is there.
    static void AddCause(std::vector<StatusCause>& causes, StatusCause cause);

    std::vector<StatusCause> causes_;
    std::vector<StatusCause> cel_causes_;
    bool blocking_ = false;
};

}  // namespace ctrl::scheme
