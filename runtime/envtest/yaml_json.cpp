#include "ctrl/envtest/yaml_json.hpp"

#include <yaml-cpp/yaml.h>

#include <regex>
#include <vector>

#include "ctrl/core/internal/read_file.hpp"
#include "ctrl/core/json_string.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::envtest {

namespace {

// A plain scalar as JSON: null, a bool or a number when YAML's core schema reads it so.
void AppendPlainScalar(std::string& out, const std::string& text) {
    static const std::regex kNull("~|null|Null|NULL|");
    static const std::regex kTrue("true|True|TRUE");
    static const std::regex kFalse("false|False|FALSE");
    static const std::regex kInteger("[-+]?[0-9]+");
    static const std::regex kFloat(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
    if (std::regex_match(text, kNull)) {
        out += "null";
    } else if (std::regex_match(text, kTrue)) {
        out += "true";
    } else if (std::regex_match(text, kFalse)) {
        out += "false";
    } else if (std::regex_match(text, kInteger)) {
        out += text[0] == '+' ? text.substr(1) : text;
    } else if (std::regex_match(text, kFloat)) {
        std::string number = text[0] == '+' ? text.substr(1) : text;
        if (number[0] == '.' || (number[0] == '-' && number[1] == '.'))
            number.insert(number[0] == '-' ? 1 : 0, "0");
        if (number.back() == '.')
            number += '0';
        out += number;
    } else {
        AppendJsonString(out, text);
    }
}

Status AppendNode(std::string& out, const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Null:
        case YAML::NodeType::Undefined:
            out += "null";
            return OkStatus();
        case YAML::NodeType::Scalar:
            if (node.Tag() == "?")
                AppendPlainScalar(out, node.Scalar());
            else
                AppendJsonString(out, node.Scalar());
            return OkStatus();
        case YAML::NodeType::Sequence: {
            out += '[';
            bool first = true;
            for (const YAML::Node& item : node) {
                if (!first)
                    out += ',';
                first = false;
                CTRL_RETURN_IF_ERROR(AppendNode(out, item));
            }
            out += ']';
            return OkStatus();
        }
        case YAML::NodeType::Map: {
            out += '{';
            bool first = true;
            for (const auto& entry : node) {
                if (!entry.first.IsScalar())
                    return BadRequestError("a mapping key is not a scalar");
                if (!first)
                    out += ',';
                first = false;
                AppendJsonString(out, entry.first.Scalar());
                out += ':';
                CTRL_RETURN_IF_ERROR(AppendNode(out, entry.second));
            }
            out += '}';
            return OkStatus();
        }
    }
    return InternalError("unknown YAML node type");
}

}  // namespace

StatusOr<std::vector<std::string>> YamlDocumentsToJson(std::string_view yaml) {
    std::vector<YAML::Node> documents;
    try {
        documents = YAML::LoadAll(std::string(yaml));
    } catch (const YAML::Exception& e) {
        return BadRequestError(std::string("malformed YAML: ") + e.what());
    }
    std::vector<std::string> out;
    for (const YAML::Node& document : documents) {
        if (document.IsNull())
            continue;
        std::string json;
        CTRL_RETURN_IF_ERROR(AppendNode(json, document));
        // Through the object model, so the result is checked and compact.
        CTRL_ASSIGN_OR_RETURN(Object object, Object::Parse(json));
        out.push_back(object.ToJson());
    }
    return out;
}

StatusOr<std::string> YamlToJson(std::string_view yaml) {
    CTRL_ASSIGN_OR_RETURN(std::vector<std::string> documents, YamlDocumentsToJson(yaml));
    if (documents.size() != 1)
        return BadRequestError("want one YAML document, found " + std::to_string(documents.size()));
    return std::move(documents.front());
}

StatusOr<std::vector<std::string>> YamlFileDocumentsToJson(const std::string& path) {
    CTRL_ASSIGN_OR_RETURN(const std::string content, ctrl::internal::ReadFile(path));
    StatusOr<std::vector<std::string>> documents = YamlDocumentsToJson(content);
    if (!documents.Ok())
        return documents.GetStatus().Annotate(path);
    return documents;
}

}  // namespace ctrl::envtest
