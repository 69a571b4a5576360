// The body of the generated Validate(): one scheme::FieldRule constant per field (and per array item or
// map value), with the enum values it takes, and the checks that descend into objects.
#include "tools/ctrl-gen/methods.hpp"

#include "tools/ctrl-gen/naming.hpp"

namespace ctrl::gen {

namespace {

std::string SchemaTypeName(const Schema& schema) {
    if (schema.int_or_string)
        return "kIntOrString";
    if (schema.type.empty())
        return "kAny";
    if (schema.type == "boolean")
        return "kBoolean";
    std::string name = "k" + schema.type;
    name[1] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[1])));
    return name;
}

// The formats scheme::Validation checks: int32 of an integer; date-time, ipv4, ipv6 of a string.
bool IsCheckedFormat(const Schema& schema) {
    if (schema.int_or_string)
        return false;
    if (schema.type == "integer")
        return schema.format == "int32";
    return schema.type == "string" &&
           (schema.format == "date-time" || schema.format == "ipv4" || schema.format == "ipv6");
}

// Declares the CEL rules of schema that Validate() checks (CelRuleError says which) and returns the
// array's name, or "". One rule per line: a long rule stays one string literal.
std::string AddCelRules(std::vector<std::string>& body, const Schema& schema, const std::string& name) {
    std::vector<std::string> entries;
    for (const CelRuleSpec& rule : schema.cel_rules) {
        if (CelRuleError(rule))
            continue;
        std::string entry = "{.rule = " + CppStringLiteral(rule.rule);
        if (!rule.message.empty())
            entry += ", .message = " + CppStringLiteral(rule.message);
        if (!rule.field_path.empty())
            entry += ", .field_path = " + CppStringLiteral(rule.field_path);
        if (!rule.reason.empty())
            entry += ", .reason = " + CppStringLiteral(rule.reason);
        entries.push_back("    " + entry + "},");
    }
    if (entries.empty())
        return "";
    body.push_back("static constexpr ctrl::scheme::CelRule " + name + "[] = {");
    body.insert(body.end(), entries.begin(), entries.end());
    body.push_back("};");
    return name;
}

// The defaults node of schema for its CEL rules (FieldRule::cel_defaults): "=" its own default, a
// node per property, "[]" for items, "{}" for map values, only where something is defaulted; "" when
// nothing under schema is. Keys and values are JSON (CppStringLiteral writes a JSON string).
std::string CelDefaults(const Schema& schema, int depth = 0) {
    if (depth > 64)
        return "";  // a schema this deep has no defaults a rule reads
    std::string members;
    const auto add = [&](const std::string& key, const std::string& node) {
        if (!node.empty())
            members += (members.empty() ? "" : ",") + CppStringLiteral(key) + ":" + node;
    };
    if (!schema.default_json.empty())
        members += "\"=\":" + schema.default_json;
    for (const auto& [name, property] : schema.properties)
        add(name, CelDefaults(*property, depth + 1));
    if (schema.items)
        add("[]", CelDefaults(*schema.items, depth + 1));
    if (schema.additional_properties)
        add("{}", CelDefaults(*schema.additional_properties, depth + 1));
    return members.empty() ? "" : "{" + members + "}";
}

// The designated initializers of a FieldRule for schema, in FieldRule's member order.
std::vector<std::string> RuleMembers(const Schema& schema, bool required, const std::string& enum_array,
                                     const std::string& keys_array, const std::string& cel_array) {
    std::vector<std::string> members{".type = SchemaType::" + SchemaTypeName(schema)};
    if (required)
        members.push_back(".required = true");
    if (schema.nullable)
        members.push_back(".nullable = true");
    if (!enum_array.empty())
        members.push_back(".enum_values = " + enum_array);
    const auto add_int = [&](const char* name, const std::optional<int64_t>& value) {
        if (value)
            members.push_back(std::string(".") + name + " = " + std::to_string(*value));
    };
    add_int("min_length", schema.min_length);
    add_int("max_length", schema.max_length);
    if (schema.minimum)
        members.push_back(".minimum = " + schema.minimum_text);
    if (schema.maximum)
        members.push_back(".maximum = " + schema.maximum_text);
    if (schema.exclusive_minimum && schema.minimum)
        members.push_back(".exclusive_minimum = true");
    if (schema.exclusive_maximum && schema.maximum)
        members.push_back(".exclusive_maximum = true");
    add_int("min_items", schema.min_items);
    add_int("max_items", schema.max_items);
    add_int("min_properties", schema.min_properties);
    add_int("max_properties", schema.max_properties);
    if (!schema.pattern.empty() && !PatternError(schema.pattern))
        members.push_back(".pattern = " + CppStringLiteral(schema.pattern));
    if (IsCheckedFormat(schema))
        members.push_back(".format = " + CppStringLiteral(schema.format));
    if (schema.list_type == "set")
        members.push_back(".list_set = true");
    if (!keys_array.empty())
        members.push_back(".list_map_keys = " + keys_array);
    if (!cel_array.empty()) {
        members.push_back(".cel_rules = " + cel_array);
        if (const std::string defaults = CelDefaults(schema); !defaults.empty())
            members.push_back(".cel_defaults = " + CppStringLiteral(defaults));
    }
    return members;
}

// "static constexpr ctrl::scheme::FieldRule kName{...};", wrapped to stay within 120 columns.
void AddRule(std::vector<std::string>& body, const std::string& name, const std::vector<std::string>& members) {
    for (std::string& line : BracedList("static constexpr ctrl::scheme::FieldRule " + name, members, ";", 4))
        body.push_back(std::move(line));
}

std::string EnumText(const Schema& schema, const std::string& value) {
    if (schema.int_or_string)
        return value;
    if (schema.type == "integer") {
        const std::optional<int64_t> number = ParseDecimalInteger(value);
        return number ? std::to_string(*number) : value;
    }
    if (schema.type == "number")
        return CanonicalNumber(value).value_or(value);
    return value;
}

// Declares the enum array of schema (a string, integer or number enum) and returns its name, or "".
std::string AddEnum(std::vector<std::string>& body, const Schema& schema, const std::string& name) {
    const bool scalar =
        schema.int_or_string || schema.type == "string" || schema.type == "integer" || schema.type == "number";
    if (schema.enum_values.empty() || !scalar)
        return "";
    std::vector<std::string> texts;
    for (const std::string& value : schema.enum_values)
        texts.push_back(EnumText(schema, value));
    std::string values;
    for (const std::string& value : texts)
        values += (values.empty() ? "" : ", ") + CppStringLiteral(value);
    const std::string line = "static constexpr std::string_view " + name + "[] = {" + values + "};";
    if (4 + line.size() <= 120) {
        body.push_back(line);
    } else {
        body.push_back("static constexpr std::string_view " + name + "[] = {");
        std::string packed = "    ";  // bin-packed with a trailing comma, as clang-format lays it out
        for (const std::string& value : texts) {
            const std::string item = CppStringLiteral(value) + ",";
            if (packed.size() > 4 && 4 + packed.size() + 1 + item.size() > 120) {
                body.push_back(packed);
                packed = "    ";
            }
            packed += (packed.size() > 4 ? " " : "") + item;
        }
        body.push_back(packed);
        body.push_back("};");
    }
    return name;
}

// Declares the key names of a list-map array (x-kubernetes-list-map-keys) and returns the array's
// name, or "".
std::string AddListMapKeys(std::vector<std::string>& body, const Schema& schema, const std::string& name) {
    if (schema.list_type != "map" || schema.list_map_keys.empty())
        return "";
    std::vector<std::string> keys;
    for (const std::string& key : schema.list_map_keys)
        keys.push_back(CppStringLiteral(key));
    for (std::string& line : BracedList("static constexpr std::string_view " + name + "[] = ", keys, ";", 4))
        body.push_back(std::move(line));
    return name;
}

}  // namespace

std::vector<std::string> ValidateBody(const ClassPlan& plan, const Access& access) {
    std::vector<std::string> body;
    for (const FieldPlan& field : plan.fields) {
        const std::string child = access.read + ".Child(" + JsonNameLiteral(field) + ")";
        const std::string rule = "k" + field.name + "Rule";
        const std::string values = AddEnum(body, *field.schema, "k" + field.name + "Values");
        const std::string keys = AddListMapKeys(body, *field.schema, "k" + field.name + "Keys");
        const std::string cel = AddCelRules(body, *field.schema, "k" + field.name + "Cel");
        AddRule(body, rule, RuleMembers(*field.schema, field.required, values, keys, cel));
        switch (field.shape) {
            case FieldShape::kScalar:
            case FieldShape::kJson:
                body.push_back("validation.Check(" + child + ", " + rule + ");");
                break;
            case FieldShape::kObject:
                body.push_back("if (validation.Check(" + child + ", " + rule + "))");
                body.push_back("    " + field.name + "().Validate(validation);");
                break;
            case FieldShape::kArrayOfScalar:
            case FieldShape::kArrayOfObject:
            case FieldShape::kArrayOfJson:
            case FieldShape::kMapOfScalar:
            case FieldShape::kMapOfObject:
            case FieldShape::kMapOfJson: {
                const bool is_array = field.shape == FieldShape::kArrayOfScalar ||
                                      field.shape == FieldShape::kArrayOfObject ||
                                      field.shape == FieldShape::kArrayOfJson;
                const bool is_object =
                    field.shape == FieldShape::kArrayOfObject || field.shape == FieldShape::kMapOfObject;
                const std::string item_rule = "k" + field.name + "ItemRule";
                std::vector<std::string> item_lines;
                const std::string item_values = AddEnum(item_lines, *field.element, "k" + field.name + "ItemValues");
                const std::string item_cel = AddCelRules(item_lines, *field.element, "k" + field.name + "ItemCel");
                AddRule(item_lines, item_rule, RuleMembers(*field.element, false, item_values, "", item_cel));
                body.insert(body.end(), item_lines.begin(), item_lines.end());
                body.push_back("if (validation.Check(" + child + ", " + rule + ")) {");
                body.push_back("    const ctrl::scheme::FieldRef entries = " + child + ";");
                const std::string entry = is_array ? "entries.Item(i)" : "entries.Child(key)";
                body.push_back(is_array ? "    for (std::size_t i = 0; i < entries.Size(); ++i) {"
                                        : "    for (const std::string& key : entries.Keys()) {");
                if (is_object) {
                    body.push_back("        if (validation.Check(" + entry + ", " + item_rule + "))");
                    body.push_back("            " + field.class_name + "(" + entry + ").Validate(validation);");
                } else {
                    body.push_back("        validation.Check(" + entry + ", " + item_rule + ");");
                }
                body.push_back("    }");
                body.push_back("}");
                break;
            }
        }
    }
    return body;
}

}  // namespace ctrl::gen
