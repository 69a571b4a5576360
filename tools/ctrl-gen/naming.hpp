#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ctrl::gen {

// A C++ identifier in PascalCase from a JSON name: "podSelector" -> "PodSelector", "x-kubernetes.io"
// -> "XKubernetesIo", "$ref" -> "Ref", "3d" -> "Field3d", "" -> "Field". Never a C++ keyword
// (keywords are lower case).
std::string PascalName(std::string_view json_name);

// The name of the constant of an enum value: "k" and the value's words in PascalCase, keeping its
// letters: "Running" -> "kRunning", "digital signature" -> "kDigitalSignature", "RSA" -> "kRSA",
// "TLS1.2" -> "kTLS1_2" (a separator between digits becomes '_'), "-1" -> "kMinus1", "" -> "kEmpty".
std::string EnumConstantName(std::string_view value);

// A decimal integer as YAML writes one in an enum ("42", "-1", "+7"), or nullopt.
std::optional<int64_t> ParseDecimalInteger(std::string_view text);

// A number as YAML writes one in an enum ("0.5", "1", "2.5e1"), in the shortest form that reads
// back to the same double (std::to_chars: "0.5", "1", "25"), as scheme::Validation compares it; or
// nullopt when text is not a number.
std::optional<std::string> CanonicalNumber(std::string_view text);

// snake_case for file names: "SecurityGroupPolicy" -> "security_group_policy", "CNINode" -> "cni_node".
std::string SnakeName(std::string_view name);

// A C++ identifier usable in a namespace name: "vpcresources.k8s.aws" -> "vpcresources" (the first
// DNS label), "v1beta1" -> "v1beta1"; other characters become '_'.
std::string GroupLabel(std::string_view group);
std::string Identifier(std::string_view text);

// A C++ string literal (quotes included) holding text exactly.
std::string CppStringLiteral(std::string_view text);

// The lines of a comment holding text: whitespace runs collapsed (paragraph breaks kept), wrapped to
// width columns; never ending in a backslash (a line continuation in C++).
std::vector<std::string> CommentLines(std::string_view text, std::size_t width);

// Hands out names unique within one scope: the first asker gets the name, later ones get name2,
// name3... in the order they ask, so the result depends only on the order of the input.
class NameScope {
  public:
    explicit NameScope(std::set<std::string> reserved = {}) : taken_(std::move(reserved)) {}
    // Whether every one of names is still free.
    bool Free(const std::vector<std::string>& names) const;
    void Take(const std::vector<std::string>& names);
    // name itself when free, else the first free name + N (N = 2, 3, ...); taken afterwards.
    std::string Unique(const std::string& name);

  private:
    std::set<std::string> taken_;
};

}  // namespace ctrl::gen
