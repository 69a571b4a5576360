#include "tools/ctrl-gen/crd.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <regex>

#include "tools/ctrl-gen/naming.hpp"

namespace ctrl::gen {

namespace {

// Thrown inside this file only: a problem with the input, already worded for the user.
struct InputError {
    std::string message;
};

[[noreturn]] void Fail(const std::string& location, const std::string& message) {
    throw InputError{location.empty() ? message : location + ": " + message};
}

std::string ScalarAt(const YAML::Node& node, std::string_view key, const std::string& location = "") {
    const YAML::Node value = node[std::string(key)];
    if (!value || value.IsNull())
        return "";
    if (!value.IsScalar())
        Fail(location.empty() ? std::string(key) : location + "." + std::string(key), "is not a scalar");
    return value.Scalar();
}

bool BoolAt(const YAML::Node& node, std::string_view key, const std::string& location) {
    const YAML::Node value = node[std::string(key)];
    if (!value || value.IsNull())
        return false;
    if (!value.IsScalar() || (value.Scalar() != "true" && value.Scalar() != "false"))
        Fail(location + "." + std::string(key), "is not a boolean");
    return value.Scalar() == "true";
}

std::optional<int64_t> IntAt(const YAML::Node& node, std::string_view key, const std::string& location) {
    const YAML::Node value = node[std::string(key)];
    if (!value || value.IsNull())
        return std::nullopt;
    int64_t out = 0;
    const std::string& text = value.IsScalar() ? value.Scalar() : std::string();
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        Fail(location + "." + std::string(key), "is not an integer");
    return out;
}

std::optional<double> NumberAt(const YAML::Node& node, std::string_view key, const std::string& location,
                               std::string& text) {
    const YAML::Node value = node[std::string(key)];
    if (!value || value.IsNull())
        return std::nullopt;
    text = value.IsScalar() ? value.Scalar() : std::string();
    try {
        std::size_t used = 0;
        const double out = std::stod(text, &used);
        if (used == text.size())
            return out;
    } catch (const std::exception&) {
    }
    Fail(location + "." + std::string(key), "is not a number");
}

// How YAML would type a plain scalar, for a default value.
DefaultValue ReadDefault(const YAML::Node& node, const std::string& type) {
    DefaultValue out;
    if (!node.IsScalar())
        return out;  // an object or array default: documented, not generated
    out.text = node.Scalar();
    const bool quoted = node.Tag() == "!";
    if (type == "string" || quoted) {
        out.kind = DefaultValue::Kind::kString;
    } else if (out.text == "true" || out.text == "false") {
        out.kind = DefaultValue::Kind::kBool;
    } else if (!out.text.empty() && out.text.find_first_not_of("-0123456789") == std::string::npos) {
        out.kind = DefaultValue::Kind::kInteger;
    } else if (type == "number") {
        out.kind = DefaultValue::Kind::kNumber;
    } else {
        out.kind = DefaultValue::Kind::kString;
    }
    return out;
}

bool IsJsonNumber(const std::string& text) {
    static const std::regex kNumber(R"(^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$)");
    return std::regex_match(text, kNumber);
}

// A default (YAML) as JSON: a scalar typed by the schema's type where there is one, else as YAML
// types a plain scalar; maps and sequences recursively.
std::string DefaultJson(const YAML::Node& node, const std::string& type) {
    if (node.IsMap()) {
        std::string out;
        for (const auto& entry : node)
            out +=
                (out.empty() ? "" : ",") + CppStringLiteral(entry.first.Scalar()) + ":" + DefaultJson(entry.second, "");
        return "{" + out + "}";
    }
    if (node.IsSequence()) {
        std::string out;
        for (const auto& item : node)
            out += (out.empty() ? "" : ",") + DefaultJson(item, "");
        return "[" + out + "]";
    }
    if (!node.IsScalar())
        return "null";
    const DefaultValue value = ReadDefault(node, type);
    const bool number = IsJsonNumber(value.text);
    if (value.kind == DefaultValue::Kind::kBool ||
        (number && (value.kind == DefaultValue::Kind::kInteger || value.kind == DefaultValue::Kind::kNumber)))
        return value.text;
    if (type.empty() && node.Tag() != "!" && (value.text == "null" || number))
        return value.text;
    return CppStringLiteral(value.text);
}

std::shared_ptr<const Schema> ReadSchema(const YAML::Node& node, const std::string& location) {
    if (!node.IsMap())
        Fail(location, "is not a schema (a mapping)");
    auto schema = std::make_shared<Schema>();
    schema->location = location;
    if (node["$ref"])
        Fail(location, "$ref is not supported (a CRD schema must be structural, without references)");
    schema->type = ScalarAt(node, "type", location);
    schema->format = ScalarAt(node, "format", location);
    schema->description = ScalarAt(node, "description", location);
    schema->int_or_string = BoolAt(node, "x-kubernetes-int-or-string", location);
    schema->preserve_unknown = BoolAt(node, "x-kubernetes-preserve-unknown-fields", location);
    schema->embedded_resource = BoolAt(node, "x-kubernetes-embedded-resource", location);
    schema->nullable = BoolAt(node, "nullable", location);
    static constexpr std::string_view kTypes[] = {"", "object", "array", "string", "integer", "number", "boolean"};
    if (std::find(std::begin(kTypes), std::end(kTypes), schema->type) == std::end(kTypes))
        Fail(location + ".type", "unknown type \"" + schema->type + "\"");
    if (schema->type.empty() && !schema->int_or_string && !schema->preserve_unknown)
        Fail(location,
             "has no type (only x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields may omit it)");

    if (const YAML::Node properties = node["properties"]; properties && !properties.IsNull()) {
        if (!properties.IsMap())
            Fail(location + ".properties", "is not a mapping");
        for (const auto& entry : properties) {
            const std::string name = entry.first.Scalar();
            schema->properties.emplace_back(name, ReadSchema(entry.second, location + ".properties." + name));
        }
    }
    if (const YAML::Node required = node["required"]; required && required.IsSequence()) {
        for (const auto& name : required)
            schema->required.push_back(name.Scalar());
    }
    if (const YAML::Node items = node["items"]; items && !items.IsNull()) {
        if (items.IsSequence())
            Fail(location + ".items", "a list of item schemas (a tuple) is not supported");
        schema->items = ReadSchema(items, location + ".items");
    }
    if (schema->type == "array" && !schema->items)
        Fail(location, "an array needs an items schema");
    if (const YAML::Node additional = node["additionalProperties"]; additional && !additional.IsNull()) {
        if (additional.IsScalar())
            schema->additional_properties_any = additional.Scalar() == "true";
        else
            schema->additional_properties = ReadSchema(additional, location + ".additionalProperties");
    }
    if (const YAML::Node values = node["enum"]; values && values.IsSequence()) {
        for (const auto& value : values) {
            if (!value.IsScalar())
                Fail(location + ".enum", "only scalar enum values are supported");
            schema->enum_values.push_back(value.Scalar());
        }
    }
    if (const YAML::Node value = node["default"]; value && !value.IsNull()) {
        schema->default_value = ReadDefault(value, schema->type);
        schema->default_json = DefaultJson(value, schema->type);
    }
    schema->min_length = IntAt(node, "minLength", location);
    schema->max_length = IntAt(node, "maxLength", location);
    schema->min_items = IntAt(node, "minItems", location);
    schema->max_items = IntAt(node, "maxItems", location);
    schema->min_properties = IntAt(node, "minProperties", location);
    schema->max_properties = IntAt(node, "maxProperties", location);
    schema->minimum = NumberAt(node, "minimum", location, schema->minimum_text);
    schema->maximum = NumberAt(node, "maximum", location, schema->maximum_text);
    schema->exclusive_minimum = BoolAt(node, "exclusiveMinimum", location);
    schema->exclusive_maximum = BoolAt(node, "exclusiveMaximum", location);
    schema->pattern = ScalarAt(node, "pattern", location);
    schema->list_type = ScalarAt(node, "x-kubernetes-list-type", location);
    if (const YAML::Node keys = node["x-kubernetes-list-map-keys"]; keys && keys.IsSequence()) {
        for (const auto& key : keys)
            schema->list_map_keys.push_back(key.Scalar());
    }
    if (const YAML::Node rules = node["x-kubernetes-validations"]; rules && rules.IsSequence()) {
        for (std::size_t i = 0; i < rules.size(); ++i) {
            const std::string at = location + ".x-kubernetes-validations[" + std::to_string(i) + "]";
            if (!rules[i].IsMap())
                Fail(at, "is not a map");
            CelRuleSpec rule{ScalarAt(rules[i], "rule", at), ScalarAt(rules[i], "message", at),
                             ScalarAt(rules[i], "messageExpression", at), ScalarAt(rules[i], "fieldPath", at),
                             ScalarAt(rules[i], "reason", at)};
            if (rule.rule.empty())
                Fail(at, "has no rule");
            schema->cel_rules.push_back(std::move(rule));
        }
    }
    return schema;
}

// The x-kubernetes-validations rules of schema and every schema below it.
int CountCelRules(const Schema& schema) {
    int count = static_cast<int>(schema.cel_rules.size());
    for (const auto& [name, property] : schema.properties)
        count += CountCelRules(*property);
    if (schema.items)
        count += CountCelRules(*schema.items);
    if (schema.additional_properties)
        count += CountCelRules(*schema.additional_properties);
    return count;
}

Crd ReadCrd(const YAML::Node& doc, const std::string& source) {
    if (!doc.IsMap())
        Fail("", "is not a mapping, so not a CustomResourceDefinition");
    const std::string api_version = ScalarAt(doc, "apiVersion");
    const std::string kind = ScalarAt(doc, "kind");
    if (kind != "CustomResourceDefinition")
        Fail("", "is not a CustomResourceDefinition (kind: \"" + kind + "\")");
    if (api_version != "apiextensions.k8s.io/v1")
        Fail("apiVersion", "\"" + api_version + "\" is not supported: convert the CRD to apiextensions.k8s.io/v1");
    Crd crd;
    crd.source = source;
    crd.name = ScalarAt(doc["metadata"], "name");
    const YAML::Node spec = doc["spec"];
    if (!spec || !spec.IsMap())
        Fail("spec", "is missing");
    crd.group = ScalarAt(spec, "group");
    const YAML::Node names = spec["names"];
    if (!names || !names.IsMap())
        Fail("spec.names", "is missing");
    crd.kind = ScalarAt(names, "kind");
    crd.list_kind = ScalarAt(names, "listKind");
    if (crd.list_kind.empty())
        crd.list_kind = crd.kind + "List";
    crd.plural = ScalarAt(names, "plural");
    crd.namespaced = ScalarAt(spec, "scope") != "Cluster";
    if (crd.group.empty() || crd.kind.empty())
        Fail("spec", "needs group and names.kind");
    if (const YAML::Node conversion = spec["conversion"]; conversion && conversion.IsMap())
        crd.conversion_strategy = ScalarAt(conversion, "strategy", "spec.conversion");
    const YAML::Node versions = spec["versions"];
    if (!versions || !versions.IsSequence() || versions.size() == 0)
        Fail("spec.versions", "is missing or empty");
    for (std::size_t i = 0; i < versions.size(); ++i) {
        const std::string location = "spec.versions[" + std::to_string(i) + "]";
        CrdVersion version;
        version.name = ScalarAt(versions[i], "name");
        version.served = BoolAt(versions[i], "served", location);
        version.storage = BoolAt(versions[i], "storage", location);
        const YAML::Node schema = versions[i]["schema"]["openAPIV3Schema"];
        if (!schema)
            Fail(location + ".schema.openAPIV3Schema", "is missing");
        version.schema = ReadSchema(schema, location + ".schema.openAPIV3Schema");
        version.cel_rules = CountCelRules(*version.schema);
        crd.versions.push_back(std::move(version));
    }
    return crd;
}

}  // namespace

bool Schema::IsRequired(std::string_view property) const {
    return std::find(required.begin(), required.end(), property) != required.end();
}

StatusOr<std::vector<Crd>> ReadCrds(std::string_view file_name, std::string_view text) {
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(std::string(text));
    } catch (const YAML::Exception& e) {
        return BadRequestError(std::string(file_name) + ": not YAML: line " + std::to_string(e.mark.line + 1) +
                               ", column " + std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
    std::vector<Crd> crds;
    for (std::size_t i = 0; i < docs.size(); ++i) {
        if (docs[i].IsNull())
            continue;
        const std::string source = std::string(file_name) + ", document " + std::to_string(i + 1);
        try {
            crds.push_back(ReadCrd(docs[i], source));
        } catch (const InputError& e) {
            return BadRequestError(source + ": " + e.message);
        } catch (const YAML::Exception& e) {
            return BadRequestError(source + ": " + e.what());
        }
    }
    return crds;
}

}  // namespace ctrl::gen
