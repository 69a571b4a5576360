#include "tools/ctrl-gen/methods.hpp"

#include "tools/ctrl-gen/naming.hpp"

namespace ctrl::gen {

namespace {

constexpr std::size_t kCommentWidth = 108;

std::string ZeroValue(const std::string& type) {
    if (type == "std::string")
        return "std::string()";
    if (type == "int64_t")
        return "int64_t{0}";
    if (type == "double")
        return "0.0";
    if (type == "bool")
        return "false";
    return "ctrl::scheme::IntOrString()";
}

std::string ParamType(const std::string& type) {
    if (type == "int64_t" || type == "double" || type == "bool")
        return type;
    return "const " + type + "&";
}

// Scalar types are written relative to ctrl::scheme in the plan; generated code spells them fully.
std::string Qualified(const std::string& type) {
    return type.rfind("scheme::", 0) == 0 ? "ctrl::" + type : type;
}

// The C++ type of a scalar field or of the elements of an array or map field: any JSON value is a
// ctrl::Object.
std::string ElementType(const FieldPlan& field) {
    const bool json = field.shape == FieldShape::kJson || field.shape == FieldShape::kArrayOfJson ||
                      field.shape == FieldShape::kMapOfJson;
    return json ? "ctrl::Object" : Qualified(field.value_type);
}

// Bin-packs items after first_line's text; continuation lines start with `pad`. Empty when an item
// does not fit.
std::vector<std::string> Pack(std::string first_line, const std::vector<std::string>& items, const std::string& tail,
                              std::size_t indent, const std::string& pad) {
    std::vector<std::string> lines;
    std::string line = std::move(first_line);
    bool line_has_item = false;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string item = items[i] + (i + 1 == items.size() ? "}" + tail : ",");
        const std::string joined = line + (line_has_item ? " " : "") + item;
        if (indent + joined.size() <= 120) {
            line = joined;
            line_has_item = true;
            continue;
        }
        if (!line_has_item && lines.empty() && line.back() != '{')
            return {};
        lines.push_back(line);
        line = pad + item;
        line_has_item = true;
        if (indent + line.size() > 120)
            return {};
    }
    lines.push_back(line);
    return lines;
}

// An enum value as Validation compares it: an integer's in decimal, a number's in its shortest form.
}  // namespace

std::vector<std::string> BracedList(const std::string& head, const std::vector<std::string>& items,
                                    const std::string& tail, std::size_t indent) {
    std::string one = head + "{";
    for (std::size_t i = 0; i < items.size(); ++i)
        one += (i == 0 ? "" : ", ") + items[i];
    one += "}" + tail;
    if (indent + one.size() <= 120)
        return {one};
    std::string rest_line = "    ";
    for (std::size_t i = 0; i < items.size(); ++i)
        rest_line += (i == 0 ? "" : ", ") + items[i];
    rest_line += "}" + tail;
    const bool designated = !items.empty() && items.front().starts_with(".");
    if (designated && items.size() > 2 && indent + rest_line.size() <= 120)
        return {head + "{", rest_line};
    if (std::vector<std::string> aligned = Pack(head + "{", items, tail, indent, std::string(head.size() + 1, ' '));
        !aligned.empty() && aligned.front().size() > head.size() + 1) {
        return aligned;
    }
    std::vector<std::string> broken{head + "{"};
    std::vector<std::string> rest = Pack("    ", items, tail, indent, "    ");
    if (rest.empty()) {  // an item longer than a line: one per line
        for (std::size_t i = 0; i < items.size(); ++i)
            rest.push_back("    " + items[i] + (i + 1 == items.size() ? "}" + tail : ","));
    }
    broken.insert(broken.end(), rest.begin(), rest.end());
    return broken;
}

std::string JsonNameLiteral(const FieldPlan& field) {
    return CppStringLiteral(field.json_name);
}

std::vector<std::string> DescribeField(const FieldPlan& field) {
    std::string notes;
    if (!field.schema->description.empty())
        notes += " " + field.schema->description;
    if (field.required)
        notes += " Required.";
    if (field.schema->default_value && field.default_literal)
        notes += " Default when absent: " + field.schema->default_value->text + ".";
    if (notes.empty())
        return {};
    return CommentLines(field.json_name + ":" + notes, kCommentWidth);
}

std::vector<Method> ReadMethods(const FieldPlan& field, const Access& access) {
    const std::string child = access.read + ".Child(" + JsonNameLiteral(field) + ")";
    const std::string value = Qualified(field.value_type);
    const std::string element = ElementType(field);
    Method get{DescribeField(field), "", field.name, "", true, {}};
    switch (field.shape) {
        case FieldShape::kScalar:
            if (!field.required && !field.default_literal) {
                get.return_type = "std::optional<" + value + ">";
                get.body = {"return " + child + access.member + "Get<" + value + ">();"};
            } else {
                get.return_type = value;
                const std::string read = "return " + child + access.member + "Get<" + value + ">()";
                const std::string fallback = ".value_or(" + field.default_literal.value_or(ZeroValue(value)) + ");";
                if (4 + read.size() + fallback.size() <= 120) {
                    get.body = {read + fallback};
                } else {  // as clang-format breaks the chain
                    get.body = {"return " + child, "    " + access.member + "Get<" + value + ">()", "    " + fallback};
                }
            }
            break;
        case FieldShape::kObject:
            get.return_type = field.class_name;
            get.body = {"return " + field.class_name + "(" + child + ");"};
            get.ref_qualifier = access.owns_object ? "&" : "";
            break;
        case FieldShape::kJson:
            get.return_type = "std::optional<ctrl::Object>";
            get.body = {"return " + child + access.member + "Get<ctrl::Object>();"};
            break;
        case FieldShape::kArrayOfScalar:
        case FieldShape::kArrayOfJson:
            get.return_type = "std::vector<" + element + ">";
            get.body = {"return " + child + access.member + "GetArray<" + element + ">();"};
            break;
        case FieldShape::kArrayOfObject:
            get.return_type = "std::vector<" + field.class_name + ">";
            get.body = {"const ctrl::scheme::FieldRef array = " + child + ";",
                        "std::vector<" + field.class_name + "> out;", "for (std::size_t i = 0; i < array.Size(); ++i)",
                        "    out.emplace_back(array.Item(i));", "return out;"};
            get.ref_qualifier = access.owns_object ? "&" : "";
            break;
        case FieldShape::kMapOfScalar:
        case FieldShape::kMapOfJson:
            get.return_type = "std::map<std::string, " + element + ">";
            get.body = {"return " + child + access.member + "GetMap<" + element + ">();"};
            break;
        case FieldShape::kMapOfObject:
            get.return_type = "std::map<std::string, " + field.class_name + ">";
            get.body = {"const ctrl::scheme::FieldRef map = " + child + ";",
                        "std::map<std::string, " + field.class_name + "> out;",
                        "for (const std::string& key : map.Keys())",
                        "    out.emplace(key, " + field.class_name + "(map.Child(key)));", "return out;"};
            get.ref_qualifier = access.owns_object ? "&" : "";
            break;
    }
    Method has{{}, "bool", "Has" + field.name, "", true, {"return " + child + ".Exists();"}};
    return {get, has};
}

std::vector<Method> WriteMethods(const FieldPlan& field, const Access& access) {
    const std::string child = access.write + ".Child(" + JsonNameLiteral(field) + ")";
    const std::string value = Qualified(field.value_type);
    const std::string ref_class = field.class_name + "Ref";
    const bool c = access.write_const;
    std::vector<Method> out;
    const auto setter = [&](const std::string& param, const std::string& call) {
        out.push_back(Method{{}, "void", "Set" + field.name, param, c, {child + "." + call + ";"}});
    };
    const std::string element = ElementType(field);
    switch (field.shape) {
        case FieldShape::kScalar:
        case FieldShape::kJson:
            setter(ParamType(element) + " value", "Set(value)");
            break;
        case FieldShape::kArrayOfScalar:
        case FieldShape::kArrayOfJson:
            setter("const std::vector<" + element + ">& values", "SetArray(values)");
            break;
        case FieldShape::kMapOfScalar:
        case FieldShape::kMapOfJson:
            setter("const std::map<std::string, " + element + ">& values", "SetMap(values)");
            break;
        case FieldShape::kObject:
            out.push_back(Method{{"The object, created ({}) when absent, to write into."},
                                 ref_class,
                                 "Mutable" + field.name,
                                 "",
                                 c,
                                 {"const ctrl::scheme::MutableFieldRef field = " + child + ";", "field.EnsureObject();",
                                  "return " + ref_class + "(field);"}});
            break;
        case FieldShape::kArrayOfObject:
            out.push_back(Method{{"Appends an empty entry and returns it."},
                                 ref_class,
                                 "Add" + field.name,
                                 "",
                                 c,
                                 {"return " + ref_class + "(" + child + ".AppendObject());"}});
            out.push_back(Method{{"The entry at index (writes through it do nothing when there is none)."},
                                 ref_class,
                                 "Mutable" + field.name,
                                 "std::size_t index",
                                 c,
                                 {"return " + ref_class + "(" + child + ".Item(index));"}});
            break;
        case FieldShape::kMapOfObject:
            out.push_back(Method{{"The entry at key, created ({}) when absent."},
                                 ref_class,
                                 "Mutable" + field.name,
                                 "std::string_view key",
                                 c,
                                 {"const ctrl::scheme::MutableFieldRef field = " + child + ".Child(key);",
                                  "field.EnsureObject();", "return " + ref_class + "(field);"}});
            break;
    }
    for (Method& method : out)
        method.ref_qualifier = access.owns_object && method.return_type == ref_class ? "&" : "";
    out.push_back(Method{{}, "void", "Clear" + field.name, "", c, {child + ".Remove();"}});
    return out;
}

}  // namespace ctrl::gen
