#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::gen {

// A scalar default from a schema, as written in the YAML, with the YAML's own idea of its type.
struct DefaultValue {
    enum class Kind { kString, kInteger, kNumber, kBool, kOther };
    Kind kind = Kind::kOther;
    std::string text;
};

// One node of a structural OpenAPI v3 schema (what a CRD version's openAPIV3Schema is), with the
// parts ctrl-gen generates from. `location` names it in error messages:
// "spec.versions[0].schema.openAPIV3Schema.properties.spec".
// One x-kubernetes-validations rule, as the CRD writes it.
struct CelRuleSpec {
    std::string rule;
    std::string message;
    std::string message_expression;
    std::string field_path;
    std::string reason;
};

struct Schema {
    std::string type;  // "object", "array", "string", "integer", "number", "boolean" or "" (any)
    std::string format;
    std::string description;
    bool int_or_string = false;      // x-kubernetes-int-or-string
    bool preserve_unknown = false;   // x-kubernetes-preserve-unknown-fields
    bool embedded_resource = false;  // x-kubernetes-embedded-resource
    bool nullable = false;
    std::vector<std::pair<std::string, std::shared_ptr<const Schema>>> properties;  // in document order
    std::vector<std::string> required;
    std::shared_ptr<const Schema> items;
    std::shared_ptr<const Schema> additional_properties;  // the schema form
    bool additional_properties_any = false;               // additionalProperties: true
    std::vector<std::string> enum_values;                 // string enums
    std::optional<DefaultValue> default_value;            // scalars only
    std::string default_json;                             // any default, as JSON (for CEL rules)
    std::optional<int64_t> min_length, max_length, min_items, max_items, min_properties, max_properties;
    std::optional<double> minimum, maximum;
    std::string minimum_text, maximum_text;  // as written, for the generated constant
    bool exclusive_minimum = false;
    bool exclusive_maximum = false;
    std::string pattern;
    std::vector<CelRuleSpec> cel_rules;      // x-kubernetes-validations
    std::string list_type;                   // x-kubernetes-list-type: "atomic", "set", "map" or ""
    std::vector<std::string> list_map_keys;  // x-kubernetes-list-map-keys
    std::string location;

    bool IsRequired(std::string_view property) const;
};

// One version of a CRD.
struct CrdVersion {
    std::string name;
    bool served = false;
    bool storage = false;
    std::shared_ptr<const Schema> schema;  // openAPIV3Schema
    int cel_rules = 0;                     // x-kubernetes-validations rules anywhere in schema
};

// A CustomResourceDefinition (apiextensions.k8s.io/v1) as ctrl-gen reads it; `source` names the
// file and document it came from ("crds.yaml, document 2").
struct Crd {
    std::string source;
    std::string name;
    std::string group;
    std::string kind;
    std::string list_kind;
    std::string plural;
    bool namespaced = true;
    std::vector<CrdVersion> versions;
    std::string conversion_strategy;  // spec.conversion.strategy: "" (None) or "Webhook", "None"
};

// Reads every CRD of a YAML stream (one or more documents; empty documents are skipped). Errors
// are BadRequest naming file_name, the document (1-based) and the schema path: text that is not
// YAML, a document that is not an apiextensions.k8s.io/v1 CustomResourceDefinition, a schema
// construct ctrl-gen cannot generate (a $ref, an array without items, a property without a type).
StatusOr<std::vector<Crd>> ReadCrds(std::string_view file_name, std::string_view text);

}  // namespace ctrl::gen
