#pragma once

#include <string>
#include <string_view>

namespace ctrl {

// Appends s to out as a JSON string literal: quoted, with `"`, `\` and control characters escaped.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace ctrl
