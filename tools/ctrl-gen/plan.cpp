#include "tools/ctrl-gen/plan.hpp"

#include <deque>
#include <regex>
#include <set>
#include <utility>

#include "ctrl/cel/internal/regex.hpp"
#include "ctrl/cel/program.hpp"

#include "tools/ctrl-gen/naming.hpp"

namespace ctrl::gen {

namespace {

// Schema properties that ctrl::Object already gives (type and object metadata).
bool IsTypeOrObjectMeta(const std::string& name) {
    return name == "apiVersion" || name == "kind" || name == "metadata";
}

bool IsScalar(const Schema& schema) {
    return schema.int_or_string || schema.type == "string" || schema.type == "integer" || schema.type == "number" ||
           schema.type == "boolean";
}

bool IsObjectWithProperties(const Schema& schema) {
    return schema.type == "object" && !schema.properties.empty();
}

std::string ScalarType(const Schema& schema) {
    if (schema.int_or_string)
        return "scheme::IntOrString";
    if (schema.type == "string")
        return "std::string";
    if (schema.type == "integer")
        return "int64_t";
    if (schema.type == "number")
        return "double";
    return "bool";
}

std::optional<std::string> DefaultLiteral(const Schema& schema) {
    if (!schema.default_value || !IsScalar(schema))
        return std::nullopt;
    const DefaultValue& value = *schema.default_value;
    using Kind = DefaultValue::Kind;
    if (schema.int_or_string) {
        if (value.kind == Kind::kInteger)
            return "ctrl::scheme::IntOrString(int64_t{" + value.text + "})";
        return "ctrl::scheme::IntOrString(std::string(" + CppStringLiteral(value.text) + "))";
    }
    if (schema.type == "string")
        return "std::string(" + CppStringLiteral(value.text) + ")";
    if (schema.type == "integer" && value.kind == Kind::kInteger)
        return "int64_t{" + value.text + "}";
    if (schema.type == "number" && (value.kind == Kind::kInteger || value.kind == Kind::kNumber)) {
        const bool has_point = value.text.find_first_of(".eE") != std::string::npos;
        return has_point ? value.text : value.text + ".0";
    }
    if (schema.type == "boolean" && value.kind == Kind::kBool)
        return value.text;
    return std::nullopt;  // a default of another type than the schema's: the API server rejects the CRD
}

std::vector<std::string> AccessorNames(const std::string& base) {
    return {base, "Has" + base, "Set" + base, "Clear" + base, "Mutable" + base, "Add" + base};
}

// Plans classes breadth first, naming each from its owner and field with one scope per namespace.
class Planner {
  public:
    Planner(const Crd& crd, NameScope& classes) : crd_(crd), classes_(classes) {}

    StatusOr<KindPlan> Run(const CrdVersion& version, std::string cpp_namespace) {
        KindPlan plan;
        plan.crd = &crd_;
        plan.version = &version;
        plan.cpp_namespace = std::move(cpp_namespace);
        const Schema& root = *version.schema;
        if (root.type != "object")
            return Error(root, "the root schema must be of type object");
        plan.root.schema = version.schema;
        for (const std::string& reserved : {crd_.kind, crd_.kind + "View", crd_.kind + "List", crd_.kind + "Fields"}) {
            if (!classes_.Free({reserved}))
                return Error(root, "the kind name " + reserved + " is already used by another generated class");
            classes_.Take({reserved});
        }
        PlanFields(plan.root, crd_.kind, "", ReservedRootNames(), /*root=*/true);
        while (!pending_.empty()) {
            ClassPlan next = std::move(pending_.front());
            pending_.pop_front();
            PlanFields(next, next.class_name, next.json_path, ReservedClassNames(), /*root=*/false);
            plan.classes.push_back(std::move(next));
        }
        plan.warnings = std::move(warnings_);
        plan.cel_rules_seen = cel_rules_seen_;
        // Named after the classes, so that adding an enum never renames a class.
        CTRL_RETURN_IF_ERROR(PlanEnums(plan.root, crd_.kind));
        for (ClassPlan& c : plan.classes)
            CTRL_RETURN_IF_ERROR(PlanEnums(c, c.class_name));
        return plan;
    }

  private:
    Status Error(const Schema& schema, const std::string& message) const {
        return BadRequestError(crd_.source + ": " + schema.location + ": " + message);
    }

    // A pattern the generated Validate() cannot check: said at generation time, not silently dropped.
    void CheckPattern(const Schema& schema, const std::string& field_path) {
        if (schema.pattern.empty())
            return;
        if (const std::optional<std::string> error = PatternError(schema.pattern)) {
            warnings_.push_back(crd_.source + ": " + crd_.name + ": field " + field_path + ": pattern " +
                                CppStringLiteral(schema.pattern) + " is not an ECMAScript regular expression (" +
                                *error + "), so Validate() does not check it (" + schema.location + ".pattern)");
        }
    }

    // CEL rules the generated Validate() cannot check: said at generation time, one line each.
    void CheckCelRules(const Schema& schema, const std::string& field_path) {
        if (schema.cel_rules.empty() || !cel_schemas_seen_.insert(&schema).second)
            return;
        cel_rules_seen_ += static_cast<int>(schema.cel_rules.size());
        for (std::size_t i = 0; i < schema.cel_rules.size(); ++i) {
            if (const std::optional<std::string> error = CelRuleError(schema.cel_rules[i])) {
                warnings_.push_back(crd_.source + ": " + crd_.name + ": field " + field_path + ": CEL rule " +
                                    CppStringLiteral(schema.cel_rules[i].rule) +
                                    " is not checked by Validate(): " + *error + " (" + schema.location +
                                    ".x-kubernetes-validations[" + std::to_string(i) + "])");
            }
        }
    }

    std::string ClassName(const std::string& base) {
        std::string name = base;
        for (int n = 2; !classes_.Free({name, name + "Ref"}); ++n)
            name = base + std::to_string(n);
        classes_.Take({name, name + "Ref"});
        return name;
    }

    // The constants of each string or integer enum of owner's fields, in a struct named from the owner
    // and the field as a nested class would be ("QuotaSpec" + "mode": QuotaSpecMode).
    Status PlanEnums(ClassPlan& owner, const std::string& name_base) {
        for (FieldPlan& field : owner.fields) {
            const Schema* values =
                field.shape == FieldShape::kScalar ? field.schema.get()
                : field.shape == FieldShape::kArrayOfScalar || field.shape == FieldShape::kMapOfScalar
                    ? field.element.get()
                    : nullptr;
            if (values == nullptr || values->enum_values.empty() || values->int_or_string ||
                (values->type != "string" && values->type != "integer")) {
                continue;
            }
            field.enum_integer = values->type == "integer";
            NameScope constants;
            for (const std::string& value : values->enum_values) {
                std::string text = value;
                if (field.enum_integer) {
                    const std::optional<int64_t> number = ParseDecimalInteger(value);
                    if (!number)
                        return Error(*values,
                                     "the enum value \"" + value + "\" of an integer schema is not a decimal integer");
                    text = std::to_string(*number);
                }
                field.enum_constants.emplace_back(constants.Unique(EnumConstantName(text)), text);
            }
            const std::string base = name_base + PascalName(field.json_name);
            field.enum_struct = base;
            for (int n = 2; !classes_.Free({field.enum_struct}); ++n)
                field.enum_struct = base + std::to_string(n);
            classes_.Take({field.enum_struct});
        }
        return OkStatus();
    }

    std::string Enqueue(const std::string& base, std::string json_path, std::shared_ptr<const Schema> schema) {
        ClassPlan next;
        next.class_name = ClassName(base);
        next.json_path = std::move(json_path);
        next.schema = std::move(schema);
        pending_.push_back(std::move(next));
        return pending_.back().class_name;
    }

    void PlanFields(ClassPlan& owner, const std::string& name_base, const std::string& path,
                    const std::vector<std::string>& reserved, bool root) {
        NameScope members(std::set<std::string>(reserved.begin(), reserved.end()));
        for (const auto& [json_name, schema] : owner.schema->properties) {
            if (root && IsTypeOrObjectMeta(json_name))
                continue;
            FieldPlan field;
            field.json_name = json_name;
            field.schema = schema;
            field.required = owner.schema->IsRequired(json_name);
            const std::string base = PascalName(json_name);
            field.name = base;
            for (int n = 1; !members.Free(AccessorNames(field.name)); ++n)
                field.name = base + "Field" + (n == 1 ? "" : std::to_string(n));
            members.Take(AccessorNames(field.name));
            const std::string field_path = path.empty() ? json_name : path + "." + json_name;
            const std::string class_base = name_base + base;
            CheckPattern(*schema, field_path);
            CheckCelRules(*schema, field_path);
            if (schema->items) {
                CheckPattern(*schema->items, field_path + "[]");
                CheckCelRules(*schema->items, field_path + "[]");
            }
            if (schema->additional_properties) {
                CheckPattern(*schema->additional_properties, field_path + "{}");
                CheckCelRules(*schema->additional_properties, field_path + "{}");
            }
            if (IsScalar(*schema)) {
                field.shape = FieldShape::kScalar;
                field.value_type = ScalarType(*schema);
                field.default_literal = DefaultLiteral(*schema);
            } else if (schema->type == "array") {
                field.element = schema->items;
                if (IsScalar(*schema->items)) {
                    field.shape = FieldShape::kArrayOfScalar;
                    field.value_type = ScalarType(*schema->items);
                } else if (IsObjectWithProperties(*schema->items)) {
                    field.shape = FieldShape::kArrayOfObject;
                    field.class_name = Enqueue(class_base, field_path + "[]", schema->items);
                } else {
                    field.shape = FieldShape::kArrayOfJson;
                }
            } else if (IsObjectWithProperties(*schema)) {
                field.shape = FieldShape::kObject;
                field.class_name = Enqueue(class_base, field_path, schema);
            } else if (schema->type == "object" && schema->additional_properties) {
                field.element = schema->additional_properties;
                if (IsScalar(*field.element)) {
                    field.shape = FieldShape::kMapOfScalar;
                    field.value_type = ScalarType(*field.element);
                } else if (IsObjectWithProperties(*field.element)) {
                    field.shape = FieldShape::kMapOfObject;
                    field.class_name = Enqueue(class_base, field_path + "{}", field.element);
                } else {
                    field.shape = FieldShape::kMapOfJson;
                }
            } else {
                field.shape = FieldShape::kJson;
            }
            owner.fields.push_back(std::move(field));
        }
    }

    const Crd& crd_;
    NameScope& classes_;
    std::deque<ClassPlan> pending_;
    std::vector<std::string> warnings_;
    std::set<const Schema*> cel_schemas_seen_;
    int cel_rules_seen_ = 0;
};

}  // namespace

std::optional<std::string> PatternError(const std::string& pattern) {
    const StatusOr<std::shared_ptr<const std::regex>> compiled = cel::internal::CompileRegex(pattern);
    if (!compiled.Ok())
        return compiled.GetStatus().Message();
    return std::nullopt;
}

std::optional<std::string> CelRuleError(const CelRuleSpec& rule) {
    const StatusOr<cel::Program> program = cel::Program::Compile(rule.rule);
    if (!program.Ok())
        return program.GetStatus().Message();
    if (program->Uses("oldSelf"))
        return "a transition rule (it reads oldSelf; Validate() has no old object)";
    return std::nullopt;
}

std::vector<std::string> ReservedRootNames() {
    return {"AddFinalizer",
            "Annotation",
            "Annotations",
            "ApiVersion",
            "AsObject",
            "CopyFrom",
            "CreationTimestamp",
            "DeepCopy",
            "DeletionTimestamp",
            "Document",
            "Finalizers",
            "FromObject",
            "GenerateName",
            "Generation",
            "GetGroupVersionKind",
            "HasManagedFields",
            "HasNestedField",
            "IsJsonObject",
            "Key",
            "Kind",
            "Label",
            "Labels",
            "Name",
            "Namespace",
            "NestedBool",
            "NestedFloat",
            "NestedInt",
            "NestedMap",
            "NestedSlice",
            "NestedString",
            "NestedStringMap",
            "NestedStringSlice",
            "Obj",
            "OwnerReferences",
            "Parse",
            "Ref",
            "MutableRef",
            "RemoveFinalizer",
            "RemoveManagedFields",
            "RemoveNestedField",
            "ResourceVersion",
            "SetAnnotation",
            "SetAnnotations",
            "SetApiVersion",
            "SetFinalizers",
            "SetGenerateName",
            "SetGeneration",
            "SetGroupVersionKind",
            "SetKind",
            "SetLabel",
            "SetLabels",
            "SetName",
            "SetNamespace",
            "SetNestedBool",
            "SetNestedField",
            "SetNestedFloat",
            "SetNestedInt",
            "SetNestedString",
            "SetNestedStringMap",
            "SetNestedStringSlice",
            "SetOwnerReferences",
            "SetResourceVersion",
            "SetUid",
            "ToJson",
            "TypedObjectBase",
            "Uid",
            "Validate",
            "View",
            "AdoptTag",
            "ObjectView"};
}

std::vector<std::string> ReservedClassNames() {
    return {"Present", "Validate", "Ref"};
}

StatusOr<KindPlan> PlanKind(const Crd& crd, const CrdVersion& version, std::string cpp_namespace, NameScope& classes) {
    return Planner(crd, classes).Run(version, std::move(cpp_namespace));
}

}  // namespace ctrl::gen
