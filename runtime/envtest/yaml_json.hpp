#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest {

// Manifests as the API server takes them: YAML documents as compact JSON, read with yaml-cpp.
// Plain scalars read as YAML 1.2's core schema says (null, true/false, integers, floats); quoted
// and block scalars are strings; mapping keys are strings. BadRequest for malformed YAML.

// Every document of a YAML stream (documents separated by `---`), empty ones skipped, in order.
StatusOr<std::vector<std::string>> YamlDocumentsToJson(std::string_view yaml);
// Exactly one YAML document; BadRequest for none or more than one.
StatusOr<std::string> YamlToJson(std::string_view yaml);
// YamlDocumentsToJson of a file's content; NotFound when it cannot be read; errors name the file.
StatusOr<std::vector<std::string>> YamlFileDocumentsToJson(const std::string& path);

}  // namespace ctrl::envtest
