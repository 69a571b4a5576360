#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/status_or.hpp"
#include "tools/ctrl-gen/crd.hpp"
#include "tools/ctrl-gen/naming.hpp"

namespace ctrl::gen {

// How a field is read and written in C++.
enum class FieldShape {
    kScalar,         // std::string, int64_t, double, bool, scheme::IntOrString
    kObject,         // a nested accessor class
    kJson,           // any JSON value as ctrl::Object (preserve-unknown-fields, embedded objects)
    kArrayOfScalar,  // std::vector<scalar>
    kArrayOfObject,  // std::vector<class>, with Add/Mutable by index
    kArrayOfJson,    // std::vector<ctrl::Object>
    kMapOfScalar,    // std::map<std::string, scalar> (additionalProperties)
    kMapOfObject,    // std::map<std::string, class>, with Mutable by key
    kMapOfJson,      // std::map<std::string, ctrl::Object>
};

// One field of an object schema and the C++ names it gets.
struct FieldPlan {
    std::string json_name;
    std::string name;  // accessor base: PodSelector (HasPodSelector, SetPodSelector, ...)
    FieldShape shape = FieldShape::kScalar;
    std::string value_type;  // the scalar C++ type, for scalar, array and map shapes
    std::string class_name;  // the accessor class, for object shapes
    std::shared_ptr<const Schema> schema;
    std::shared_ptr<const Schema> element;  // items / additionalProperties, for array and map shapes
    bool required = false;
    std::optional<std::string> default_literal;  // C++ expression of the schema's scalar default
    // The named constants of a string or integer enum (the field's own, or its items' or values' for
    // an array or a map of scalars): the struct holding them ("" when there is none) and, per value,
    // the constant's name ("kRunning") and the value (integers written canonically: "+01" -> "1").
    std::string enum_struct;
    bool enum_integer = false;
    std::vector<std::pair<std::string, std::string>> enum_constants;
};

// One accessor class: an object schema with properties. The root (the kind itself) has
// class_name "" and is emitted as the kind's fields.
struct ClassPlan {
    std::string class_name;
    std::string json_path;  // "spec.podSelector", "spec.ports[]", "spec.tags{}"
    std::shared_ptr<const Schema> schema;
    std::vector<FieldPlan> fields;
};

// A kind version's part in its CRD's conversion, for a CRD whose conversion strategy is Webhook,
// generated in several versions: its storage version is the hub (webhook::conversion::Hub, naming
// its spokes), the others are spokes (webhook::conversion::Convertible, naming the hub and
// declaring ConvertTo and ConvertFrom, which the author defines).
struct ConversionPlan {
    // Another generated version of the kind.
    struct Peer {
        std::string version;
        std::string cpp_namespace;
        std::string header;  // its file name: "config_secret_v1beta1.hpp"
    };
    bool hub = false;
    std::string hub_version;
    std::vector<Peer> peers;  // the hub's: its spokes; a spoke's: the hub, then the other spokes
};

// Everything generated for one kind of one served version.
struct KindPlan {
    const Crd* crd = nullptr;
    const CrdVersion* version = nullptr;
    std::string cpp_namespace;
    ClassPlan root;
    std::vector<ClassPlan> classes;  // breadth first from the root
    // A hand-written CRTP base of the kind and its view (Options::extensions), and its header.
    std::string extension;
    std::string extension_header;
    std::optional<ConversionPlan> conversion;
    // What Validate() will check less than the API server does, one line each naming the CRD's
    // source, the field and the schema path: a pattern std::regex cannot compile, a CEL rule outside
    // ctrl::cel's subset or a transition rule.
    std::vector<std::string> warnings;
    // The CEL rules on schemas Validate() descends into (fields, array items, map values), checked
    // or warned about; the rest of the version's rules (on the root schema, on arrays of arrays) are
    // not checked.
    int cel_rules_seen = 0;
};

// Whether std::regex compiles pattern as scheme::Validation reads it (RE2 as ECMAScript, a leading
// (?i) as case-insensitive); when not, why.
std::optional<std::string> PatternError(const std::string& pattern);

// Why Validate() cannot check a CEL rule (outside ctrl::cel's subset, or a transition rule that reads
// oldSelf), or nullopt when it checks it.
std::optional<std::string> CelRuleError(const CelRuleSpec& rule);

// The member names each generated class has besides its fields; a field whose accessors would
// clash gets "Field" appended to its name.
std::vector<std::string> ReservedRootNames();
std::vector<std::string> ReservedClassNames();

// Plans the classes of one kind version, their names unique in classes (one scope per C++
// namespace, so kinds generated into one namespace never clash). Errors (BadRequest) name the
// CRD's source and the schema path of what cannot be generated.
StatusOr<KindPlan> PlanKind(const Crd& crd, const CrdVersion& version, std::string cpp_namespace, NameScope& classes);

}  // namespace ctrl::gen
