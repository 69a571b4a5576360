#pragma once

#include <string>
#include <string_view>

namespace ctrl::podlister {

// Re-indents compact JSON (as Object::ToJson writes it) the way Go's json.MarshalIndent does and
// kubectl -o json prints: one member or element per line, `"key": value`, empty objects and
// arrays kept as {} and [], nested lines indented by `indent` spaces per level on top of
// `base_level` levels (the first line is not indented). The input must be valid JSON without
// whitespace between tokens; strings are copied byte for byte.
std::string IndentJson(std::string_view compact, int indent = 4, int base_level = 0);

}  // namespace ctrl::podlister
