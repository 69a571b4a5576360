#include <algorithm>
#include <string_view>

#include "tools/ctrl-gen/emit.hpp"
#include "tools/ctrl-gen/naming.hpp"

namespace ctrl::gen {

namespace {

constexpr std::size_t kCommentWidth = 112;

const Access kNestedAccess{"ref_", "mut_", true};
const Access kRootAccess{"Ref()", "MutableRef()", false, ".template ", /*owns_object=*/true};

std::string Comment(const std::string& text, const std::string& indent) {
    std::string out;
    for (const std::string& line : CommentLines(text, kCommentWidth - indent.size()))
        out += line.empty() ? indent + "//\n" : indent + "// " + line + "\n";
    return out;
}

std::string Description(const Schema& schema) {
    return schema.description.empty() ? "" : " " + schema.description;
}

std::string ReadDeclarations(const std::vector<FieldPlan>& fields, const Access& access) {
    std::string out;
    for (const FieldPlan& field : fields) {
        for (const Method& method : ReadMethods(field, access))
            out += Declaration(method);
    }
    return out;
}

std::string WriteDeclarations(const std::vector<FieldPlan>& fields, const Access& access) {
    std::string out;
    for (const FieldPlan& field : fields) {
        for (const Method& method : WriteMethods(field, access)) {
            out += Declaration(method);
            if (!method.ref_qualifier.empty())
                out += DeletedRvalueDeclaration(method);
        }
    }
    return out;
}

// The kind's read accessors that return views, deleted on a temporary kind: the fields template
// declares them const&, and the kind adds the deleted const&& form beside them.
std::string DeletedReadDeclarations(const std::vector<FieldPlan>& fields, const std::string& kind) {
    std::string out;
    for (const FieldPlan& field : fields) {
        for (const Method& method : ReadMethods(field, kRootAccess)) {
            if (method.ref_qualifier.empty())
                continue;
            out += "    using " + kind + "Fields::" + method.name + ";\n";
            out += DeletedRvalueDeclaration(method);
        }
    }
    if (out.empty())
        return out;
    return "\n" +
           Comment("On a temporary " + kind +
                       " these would return views into an object about to be destroyed, so they do not compile: "
                       "name the object first.",
                   "    ") +
           out;
}

std::string IntegerLiteral(const std::string& value) {
    return value == "-9223372036854775808" ? "INT64_MIN" : value;
}

// The structs of named enum constants of fields (QuotaSpecMode::kStrict), each emitted before the
// class that reads the field.
std::string EnumStructs(const std::vector<FieldPlan>& fields, const std::string& json_path) {
    std::string out;
    for (const FieldPlan& field : fields) {
        if (field.enum_struct.empty())
            continue;
        const std::string path = json_path.empty() ? field.json_name : json_path + "." + field.json_name;
        const std::string of = field.shape == FieldShape::kArrayOfScalar ? "the items of "
                               : field.shape == FieldShape::kMapOfScalar ? "the entries of "
                                                                         : "";
        out += Comment("The values of " + of + path + " (its schema's enum).", "");
        out += "struct " + field.enum_struct + " {\n";
        for (const auto& [name, value] : field.enum_constants) {
            const std::string head = field.enum_integer ? "    static constexpr int64_t " + name + " ="
                                                        : "    static constexpr char " + name + "[] =";
            const std::string literal = field.enum_integer ? IntegerLiteral(value) : CppStringLiteral(value);
            out += head.size() + 1 + literal.size() + 1 <= 120 ? head + " " + literal + ";\n"
                                                               : head + "\n        " + literal + ";\n";
        }
        out += "};\n\n";
    }
    return out;
}

std::string NestedClassHeader(const ClassPlan& plan) {
    const std::string& c = plan.class_name;
    std::string out = EnumStructs(plan.fields, plan.json_path);
    out += Comment(plan.json_path + ":" + Description(*plan.schema), "");
    out += "class " + c + " {\n  public:\n";
    const std::string view_ctor = "    explicit " + c + "(ctrl::scheme::FieldRef ref) : ref_(std::move(ref)) {}\n\n";
    if (view_ctor.size() - 2 <= 120)
        out += view_ctor;
    else
        out += "    explicit " + c + "(ctrl::scheme::FieldRef ref)\n        : ref_(std::move(ref)) {}\n\n";
    out += "    // Whether the object is there (present and not null).\n";
    out += "    bool Present() const { return ref_.Exists(); }\n";
    out += "    // The handle this view reads through (a temporary view hands out a copy).\n";
    out += "    const ctrl::scheme::FieldRef& Ref() const& { return ref_; }\n";
    out += "    ctrl::scheme::FieldRef Ref() const&& { return ref_; }\n\n";
    out += ReadDeclarations(plan.fields, kNestedAccess);
    out += "    // Records in validation what breaks the schema in this object and below it.\n";
    out += "    void Validate(ctrl::scheme::Validation& validation) const;\n\n";
    out += "  private:\n    ctrl::scheme::FieldRef ref_;\n};\n\n";
    out += Comment("A writable " + c + ": its setters write into the object it points into.", "");
    const std::string head = "class " + c + "Ref final : public " + c + " {";
    out += (head.size() <= 120 ? head : "class " + c + "Ref final\n    : public " + c + " {") + "\n  public:\n";
    const std::string ctor =
        "    explicit " + c + "Ref(ctrl::scheme::MutableFieldRef ref) : " + c + "(ref), mut_(std::move(ref)) {}\n\n";
    if (ctor.size() - 2 <= 120)
        out += ctor;
    else
        out += "    explicit " + c + "Ref(ctrl::scheme::MutableFieldRef ref)\n        : " + c +
               "(ref), mut_(std::move(ref)) {}\n\n";
    out += WriteDeclarations(plan.fields, kNestedAccess);
    out += "\n  private:\n    ctrl::scheme::MutableFieldRef mut_;\n};\n\n";
    return out;
}

// "class Name final : public A, public B {" on one line when it fits, else one base per line.
std::string ClassHead(const std::string& name, const std::vector<std::string>& bases) {
    const std::string head = "class " + name + " final : ";
    std::string one = head;
    for (std::size_t i = 0; i < bases.size(); ++i)
        one += (i == 0 ? "" : ", ") + bases[i];
    if (one.size() + 2 <= 120)
        return one + " {\n";
    std::string out = head;
    for (std::size_t i = 0; i < bases.size(); ++i)
        out += (i == 0 ? "" : std::string(head.size(), ' ')) + bases[i] + (i + 1 == bases.size() ? " {\n" : ",\n");
    return out;
}

std::string KindDescription(const KindPlan& plan) {
    const Crd& crd = *plan.crd;
    return crd.group + "/" + plan.version->name + " " + crd.kind + " (" +
           (crd.namespaced ? "namespaced" : "cluster-scoped") + ")." + Description(*plan.root.schema);
}

std::string RootHeader(const KindPlan& plan) {
    const std::string& kind = plan.crd->kind;
    const std::string fields = kind + "Fields";
    std::string out = EnumStructs(plan.root.fields, "");
    out += "// The fields of a " + kind + ", shared by " + kind + " and " + kind + "View.\n";
    out += "template <typename Self>\nclass " + fields + " {\n  public:\n";
    out += ReadDeclarations(plan.root.fields, kRootAccess);
    out += "    // OK, or Invalid with one cause per value that breaks the schema (required, type, enum, length,\n";
    out += "    // bounds, item counts, pattern), naming its field path.\n";
    out += "    ctrl::Status Validate() const;\n";
    out += "    // Records the problems in validation (to add hand-written checks before ToStatus).\n";
    out += "    void Validate(ctrl::scheme::Validation& validation) const;\n\n";
    out += "  private:\n";
    out +=
        "    ctrl::scheme::FieldRef Ref() const { return ctrl::scheme::FieldRef(static_cast<const "
        "Self&>(*this).AsObject()); }\n";
    out += "};\n\nclass " + kind + "View;\n\n";
    out += Comment(KindDescription(plan), "");
    std::vector<std::string> bases{"public ctrl::scheme::TypedObjectBase<" + kind + ">",
                                   "public " + fields + "<" + kind + ">"};
    if (!plan.extension.empty())
        bases.push_back("public " + plan.extension + "<" + kind + ">");
    out += ClassHead(kind, bases);
    out += "  public:\n";
    for (const std::string& line : BracedList(
             "static constexpr ctrl::scheme::StaticGroupVersionKind kGroupVersionKind",
             {CppStringLiteral(plan.crd->group), CppStringLiteral(plan.version->name), CppStringLiteral(kind)}, ";", 4))
        out += "    " + line + "\n";
    out += "    static constexpr std::string_view kListKind = " + CppStringLiteral(plan.crd->list_kind) + ";\n";
    out += "    static constexpr std::string_view kPlural = " + CppStringLiteral(plan.crd->plural) + ";\n";
    out += "    static constexpr bool kNamespaced = " + std::string(plan.crd->namespaced ? "true" : "false") + ";\n";
    out += "    using View = " + kind + "View;\n";
    out += "    using TypedObjectBase::TypedObjectBase;\n";
    out += ConversionMembers(plan);
    out += DeletedReadDeclarations(plan.root.fields, kind);
    if (!plan.root.fields.empty())
        out += "\n" + WriteDeclarations(plan.root.fields, kRootAccess);
    out += "\n  private:\n";
    out += "    ctrl::scheme::MutableFieldRef MutableRef() { return ctrl::scheme::MutableFieldRef(*this); }\n";
    out += "};\n\n";
    out += "// A read-only " + kind + " view of an object owned elsewhere.\n";
    std::vector<std::string> view_bases{"public ctrl::scheme::ObjectView", "public " + fields + "<" + kind + "View>"};
    if (!plan.extension.empty())
        view_bases.push_back("public " + plan.extension + "<" + kind + "View>");
    out += ClassHead(kind + "View", view_bases);
    out += "  public:\n";
    out += "    explicit " + kind + "View(const ctrl::Object& object) : ObjectView(object) {}\n";
    out += "    // NOLINTNEXTLINE(google-explicit-constructor)\n";
    out += "    " + kind + "View(const " + kind + "& object) : ObjectView(object) {}\n";
    out += "    " + kind + "View(" + kind + "&&) = delete;\n";
    out += "    explicit " + kind + "View(ctrl::Object&&) = delete;\n};\n\n";
    out += "using " + kind + "List = ctrl::scheme::TypedList<" + kind + ">;\n\n";
    out += "extern template class " + fields + "<" + kind + ">;\n";
    out += "extern template class " + fields + "<" + kind + "View>;\n";
    return out;
}

}  // namespace

std::string EmitKindHeader(const KindPlan& plan, const EmitContext& context) {
    std::string out =
        Banner(context.source_name + " (" + plan.crd->group + "/" + plan.version->name + " " + plan.crd->kind + ")");
    out += "#pragma once\n\n";
    for (const char* header : {"cstddef", "cstdint", "map", "optional", "string", "string_view", "utility", "vector"})
        out += "#include <" + std::string(header) + ">\n";
    out += "\n";
    for (const char* header :
         {"ctrl/core/object.hpp", "ctrl/core/status.hpp", "ctrl/scheme/field_ref.hpp", "ctrl/scheme/kind_list.hpp",
          "ctrl/scheme/object_view.hpp", "ctrl/scheme/schema_validation.hpp", "ctrl/scheme/typed_list.hpp",
          "ctrl/scheme/typed_object.hpp"}) {
        if (std::string_view(header) != "ctrl/scheme/kind_list.hpp" || (plan.conversion && plan.conversion->hub))
            out += "#include \"" + std::string(header) + "\"\n";
    }
    if (!plan.extension_header.empty())
        out += "\n// The hand-written part of " + plan.crd->kind + ".\n#include \"" + plan.extension_header + "\"\n";
    out += "\n" + ConversionForwardDeclarations(plan);
    out += "namespace " + plan.cpp_namespace + " {\n\n";
    for (const ClassPlan& c : plan.classes)
        out += "class " + c.class_name + ";\nclass " + c.class_name + "Ref;\n";
    if (!plan.classes.empty())
        out += "\n";
    for (const ClassPlan& c : plan.classes)
        out += NestedClassHeader(c);
    out += RootHeader(plan);
    out += "\n}  // namespace " + plan.cpp_namespace + "\n";
    out += ConversionIncludes(plan, context);
    return out;
}

std::string EmitKindSource(const KindPlan& plan, const EmitContext& context) {
    const std::string& kind = plan.crd->kind;
    std::string out =
        Banner(context.source_name + " (" + plan.crd->group + "/" + plan.version->name + " " + kind + ")");
    out += "#include \"" + IncludePath(context.include_prefix, context.file_stem + ".hpp") + "\"\n\n";
    out += "namespace " + plan.cpp_namespace + " {\n\n";
    out += "namespace {\nusing ctrl::scheme::SchemaType;\n}  // namespace\n\n";
    const auto validate = [&](const ClassPlan& c, const Access& access, const std::string& qualifier,
                              const std::string& head) {
        Method method{{}, "void", "Validate", "ctrl::scheme::Validation& validation", true, ValidateBody(c, access)};
        if (c.fields.empty())
            method.params = "ctrl::scheme::Validation& /*validation*/";
        return Definition(method, qualifier, head);
    };
    for (const ClassPlan& c : plan.classes) {
        for (const FieldPlan& field : c.fields) {
            for (const Method& method : ReadMethods(field, kNestedAccess))
                out += Definition(method, c.class_name, "") + "\n";
        }
        out += validate(c, kNestedAccess, c.class_name, "") + "\n";
        for (const FieldPlan& field : c.fields) {
            for (const Method& method : WriteMethods(field, kNestedAccess))
                out += Definition(method, c.class_name + "Ref", "") + "\n";
        }
    }
    const std::string fields = kind + "Fields<Self>";
    const std::string head = "template <typename Self>";
    for (const FieldPlan& field : plan.root.fields) {
        for (const Method& method : ReadMethods(field, kRootAccess))
            out += Definition(method, fields, head) + "\n";
    }
    Method root_validate{{}, "void", "Validate", "ctrl::scheme::Validation& validation", true, {}};
    if (!plan.extension.empty()) {
        root_validate.body = {
            "if constexpr (requires(const Self& self, ctrl::scheme::Validation& rules) { self.ValidateRules(rules); })",
            "    static_cast<const Self&>(*this).ValidateRules(validation);"};
    }
    const std::vector<std::string> schema_checks = ValidateBody(plan.root, kRootAccess);
    root_validate.body.insert(root_validate.body.end(), schema_checks.begin(), schema_checks.end());
    if (root_validate.body.empty())
        root_validate.params = "ctrl::scheme::Validation& /*validation*/";
    out += Definition(root_validate, fields, head) + "\n";
    Method status{{},
                  "ctrl::Status",
                  "Validate",
                  "",
                  true,
                  {"ctrl::scheme::Validation validation;", "Validate(validation);",
                   "return validation.ToStatus(" + CppStringLiteral(kind) +
                       ", static_cast<const Self&>(*this).AsObject().Key());"}};
    out += Definition(status, fields, head) + "\n";
    out += "template class " + kind + "Fields<" + kind + ">;\n";
    out += "template class " + kind + "Fields<" + kind + "View>;\n";
    for (const FieldPlan& field : plan.root.fields) {
        for (const Method& method : WriteMethods(field, kRootAccess))
            out += "\n" + Definition(method, kind, "");
    }
    out += "\n}  // namespace " + plan.cpp_namespace + "\n";
    return out;
}

std::string EmitRegistrationHeader(const GroupVersionPlan& plan, const std::string& /*include_prefix*/) {
    std::string out = Banner("its CRDs (" + plan.group + "/" + plan.version + ")");
    out += "#pragma once\n\n#include \"ctrl/core/status.hpp\"\n#include \"ctrl/scheme/scheme.hpp\"\n\n";
    out += "namespace " + plan.registration_namespace + " {\n\n";
    std::string kinds;
    for (const std::string& kind : plan.kinds)
        kinds += (kinds.empty() ? "" : ", ") + kind;
    out += Comment("Registers the " + plan.group + "/" + plan.version + " kinds and their lists: " + kinds + ".", "");
    out += "ctrl::Status AddToScheme(ctrl::scheme::Scheme& scheme);\n\n";
    out += "}  // namespace " + plan.registration_namespace + "\n";
    return out;
}

std::string EmitRegistrationSource(const GroupVersionPlan& plan, const std::string& include_prefix) {
    std::string out = Banner("its CRDs (" + plan.group + "/" + plan.version + ")");
    out += "#include \"" + IncludePath(include_prefix, plan.file_stem + ".hpp") + "\"\n\n";
    std::vector<std::string> includes{"ctrl/core/status_or.hpp"};
    for (const std::string& header : plan.kind_headers)
        includes.push_back(IncludePath(include_prefix, header));
    std::sort(includes.begin(), includes.end());
    for (const std::string& include : includes)
        out += "#include \"" + include + "\"\n";
    out += "\nnamespace " + plan.registration_namespace + " {\n\n";
    out += "ctrl::Status AddToScheme(ctrl::scheme::Scheme& scheme) {\n";
    for (const std::string& kind : plan.kinds)
        out += "    CTRL_RETURN_IF_ERROR(scheme.AddKnownType<" + kind + ">());\n";
    out += "    return ctrl::OkStatus();\n}\n\n";
    out += "}  // namespace " + plan.registration_namespace + "\n";
    return out;
}

}  // namespace ctrl::gen
